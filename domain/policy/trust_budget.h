// TrustBudget: one function's earned autonomy (seed 001 section 6, "The trust budget"; issue 7
// item 4; operator page docs/policy-gate.md, "Trust budget") as a pure state machine. The store
// of every function's budget, with its audit entries, is TrustStore (trust_store.h).
//
// - Trust is 0..100, kept in half points (a "useful" tap is +0.5). Credits and debits are the
//   seed's table: AUTONOMOUS decision verified +1 (at most +10 a day), proposal approved without
//   edit +2, shadow decision a person agreed with +1 (at most +10 a day), "useful" tap +0.5 (at
//   most +5 a day), override for BAD_TIMING or TONE -1, for WRONG_FACTS or WRONG_JUDGMENT -3,
//   verification MISMATCH -5, SEV3 -10, SEV2 -25, SEV1 trust 0 and SHADOW. A day is the sliding
//   24 h before the credit, as the breakers count days.
// - Regression is automatic and immediate: AUTONOMOUS -> PROPOSE when trust < 40, on a trip of
//   the function's breaker, or on a SEV2; PROPOSE -> SHADOW when trust < 10; any level -> SHADOW
//   on a SEV1. The owner may regress a function to any lower level at any time.
// - Advancement is never automatic: eligibility() lists every condition of the next step with its
//   value (the evidence of the owner's graduation.advance), advance() takes the step only when
//   every condition holds and the owner confirmed. Entering a level clears that level's evidence
//   window (shadow decisions for SHADOW, proposals for PROPOSE): evidence is what the function
//   did during its current stay. After a regression (automatic or the owner's) the next advance
//   also needs 14 days at the level it fell to (hysteresis).
// - Inactivity: a decision of an AUTONOMOUS function after 30 days with fewer than 10 decisions
//   starts an inactivity hold (PROPOSE is not held lower: decision 0010):
//   the function acts one level below its earned level until 20 clean decisions (verified
//   autonomous, approved without edit, shadow agreement) accrue, then returns to it. A debit
//   during the hold starts the count again; any regression ends the hold. Only time since the
//   budget began counts: a budget younger than 30 days is new, not inactive.
// - A budget begins in SHADOW with trust 0 (the seed), or at the level the owner configured at
//   installation with the trust that level's entry needs (PROPOSE 20, AUTONOMOUS 60;
//   docs/decisions/0010-trust-budget-start-and-ceiling.md).
// - The seed's "calibration ECE < 0.10" is listed as not applicable: nothing on this box is a
//   model with a calibration (docs/decisions/0009-trust-budget-on-the-box.md).
//
// Every call returns what changed (trust, graduation, each with its reason) for the caller to
// audit; this class writes nothing. Time is passed in, truncated to the millisecond; a time
// earlier than the latest one seen is taken as the latest. Outcomes are not checked against the
// level a decision was made at (a verification may arrive after the level changed).
// Threading: none (one owner thread, the engine thread). Errors: values, one line.
#pragma once

#include <array>
#include <chrono>
#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/canonical_json.h"
#include "base/clock.h"
#include "base/result.h"
#include "domain/policy/action_classes.h"

