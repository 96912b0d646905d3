// Escalation (docs/callouts.md, "Escalation"): no cover yet, so a person must know. The general
// manager (`callout.general_manager`, else the site contact) gets "still no cover for ... Receipt
// N. Can you help?" with the seq of the receipt callout-<id>-escalate (the offers made so far, why,
// the gate), and the lead hears that they were told. Asked after `callout.escalate_after_minutes`
// by the timers, at once when nobody can be offered the shift or the gate keeps the offers back.
//
// Contract: inside the step's batch; the row's escalatedAt is set and escalateAt cleared in memory
// (the caller stores it). Errors: store errors, one line. Threading: the engine thread.
#pragma once

#include <string>
#include <string_view>

#include "base/result.h"
#include "domain/callout/callout_store.h"
#include "domain/callout/desk_context.h"
#include "domain/callout/desk_turn.h"

namespace atoms::callout {

// `why`: one line for the receipt ("nobody can take it now").
Status escalate(const DeskContext& desk, DeskStep& step, CalloutRow& callout, std::string_view why);

// Who the escalation texts, as the lead hears it: the general manager's name ("the manager" when
// the site file gives none); empty when there is nobody with a phone to text, so that the lead is
// never told a person knows when none was told.
std::string escalatedTo(const sms::conversation::HumanContact& generalManager);

}  // namespace atoms::callout
