// Fuzz target: what a GSM modem sends (drivers/sms/modem/): the AT line splitter and the
// response/URC parsers (at_parser.h), the text-mode parsers (text_mode.h) and the PDU decoders
// (pdu.h). A modem that answers garbage must never crash the driver.
//
// Input: either a modem transcript (lines of text; each line is also tried as a PDU in hex), or,
// when the first byte is 0x00, raw PDU octets after it (so mutations reach the decoders directly).
// Properties: the splitter invents no bytes and returns lines without CR/LF within the length
// limit; whatever a decoder accepts and the matching encoder can write decodes back to the same
// value (decode(encode(x)) == x); text of decoded user data is valid UTF-8.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <variant>
#include <vector>

#include "base/bytes.h"
#include "drivers/sms/encoding/utf.h"
#include "drivers/sms/modem/at_parser.h"
#include "drivers/sms/modem/pdu.h"
#include "drivers/sms/modem/text_mode.h"
#include "tests/fuzz/fuzz_support.h"

namespace {

using namespace atoms::drivers;
using namespace atoms::drivers::modem;
using atoms::fuzz::require;

void checkText(const UserData& ud) {
  const auto text = userDataText(ud);
  if (text) require(validateUtf8(*text).ok(), "decoded user data is valid UTF-8");
}

void checkPdu(const std::string& hex) {
  if (const auto incoming = decodeIncoming(hex)) {
    if (const auto* d = std::get_if<DeliverPdu>(&*incoming)) {
      checkText(d->userData);
      if (const auto encoded = encodeDeliver(*d)) {
        const auto again = decodeIncoming(encoded->hex, encoded->tpduLength);
        require(again.ok() && std::holds_alternative<DeliverPdu>(*again) &&
                    std::get<DeliverPdu>(*again) == *d,
                "decode(encodeDeliver(d)) == d");
      }
    } else {
      const auto& r = std::get<StatusReportPdu>(*incoming);
      if (const auto encoded = encodeStatusReport(r)) {
        const auto again = decodeIncoming(encoded->hex, encoded->tpduLength);
        require(again.ok() && std::holds_alternative<StatusReportPdu>(*again) &&
                    std::get<StatusReportPdu>(*again) == r,
                "decode(encodeStatusReport(r)) == r");
      }
    }
  }
  if (const auto submit = decodeSubmit(hex)) {
    checkText(submit->userData);
    if (const auto encoded = encodeSubmit(*submit)) {
      const auto again = decodeSubmit(encoded->hex, encoded->tpduLength);
      require(again.ok() && *again == *submit, "decodeSubmit(encodeSubmit(s)) == s");
    }
  }
}

void checkLine(const std::string& line) {
  (void)parseFinalResult(line);
  if (const auto urc = parseUrc(line)) {
    if (urc->kind == Urc::Kind::kNewMessageStored || urc->kind == Urc::Kind::kStatusReportStored)
      require(urc->index >= 0 && !urc->storage.empty(), "a stored-message URC names its slot");
  }
  if (const auto mr = parseMessageReference(line)) require(*mr >= 0 && *mr <= 255, "TP-MR range");
  (void)parseStorageStatus(line);
  (void)parseSignalQuality(line);
  const std::size_t colon = line.find(':');
  const std::string params = colon == std::string::npos ? line : line.substr(colon + 1);
  for (int before = 0; before <= 2; ++before) (void)parseTextDeliverHeader(params, before);
  (void)parseTextStatusReport(params);
  (void)parseTextTimestamp(line);
  if (const auto body = textModeBody(line)) require(*body == line, "textModeBody keeps the text");
  (void)textModeReceived(line);
  checkPdu(line);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > 0 && data[0] == 0x00) {
    checkPdu(atoms::toHex(std::span<const std::uint8_t>(data + 1, size - 1)));
    return 0;
  }
  const std::string_view input = atoms::fuzz::asText(data, size);

  // Fed in uneven chunks, as reads from a serial port arrive.
  LineSplitter splitter;
  std::vector<LineSplitter::Line> lines;
  std::size_t at = 0;
  for (std::size_t chunk = 1; at < input.size(); chunk = chunk * 3 % 17 + 1) {
    const std::size_t n = std::min(chunk, input.size() - at);
    splitter.feed(input.substr(at, n), lines);
    at += n;
  }
  (void)splitter.promptPending();
  std::size_t bytes = splitter.pending().size();
  std::vector<std::string> texts;
  for (const auto& line : lines) {
    require(!line.text.empty(), "no empty lines");
    require(line.text.size() <= LineSplitter::kMaxLineLength, "lines are cut at the limit");
    require(line.text.find_first_of("\r\n") == std::string::npos, "lines hold no CR/LF");
    bytes += line.text.size();
    texts.push_back(line.text);
  }
  require(bytes <= input.size(), "the splitter invents no bytes");

  for (const std::string& line : texts) checkLine(line);
  std::vector<std::string> errors;
  for (const StoredMessage& m : parseMessageList(texts, errors)) (void)m;
  (void)parseReadMessage(texts);
  return 0;
}
