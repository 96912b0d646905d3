// How a call-out's search ends: the row leaves the open state (covered, withdrawn when the absent
// person turns up or the manager denies its offers, expired when its shift ends) with no wave or
// escalation due any more; and the offers still open or waiting for approval are closed, their
// people told when the caller says so ("... is covered now. Thanks anyway!", or not needed after
// all), and the call-out's pending approvals withdrawn.
//
// Contract: inside the step's batch; endCallout() changes the row in memory only (the caller
// stores it). Errors: store errors, one line. Threading: the engine thread.
#pragma once

#include <cstdint>

#include "base/result.h"
#include "domain/callout/callout_store.h"
#include "domain/callout/desk_context.h"
#include "domain/callout/desk_turn.h"

namespace atoms::callout {

// `callout` is closed at `at` in `state`: nothing more is due for it.
void endCallout(CalloutRow& callout, CalloutState state, TimePoint at);

// Closes the call-out's open and awaiting offers except `exceptOffer` (0: none) and withdraws its
// pending approvals; `tell`: each person whose offer closed is texted, in words that depend on
// whether the call-out was covered.
Status closeOffers(const DeskContext& desk, DeskStep& step, const CalloutRow& callout,
                   std::int64_t exceptOffer, bool tell);

}  // namespace atoms::callout
