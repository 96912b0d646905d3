// TrustFeedback: what the call-out flow tells the policy side about its own decisions and about
// how managers received its proposals, for the trust budget of each function (seed 001 section
// 6; domain/policy/trust_budget.h). The call-out code calls it without knowing who listens; in
// `serve` the policy service does (policy::PolicyService::recordDecision, recordProposalOutcome,
// recordShadowOutcome, recordVerification; domain/policy/policy_service.h).
//
// Threading: called on the store's writer (the engine thread), inside the turn's open batch, so
// what the listener records commits (or is dropped) with the event. Errors: the listener's own to
// log; evidence that cannot be recorded never stops a call-out. Any member may be empty.
#pragma once

#include <functional>
#include <optional>
#include <string_view>

#include "base/clock.h"
#include "domain/policy/policy_gate.h"
#include "domain/policy/trust_budget.h"
#include "store/audit_log.h"

namespace atoms::callout {

struct TrustFeedback {
  // The box is about to ask the gate about `action`, which it originates itself (automated), at
  // `at`: one decision of the action's function. Called before the gate decides, so the gate
  // already sees what counting it changed.
  std::function<void(AuditLog::Batch& batch, TimePoint at, const policy::ProposedAction& action)>
      decision;
  // The approver approved (true) or denied one of the box's proposals: an approval of action kind
  // `kind` ("callout.offer", "overtime.approve"); `ref` names it ("approval-12"). A denial may
  // carry the override reason the person gave (the proposal was wrong, not merely declined).
  std::function<void(AuditLog::Batch& batch, TimePoint at, std::string_view kind, bool approved,
                     std::optional<policy::OverrideReason> overrideReason, std::string_view ref)>
      proposal;
  // A person made the same call as one of the box's shadow decisions of kind `kind` (agreed) or
  // another one (the person who worked the shift was ruled out or not considered); `ref` names it
  // ("callout-12-shadow"). Only crisp outcomes are told: who clocked in, or a manager's verdict.
  std::function<void(AuditLog::Batch& batch, TimePoint at, std::string_view kind, bool agreed,
                     std::string_view ref)>
      shadow;
  // A decision of kind `kind` the gate executed on its own was verified (kAutonomousVerified) or
  // found wrong (kVerificationMismatch) by what followed (callout::CoverVerifier); `ref` names it
  // ("callout-7").
  std::function<void(AuditLog::Batch& batch, TimePoint at, std::string_view kind,
                     policy::TrustOutcome outcome, std::string_view ref)>
      verification;
};

}  // namespace atoms::callout
