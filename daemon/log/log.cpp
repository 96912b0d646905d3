#include "daemon/log/log.h"

namespace atoms {

namespace {

// Fields in the order given; the first value of a repeated key wins (a caller's slip).
template <class Fields>
void logFields(Poco::Logger& logger, Poco::Message::Priority priority, std::string_view msg,
               const Fields& fields) {
  if (!logger.is(priority)) return;
  Poco::Message message(logger.name(), std::string(msg), priority);
  std::string keys;
  for (const auto& [k, value] : fields) {
    std::string key(k);
    if (message.has(key)) continue;
    if (!keys.empty()) keys += ',';
    keys += key;
    message.set(key, value);
  }
  if (!keys.empty()) message.set(kLogFieldsParam, keys);
  logger.log(message);
}

}  // namespace

void logEvent(Poco::Logger& logger, Poco::Message::Priority priority, std::string_view msg,
              std::initializer_list<LogField> fields) {
  logFields(logger, priority, msg, fields);
}

void logEvent(Poco::Logger& logger, Poco::Message::Priority priority, std::string_view msg,
              const std::vector<std::pair<std::string, std::string>>& fields) {
  logFields(logger, priority, msg, fields);
}

}  // namespace atoms
