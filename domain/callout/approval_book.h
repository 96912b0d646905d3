// ApprovalBook: the call-out desk's approvals (PROPOSE_CONFIRM items: overtime or premium pay,
// a shift given or offers sent under PROPOSE) as the approvals API and the panel see them, and
// the way a signed-in manager decides one (docs/api.md). CalloutApprovals is the book over the
// CalloutDesk: it decides through CalloutDesk::decideAs, the very function APPROVE/DENY texts go
// through, so both paths apply the same rules, write the same rows and send the same texts.
//
// Threading: every method runs on the store's writer (the engine thread in the daemon), through
// the StoreRunner it was given; not otherwise synchronised. Errors: store errors, one line; a
// failed decision changes nothing (its batch is rolled back).
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/canonical_json.h"
#include "base/result.h"
#include "domain/callout/callout_desk.h"
#include "domain/callout/callout_store.h"
#include "domain/callout/site_snapshot.h"
#include "domain/site/time_zone.h"
#include "store/store_runner.h"

namespace atoms::callout {

// One approval with what a manager needs to decide it.
struct ApprovalView {
  ApprovalRow row;
  std::string subjectName;   // the person it is about ("" when no longer on the site)
  std::string approverName;  // the approver named on it
  std::string shiftId;
  std::string stationId;
  std::string stationName;
  TimePoint shiftStart{};  // UTC
  TimePoint shiftEnd{};
  site::LocalTime shiftStartLocal{};  // in the site's time zone
  site::LocalTime shiftEndLocal{};
  std::string timeZone;  // the site's, e.g. "America/Los_Angeles"
  // The signed receipt the approval was asked with (its rule evaluations and premium), as stored
  // in the audit log; null when unknown (asked before the receipt's seq was recorded).
  json::Value receipt;
};

enum class ApprovalFilter {
  kPending,  // pending ones, soonest expiry first
  kRecent,   // pending ones and those asked in the last kRecentApprovals, newest first
};
inline constexpr std::chrono::days kRecentApprovals{7};
inline constexpr std::size_t kMaxListedApprovals = 200;

struct ApprovalDecision {
  DecisionOutcome outcome = DecisionOutcome::kUnknown;
  std::string message;                   // what the desk would have texted back to the decider
  std::optional<ApprovalView> approval;  // as it stands after the decision; none when unknown
};

class ApprovalBook {
 public:
  virtual ~ApprovalBook() = default;

  // Whether `personId` is a person of the site (whom an API token may name).
  virtual Result<bool> knowsPerson(std::string_view personId) = 0;
  virtual Result<std::vector<ApprovalView>> list(ApprovalFilter filter) = 0;
  // nullopt: no such approval.
  virtual Result<std::optional<ApprovalView>> get(std::int64_t id) = 0;
  // `personId` answers approval `id` (CalloutDesk::decideAs, via "api"), committed before it
  // returns; refusals are audited by the desk and change nothing else.
  virtual Result<ApprovalDecision> decide(std::string_view personId, std::int64_t id,
                                          const ApprovalAnswer& answer) = 0;
};

class CalloutApprovals final : public ApprovalBook {
 public:
  // Every reference must outlive the book; `onDecided` (may be empty) runs on the writer after
  // each committed decision (the processor sets its call-out timer again).
  CalloutApprovals(CalloutDesk& desk, SiteSnapshot& site, atoms::StoreRunner& store,
                   std::function<void()> onDecided = {});

  Result<bool> knowsPerson(std::string_view personId) override;
  Result<std::vector<ApprovalView>> list(ApprovalFilter filter) override;
  Result<std::optional<ApprovalView>> get(std::int64_t id) override;
  Result<ApprovalDecision> decide(std::string_view personId, std::int64_t id,
                                  const ApprovalAnswer& answer) override;

 private:
  Result<ApprovalView> view(SiteStore& store, CalloutStore& rows, ApprovalRow row) const;

  CalloutDesk& desk_;
  SiteSnapshot& site_;
  atoms::StoreRunner& store_;
  std::function<void()> onDecided_;
};

}  // namespace atoms::callout
