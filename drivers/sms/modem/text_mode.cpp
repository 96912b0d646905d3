#include "drivers/sms/modem/text_mode.h"

#include <vector>

#include "drivers/sms/encoding/gsm7.h"
#include "drivers/sms/encoding/utf.h"
#include "drivers/sms/modem/at_parser.h"

namespace atoms::drivers::modem {

namespace {

// Printable ASCII that IRA and the GSM-7 default alphabet share with the same meaning.
bool textModeSafe(char32_t c) {
  if (c == '\n') return true;
  if (c < 0x20 || c > 0x7E || c == '`') return false;
  return gsm7Septets(c) == 1;
}

}  // namespace

Result<std::string> textModeBody(std::string_view utf8) {
  if (Status s = validateUtf8(utf8); !s) return s.error();
  int count = 0;
  for (std::size_t i = 0; i < utf8.size();) {
    const auto cp = decodeUtf8At(utf8, i);
    if (!textModeSafe(cp->value)) {
      return makeError("text mode cannot send the character at byte " + std::to_string(i) +
                       " (only plain ASCII without [ ] { } ~ \\ | ^ `); use PDU mode");
    }
    ++count;
    i += cp->bytes;
  }
  if (count == 0) return makeError("empty text");
  if (count > kTextModeMaxLength) {
    return makeError("text mode sends one segment of at most 160 characters, this text has " +
                     std::to_string(count) + "; use PDU mode");
  }
  return std::string(utf8);
}

Result<SmscTime> parseTextTimestamp(std::string_view text) {
  // yy/MM/dd,hh:mm:ss±zz
  const auto bad = [&] {
    return makeError("timestamp \"" + std::string(text) + "\" is malformed");
  };
  if (text.size() != 20 || text[2] != '/' || text[5] != '/' || text[8] != ',' || text[11] != ':' ||
      text[14] != ':' || (text[17] != '+' && text[17] != '-'))
    return bad();
  const auto field = [&](std::size_t at) { return parseAtInteger(text.substr(at, 2), 0, 99); };
  const auto yy = field(0), mo = field(3), dd = field(6), hh = field(9), mi = field(12),
             ss = field(15), zz = field(18);
  if (!yy || !mo || !dd || !hh || !mi || !ss || !zz) return bad();
  SmscTime t;
  t.year = 2000 + *yy;
  t.month = *mo;
  t.day = *dd;
  t.hour = *hh;
  t.minute = *mi;
  t.second = *ss;
  t.offsetQuarters = text[17] == '-' ? -*zz : *zz;
  if (t.month < 1 || t.month > 12 || t.day < 1 || t.day > 31 || t.hour > 23 || t.minute > 59 ||
      t.second > 59 || *zz > 79)
    return bad();
  return t;
}

Result<TextDeliverHeader> parseTextDeliverHeader(std::string_view params, int fieldsBefore) {
  const std::vector<std::string> p = splitAtParameters(params);
  const std::size_t at = static_cast<std::size_t>(fieldsBefore);
  if (p.size() < at + 3) return makeError("text mode message header has too few fields");
  TextDeliverHeader h;
  h.originator = p[at];
  if (h.originator.empty()) return makeError("text mode message header has no sender");
  auto ts = parseTextTimestamp(p[at + 2]);
  if (!ts) return ts.error();
  h.timestamp = *ts;
  return h;
}

Result<StatusReportPdu> parseTextStatusReport(std::string_view params) {
  const std::vector<std::string> p = splitAtParameters(params);
  if (p.size() < 7) return makeError("text mode status report has too few fields");
  StatusReportPdu r;
  const auto mr = parseAtInteger(p[1], 0, 255);
  if (!mr) return makeError("text mode status report: message reference \"" + p[1] + "\"");
  r.messageReference = static_cast<std::uint8_t>(*mr);
  r.recipient.text = p[2];
  r.recipient.type = static_cast<std::uint8_t>(parseAtInteger(p[3], 0, 255).value_or(0x81));
  auto scts = parseTextTimestamp(p[4]);
  if (!scts) return scts.error();
  r.timestamp = *scts;
  auto dt = parseTextTimestamp(p[5]);
  if (!dt) return dt.error();
  r.discharge = *dt;
  const auto st = parseAtInteger(p[6], 0, 255);
  if (!st) return makeError("text mode status report: status \"" + p[6] + "\"");
  r.status = static_cast<std::uint8_t>(*st);
  return r;
}

std::string textModeReceived(std::string_view bytes) {
  if (validateUtf8(bytes)) return std::string(bytes);
  std::string out;
  for (char c : bytes) appendUtf8(out, static_cast<unsigned char>(c));
  return out;
}

}  // namespace atoms::drivers::modem
