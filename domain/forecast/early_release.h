// Letting someone go early when the day runs slow (issue 19 item 6): which shift at the station
// would end early, and what that costs under the site's Fair Workweek rules, as the labor change
// engine counts it (domain/labor/schedule_change.h: a CutShift evaluated at `now`).
//
// The shift is one that is under way at the station (started, assigned, ending after the new end),
// the one ending last (then by id), and only when more people are on shift there than the
// station's minimum crew. Its new end is the next quarter hour after `now` plus 15 minutes, so the
// person has time to finish up. Pure over its inputs; the evaluator's contract applies (it and
// the model must not change meanwhile).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "base/result.h"
#include "domain/labor/schedule_change.h"
#include "domain/site/site_model.h"

namespace atoms::forecast {

struct EarlyRelease {
  std::string shiftId;
  std::string personId;
  site::Stamp scheduledEnd;
  site::Stamp newEnd;
  std::int64_t premiumCents = 0;  // what the cut adds (the change engine's premiums)
  std::int64_t premiumMinutes = 0;
  std::vector<std::string> approvers;  // managers of record owed the decision, when a premium
};

// nullopt: nobody can go (no shift under way that ends after the new end, or no more people on
// shift than `minimumHeads`). Errors: the change engine's, naming the shift.
Result<std::optional<EarlyRelease>> quoteEarlyRelease(const labor::ChangeEvaluator& evaluator,
                                                      const site::SiteModel& model,
                                                      const site::TimeZone& zone,
                                                      const std::string& stationId,
                                                      int minimumHeads, site::Instant now);

}  // namespace atoms::forecast
