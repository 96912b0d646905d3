#include "drivers/sms/modem/at_parser.h"

#include <charconv>

namespace atoms::drivers::modem {

namespace {

bool startsWith(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

// "+CMTI: rest" -> "rest" when line starts with the given "+XXX:" tag.
std::optional<std::string_view> afterTag(std::string_view line, std::string_view tag) {
  if (!startsWith(line, tag)) return std::nullopt;
  return trim(line.substr(tag.size()));
}

}  // namespace

void LineSplitter::feed(std::string_view bytes, std::vector<Line>& out) {
  for (char c : bytes) {
    if (c == '\r' || c == '\n') {
      if (!pending_.empty()) out.push_back(Line{std::move(pending_), overflowed_});
      pending_.clear();
      overflowed_ = false;
      continue;
    }
    if (pending_.size() >= kMaxLineLength) {
      out.push_back(Line{std::move(pending_), true});
      pending_.clear();
      overflowed_ = true;  // the rest of this line is garbage too
    }
    pending_.push_back(c);
  }
}

bool LineSplitter::promptPending() const { return pending_ == "> " || pending_ == ">"; }

std::optional<int> parseAtInteger(std::string_view text, int min, int max) {
  text = trim(text);
  if (text.empty()) return std::nullopt;
  int value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  if (value < min || value > max) return std::nullopt;
  return value;
}

std::vector<std::string> splitAtParameters(std::string_view text) {
  std::vector<std::string> out(1);
  bool quoted = false;
  for (char c : text) {
    if (c == '"') {
      quoted = !quoted;
    } else if (c == ',' && !quoted) {
      out.emplace_back();
    } else {
      out.back().push_back(c);
    }
  }
  for (std::string& p : out) p = std::string(trim(p));
  return out;
}

std::string afterColon(std::string_view header) {
  const std::size_t colon = header.find(':');
  return colon == std::string_view::npos ? std::string() : std::string(header.substr(colon + 1));
}

std::optional<FinalResult> parseFinalResult(std::string_view line) {
  const std::string_view t = trim(line);
  FinalResult r;
  r.text = std::string(t);
  if (t == "OK") return r;
  if (t == "ERROR") {
    r.kind = FinalResult::Kind::kError;
    return r;
  }
  if (t == "NO CARRIER") {
    r.kind = FinalResult::Kind::kNoCarrier;
    return r;
  }
  for (const auto& [tag, kind] :
       {std::pair{std::string_view("+CME ERROR:"), FinalResult::Kind::kCmeError},
        std::pair{std::string_view("+CMS ERROR:"), FinalResult::Kind::kCmsError}}) {
    if (const auto rest = afterTag(t, tag)) {
      r.kind = kind;
      r.code = parseAtInteger(*rest, 0, 65535).value_or(-1);
      return r;
    }
  }
  return std::nullopt;
}

std::optional<Urc> parseUrc(std::string_view line) {
  const std::string_view t = trim(line);
  Urc urc;
  urc.header = std::string(t);
  const auto stored = [&](std::string_view rest, Urc::Kind kind) {
    const std::vector<std::string> p = splitAtParameters(rest);
    const std::optional<int> index = p.size() >= 2 ? parseAtInteger(p[1], 0, 65535) : std::nullopt;
    if (!index || p[0].empty()) return urc;  // kOther: malformed, nothing to read
    urc.kind = kind;
    urc.storage = p[0];
    urc.index = *index;
    return urc;
  };
  if (const auto rest = afterTag(t, "+CMTI:")) return stored(*rest, Urc::Kind::kNewMessageStored);
  if (const auto rest = afterTag(t, "+CDSI:")) return stored(*rest, Urc::Kind::kStatusReportStored);
  if (afterTag(t, "+CMT:")) {
    urc.kind = Urc::Kind::kNewMessage;
    return urc;
  }
  if (afterTag(t, "+CDS:")) {
    urc.kind = Urc::Kind::kStatusReport;
    return urc;
  }
  if (t == "RDY" || t == "SMS Ready" || t == "Call Ready" || t == "^SYSSTART" || t == "+CFUN: 1" ||
      t == "+CPIN: READY" || t == "+QIND: SMS DONE") {
    urc.kind = Urc::Kind::kBoot;
    return urc;
  }
  for (std::string_view other :
       {"RING",   "+CRING:", "+CLIP:",     "+CREG:", "+CGREG:", "+CEREG:", "+CUSD:", "+CBM:",
        "+CBMI:", "+CPIN:",  "+CFUN:",     "+QIND:", "^RSSI:",  "^HCSQ:",  "^MODE:", "^SRVST:",
        "+CIEV:", "+PACSP",  "NO CARRIER", "+CCWA:", "+CSQN:",  "^SIMST:", "+STIN:"}) {
    if (startsWith(t, other)) {
      urc.kind = Urc::Kind::kOther;
      return urc;
    }
  }
  return std::nullopt;
}

bool urcHasBody(const Urc& urc, bool pduMode) {
  return urc.kind == Urc::Kind::kNewMessage || (urc.kind == Urc::Kind::kStatusReport && pduMode);
}

std::optional<int> parseMessageReference(std::string_view line) {
  const auto rest = afterTag(trim(line), "+CMGS:");
  if (!rest) return std::nullopt;
  const std::vector<std::string> p = splitAtParameters(*rest);
  return parseAtInteger(p[0], 0, 255);
}

std::vector<StoredMessage> parseMessageList(const std::vector<std::string>& lines,
                                            std::vector<std::string>& errors) {
  std::vector<StoredMessage> out;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const auto rest = afterTag(trim(lines[i]), "+CMGL:");
    if (!rest) {
      errors.push_back("stray line in the message list: " + lines[i].substr(0, 80));
      continue;
    }
    if (i + 1 >= lines.size() || startsWith(trim(lines[i + 1]), "+CMGL:")) {
      errors.push_back("message list entry without a body: " + lines[i].substr(0, 80));
      continue;
    }
    StoredMessage m;
    m.header = std::string(*rest);
    const std::vector<std::string> p = splitAtParameters(*rest);
    const std::optional<int> index = parseAtInteger(p[0], 0, 65535);
    if (!index) {
      errors.push_back("message list entry without an index: " + lines[i].substr(0, 80));
      ++i;
      continue;
    }
    m.index = *index;
    if (p.size() >= 2) m.status = parseAtInteger(p[1], 0, 3).value_or(-1);
    m.body = std::string(trim(lines[i + 1]));
    out.push_back(std::move(m));
    ++i;
  }
  return out;
}

Result<StoredMessage> parseReadMessage(const std::vector<std::string>& lines) {
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const auto rest = afterTag(trim(lines[i]), "+CMGR:");
    if (!rest) continue;
    if (i + 1 >= lines.size()) return makeError("+CMGR answer without a message line");
    StoredMessage m;
    m.header = std::string(*rest);
    const std::vector<std::string> p = splitAtParameters(*rest);
    m.status = parseAtInteger(p[0], 0, 3).value_or(-1);
    m.body = std::string(trim(lines[i + 1]));
    return m;
  }
  return makeError("no message at that index (empty +CMGR answer)");
}

std::optional<StorageStatus> parseStorageStatus(std::string_view line) {
  const auto rest = afterTag(trim(line), "+CPMS:");
  if (!rest) return std::nullopt;
  const std::vector<std::string> p = splitAtParameters(*rest);
  StorageStatus s;
  std::size_t at = 0;
  if (!p.empty() && !parseAtInteger(p[0], 0, 1 << 20)) {
    s.storage = p[0];
    at = 1;
  }
  if (p.size() < at + 2) return std::nullopt;
  const auto used = parseAtInteger(p[at], 0, 1 << 20);
  const auto total = parseAtInteger(p[at + 1], 0, 1 << 20);
  if (!used || !total) return std::nullopt;
  s.used = *used;
  s.total = *total;
  return s;
}

std::optional<int> parseSignalQuality(std::string_view line) {
  const auto rest = afterTag(trim(line), "+CSQ:");
  if (!rest) return std::nullopt;
  const std::vector<std::string> p = splitAtParameters(*rest);
  const std::optional<int> rssi = parseAtInteger(p[0], 0, 99);
  if (!rssi || (*rssi > 31 && *rssi != 99)) return std::nullopt;
  return rssi;
}

}  // namespace atoms::drivers::modem