namespace atoms::policy {

// Seed 001 section 6 numbers. Trust is in half points: 200 is 100.
inline constexpr int kTrustMaxHalves = 200;
inline constexpr int kProposeTrustHalves = 40;       // SHADOW -> PROPOSE: trust >= 20
inline constexpr int kAutonomousTrustHalves = 120;   // PROPOSE -> AUTONOMOUS: trust >= 60
inline constexpr int kAutonomousFloorHalves = 80;    // AUTONOMOUS -> PROPOSE: trust < 40
inline constexpr int kProposeFloorHalves = 20;       // PROPOSE -> SHADOW: trust < 10
inline constexpr int kShadowWindow = 100;            // agreement over the last 100 ...
inline constexpr int kMinShadowDecisions = 50;       // ... and at least 50 shadow decisions
inline constexpr int kShadowAgreementPercent = 80;   // ... >= 80 %
inline constexpr int kProposalWindow = 100;          // the last 100 proposals
inline constexpr int kApprovedUneditedPercent = 90;  // ... >= 90 % approved without edit
inline constexpr int kInactiveBelowDecisions = 10;   // fewer than 10 decisions in 30 days
inline constexpr int kCleanDecisionsToResume = 20;   // 20 clean decisions end the hold
inline constexpr std::chrono::hours kMinDaysAtLevel{24 * 14};  // listening, PROPOSE, hysteresis
inline constexpr std::chrono::hours kSevWindow{24 * 30};
inline constexpr std::chrono::hours kInactivityWindow{24 * 30};
inline constexpr std::chrono::hours kCapWindow{24};

// The trust a level's entry needs: SHADOW 0, PROPOSE 20, AUTONOMOUS 60 (in half points).
int entryTrustHalves(Graduation level);

// "57.5", "20", "0" for a trust in half points; signedTrustText: "+1", "-0.5", "0" for a move.
std::string trustText(int halves);
std::string signedTrustText(int halves);

// The outcome of one of the function's decisions, or a person's reaction to it.
enum class TrustOutcome {
  kAutonomousVerified,        // +1, capped 10/day: verified, positive or unknown without complaint
  kProposalApprovedUnedited,  // +2; a proposal approved without edit
  kProposalEdited,            // 0; approved after an edit (counts against the 90 %)
  kProposalDeclined,          // 0; not approved (the override, if any, is recorded on its own)
  kShadowAgreed,              // +1, capped 10/day; a person decided as the shadow decision said
  kShadowDisagreed,           // 0; counts against the 80 %
  kUsefulTap,                 // +0.5, capped 5/day; a person tapped "useful" on a message
  kVerificationMismatch,      // -5; a MISMATCH that needed compensation
};
// "autonomous_verified", "proposal_approved_unedited", ... and back.
std::string_view trustOutcomeName(TrustOutcome o);
std::optional<TrustOutcome> trustOutcomeFromName(std::string_view name);

// Seed 001 override reasons.
enum class OverrideReason { kBadTiming, kTone, kWrongFacts, kWrongJudgment };
// "BAD_TIMING", "TONE", "WRONG_FACTS", "WRONG_JUDGMENT" and back.
std::string_view overrideReasonName(OverrideReason r);
std::optional<OverrideReason> overrideReasonFromName(std::string_view name);

// A move of trust. Not reported when nothing moved (a credit fully capped, a debit at 0).
struct TrustChange {
  std::string event;        // "shadow_agreed", "override", "sev2", ...: the row of the seed's table
  std::string detail;       // the override reason, the SEV id; else empty
  int requestedHalves = 0;  // the table's delta (SEV1: minus the trust it had)
  int appliedHalves = 0;    // after the daily cap and the 0..100 bounds
  int beforeHalves = 0;
  int afterHalves = 0;
  bool capped = false;  // the daily cap cut the credit
  // "trust 21 -> 22 (shadow_agreed +1)", "... (+0.5 of +1: daily cap of +10 reached)".
  std::string describe() const;
};

enum class GraduationCause {
  kStarted,          // the function's budget begins, in SHADOW
  kConfigured,       // it begins at the level the owner configured at installation
  kRegression,       // automatic: trust floor, breaker trip, SEV
  kOwnerRegression,  // the owner narrowed it
  kAdvance,          // the owner's confirmed graduation.advance
  kInactivityHold,   // acts one level lower after a quiet stretch
  kHoldEnded,        // 20 clean decisions since: back to the earned level
};
// "started", "configured", "regression", "owner_regression", "advance", "inactivity_hold",
// "hold_ended".
std::string_view graduationCauseName(GraduationCause c);

// One condition of an advancement, with the value it was judged on.
struct GraduationCondition {
  enum class Status { kMet, kUnmet, kNotApplicable };
  std::string name;      // "trust", "shadow_agreement", "calibration_ece", ...
  std::string required;  // ">= 20", ">= 80%", "< 0.10"
  std::string actual;    // "23.5", "82% (41 of 50)", "not applicable: ..."
  Status status = Status::kUnmet;
  // {"name", "required", "actual", "status": "met" | "unmet" | "not_applicable"}.
  json::Value toJson() const;
};

// Can the function's earned level advance, and on what evidence.
struct Eligibility {
  std::string function;
  Graduation from = Graduation::kShadow;
  std::optional<Graduation> to;  // nullopt at AUTONOMOUS: there is no next level
  bool eligible = false;         // every applicable condition met (the owner's tap aside)
  std::vector<GraduationCondition> conditions;
  // "staffing_scheduling SHADOW -> PROPOSE: eligible" / "...: not eligible (trust 18.5, needs
  // >= 20; ...)" / "staffing_scheduling is AUTONOMOUS: no higher level".
  std::string describe() const;
  // {"function", "from", "to", "eligible", "conditions": [...]} (no "to" at AUTONOMOUS).
  json::Value toJson() const;
};

// A move of graduation. `from`/`to` are the effective levels (what the gate uses), `earnedFrom`/
// `earnedTo` the earned ones; an inactivity hold moves only the effective level, a regression
// during a hold may move only the earned one.
struct GraduationChange {
  GraduationCause cause = GraduationCause::kRegression;
  Graduation from = Graduation::kShadow;
  Graduation to = Graduation::kShadow;
  Graduation earnedFrom = Graduation::kShadow;
  Graduation earnedTo = Graduation::kShadow;
  std::string reason;  // "trust 38 < 40", "breaker BRK-SCH tripped", "SEV2 sev-12", ...
  TimePoint at;
  // kAdvance: the eligibility it was taken on; else empty.
  std::vector<GraduationCondition> evidence;
  // "regression AUTONOMOUS -> PROPOSE: breaker BRK-SCH tripped".
  std::string describe() const;
};

// A SEV attributed to the function (seed 001 section 5).
struct Sev {
  std::string id;
  int level = 4;  // 1..4
  TimePoint at;
  std::optional<TimePoint> closedAt;
};

// What one call changed.
struct TrustUpdate {
  std::optional<TrustChange> trust;
  std::vector<GraduationChange> graduation;  // in order
  std::optional<Sev> sev;                    // recordSev: as recorded; closeSev: as closed
  bool empty() const { return !trust && graduation.empty() && !sev; }
};

// An override of one of the function's decisions.
struct OverrideRecord {
  TimePoint at;
  OverrideReason reason = OverrideReason::kBadTiming;
};

// The inactivity hold: the function acts one level below its earned level.
struct InactivityHold {
  TimePoint since;
  int cleanDecisions = 0;  // since the hold began (or since the last debit)
};

class TrustBudget {
 public:
  // A function's budget beginning at `start`: at `level` (SHADOW unless the owner configured
  // another level at installation) with the trust that level's entry needs (0, 20 or 60). The
  // box's listening (reading the site without deciding) ends when it starts deciding, so
  // listening ended at `start`. Errors: `function` is not a seed 000 ManagementFunction.
  static Result<TrustBudget> start(std::string_view function, TimePoint start,
                                   Graduation level = Graduation::kShadow);
  // The state toJson() wrote. Errors name the field; nothing is half-loaded.
  static Result<TrustBudget> fromJson(const json::Value& state);
  // The whole state (times as Unix milliseconds), for the store.
  json::Value toJson() const;

