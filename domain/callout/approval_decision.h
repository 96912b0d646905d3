// Deciding an approval (docs/callouts.md, "Approvals"): APPROVE n / DENY n by text, or a manager
// signed in to the approvals API (approval_book.h), through the one path here so both apply the
// same rules, write the same rows and send the same texts. Only the approver named on the request
// decides it (by text: from the approver's number); the person it is about never does (even if
// they are a manager); the policy gate is asked, and on APPROVE again as at Act (an open breaker
// holds it); an approval past its expiry lapses here as the timer would. Refusals are audited
// (approval.refused) and change nothing else. A decision is audited (approval.decided), told to
// the trust budget as the outcome of the box's proposal, and carried out: the call-out's first
// wave (APPROVE of its offers), the lead told (DENY of them), or the shift given to the taker after
// the labor rules pass once more (shift_assignment.h) and the taker told.
//
// Contract: inside the turn's batch. Errors: store and engine errors, one line; the caller's batch
// is then dropped. Threading: the engine thread.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "base/canonical_json.h"
#include "base/result.h"
#include "domain/callout/desk_context.h"
#include "domain/callout/desk_turn.h"
#include "domain/policy/trust_budget.h"
#include "sms/conversation/roster.h"

namespace atoms::callout {

// Who decides an approval: the sender of an APPROVE/DENY text, or a manager signed in to the
// approvals API (docs/api.md), who has no phone here: the person id alone names them.
struct Decider {
  std::string personId;  // empty: a number not on the roster
  std::string phone;     // the text's sender; empty on the API
  std::string via;       // "sms" or "api", for the audit entries
};

// Who decided and how, for the entries of a refused decision (approvals here, workers' requests in
// domain/requests/): via, from (the sender's number masked; null on the API), person, inbox (the
// text's row; null on the API).
json::Object deciderFacts(const Decider& who, std::optional<std::int64_t> inboxId);

// A person's answer to an approval. `overrideReason` (a deny only; the panel gives one, a DENY
// text does not): why the box's proposal was wrong, seed 001 section 6's override, which costs the
// function trust (BAD_TIMING, TONE -1; WRONG_FACTS, WRONG_JUDGMENT -3).
struct ApprovalAnswer {
  bool approve = false;
  std::string remark;
  std::optional<policy::OverrideReason> overrideReason;
};

// How a decision ended, for callers that answer other than by text (the approvals API).
enum class DecisionOutcome {
  kApproved,                 // recorded and carried out (the shift given, the offers sent)
  kApprovedTooLate,          // recorded, but the call-out was no longer open: nothing given
  kApprovedDeniedOnRecheck,  // recorded, but a labor rule denies it now: nothing given
  kDenied,                   // recorded; the person was told
  kRefusedSelf,              // the person it is about: nothing changed (approval.refused)
  kRefusedNotApprover,       // anyone but the approver named on it: nothing changed (audited)
  kRefusedPolicy,            // the policy gate refuses approvals now: nothing changed (audited)
  kClosed,                   // already decided, withdrawn or expired (now, if it just lapsed)
  kUnknown,                  // no such approval
};
std::string_view decisionOutcomeName(DecisionOutcome o);  // "approved", "refused_policy", ...

struct Decision {
  DecisionOutcome outcome = DecisionOutcome::kUnknown;
  DeskAnswer answer;  // the reply to the decider, as the SMS path texts it
};

// `who` answers approval `approvalId`.
Result<Decision> decideApproval(const DeskContext& desk, DeskStep& step, const Decider& who,
                                std::int64_t approvalId, const ApprovalAnswer& answer);

// APPROVE/DENY `reference` by text from `sender`: a reference that is not a number gets "which
// one?"; else decideApproval() for the sender.
Result<DeskAnswer> decideByText(const DeskContext& desk, DeskStep& step,
                                const sms::conversation::Contact& sender,
                                std::string_view reference, bool approve, std::string_view remark);

}  // namespace atoms::callout
