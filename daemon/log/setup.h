// Where log events go: every Poco logger, existing and future, writes one line per event to a
// stream (stderr in the service, which journald captures) through the chosen formatter, at or
// above the chosen level. Changing the settings is thread-safe (Poco locks its logger registry).
#pragma once

#include <Poco/Message.h>

#include <iosfwd>
#include <optional>
#include <string_view>

namespace atoms {

enum class LogFormat { kLogfmt, kJson };

struct LogSettings {
  Poco::Message::Priority level = Poco::Message::PRIO_INFORMATION;
  LogFormat format = LogFormat::kLogfmt;
};

// fatal, critical, error, warning, notice, information, debug, trace (Poco's names), and the
// short forms the log lines use (warn, info). nullopt for anything else.
std::optional<Poco::Message::Priority> parseLogLevel(std::string_view name);
// logfmt or json.
std::optional<LogFormat> parseLogFormat(std::string_view name);

// Routes all loggers to sink. sink must outlive every later log call (std::cerr does).
void applyLogSettings(const LogSettings& settings, std::ostream& sink);

}  // namespace atoms
