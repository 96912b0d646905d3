// What is due when for the call-outs (docs/callouts.md, "The flow", 6-8), run by the engine's
// timer at nextCalloutDue(): approvals past their expiry lapse (approval_request.h); for each open
// call-out whose shift has ended, the search closes (callout.expired, offers closed without a
// text); else the next wave goes out when its interval has passed, if the gate allows it now
// (offer_wave.h; otherwise callout.wave_paused and it is looked at again next interval), and the
// general manager is told once `callout.escalate_after_minutes` passed without cover
// (escalation.h). Everything is read from the store, so a restarted box resumes each call-out where
// it stood.
//
// Contract: each step is its own transaction (one per approval, one per call-out), committed
// before the next; a failing step stops the run, its batch is dropped and the snapshot is
// invalidated (it may have given a shift away in memory). Threading: the store's writer, through
// the StoreRunner. Errors: store and engine errors, one line.
#pragma once

#include <optional>

#include "base/result.h"
#include "domain/callout/desk_context.h"
#include "store/store_runner.h"

namespace atoms::callout {

// Takes every step due by `now`; returns how many were taken.
Result<int> runDueCallouts(const DeskContext& desk, atoms::StoreRunner& store, TimePoint now);
// The earliest instant something is due: a wave, an escalation, an approval's expiry; nullopt:
// nothing.
Result<std::optional<TimePoint>> nextCalloutDue(atoms::StoreRunner& store);

}  // namespace atoms::callout
