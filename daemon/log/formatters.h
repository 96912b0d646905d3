// Poco formatters that turn a log event (see log.h) into one line: logfmt for people and grep,
// JSON for log shippers. Both write the same fields in the same order: ts (UTC, milliseconds),
// level, component, msg, then the event's fields in the order they were given. Values never span
// lines: newlines and other control characters are escaped. Stateless, so thread-safe.
#pragma once

#include <Poco/Formatter.h>
#include <Poco/Message.h>

#include <string>
#include <string_view>

namespace atoms {

// ts=2026-11-29T17:00:00.123Z level=info component=store msg="opened database" path=/x
// msg is always quoted; other values are quoted only when they hold a space, '=', '"', a control
// character, or are empty.
class LogfmtFormatter final : public Poco::Formatter {
 public:
  void format(const Poco::Message& msg, std::string& text) override;
};

// {"ts":"2026-11-29T17:00:00.123Z","level":"info","component":"store","msg":"opened database",
//  "path":"/x"} (on one line). All values are strings.
class JsonFormatter final : public Poco::Formatter {
 public:
  void format(const Poco::Message& msg, std::string& text) override;
};

// The short level names used in output: fatal, critical, error, warn, notice, info, debug, trace.
std::string_view levelName(Poco::Message::Priority priority);

}  // namespace atoms
