#include "daemon/log/formatters.h"

#include <Poco/DateTimeFormatter.h>

#include <cstdio>
#include <utility>
#include <vector>

#include "daemon/log/log.h"

namespace atoms {
namespace {

std::string timestamp(const Poco::Message& msg) {
  return Poco::DateTimeFormatter::format(msg.getTime(), "%Y-%m-%dT%H:%M:%S.%iZ");
}

// Fields of the event in the order logEvent() was given them.
std::vector<std::pair<std::string, std::string>> fieldsOf(const Poco::Message& msg) {
  std::vector<std::pair<std::string, std::string>> out;
  if (!msg.has(kLogFieldsParam)) return out;
  const std::string& keys = msg.get(kLogFieldsParam);
  std::size_t start = 0;
  while (start <= keys.size()) {
    std::size_t end = keys.find(',', start);
    if (end == std::string::npos) end = keys.size();
    std::string key = keys.substr(start, end - start);
    if (!key.empty() && msg.has(key)) out.emplace_back(key, msg.get(key));
    start = end + 1;
  }
  return out;
}

void appendControl(std::string& out, unsigned char c) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "\\u%04x", c);
  out += buf;
}

bool needsQuotes(std::string_view value) {
  if (value.empty()) return true;
  for (unsigned char c : value) {
    if (c <= 0x20 || c == '=' || c == '"' || c == 0x7f) return true;
  }
  return false;
}

// Quoted with the escapes JSON uses, so one unescaping rule reads both formats.
void appendQuoted(std::string& out, std::string_view value) {
  out += '"';
  for (unsigned char c : value) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        if (c < 0x20 || c == 0x7f) {
          appendControl(out, c);
        } else {
          out += static_cast<char>(c);
        }
    }
  }
  out += '"';
}

// Keys come from code, but a stray character must not break the line's grammar.
void appendKey(std::string& out, std::string_view key) {
  for (unsigned char c : key) {
    bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                 c == '_' || c == '.' || c == '-';
    out += plain ? static_cast<char>(c) : '_';
  }
}

void appendLogfmtValue(std::string& out, std::string_view value) {
  if (needsQuotes(value)) {
    appendQuoted(out, value);
  } else {
    out += value;
  }
}

}  // namespace

std::string_view levelName(Poco::Message::Priority priority) {
  switch (priority) {
    case Poco::Message::PRIO_FATAL:
      return "fatal";
    case Poco::Message::PRIO_CRITICAL:
      return "critical";
    case Poco::Message::PRIO_ERROR:
      return "error";
    case Poco::Message::PRIO_WARNING:
      return "warn";
    case Poco::Message::PRIO_NOTICE:
      return "notice";
    case Poco::Message::PRIO_INFORMATION:
      return "info";
    case Poco::Message::PRIO_DEBUG:
      return "debug";
    case Poco::Message::PRIO_TRACE:
      return "trace";
  }
  return "info";
}

void LogfmtFormatter::format(const Poco::Message& msg, std::string& text) {
  text.clear();
  text += "ts=";
  text += timestamp(msg);
  text += " level=";
  text += levelName(msg.getPriority());
  text += " component=";
  appendLogfmtValue(text, msg.getSource().empty() ? std::string("root") : msg.getSource());
  text += " msg=";
  appendQuoted(text, msg.getText());
  for (const auto& [key, value] : fieldsOf(msg)) {
    text += ' ';
    appendKey(text, key);
    text += '=';
    appendLogfmtValue(text, value);
  }
}

void JsonFormatter::format(const Poco::Message& msg, std::string& text) {
  text.clear();
  text += "{\"ts\":";
  appendQuoted(text, timestamp(msg));
  text += ",\"level\":";
  appendQuoted(text, levelName(msg.getPriority()));
  text += ",\"component\":";
  appendQuoted(text, msg.getSource().empty() ? std::string("root") : msg.getSource());
  text += ",\"msg\":";
  appendQuoted(text, msg.getText());
  for (const auto& [key, value] : fieldsOf(msg)) {
    text += ',';
    std::string safeKey;
    appendKey(safeKey, key);
    appendQuoted(text, safeKey);
    text += ':';
    appendQuoted(text, value);
  }
  text += '}';
}

}  // namespace atoms
