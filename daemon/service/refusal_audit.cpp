#include "daemon/service/refusal_audit.h"

#include "store/audit_entry.h"

namespace atoms {

void RefusalAudit::record(SiteStore& store, Poco::Logger& logger, std::string_view actor,
                          json::Object body, std::chrono::system_clock::time_point now,
                          std::initializer_list<LogField> fields) {
  if (!budget_.admit(now)) return;
  if (budget_.leftOut() > 0) body["suppressed"] = static_cast<std::int64_t>(budget_.leftOut());
  auto seq = store.log().append(formatTimestamp(now), kind_, actor, json::Value(std::move(body)));
  if (!seq) {
    logError(logger, "cannot audit a refused request", {{"kind", kind_}, {"error", seq.message()}});
    return;
  }
  budget_.written();
  logEvent(logger, Poco::Message::PRIO_WARNING, logMessage_, fields);
}

}  // namespace atoms
