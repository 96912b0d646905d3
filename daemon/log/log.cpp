#include "daemon/log/log.h"

namespace atoms {

void logEvent(Poco::Logger& logger, Poco::Message::Priority priority, std::string_view msg,
              std::initializer_list<LogField> fields) {
  if (!logger.is(priority)) return;
  Poco::Message message(logger.name(), std::string(msg), priority);
  std::string keys;
  for (const LogField& field : fields) {
    std::string key(field.key);
    if (message.has(key)) continue;  // first value wins; a repeated key is a caller's slip
    if (!keys.empty()) keys += ',';
    keys += key;
    message.set(key, field.value);
  }
  if (!keys.empty()) message.set(kLogFieldsParam, keys);
  logger.log(message);
}

}  // namespace atoms
