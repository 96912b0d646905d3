// One more person on the floor today (issue 19 item 6, an intraday "add" approved by a manager;
// docs/forecast.md "During the day"): an open shift at the station is added to the published
// schedule, in a schedule version of its own published now (so the Fair Workweek rules judge
// whoever takes it as a late addition), and a call-out searches for someone to take it, exactly
// as for a shift someone cannot work (callout_report.h's openSearch, origin extra_shift, nobody
// absent): the same waves, ranking, labor checks, gate and texts. The manager who approved it
// hears how the search goes, as a lead would.
//
// The shift starts at the next quarter hour at least kExtraShiftLead from now (time to come in)
// and runs kExtraShiftLength, cut at the station's last scheduled end today when that comes
// later than kMinExtraShift after the start. Its id is "extra-<proposal>".
//
// Contract: inside the step's batch (the site rows, the call-out, its texts commit together).
// Errors: an unknown station or requester; store and engine errors, one line.
// Threading: the engine thread.
#pragma once

#include <chrono>
#include <string>

#include "base/result.h"
#include "domain/callout/desk_context.h"
#include "domain/callout/desk_turn.h"
#include "domain/site/site_model.h"

namespace atoms::callout {

inline constexpr std::chrono::minutes kExtraShiftLead{30};
inline constexpr std::chrono::hours kExtraShiftLength{4};
inline constexpr std::chrono::hours kMinExtraShift{2};

// The shift `openExtraShift` would add at `stationId` for the step's instant (not stored).
Result<site::Shift> extraShiftAt(const DeskContext& desk, const std::string& stationId,
                                 const std::string& shiftId, site::Instant now);

// Adds the shift and opens its call-out; `requesterId` (the approving manager) is told.
Result<DeskAnswer> openExtraShift(const DeskContext& desk, DeskStep& step,
                                  const std::string& requesterId, const site::Shift& shift);

}  // namespace atoms::callout
