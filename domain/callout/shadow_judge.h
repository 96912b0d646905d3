// ShadowJudge: the verdict on each shadow decision of a call-out (ShadowBook; seed 001 section 6,
// "Shadow decision with human agreement", and open question 1: only a crisp outcome counts).
// At the covered shift's start plus the no-show grace it looks at who actually works the shift:
// the person who clocked in for it (clockedInFor, shift_attendance.h), else its assignee in the
// stored schedule when a person changed it (a `site import`). Then, once per decision:
// - one the box would have offered it to (any wave): agreed, +1 trust (at most +10 a day);
// - someone it ruled out or never considered: disagreed, no trust change, counts against the 80%;
// - nobody identifiable, or the person reported out worked it after all: unknown, not counted.
// Each verdict is a `callout.shadow_judged` audit entry ({"callout", "shift", "verdict",
// "worker"?, "source", "receipt"}) and the trust budget's outcome (TrustFeedback::shadow), in one
// transaction with the row's verdict, so a restart never judges a decision twice.
//
// Threading: the store's writer (the engine thread), like the desk. Errors: the store's, one line;
// a failed verdict is left for the next call.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <string_view>

#include "base/result.h"
#include "domain/callout/shadow_book.h"
#include "domain/callout/site_snapshot.h"
#include "domain/callout/trust_feedback.h"
#include "store/audit_log.h"
#include "store/store_runner.h"

namespace atoms::callout {

// One verdict on `row`, in `batch`: the row's verdict (ShadowBook::judge), the
// callout.shadow_judged entry by `actor` (with `why` when given) and, unless unknown, the trust
// budget's outcome through `feedback`. `source`: "time_clock", "schedule", "nobody", "panel".
// Errors: the row was judged already (nothing is written), the store's.
Status recordShadowVerdict(AuditLog::Batch& batch, Database& db, const ShadowRow& row,
                           ShadowVerdict verdict, const std::optional<std::string>& worker,
                           std::string_view source, std::string_view actor, std::string_view why,
                           TimePoint now, const TrustFeedback& feedback);

class ShadowJudge {
 public:
  // Every reference must outlive the judge.
  ShadowJudge(SiteSnapshot& site, atoms::StoreRunner& store, std::chrono::minutes grace,
              TrustFeedback feedback);

  // Judges every decision whose shift's grace ended by `now`, one transaction each; returns how
  // many were judged.
  Result<int> due(TimePoint now);
  // The earliest end of a grace not judged yet, or nullopt.
  Result<std::optional<TimePoint>> nextDue();

 private:
  Status judge(SiteStore& store, const ShadowRow& row, TimePoint now);

  SiteSnapshot& site_;
  atoms::StoreRunner& store_;
  std::chrono::minutes grace_;
  TrustFeedback feedback_;
};

}  // namespace atoms::callout
