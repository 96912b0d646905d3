// The shadow decision of a call-out (staffing_scheduling at SHADOW; docs/callouts.md): whom a
// first wave would offer the shift to, in the same way and order as a real wave
// (wave_candidates.h), everyone it would offer with their ranking facts, and whom it rules out
// and why, recorded in the ShadowBook with its signed receipt callout-<id>-shadow. Nothing is sent
// and no offer row is written; the verdict comes later (shadow_judge.h, or a manager).
//
// Contract: inside the step's batch. Errors: store and engine errors, one line. Threading: the
// engine thread.
#pragma once

#include "base/result.h"
#include "domain/callout/callout_store.h"
#include "domain/callout/desk_context.h"
#include "domain/callout/desk_turn.h"
#include "domain/policy/policy_gate.h"

namespace atoms::callout {

// `gate`: the decision that kept the offers back, shown in the receipt.
Status recordShadow(const DeskContext& desk, DeskStep& step, const CalloutRow& callout,
                    const policy::GateDecision& gate);

}  // namespace atoms::callout
