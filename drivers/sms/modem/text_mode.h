// Text mode (AT+CMGF=1, 3GPP TS 27.005 section 3) for modems without PDU mode.
//
// Limits, by design (docs/sms-modem.md): the driver sets the character set to IRA (ASCII), so an
// outgoing text may hold only the characters that are both printable ASCII and in the GSM-7
// default alphabet (no extension characters such as [ ] { } ~ \ | ^ and no backtick, whose
// mapping differs between modems), plus line feeds, and at most 160 of them: one segment, no
// concatenation, no UCS-2. Received texts are read as the modem prints them; concatenated parts
// arrive as separate messages (text mode hides the UDH); a line break inside a received text ends
// it. PDU mode has none of these limits and is the default.
//
// All functions are pure and thread-safe; errors are one line naming the field or character.
#pragma once

#include <string>
#include <string_view>

#include "base/result.h"
#include "drivers/sms/modem/pdu.h"

namespace atoms::drivers::modem {

inline constexpr int kTextModeMaxLength = 160;

// The text to type at the AT+CMGS prompt, or an Error naming the first character text mode
// cannot carry ("use PDU mode").
Result<std::string> textModeBody(std::string_view utf8);

// "24/01/02,10:11:12+04" (quotes removed) -> SmscTime.
Result<SmscTime> parseTextTimestamp(std::string_view text);

struct TextDeliverHeader {
  std::string originator;
  SmscTime timestamp;
};
// The parameters of "+CMT: <oa>,[<alpha>],<scts>[,...]" (fieldsBefore = 0), of
// "+CMGR: <stat>,<oa>,[<alpha>],<scts>" (1) or of "+CMGL: <index>,<stat>,<oa>,[<alpha>],<scts>"
// (2).
Result<TextDeliverHeader> parseTextDeliverHeader(std::string_view params, int fieldsBefore);

// The parameters of "+CDS: <fo>,<mr>,[<ra>],[<tora>],<scts>,<dt>,<st>".
Result<StatusReportPdu> parseTextStatusReport(std::string_view params);

// A received text as the modem printed it: kept when it is valid UTF-8, otherwise each byte read
// as ISO-8859-1, so nothing is dropped for its encoding.
std::string textModeReceived(std::string_view bytes);

}  // namespace atoms::drivers::modem