  const std::string& function() const { return function_; }
  int trustHalves() const { return trustHalves_; }
  Graduation earned() const { return earned_; }
  // What the gate should use: the earned level, one lower during an inactivity hold.
  Graduation effective() const;
  TimePoint since() const { return since_; }  // when the earned level began
  TimePoint listeningEnded() const { return listeningEnded_; }
  std::optional<TimePoint> lastRegression() const { return lastRegression_; }
  const std::optional<InactivityHold>& hold() const { return hold_; }
  const std::vector<Sev>& sevs() const { return sevs_; }     // open ones, and those of 30 days
  std::int64_t decisions() const { return decisionCount_; }  // every decision ever recorded
  const std::vector<OverrideRecord>& overrides() const { return overrides_; }  // of 30 days
  // When the owner was last told the function may advance (graduation.eligible); nullopt: never.
  std::optional<TimePoint> eligibleNoticed() const { return eligibleNoticed_; }
  // The owner is told now that the function may advance (the caller audits what it told).
  TrustUpdate noteEligibleNoticed(TimePoint at);

  // The box made a decision for the function. Call it before the gate decides, then read
  // effective(): the decision that resumes after inactivity already runs one level lower.
  TrustUpdate recordDecision(TimePoint at);
  TrustUpdate recordOutcome(TimePoint at, TrustOutcome outcome);
  TrustUpdate recordOverride(TimePoint at, OverrideReason reason);
  // A SEV attributed to the function: SEV3 -10, SEV2 -25 and AUTONOMOUS -> PROPOSE, SEV1 trust 0
  // and SHADOW; SEV4 changes nothing (it is not recorded). Errors (nothing changes): a level
  // outside 1..4, an empty id, an id already recorded.
  Result<TrustUpdate> recordSev(TimePoint at, std::string_view id, int level);
  // The SEV's review closed it (it stops blocking SHADOW -> PROPOSE). Errors: unknown, or closed.
  Result<TrustUpdate> closeSev(TimePoint at, std::string_view id);
  // The function's breaker tripped (Closed or HalfOpen -> Open): AUTONOMOUS -> PROPOSE.
  TrustUpdate breakerTripped(TimePoint at, std::string_view breaker);
  // The owner narrows the function to `to`. Errors: `to` is not below the earned level, an empty
  // reason.
  Result<TrustUpdate> ownerRegress(TimePoint at, Graduation to, std::string_view reason);

