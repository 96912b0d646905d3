// RefusalAudit: the audit entries for one kind of refused outside request (a bad token, a
// malformed body, a wrong path...) that a service's HTTP endpoint reports: at most `perMinute` a
// minute (store/audit_budget.h), so a flood from the LAN cannot flood the log; the entry after a
// gap carries how many were left out (`suppressed`). Each entry written is also logged as a
// warning; an entry that cannot be written is logged as an error (the request was answered
// already: nothing else depends on it).
//
// Threading: engine thread only (it appends through the store's log); not synchronised.
#pragma once

#include <Poco/Logger.h>

#include <chrono>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <utility>

#include "base/canonical_json.h"
#include "daemon/log/log.h"
#include "store/audit_budget.h"
#include "store/site_store.h"

namespace atoms {

class RefusalAudit {
 public:
  // kind: the entry kind ("terminal.refused"); logMessage: the warning line's message.
  RefusalAudit(std::string kind, std::string logMessage, std::uint64_t perMinute)
      : kind_(std::move(kind)), logMessage_(std::move(logMessage)), budget_(perMinute) {}

  void record(SiteStore& store, Poco::Logger& logger, std::string_view actor, json::Object body,
              std::chrono::system_clock::time_point now, std::initializer_list<LogField> fields);

 private:
  std::string kind_;
  std::string logMessage_;
  AuditBudget budget_;
};

}  // namespace atoms
