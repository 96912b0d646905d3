// A wave of offers (docs/callouts.md, "Waves"): up to `callout.wave_size` of the ranked candidates
// (wave_candidates.h) each get an offer with their own reply code, one offer row per person and
// call-out (nobody is asked twice), and the wave's receipt callout-<id>-wave-<n> names who was
// offered with their ranking facts, who was not and why, and the gate. The next wave is due
// `callout.wave_interval_minutes` later while nobody has taken it.
//
// Contract: inside the step's batch; sendWave() updates the call-out row in memory (waves,
// nextWaveAt), the caller stores it. Errors: store and engine errors, one line. Threading: the
// engine thread.
#pragma once

#include "base/result.h"
#include "domain/callout/callout_store.h"
#include "domain/callout/desk_context.h"
#include "domain/callout/desk_turn.h"
#include "domain/policy/policy_gate.h"

namespace atoms::callout {

// Whether offers may go out under `gate`. Held offers (the L1 freeze) are held by Outreach, never
// dropped: they may be queued.
bool offersMayGo(const policy::GateDecision& gate);

// Whether a wave after the first may go out under `gate` (asked at the wave's time): offers may
// go, or PROPOSE and the manager already approved this call-out's offers (that APPROVE covers the
// later waves too).
Result<bool> laterWaveAllowed(CalloutStore& rows, const CalloutRow& callout,
                              const policy::GateDecision& gate);

// Sends the next wave as `gate` allowed it (recorded in the wave's receipt); returns how many
// offers went out (queued or held). `first`: the wave that opens the search (its rationale says
// so).
Result<int> sendWave(const DeskContext& desk, DeskStep& step, CalloutRow& callout,
                     const policy::GateDecision& gate, bool first);

}  // namespace atoms::callout