  // The next step and every condition of it at `at`. Const: nothing is recorded.
  Eligibility eligibility(TimePoint at) const;
  // Takes the next step. Errors (nothing changes): no higher level, a condition not met (named
  // with its value), no owner confirmation (graduation.advance is PROPOSE_CONFIRM to the owner).
  Result<TrustUpdate> advance(TimePoint at, bool ownerConfirmed);

 private:
  enum class Cap { kAutonomousVerified, kShadowAgreed, kUsefulTap };
  struct Grant {
    TimePoint at;
    int halves = 0;
  };

  TrustBudget() = default;

  TimePoint clampTime(TimePoint at);
  void prune(TimePoint at);
  // Moves trust by `halves` (a credit limited by `cap` when given) and reports it.
  void move(TimePoint at, std::string event, std::string detail, int halves, std::optional<Cap> cap,
            TrustUpdate& out);
  void regress(TimePoint at, Graduation to, GraduationCause cause, std::string reason,
               TrustUpdate& out);
  void regressOnTrust(TimePoint at, TrustUpdate& out);
  void cleanDecision(TimePoint at, TrustUpdate& out);
  void debitDuringHold();
  void enter(Graduation level, TimePoint at);

  std::string function_;
  int trustHalves_ = 0;
  Graduation earned_ = Graduation::kShadow;
  TimePoint since_;
  TimePoint listeningEnded_;
  TimePoint latest_;
  std::optional<TimePoint> lastRegression_;
  std::optional<InactivityHold> hold_;
  std::optional<TimePoint> eligibleNoticed_;
  std::int64_t decisionCount_ = 0;
  std::deque<TimePoint> recentDecisions_;  // the last kInactiveBelowDecisions decisions
  std::deque<bool> shadow_;                // agreement of this SHADOW stay's shadow decisions
  std::deque<bool> proposals_;             // approved without edit, this PROPOSE stay
  std::vector<OverrideRecord> overrides_;  // of the last 30 days (for the panel)
  std::vector<Sev> sevs_;
  std::array<std::vector<Grant>, 3> grants_;  // per Cap, of the last 24 h
};

}  // namespace atoms::policy
