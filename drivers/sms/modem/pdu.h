// SMS PDUs as a modem exchanges them in PDU mode (AT+CMGF=0), per 3GPP TS 23.040 (TPDU layout,
// User Data Header, concatenation) and 27.005 (the SMSC address that precedes the TPDU in the hex
// a modem prints and accepts). Text conversion uses the codec in drivers/sms/encoding/.
//
// Covered: SMS-SUBMIT (encode and decode: the driver sends it, the simulated modem and the fuzz
// target read it back), SMS-DELIVER (decode and encode: the simulated modem injects it) and
// SMS-STATUS-REPORT (decode and encode). Not covered, refused with an error: compressed text,
// SMS-SUBMIT-REPORT / SMS-COMMAND, enhanced and absolute validity periods on decode of a
// SUBMIT (relative only), national language shift tables (text decodes with the default table).
//
// Every decode function accepts any string and returns an Error naming the field for malformed
// input, never reading past the end. All functions are pure and thread-safe.
#pragma once

#include <array>
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "base/result.h"
#include "drivers/sms/sms_gateway.h"

namespace atoms::drivers::modem {

// TP-DCS alphabet.
enum class DataCoding { kGsm7, kEightBit, kUcs2 };

// Concatenated-message information element (IE 0x00: 8-bit reference, IE 0x08: 16-bit).
struct ConcatInfo {
  std::uint16_t reference = 0;
  std::uint8_t total = 1;     // 1..255
  std::uint8_t sequence = 1;  // 1..total
  bool sixteenBitReference = false;
  bool operator==(const ConcatInfo&) const = default;
};

// TP-UD: septets (GSM-7, unpacked, 0..0x7F) or octets (8-bit data; UCS-2 as big-endian UTF-16),
// plus the concatenation IE when the message is one part of several. Other UDH elements received
// are kept raw (without the concatenation IE) so a round trip is exact.
struct UserData {
  DataCoding coding = DataCoding::kGsm7;
  std::vector<std::uint8_t> units;
  std::optional<ConcatInfo> concat;
  std::vector<std::uint8_t> otherHeader;  // further IEs, each <iei><len><data>
  bool operator==(const UserData&) const = default;
};

// Limits of TP-UD (23.040 9.2.3.24): 140 octets, i.e. 160 septets.
inline constexpr int kMaxUserDataOctets = 140;
inline constexpr int kMaxUserDataSeptets = 160;

// A TP-OA / TP-DA / TP-RA / SMSC address.
struct Address {
  // "+4670..." for an international number (type 0x91), the bare digits otherwise (may include
  // * # a b c), the decoded name for an alphanumeric sender (type 0xD0).
  std::string text;
  std::uint8_t type = 0x91;  // type-of-address octet as received
  bool operator==(const Address&) const = default;
};

// TP-SCTS / TP-DT: the SMSC's local time and its offset from UTC.
// Two-digit years: 90-99 are 1990s, 00-89 are 2000s.
struct SmscTime {
  int year = 2000, month = 1, day = 1, hour = 0, minute = 0, second = 0;
  int offsetQuarters = 0;  // quarters of an hour east of UTC, -79..79
  // False when a digit or a field was out of range: the message is still read (an SMSC with a
  // broken clock must not cost a message); the fields are then zero and `raw` holds the octets.
  bool valid = true;
  std::array<std::uint8_t, 7> raw{};
  // Valid times compare by their fields, invalid ones by their octets.
  bool operator==(const SmscTime& other) const;
  // The instant in UTC; nullopt when !valid.
  std::optional<SmsClock::time_point> utc() const;
  static SmscTime fromUtc(SmsClock::time_point t, int offsetQuarters);
};

// An SMS-SUBMIT: what the driver sends.
struct SubmitPdu {
  std::string smsc;                   // "" = the SIM's default SMSC (the usual case), else "+CC..."
  std::uint8_t messageReference = 0;  // 0: the modem assigns one
  std::string destination;            // "+4670..." (international) or digits
  bool statusReportRequest = false;
  bool rejectDuplicates = false;
  std::optional<std::chrono::minutes> validity;  // relative TP-VP, rounded up to its grid
  std::uint8_t protocolId = 0;
  UserData userData;
  bool operator==(const SubmitPdu&) const = default;
};

struct DeliverPdu {
  std::string smsc;  // as received; "" when the modem gave none
  Address originator;
  std::uint8_t protocolId = 0;
  std::uint8_t dataCodingScheme = 0;  // raw TP-DCS
  SmscTime timestamp;
  bool moreMessagesToSend = false;
  bool statusReportIndication = false;
  bool replyPath = false;
  UserData userData;
  bool operator==(const DeliverPdu&) const = default;
};

struct StatusReportPdu {
  std::string smsc;
  std::uint8_t messageReference = 0;
  Address recipient;
  SmscTime timestamp;       // when the SMSC received the SUBMIT
  SmscTime discharge;       // when it was delivered / when the status was reached
  std::uint8_t status = 0;  // TP-ST
  bool operator==(const StatusReportPdu&) const = default;
};

// What a PDU hex string from the modem (+CMT, +CMGR, +CMGL, +CDS) decodes to.
using IncomingPdu = std::variant<DeliverPdu, StatusReportPdu>;

struct EncodedPdu {
  std::string hex;     // uppercase, SMSC field included: what follows AT+CMGS=<n> at the prompt
  int tpduLength = 0;  // <n>: octets after the SMSC field
};

// Errors name the field: a destination that is not a number, user data over the limits, a
// septet above 0x7F, a UDH too long for the data.
Result<EncodedPdu> encodeSubmit(const SubmitPdu& pdu);
Result<EncodedPdu> encodeDeliver(const DeliverPdu& pdu);
Result<EncodedPdu> encodeStatusReport(const StatusReportPdu& pdu);

// `hex` includes the SMSC field (as modems print it). `tpduLength`, when given (the <length> of
// +CMT/+CMGR/+CDS), must match what follows the SMSC field.
Result<SubmitPdu> decodeSubmit(std::string_view hex, std::optional<int> tpduLength = {});
Result<IncomingPdu> decodeIncoming(std::string_view hex, std::optional<int> tpduLength = {});

// The UTF-8 text of user data (GSM-7 via the default alphabet, UCS-2 via UTF-16, 8-bit data as
// ISO-8859-1). An Error for UCS-2 with an odd octet count; an unpaired surrogate shows U+FFFD
// (a phone that split a pair across parts) so a received message is never lost for it.
Result<std::string> userDataText(const UserData& userData);

// TP-DCS -> alphabet (23.038 section 4); an Error for compressed text and for coding groups
// this code cannot read.
Result<DataCoding> alphabetOfDcs(std::uint8_t dcs);

// Relative TP-VP (23.040 9.2.3.12.1) of a validity period: the smallest encodable period that is
// at least `validity` (capped at 63 weeks); and back.
std::uint8_t relativeValidityCode(std::chrono::minutes validity);
std::chrono::minutes relativeValidityPeriod(std::uint8_t code);

// What a TP-ST status says about a message (23.040 9.2.3.15): 0x00-0x1F delivered; 0x20-0x3F
// the SMSC is still trying (not final: kSent); 0x40-0x5F permanent error (kFailed); 0x60-0x7F
// temporary error the SMSC gave up on (kUndelivered); anything else reserved: kFailed.
DeliveryState deliveryStateOfStatus(std::uint8_t status);

}  // namespace atoms::drivers::modem
