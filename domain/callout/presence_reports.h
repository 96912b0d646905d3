// What a person says about their own presence (docs/callouts.md, "What people can text"):
// - "I'm here" from the absent person of an open call-out: the search stops (withdrawn), the
//   open offers are withdrawn with a text to each, the lead is told; if someone already took the
//   shift, the lead is asked to sort it out (two people, one shift: a person decides).
// - "running 15 min late": their lead (the roster's human contact for them) is told; nothing else
//   changes.
// A shift that starts without a clock-in is the no-show watch's (no_show_watch.h).
//
// Contract: inside the turn's batch. Errors: store errors, one line. Threading: the engine thread.
#pragma once

#include <optional>

#include "base/result.h"
#include "domain/callout/desk_context.h"
#include "domain/callout/desk_turn.h"
#include "sms/conversation/roster.h"

namespace atoms::callout {

Result<DeskAnswer> personArrived(const DeskContext& desk, DeskStep& step,
                                 const sms::conversation::Contact& person);
// `minutes`: how late they said, if they did.
Result<DeskAnswer> personRunningLate(const DeskContext& desk, DeskStep& step,
                                     const sms::conversation::Contact& person,
                                     std::optional<int> minutes);

}  // namespace atoms::callout
