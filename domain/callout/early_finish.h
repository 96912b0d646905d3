// Letting someone finish early today (issue 19 item 6, an intraday "cut" approved by a manager;
// docs/forecast.md "During the day"). The shift's end in the published schedule moves to the new
// end, the labor change engine judges the cut at this instant (its Fair Workweek premium is
// recorded, never hidden), and the person is texted kindly with the new end, the premium they are
// still owed and whom to ask, through Outreach like every text (consent, quiet hours, caps).
//
// Refused (kRefused, nothing changed) when the schedule moved on since the cut was proposed: the
// shift is gone, is someone else's, ends at another time than `scheduledEnd`, or the new end is
// not after now and after the start; and when the change engine denies the cut.
//
// Contract: inside the step's batch (the site rows, the audit entry schedule.early_finish and the
// text commit together). Errors: refusals above, store and engine errors, one line.
// Threading: the engine thread.
#pragma once

#include <cstdint>
#include <string>

#include "base/result.h"
#include "domain/callout/desk_context.h"
#include "domain/callout/desk_turn.h"
#include "domain/site/site_model.h"
#include "sms/conversation/outreach.h"

namespace atoms::callout {

struct EarlyFinish {
  std::string shiftId;
  std::string personId;
  site::Instant scheduledEnd{};  // the end the manager saw (UTC)
  site::Instant newEnd{};
  std::string ref;  // what asked for it ("intraday-proposal-7"), the text's id and source
};

struct EarlyFinishDone {
  std::int64_t premiumCents = 0;
  std::int64_t premiumMinutes = 0;
  sms::conversation::OutreachResult text;  // what became of the person's text
};

Result<EarlyFinishDone> finishEarly(const DeskContext& desk, DeskStep& step,
                                    const EarlyFinish& finish, const std::string& approverId);

}  // namespace atoms::callout
