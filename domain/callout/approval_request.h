// Asking for an approval (docs/callouts.md, "Approvals"), and its lapse. A PROPOSE_CONFIRM item
// (a taker whose shift would cost a premium, a shift.assign or the call-out's offers under
// PROPOSE) is written as an approval row for the manager of record of the person it is about
// (never that person; else the general manager or the site contact), with its receipt
// approval-<id>-request (the evaluations and the premium: the evidence the approvals API shows),
// and the approver is texted "Approval 12: ... Reply APPROVE 12 or DENY 12." Nothing runs before
// the answer; the search goes on meanwhile. An approval lapses after
// `callout.approval_expiry_minutes` or at the shift's end: its offer closes and the person hears
// it was not approved.
//
// Contract: inside the step's batch. Errors: store errors, one line. Threading: the engine thread.
#pragma once

#include <optional>
#include <string>

#include "base/result.h"
#include "domain/callout/callout_store.h"
#include "domain/callout/desk_context.h"
#include "domain/callout/desk_turn.h"
#include "domain/labor/schedule_change.h"
#include "domain/policy/policy_gate.h"

namespace atoms::callout {

// Queues `kind` ("overtime.approve", "shift.assign" for `offer`; "callout.offer" for the call-out,
// `offer` unused) for the approver; the offer waits for approval. `gate`: the caller's decision for
// `kind` in this step, shown in the receipt; nullopt asks the gate here. Asking once keeps each
// decision counted once. Returns what the taker (or, for the offers, the lead) is told.
Result<DeskAnswer> requestApproval(const DeskContext& desk, DeskStep& step,
                                   const CalloutRow& callout, OfferRow& offer,
                                   const labor::PersonVerdict& verdict, const std::string& kind,
                                   std::optional<policy::GateDecision> gate);

// Lapses a pending approval: its offer is closed and the person told it was not approved.
Status expireApproval(const DeskContext& desk, DeskStep& step, ApprovalRow& approval);

}  // namespace atoms::callout
