#include <boost/test/unit_test.hpp>
#include <string>
#include <variant>

#include "drivers/sms/encoding/gsm7.h"
#include "drivers/sms/modem/pdu.h"

using namespace atoms::drivers;
using namespace atoms::drivers::modem;

namespace {

UserData gsm7(const std::string& text) {
  UserData ud;
  ud.coding = DataCoding::kGsm7;
  ud.units = *encodeGsm7(text);
  return ud;
}

DeliverPdu deliverOf(const std::string& hex) {
  auto pdu = decodeIncoming(hex);
  BOOST_TEST_REQUIRE(pdu.ok(), pdu.message());
  BOOST_TEST_REQUIRE(std::holds_alternative<DeliverPdu>(*pdu));
  return std::get<DeliverPdu>(*pdu);
}

std::string textOf(const UserData& ud) {
  auto text = userDataText(ud);
  BOOST_TEST_REQUIRE(text.ok(), text.message());
  return *text;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(pdu)

// The SMS-SUBMIT of "hellohello" to +46708251358 with a 4-day validity, from Lars Pettersson's
// "SMS and the PDU format" (dreamfabric.com), the example most PDU libraries test against.
constexpr const char* kHelloSubmit = "0011000B916407281553F80000AA0AE8329BFD4697D9EC37";

BOOST_AUTO_TEST_CASE(encodesThePublishedSubmitExample) {
  SubmitPdu p;
  p.destination = "+46708251358";
  p.validity = std::chrono::hours(24 * 4);
  p.userData = gsm7("hellohello");
  const auto encoded = encodeSubmit(p);
  BOOST_TEST_REQUIRE(encoded.ok(), encoded.message());
  BOOST_TEST(encoded->hex == kHelloSubmit);
  BOOST_TEST(encoded->tpduLength == 23);  // what AT+CMGS=<n> gets
}

BOOST_AUTO_TEST_CASE(decodesThePublishedSubmitExample) {
  const auto p = decodeSubmit(kHelloSubmit, 23);
  BOOST_TEST_REQUIRE(p.ok(), p.message());
  BOOST_TEST(p->smsc == "");
  BOOST_TEST(p->destination == "+46708251358");
  BOOST_TEST(p->validity->count() == 4 * 24 * 60);
  BOOST_TEST(!p->statusReportRequest);
  BOOST_TEST(textOf(p->userData) == "hellohello");
}

// The SMS-DELIVER counterpart from the same page: SMSC +27381000015, sender 27838890001 (type
// 0xC8), sent 1999-03-29 15:16:59 at UTC+2.
BOOST_AUTO_TEST_CASE(decodesThePublishedDeliverExample) {
  const DeliverPdu d =
      deliverOf("07917283010010F5040BC87238880900F10000993092516195800AE8329BFD4697D9EC37");
  BOOST_TEST(d.smsc == "+27381000015");
  BOOST_TEST(d.originator.text == "27838890001");
  BOOST_TEST(d.originator.type == 0xC8);
  BOOST_TEST(!d.moreMessagesToSend);
  BOOST_TEST(d.timestamp.valid);
  BOOST_TEST(d.timestamp.year == 1999);
  BOOST_TEST(d.timestamp.month == 3);
  BOOST_TEST(d.timestamp.day == 29);
  BOOST_TEST(d.timestamp.hour == 15);
  BOOST_TEST(d.timestamp.minute == 16);
  BOOST_TEST(d.timestamp.second == 59);
  BOOST_TEST(d.timestamp.offsetQuarters == 8);
  BOOST_TEST(textOf(d.userData) == "hellohello");
}

// UCS-2 SMS-DELIVER from the sample PDUs of pygsm's gsmpdu.py: ".@€£hello éìkð" from
// +221772610419, 2009-06-21 20:54:41 UTC.
BOOST_AUTO_TEST_CASE(decodesAUcs2Deliver) {
  const DeliverPdu d = deliverOf(
      "0791227167830001040C912271271640910008906012024514001C002E004020AC00A300680065006C006C006F00"
      "2000E900EC006B00F0");
  BOOST_TEST(d.originator.text == "+221772610419");
  BOOST_CHECK(d.userData.coding == DataCoding::kUcs2);
  BOOST_TEST(textOf(d.userData) == ".@€£hello éìkð");
  const auto utc = d.timestamp.utc();
  BOOST_TEST_REQUIRE(utc.has_value());
  BOOST_TEST(std::chrono::duration_cast<std::chrono::seconds>(utc->time_since_epoch()).count() ==
             1245617681);  // 2009-06-21T20:54:41Z
}

// Alphanumeric sender (type 0xD0, 20 semi-octets = 11 septets), pygsm sample.
BOOST_AUTO_TEST_CASE(decodesAnAlphanumericSender) {
  const std::string hex =
      "07914477790706520414D06176198F0EE361F2321900005001610013334014C324350B9287D12079180D92A34161"
      "34480E";
  const DeliverPdu d = deliverOf(hex);
  BOOST_TEST(d.originator.type == 0xD0);
  BOOST_TEST(d.originator.text == "alexhax0red");
  BOOST_TEST(textOf(d.userData) == "CITY rah rah rh ah r");
  BOOST_TEST(encodeDeliver(d)->hex == hex);  // and back, byte for byte
}

// Two parts of one concatenated GSM-7 message (8-bit reference 0x7A), pygsm samples: the UDH
// takes 6 octets, so the text starts after one fill bit, at septet 7.
BOOST_AUTO_TEST_CASE(decodesConcatenatedGsm7PartsAndEncodesThemBack) {
  const std::string part1 =
      "0791448720003023440C91449703529096000050015132532240A00500037A020190E9339A9D3EA3E920FA1B1466"
      "B341E472193E079DD3EE73D85DA7EB41E7B41C1407C1CBF43228CC26E3416137390F3AABCFEAB3FAAC3EABCFEAB3"
      "FAAC3EABCFEAB3FAAC3EABCFEAB3FADC3EB7CFED73FBDC3EBF5D4416D9457411596457137D87B7E16438194E86BB"
      "CF6D16D9055D429548A28BE822BA882E6370196C2A8950E291E822BA88";
  const std::string part2 =
      "0791448720003023440C91449703529096000050015132537240310500037A02025C4417D1D52422894EE5B17824"
      "BA8EC423F1483C129BC725315464118FCDE011247C4A8B44";
  const DeliverPdu a = deliverOf(part1);
  const DeliverPdu b = deliverOf(part2);
  BOOST_TEST_REQUIRE(a.userData.concat.has_value());
  BOOST_TEST_REQUIRE(b.userData.concat.has_value());
  BOOST_TEST(a.userData.concat->reference == 0x7A);
  BOOST_TEST(a.userData.concat->total == 2);
  BOOST_TEST(a.userData.concat->sequence == 1);
  BOOST_TEST(b.userData.concat->sequence == 2);
  BOOST_TEST(a.userData.units.size() == 160u - 7u);
  BOOST_TEST(b.userData.units.size() == 0x31u - 7u);
  BOOST_TEST(textOf(a.userData).rfind("Highlight to all deeps", 0) == 0);
  const std::string tail = textOf(b.userData);
  BOOST_TEST(tail.substr(tail.size() - 5) == "BORED");
  BOOST_TEST(encodeDeliver(a)->hex == part1);
  BOOST_TEST(encodeDeliver(b)->hex == part2);
}

// SMS-STATUS-REPORT laid out field by field per TS 23.040 9.2.2.3.
BOOST_AUTO_TEST_CASE(decodesAStatusReport) {
  const std::string hex = std::string("00")          // SMSC: the default
                          + "06"                     // TP-MTI = 10 (status report), TP-MMS
                          + "2A"                     // TP-MR = 42
                          + "0B91" + "6407281553F8"  // TP-RA: +46708251358
                          + "42500261000040"         // TP-SCTS: 2024-05-20 16:00:00 UTC+1
                          + "42500261001040"         // TP-DT:   2024-05-20 16:00:01 UTC+1
                          + "41";                    // TP-ST: 0x41, permanent error
  const auto pdu = decodeIncoming(hex);
  BOOST_TEST_REQUIRE(pdu.ok(), pdu.message());
  const auto* r = std::get_if<StatusReportPdu>(&*pdu);
  BOOST_TEST_REQUIRE(r != nullptr);
  BOOST_TEST(r->messageReference == 42);
  BOOST_TEST(r->recipient.text == "+46708251358");
  BOOST_TEST(r->timestamp.hour == 16);
  BOOST_TEST(r->discharge.second == 1);
  BOOST_TEST(r->discharge.offsetQuarters == 4);
  BOOST_TEST(r->status == 0x41);
  BOOST_TEST(encodeStatusReport(*r)->hex == hex);
  BOOST_CHECK(deliveryStateOfStatus(r->status) == DeliveryState::kFailed);
}

BOOST_AUTO_TEST_CASE(mapsStatusClassesToDeliveryStates) {
  BOOST_CHECK(deliveryStateOfStatus(0x00) == DeliveryState::kDelivered);
  BOOST_CHECK(deliveryStateOfStatus(0x02) == DeliveryState::kDelivered);
  BOOST_CHECK(deliveryStateOfStatus(0x20) == DeliveryState::kSent);
  BOOST_CHECK(deliveryStateOfStatus(0x45) == DeliveryState::kFailed);
  BOOST_CHECK(deliveryStateOfStatus(0x62) == DeliveryState::kUndelivered);
  BOOST_CHECK(deliveryStateOfStatus(0xFF) == DeliveryState::kFailed);
}

BOOST_AUTO_TEST_CASE(putsTheFillBitBetweenAConcatenationHeaderAndTheSeptets) {
  SubmitPdu p;
  p.destination = "+15551234567";
  p.userData = gsm7("AB");
  p.userData.concat = ConcatInfo{0xCC, 2, 1, false};
  const auto encoded = encodeSubmit(p);
  BOOST_TEST_REQUIRE(encoded.ok(), encoded.message());
  // TP-UDL counts the header as 7 septets (48 bits + 1 fill bit) plus the 2 of the text: 9
  // septets in 8 octets. The user data is the header 05 00 03 CC 02 01, then 'A' (0x41) shifted
  // past the fill bit, then 'B' (0x42) on the next octet boundary.
  const std::string& hex = encoded->hex;
  BOOST_TEST(hex.substr(hex.size() - 18, 2) == "09");
  BOOST_TEST(hex.substr(hex.size() - 16) ==
             "050003CC0201"
             "82"
             "42");
  const auto back = decodeSubmit(encoded->hex, encoded->tpduLength);
  BOOST_TEST_REQUIRE(back.ok(), back.message());
  BOOST_CHECK(*back == p);
}

BOOST_AUTO_TEST_CASE(roundTripsUcs2WithSixteenBitReferenceAndOtherHeaders) {
  DeliverPdu d;
  d.smsc = "+4915200000000";
  d.originator = Address{"+4915112345678", 0x91};
  d.dataCodingScheme = 0x08;
  d.timestamp = SmscTime{2024, 12, 31, 23, 59, 58, -20};
  d.userData.coding = DataCoding::kUcs2;
  d.userData.units = {0xD8, 0x3D, 0xDE, 0x00, 0x00, 0x21};  // 😀!
  d.userData.concat = ConcatInfo{0xBEEF, 3, 2, true};
  d.userData.otherHeader = {0x24, 0x01, 0x02};  // national language locking shift
  const auto encoded = encodeDeliver(d);
  BOOST_TEST_REQUIRE(encoded.ok(), encoded.message());
  const DeliverPdu back = deliverOf(encoded->hex);
  BOOST_CHECK(back == d);
  BOOST_TEST(textOf(back.userData) == "😀!");
}

BOOST_AUTO_TEST_CASE(roundTripsSubmitsWithEveryOption) {
  SubmitPdu p;
  p.smsc = "+447785016005";
  p.destination = "0170123456";  // national: type 0x81
  p.statusReportRequest = true;
  p.rejectDuplicates = true;
  p.validity = std::chrono::minutes(5);
  p.userData = gsm7("€ [x] {y} ~ \\ ^ |");  // extension characters: ESC + code
  const auto encoded = encodeSubmit(p);
  BOOST_TEST_REQUIRE(encoded.ok(), encoded.message());
  const auto back = decodeSubmit(encoded->hex, encoded->tpduLength);
  BOOST_TEST_REQUIRE(back.ok(), back.message());
  BOOST_CHECK(*back == p);
  BOOST_TEST(textOf(back->userData) == "€ [x] {y} ~ \\ ^ |");
}

BOOST_AUTO_TEST_CASE(refusesWhatCannotBeEncoded) {
  SubmitPdu p;
  p.destination = "+1555-x";
  p.userData = gsm7("x");
  BOOST_TEST(encodeSubmit(p).message().find("destination") != std::string::npos);
  p.destination = "+15551234567";
  p.userData.units.assign(161, 0x41);
  BOOST_TEST(encodeSubmit(p).message().find("160") != std::string::npos);
  p.userData.units.assign(154, 0x41);  // fits alone, not with a concatenation header
  p.userData.concat = ConcatInfo{1, 2, 1, false};
  BOOST_TEST(!encodeSubmit(p).ok());
  p.userData.units.assign(153, 0x41);
  BOOST_TEST(encodeSubmit(p).ok());
  p.userData.concat = ConcatInfo{1, 2, 3, false};  // part 3 of 2
  BOOST_TEST(encodeSubmit(p).message().find("part") != std::string::npos);
  p.userData.concat.reset();
  p.userData.units = {0x80};
  BOOST_TEST(encodeSubmit(p).message().find("septet") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(refusesEveryTruncationOfAValidPdu) {
  const std::string hex =
      "0791227167830001040C912271271640910008906012024514001C002E004020AC00A300680065006C006C006F00"
      "2000E900EC006B00F0";
  for (std::size_t n = 0; n < hex.size(); n += 2) {
    BOOST_TEST(!decodeIncoming(hex.substr(0, n)).ok(), "prefix of " << n / 2 << " octets");
  }
}

BOOST_AUTO_TEST_CASE(refusesMalformedHexAndLengths) {
  BOOST_TEST(decodeIncoming("0").message().find("hex") != std::string::npos);
  BOOST_TEST(decodeIncoming("0G").message().find("hex") != std::string::npos);
  BOOST_TEST(!decodeSubmit(kHelloSubmit, 22).ok());  // +CMGS length says otherwise
  BOOST_TEST(decodeIncoming(kHelloSubmit).message().find("SMS-SUBMIT") != std::string::npos);
  // TP-UDL of 161 septets.
  BOOST_TEST(decodeIncoming("0004038121F3000042010100000000A1" + std::string(282, '0'))
                 .message()
                 .find("161") != std::string::npos);
  // A UDH longer than the user data.
  BOOST_TEST(!decodeIncoming("0044038121F300004201010000000002FF00").ok());
  BOOST_TEST(decodeIncoming(std::string(402, '0')).message().find("longer") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(keepsAMessageWithABrokenTimestamp) {
  // SCTS octets with non-decimal digits: the message is still read, the time marked invalid.
  const DeliverPdu d = deliverOf("0004038121F30000FFFFFFFFFFFFFF02C834");
  BOOST_TEST(!d.timestamp.valid);
  BOOST_TEST(!d.timestamp.utc().has_value());
  BOOST_TEST(textOf(d.userData) == "Hi");
  BOOST_TEST(encodeDeliver(d)->hex == "0004038121F30000FFFFFFFFFFFFFF02C834");
}

BOOST_AUTO_TEST_CASE(readsUnknownUdhElementsAsOpaque) {
  // UDHI set; header: IE 0x0A (text formatting, 4 octets) then IE 0x00 (concat 2 of 3, ref 9).
  DeliverPdu d;
  d.originator = Address{"12345", 0x81};
  d.dataCodingScheme = 0x04;
  d.userData.coding = DataCoding::kEightBit;
  d.userData.units = {0x41, 0xE9};
  d.userData.otherHeader = {0x0A, 0x04, 0x00, 0x02, 0x10, 0x00};
  d.userData.concat = ConcatInfo{9, 3, 2, false};
  const DeliverPdu back = deliverOf(encodeDeliver(d)->hex);
  BOOST_CHECK(back == d);
  BOOST_TEST(textOf(back.userData) == "Aé");  // 8-bit data read as ISO-8859-1
}

BOOST_AUTO_TEST_CASE(showsAnUnpairedSurrogateAsReplacementCharacter) {
  UserData ud;
  ud.coding = DataCoding::kUcs2;
  ud.units = {0x00, 0x41, 0xD8, 0x3D};  // "A" + the first half of an emoji
  BOOST_TEST(textOf(ud) == "A\xEF\xBF\xBD");
  ud.units.push_back(0x00);
  BOOST_TEST(!userDataText(ud).ok());  // odd octet count
}

BOOST_AUTO_TEST_CASE(readsTheAlphabetOfEachCodingGroup) {
  BOOST_CHECK(*alphabetOfDcs(0x00) == DataCoding::kGsm7);
  BOOST_CHECK(*alphabetOfDcs(0x08) == DataCoding::kUcs2);
  BOOST_CHECK(*alphabetOfDcs(0x18) == DataCoding::kUcs2);  // class 0 (flash) UCS-2
  BOOST_CHECK(*alphabetOfDcs(0x04) == DataCoding::kEightBit);
  BOOST_CHECK(*alphabetOfDcs(0xF0) == DataCoding::kGsm7);
  BOOST_CHECK(*alphabetOfDcs(0xF4) == DataCoding::kEightBit);
  BOOST_CHECK(*alphabetOfDcs(0xE0) == DataCoding::kUcs2);  // message waiting, UCS-2
  BOOST_TEST(alphabetOfDcs(0x24).message().find("compressed") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(roundsValidityUpToTheRelativeGrid) {
  using std::chrono::hours;
  using std::chrono::minutes;
  BOOST_TEST(relativeValidityCode(minutes(1)) == 0);  // 5 minutes
  BOOST_TEST(relativeValidityCode(minutes(6)) == 1);  // 10 minutes
  BOOST_TEST(relativeValidityCode(hours(12)) == 143);
  BOOST_TEST(relativeValidityCode(minutes(12 * 60 + 1)) == 144);
  BOOST_TEST(relativeValidityCode(hours(24)) == 167);
  BOOST_TEST(relativeValidityCode(hours(48)) == 168);
  BOOST_TEST(relativeValidityCode(hours(24 * 30)) == 196);
  BOOST_TEST(relativeValidityCode(hours(24 * 31)) == 197);  // 5 weeks
  BOOST_TEST(relativeValidityCode(hours(24 * 7 * 100)) == 255);
  for (int code = 0; code <= 255; ++code) {
    const auto c = static_cast<std::uint8_t>(code);
    BOOST_TEST(relativeValidityCode(relativeValidityPeriod(c)) == c);
  }
}

BOOST_AUTO_TEST_CASE(convertsSmscTimeToUtcAndBack) {
  const SmscTime t{2024, 3, 31, 1, 30, 0, -28};  // UTC-7
  const auto utc = t.utc();
  BOOST_TEST_REQUIRE(utc.has_value());
  const SmscTime back = SmscTime::fromUtc(*utc, -28);
  BOOST_CHECK(back == t);
  BOOST_TEST(SmscTime::fromUtc(*utc, 0).hour == 8);
  BOOST_TEST(SmscTime::fromUtc(*utc, 0).minute == 30);
}

BOOST_AUTO_TEST_SUITE_END()
