#include "daemon/log/setup.h"

#include <Poco/AutoPtr.h>
#include <Poco/ConsoleChannel.h>
#include <Poco/FormattingChannel.h>
#include <Poco/Logger.h>

#include <ostream>

#include "daemon/log/formatters.h"

namespace atoms {

std::optional<Poco::Message::Priority> parseLogLevel(std::string_view name) {
  using P = Poco::Message::Priority;
  if (name == "fatal") return P::PRIO_FATAL;
  if (name == "critical") return P::PRIO_CRITICAL;
  if (name == "error") return P::PRIO_ERROR;
  if (name == "warning" || name == "warn") return P::PRIO_WARNING;
  if (name == "notice") return P::PRIO_NOTICE;
  if (name == "information" || name == "info") return P::PRIO_INFORMATION;
  if (name == "debug") return P::PRIO_DEBUG;
  if (name == "trace") return P::PRIO_TRACE;
  return std::nullopt;
}

std::optional<LogFormat> parseLogFormat(std::string_view name) {
  if (name == "logfmt") return LogFormat::kLogfmt;
  if (name == "json") return LogFormat::kJson;
  return std::nullopt;
}

void applyLogSettings(const LogSettings& settings, std::ostream& sink) {
  Poco::AutoPtr<Poco::Formatter> formatter;
  if (settings.format == LogFormat::kJson) {
    formatter = new JsonFormatter;
  } else {
    formatter = new LogfmtFormatter;
  }
  // ConsoleChannel serialises writers with its own mutex, so lines from threads never interleave.
  Poco::AutoPtr<Poco::Channel> console(new Poco::ConsoleChannel(sink));
  Poco::AutoPtr<Poco::Channel> channel(new Poco::FormattingChannel(formatter, console));
  // The root first: Poco creates it lazily, and loggers made later copy it. The empty name then
  // matches every logger that exists already.
  Poco::Logger::root().setChannel(channel);
  Poco::Logger::root().setLevel(settings.level);
  Poco::Logger::setChannel("", channel);
  Poco::Logger::setLevel("", settings.level);
}

}  // namespace atoms
