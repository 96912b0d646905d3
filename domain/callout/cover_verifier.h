// CoverVerifier: verifies each cover the box gave on its own (issue 7; seed 001 section 6) once
// the outcome is known (judgeCover, cover_verdict.h), and tells the trust budget: verified
// (+1 to the function of shift.assign, staffing_scheduling) or a mismatch (-5). A cover a manager
// approved is not watched: it already counts as the proposal's outcome.
//
// The desk calls watch() in the transaction that writes an assignment the gate executed on its
// own; the row (table cover_check, migration 19) is judged once: due() records the verdict, its
// audit entry (callout.verification, with the evidence: the punch or the new call-out) and the
// trust outcome in one transaction, so a restart neither repeats nor loses it. Asking the lead
// about a cover who did not clock in is the no-show watch's (no_show_watch.h), not this class's.
//
// Threading: the store's writer (the engine thread). Errors: store errors, one line; a failed
// step is retried whole by the caller's timer.
#pragma once

#include <chrono>
#include <optional>
#include <string_view>

#include "base/result.h"
#include "domain/callout/callout_store.h"
#include "domain/callout/trust_feedback.h"
#include "store/database.h"
#include "store/store_runner.h"

namespace atoms::callout {

class CoverVerifier {
 public:
  // Starts watching `covered` (state covered, coveredBy set), given at `at` by a decision of kind
  // `kind` the gate executed on its own. In the caller's transaction; a second call for the same
  // call-out changes nothing.
  static Status watch(Database& db, const CalloutRow& covered, std::string_view kind, TimePoint at);

  // `timeClocks`: the site has time clocks (terminal.listen). `grace`:
  // callout.no_show_grace_minutes. `verified` may be empty (nothing is told; the verdict is still
  // recorded).
  CoverVerifier(atoms::StoreRunner& store, std::chrono::minutes grace, bool timeClocks,
                decltype(TrustFeedback::verification) verified);

  // Judges every watched cover due by `now`, one transaction each; returns how many were judged.
  Result<int> due(TimePoint now);
  // The earliest instant after `now` a watched cover is due (a cover whose shift has a newer
  // call-out is due at once), or nullopt. One point query per watched cover.
  Result<std::optional<TimePoint>> nextDue(TimePoint now);

 private:
  atoms::StoreRunner& store_;
  std::chrono::minutes grace_;
  bool timeClocks_;
  decltype(TrustFeedback::verification) verified_;
};

}  // namespace atoms::callout
