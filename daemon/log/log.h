// Structured logging on Poco's Logger: one event per line, a message plus named fields, written by
// the formatters in formatters.h as logfmt or JSON, e.g.
//   ts=2026-11-29T17:00:00.123Z level=info component=store msg="opened database" path=/x
// A component is a Poco::Logger (its name becomes `component=`). Field keys are short lowercase
// identifiers ([a-z0-9_.]) other than ts, level, component and msg.
//
// Never pass secrets (keys, passwords, message bodies with personal data) as fields or messages.
// Thread-safe, as Poco::Logger is.
#pragma once

#include <Poco/Logger.h>
#include <Poco/Message.h>

#include <concepts>
#include <initializer_list>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace atoms {

struct LogField {
  LogField(std::string_view k, std::string v) : key(k), value(std::move(v)) {}
  LogField(std::string_view k, std::string_view v) : key(k), value(v) {}
  LogField(std::string_view k, const char* v) : key(k), value(v) {}
  template <std::integral T>
  LogField(std::string_view k, T v) : key(k), value(std::to_string(v)) {}

  std::string_view key;
  std::string value;
};

// The Poco::Message parameter that lists the field keys of an event in order, separated by ','.
// Formatters read it back; Poco messages have no way to enumerate their parameters.
inline constexpr const char* kLogFieldsParam = "atoms.fields";

void logEvent(Poco::Logger& logger, Poco::Message::Priority priority, std::string_view msg,
              std::initializer_list<LogField> fields = {});
// The same with fields built at run time, as libraries that log through a callback hand them over
// (sync::UplinkLogFields, sync::ingest::IngestLogFields).
void logEvent(Poco::Logger& logger, Poco::Message::Priority priority, std::string_view msg,
              const std::vector<std::pair<std::string, std::string>>& fields);

// Poco's priority for a library's own level enum with kDebug, kInfo, kWarning and kError
// (sync::UplinkLogLevel, sync::ingest::IngestLogLevel): libraries below daemon/ do not see Poco.
template <class Level>
Poco::Message::Priority pocoPriority(Level level) {
  switch (level) {
    case Level::kDebug:
      return Poco::Message::PRIO_DEBUG;
    case Level::kInfo:
      return Poco::Message::PRIO_INFORMATION;
    case Level::kWarning:
      return Poco::Message::PRIO_WARNING;
    case Level::kError:
      return Poco::Message::PRIO_ERROR;
  }
  return Poco::Message::PRIO_INFORMATION;
}

inline void logTrace(Poco::Logger& l, std::string_view msg,
                     std::initializer_list<LogField> f = {}) {
  logEvent(l, Poco::Message::PRIO_TRACE, msg, f);
}
inline void logDebug(Poco::Logger& l, std::string_view msg,
                     std::initializer_list<LogField> f = {}) {
  logEvent(l, Poco::Message::PRIO_DEBUG, msg, f);
}
inline void logInfo(Poco::Logger& l, std::string_view msg, std::initializer_list<LogField> f = {}) {
  logEvent(l, Poco::Message::PRIO_INFORMATION, msg, f);
}
inline void logWarning(Poco::Logger& l, std::string_view msg,
                       std::initializer_list<LogField> f = {}) {
  logEvent(l, Poco::Message::PRIO_WARNING, msg, f);
}
inline void logError(Poco::Logger& l, std::string_view msg,
                     std::initializer_list<LogField> f = {}) {
  logEvent(l, Poco::Message::PRIO_ERROR, msg, f);
}
inline void logFatal(Poco::Logger& l, std::string_view msg,
                     std::initializer_list<LogField> f = {}) {
  logEvent(l, Poco::Message::PRIO_FATAL, msg, f);
}

}  // namespace atoms
