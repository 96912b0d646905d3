// A report that someone cannot work opens a call-out (docs/callouts.md, "The flow", 1-4): the
// absent person's current shift, or their next one within `callout.lookahead_hours`, is found;
// one call-out per shift (a second report hears "I'm already finding cover"). The call-out row,
// its callout.open entry and a handoff.checkin for the people side (a kind check-in, never a
// disciplinary record) are written; then the gate's answer for callout.offer decides what follows:
// - offers may go: the first wave (offer_wave.h); the reporter hears how many people were asked,
//   or that the offers wait for outreach to be back on (kill switch L1); nobody to offer: the
//   general manager is told (escalation.h);
// - PROPOSE: the manager is asked to approve the offers first (approval_request.h);
// - anything else (SHADOW: the shadow decision is recorded, shadow_record.h; L2/L3): no offer
//   leaves and the general manager is told at once.
//
// Contract: inside the turn's batch. Errors: store and engine errors, one line; the caller's batch
// is then dropped. Threading: the engine thread.
#pragma once

#include <string_view>

#include "base/result.h"
#include "domain/callout/callout_store.h"
#include "domain/callout/desk_context.h"
#include "domain/callout/desk_turn.h"
#include "sms/conversation/roster.h"

namespace atoms::callout {

// `absentId` cannot work: reported by `reporter` about someone else, by the person themselves
// (origin kSelf), or a lead confirming a no-show the time clock noticed.
Result<DeskAnswer> openCallout(const DeskContext& desk, DeskStep& step,
                               const sms::conversation::Contact& reporter,
                               std::string_view absentId, CalloutOrigin origin);

// The call-out for `shift` itself, once it is known that none is open for it: the row, its
// callout.open entry, the check-in (when someone is out: `absentId` empty for an extra shift,
// extra_shift.h) and the search. `reporter` hears how it goes.
Result<DeskAnswer> openSearch(const DeskContext& desk, DeskStep& step,
                              const sms::conversation::Contact& reporter, const site::Shift& shift,
                              std::string_view absentId, CalloutOrigin origin);

}  // namespace atoms::callout
