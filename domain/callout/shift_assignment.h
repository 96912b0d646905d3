// Giving the shift (docs/callouts.md, "Taking it" and "The last check before a shift is given"):
// the taker is judged by the labor rules at the instant of the reply (verdictNow), and right
// before the shift is written the rules run once more against the schedule as stored then
// (act_check.h). When that passes, the shift is written to the taker in the same transaction as
// the receipt callout-<id>-assign (every evaluation, the gate, the premium, the approval if any),
// the call-out is covered, the others with an open offer are told, the lead is told, and the
// general manager too if they heard of the search. A cover the gate gave on its own is watched
// (cover_verifier.h). When it fails, nothing is given: the offer closes, the receipt
// callout-<id>-act-<offer> says why, BRK-SCH's listener is told and (no manager approved it) the
// taker's manager of record is texted.
//
// Contract: inside the step's batch; the rows in memory follow what is stored. Errors: store and
// engine errors, one line. Threading: the engine thread.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "base/result.h"
#include "domain/callout/callout_store.h"
#include "domain/callout/desk_context.h"
#include "domain/callout/desk_turn.h"
#include "domain/labor/schedule_change.h"
#include "domain/policy/policy_gate.h"

namespace atoms::callout {

// The labor rules' verdict on `personId` taking the call-out's shift at the step's instant, on the
// snapshot; nullopt when the engine has none for them.
Result<std::optional<labor::PersonVerdict>> verdictNow(const DeskContext& desk, DeskStep& step,
                                                       const CalloutRow& callout,
                                                       const std::string& personId);

// Writes the assignment of `offer`'s person, judged `verdict` under `gate` (`approvalId`: the
// manager's approval it carries out). Ok(false) when the check at Act found a labor-rule
// violation: nothing is written but the offer's close, its receipt and the texts above.
Result<bool> assignShift(const DeskContext& desk, DeskStep& step, CalloutRow& callout,
                         OfferRow& offer, const labor::PersonVerdict& verdict,
                         const policy::GateDecision& gate, std::optional<std::int64_t> approvalId);

}  // namespace atoms::callout
