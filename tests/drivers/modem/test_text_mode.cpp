#include <boost/test/unit_test.hpp>
#include <string>

#include "drivers/sms/modem/text_mode.h"

using namespace atoms::drivers::modem;

BOOST_AUTO_TEST_SUITE(text_mode)

BOOST_AUTO_TEST_CASE(sendsPlainAsciiOfOneSegment) {
  BOOST_TEST(*textModeBody("Shift at 5pm? Reply 4821 to take it.\nThanks!") ==
             "Shift at 5pm? Reply 4821 to take it.\nThanks!");
  BOOST_TEST(textModeBody(std::string(160, 'a')).ok());
  BOOST_TEST(textModeBody(std::string(161, 'a')).message().find("160") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(refusesWhatTextModeCannotCarry) {
  for (const char* text : {"10 €", "[x]", "a`b", "tab\there", "😀", "Grüße"}) {
    const auto r = textModeBody(text);
    BOOST_TEST(!r.ok(), text);
    BOOST_TEST(r.message().find("PDU mode") != std::string::npos, text);
  }
  BOOST_TEST(!textModeBody("").ok());
  BOOST_TEST(textModeBody("\xff").message().find("UTF-8") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(parsesTextModeTimestamps) {
  const auto t = parseTextTimestamp("24/01/02,10:11:12+04");
  BOOST_TEST_REQUIRE(t.ok(), t.message());
  BOOST_TEST(t->year == 2024);
  BOOST_TEST(t->second == 12);
  BOOST_TEST(t->offsetQuarters == 4);
  BOOST_TEST(parseTextTimestamp("24/01/02,10:11:12-28")->offsetQuarters == -28);
  BOOST_TEST(!parseTextTimestamp("24/13/02,10:11:12+04").ok());
  BOOST_TEST(!parseTextTimestamp("24/01/02 10:11:12+04").ok());
  BOOST_TEST(!parseTextTimestamp("").ok());
}

BOOST_AUTO_TEST_CASE(parsesTheHeadersOfEachCommand) {
  const auto cmt = parseTextDeliverHeader("\"+4912345\",,\"24/01/02,10:11:12+04\"", 0);
  BOOST_TEST_REQUIRE(cmt.ok(), cmt.message());
  BOOST_TEST(cmt->originator == "+4912345");
  const auto cmgr =
      parseTextDeliverHeader("\"REC UNREAD\",\"+4912345\",\"Ann\",\"24/01/02,10:11:12+04\"", 1);
  BOOST_TEST(cmgr->originator == "+4912345");
  const auto cmgl =
      parseTextDeliverHeader("3,\"REC READ\",\"Vodafone\",,\"24/01/02,10:11:12+04\"", 2);
  BOOST_TEST(cmgl->originator == "Vodafone");
  BOOST_TEST(!parseTextDeliverHeader(",,\"24/01/02,10:11:12+04\"", 0).ok());
  BOOST_TEST(!parseTextDeliverHeader("\"+49\"", 0).ok());
}

BOOST_AUTO_TEST_CASE(parsesATextModeStatusReport) {
  const auto r = parseTextStatusReport(
      "6,17,\"+4912345\",145,\"24/01/02,10:11:12+04\",\"24/01/02,10:11:15+04\",0");
  BOOST_TEST_REQUIRE(r.ok(), r.message());
  BOOST_TEST(r->messageReference == 17);
  BOOST_TEST(r->recipient.text == "+4912345");
  BOOST_TEST(r->discharge.second == 15);
  BOOST_TEST(r->status == 0);
  BOOST_TEST(!parseTextStatusReport("6,300,\"+49\",145,\"a\",\"b\",0").ok());
}

BOOST_AUTO_TEST_CASE(keepsReceivedBytesWhateverTheirEncoding) {
  BOOST_TEST(textModeReceived("caf\xc3\xa9") == "café");
  BOOST_TEST(textModeReceived("caf\xe9") == "café");  // ISO-8859-1
}

BOOST_AUTO_TEST_SUITE_END()
