// The work that labor against sales counts (labor_vs_sales.h), read from the site model: the
// published schedule's assigned shifts with the premiums the labor engine computes on them, and
// the stretches on the clock from the time clock's punches.
//
// Contract: pure functions of the model (and the engine context built over it); nothing reads a
// clock. Errors are values naming the shift (an evaluation the engine refuses). Thread-safe as
// LaborContext::evaluate.
// - Scheduled: each assigned shift meeting [from, to), at its person's rate, with extraCents the
//   engine's verdict for it (Scope::kEarlierShifts: each overtime hour or short rest counted
//   once, on the shift that causes it). Open shifts cost nothing yet.
// - Actual: clock_in (or break_end) to break_start (or clock_out); punched breaks are unpaid
//   meal periods (the engine's default reading, LaborOptions); a stretch still open ends at
//   `now`. A punch out of order (a clock_out with nothing open) is skipped. A stretch carries
//   the premium of the person's shifts it covers pro rata: a premium accrues as its shift is
//   worked.
#pragma once

#include <vector>

#include "base/result.h"
#include "domain/labor/labor_engine.h"
#include "domain/pos/labor_vs_sales.h"
#include "domain/site/site_model.h"

namespace atoms::pos {

Result<std::vector<WorkSpan>> scheduledSpans(const labor::LaborContext& ctx, site::Instant from,
                                             site::Instant to);

std::vector<WorkSpan> actualSpans(const site::SiteModel& model,
                                  const std::vector<WorkSpan>& scheduled, site::Instant from,
                                  site::Instant to, site::Instant now);

}  // namespace atoms::pos
