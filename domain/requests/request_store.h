// RequestStore: the rows of requests by text (migration 27 "staff_requests"): a worker's time off
// or availability change, pending until the approver named on it decides, or withdrawn by the
// worker. The rows only: every change is audited by the desk that makes it (request_desk.h), in
// the same batch. No reason is ever stored: a request stands without one.
//
// Contract: uses the caller's Database (the writer's, inside its transaction, for changes).
// Errors: SQL errors, one line; a damaged row names its id. Not thread-safe.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"
#include "base/time_point.h"
#include "sms/text/request_intent.h"
#include "store/database.h"

namespace atoms::requests {

enum class RequestState { kPending, kApproved, kDenied, kWithdrawn };
// "pending", "approved", "denied", "withdrawn"; the inverse gives nullopt for anything else.
std::string_view requestStateName(RequestState state);
std::optional<RequestState> requestStateFromName(std::string_view name);

struct RequestRow {
  std::int64_t id = 0;
  std::string personId;
  sms::RequestKind kind = sms::RequestKind::kTimeOff;
  RequestState state = RequestState::kPending;
  std::string fromDate;  // time off: 'YYYY-MM-DD' (local, inclusive); "" for availability
  std::string toDate;
  sms::DayPart part = sms::DayPart::kAllDay;
  std::vector<unsigned> weekdays;  // availability: c_encoding, ascending; empty: every day
  sms::AvailabilityChange change = sms::AvailabilityChange::kCannot;
  std::string approverId;  // the manager who decides it (their manager of record at receipt)
  std::optional<std::int64_t> inboxId;
  TimePoint createdAt{};
  std::string decidedBy;   // person id ("" while pending)
  std::string decidedVia;  // "sms", "api" ("" while pending)
  std::optional<TimePoint> decidedAt;
  std::string remark;  // the manager's words on a decision, optional; never the worker's reason
};

enum class RequestFilter {
  kPending,  // oldest first
  kRecent,   // pending ones and those made in the last 30 days, newest first
};
inline constexpr std::size_t kMaxListedRequests = 200;

class RequestStore {
 public:
  explicit RequestStore(Database& db) : db_(db) {}

  // The new row's id.
  Result<std::int64_t> insert(const RequestRow& row);
  // State and decision fields of row.id.
  Status update(const RequestRow& row);
  Result<std::optional<RequestRow>> get(std::int64_t id);
  Result<std::vector<RequestRow>> list(RequestFilter filter, TimePoint now);
  // The person's pending requests, oldest first.
  Result<std::vector<RequestRow>> pendingFor(std::string_view personId);

 private:
  Database& db_;
};

}  // namespace atoms::requests
