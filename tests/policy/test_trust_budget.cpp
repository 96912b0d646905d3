#include <boost/test/unit_test.hpp>

// The trust budget (domain/policy/trust_budget.h, seed 001 section 6) on a simulated clock: every
// row of the credit table, the daily caps, each automatic regression, each advancement condition
// refused one short of its threshold and accepted at it, hysteresis, inactivity, SEV1, the
// owner's regression; and TrustStore (trust_store.h) keeping it across a reopen with its audit
// entries.
#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "domain/policy/trust_budget.h"
#include "domain/policy/trust_store.h"
#include "store/site_store.h"
#include "store/state_dir.h"
#include "tests/policy/policy_test_util.h"
#include "tests/support/audit_entries.h"
#include "tests/support/fields.h"
#include "tests/support/temp_dir.h"

using namespace atoms;
using namespace atoms::policy;
using namespace std::chrono_literals;

namespace {

using atoms::testing::kT0;
constexpr auto kDay = std::chrono::hours(24);
constexpr auto kMs = std::chrono::milliseconds(1);
using atoms::testing::kFn;

TrustBudget fresh(TimePoint start = kT0) {
  auto b = TrustBudget::start(kFn, start);
  BOOST_REQUIRE_MESSAGE(b.ok(), b.message());
  return std::move(b).value();
}

// Rewrites fields of the stored state: how a test puts a budget at a level or trust directly.
TrustBudget patched(const TrustBudget& b, const std::function<void(json::Object&)>& patch) {
  json::Value state = b.toJson();
  patch(state.asObject());
  auto back = TrustBudget::fromJson(state);
  BOOST_REQUIRE_MESSAGE(back.ok(), back.message());
  return std::move(back).value();
}

TrustBudget at(Graduation g, int trustHalves, TimePoint start = kT0) {
  return patched(fresh(start), [&](json::Object& o) {
    o["earned"] = graduationName(g);
    o["trustHalves"] = trustHalves;
  });
}

TrustBudget withTrust(const TrustBudget& b, int trustHalves) {
  return patched(b, [&](json::Object& o) { o["trustHalves"] = trustHalves; });
}

// `agreed` then `disagreed` shadow decisions, ten a day from `from` (under the daily cap).
void shadowDecisions(TrustBudget& b, TimePoint from, int agreed, int disagreed) {
  for (int i = 0; i < agreed + disagreed; ++i) {
    const TimePoint t = from + (i / 10) * kDay + (i % 10) * 1min;
    BOOST_REQUIRE(b.recordDecision(t).graduation.empty());
    b.recordOutcome(t, i < agreed ? TrustOutcome::kShadowAgreed : TrustOutcome::kShadowDisagreed);
  }
}

// `unedited` then `edited` proposals, ten a day from `from`.
void proposals(TrustBudget& b, TimePoint from, int unedited, int edited) {
  for (int i = 0; i < unedited + edited; ++i) {
    const TimePoint t = from + (i / 10) * kDay + (i % 10) * 1min;
    BOOST_REQUIRE(b.recordDecision(t).graduation.empty());
    b.recordOutcome(
        t, i < unedited ? TrustOutcome::kProposalApprovedUnedited : TrustOutcome::kProposalEdited);
  }
}

const GraduationCondition& conditionNamed(const Eligibility& e, std::string_view name) {
  for (const GraduationCondition& c : e.conditions) {
    if (c.name == name) return c;
  }
  BOOST_FAIL("no condition " << name << " in " << e.describe());
  return e.conditions.front();
}

// The names of the unmet conditions, in order.
std::vector<std::string> unmet(const Eligibility& e) {
  std::vector<std::string> out;
  for (const GraduationCondition& c : e.conditions) {
    if (c.status == GraduationCondition::Status::kUnmet) out.push_back(c.name);
  }
  return out;
}

// A SHADOW budget begun at kT0 that meets every SHADOW -> PROPOSE condition exactly at
// kShadowReady: trust 20, 14 days since listening ended, 40 of 50 shadow decisions agreed.
const TimePoint kShadowReady = kT0 + 14 * kDay;
TrustBudget readyForPropose() {
  TrustBudget b = fresh();
  shadowDecisions(b, kT0, 40, 10);
  BOOST_REQUIRE_EQUAL(b.trustHalves(), 80);  // +10 on each of four days
  return withTrust(b, 40);
}

// A PROPOSE budget (advanced at kShadowReady) that meets every PROPOSE -> AUTONOMOUS condition
// exactly at kProposeReady: trust 60, 90 of the last 100 proposals approved without edit, 14 days
// at PROPOSE, no SEV.
const TimePoint kProposeReady = kShadowReady + 14 * kDay;
// After the last of those proposals (kShadowReady + 9 days): a SEV at PROPOSE.
const TimePoint kSevAt = kShadowReady + 10 * kDay;
TrustBudget readyForAutonomous() {
  TrustBudget b = readyForPropose();
  auto up = b.advance(kShadowReady, true);
  BOOST_REQUIRE_MESSAGE(up.ok(), up.message());
  proposals(b, kShadowReady, 90, 10);
  return withTrust(b, 120);
}

std::vector<std::string> noUnmet() { return {}; }

// A budget one short of a single advancement condition at `at`.
struct OneShort {
  std::string condition;
  std::function<TrustBudget()> make;
  TimePoint at;
};

// Each budget is refused for its one condition alone, named with its value, and stays put.
void expectRefusedForThatAlone(const std::vector<OneShort>& cases) {
  for (const OneShort& c : cases) {
    BOOST_TEST_CONTEXT(c.condition) {
      TrustBudget b = c.make();
      const Graduation before = b.earned();
      const Eligibility e = b.eligibility(c.at);
      BOOST_TEST(!e.eligible);
      BOOST_TEST(unmet(e) == std::vector<std::string>{c.condition}, e.describe());
      auto u = b.advance(c.at, true);
      BOOST_REQUIRE(!u.ok());
      BOOST_TEST(u.message() == e.describe());
      BOOST_TEST(b.earned() == before);
    }
  }
}

// The same history at another earned level (no call of the machine would build it directly).
TrustBudget promoted(const TrustBudget& b, Graduation g) {
  return patched(b, [&](json::Object& o) { o["earned"] = graduationName(g); });
}

}  // namespace

BOOST_AUTO_TEST_SUITE(trust_budget)

BOOST_AUTO_TEST_CASE(beginsInShadowWithNoTrustAndRefusesAnUnknownFunction) {
  TrustBudget b = fresh();
  BOOST_TEST(b.trustHalves() == 0);
  BOOST_TEST(b.earned() == Graduation::kShadow);
  BOOST_TEST(b.effective() == Graduation::kShadow);
  BOOST_TEST((b.since() == kT0));
  BOOST_TEST((b.listeningEnded() == kT0));
  auto bad = TrustBudget::start("payroll", kT0);
  BOOST_REQUIRE(!bad.ok());
  BOOST_TEST(bad.message() == "trust budget: \"payroll\" is not a management function (seed 000)");
}

BOOST_AUTO_TEST_CASE(everyRowOfTheCreditTableMovesTrustByTheSeedsAmount) {
  struct Row {
    std::string name;
    std::function<TrustUpdate(TrustBudget&)> apply;
    int deltaHalves;
    std::string event;
  };
  const TimePoint t = kT0 + 1h;
  auto outcome = [t](TrustOutcome o) {
    return [t, o](TrustBudget& b) { return b.recordOutcome(t, o); };
  };
  auto overridden = [t](OverrideReason r) {
    return [t, r](TrustBudget& b) { return b.recordOverride(t, r); };
  };
  auto sev = [t](int level) {
    return [t, level](TrustBudget& b) { return *b.recordSev(t, "sev-9", level); };
  };
  const std::vector<Row> rows = {
      {"autonomous decision verified", outcome(TrustOutcome::kAutonomousVerified), 2,
       "autonomous_verified"},
      {"proposal approved without edit", outcome(TrustOutcome::kProposalApprovedUnedited), 4,
       "proposal_approved_unedited"},
      {"proposal edited", outcome(TrustOutcome::kProposalEdited), 0, ""},
      {"proposal declined", outcome(TrustOutcome::kProposalDeclined), 0, ""},
      {"shadow agreement", outcome(TrustOutcome::kShadowAgreed), 2, "shadow_agreed"},
      {"shadow disagreement", outcome(TrustOutcome::kShadowDisagreed), 0, ""},
      {"useful tap", outcome(TrustOutcome::kUsefulTap), 1, "useful_tap"},
      {"override BAD_TIMING", overridden(OverrideReason::kBadTiming), -2, "override"},
      {"override TONE", overridden(OverrideReason::kTone), -2, "override"},
      {"override WRONG_FACTS", overridden(OverrideReason::kWrongFacts), -6, "override"},
      {"override WRONG_JUDGMENT", overridden(OverrideReason::kWrongJudgment), -6, "override"},
      {"verification mismatch", outcome(TrustOutcome::kVerificationMismatch), -10,
       "verification_mismatch"},
      {"SEV3", sev(3), -20, "sev3"},
      {"SEV2", sev(2), -50, "sev2"},
      {"SEV1", sev(1), -120, "sev1"},
      {"SEV4", sev(4), 0, ""},
  };
  for (const Row& row : rows) {
    BOOST_TEST_CONTEXT(row.name) {
      // SHADOW at trust 60: no regression interferes with the amount.
      TrustBudget b = at(Graduation::kShadow, 120);
      const TrustUpdate u = row.apply(b);
      BOOST_TEST(b.trustHalves() == 120 + row.deltaHalves);
      BOOST_TEST(u.graduation.empty());
      if (row.deltaHalves == 0) {
        BOOST_TEST(!u.trust.has_value());
      } else {
        BOOST_REQUIRE(u.trust.has_value());
        BOOST_TEST(u.trust->event == row.event);
        BOOST_TEST(u.trust->appliedHalves == row.deltaHalves);
        BOOST_TEST(u.trust->requestedHalves == row.deltaHalves);
        BOOST_TEST(u.trust->beforeHalves == 120);
        BOOST_TEST(!u.trust->capped);
      }
    }
  }
}

BOOST_AUTO_TEST_CASE(describesChangesInTheSeedsWords) {
  TrustBudget b = at(Graduation::kShadow, 41);
  auto u = b.recordOverride(kT0, OverrideReason::kWrongFacts);
  BOOST_REQUIRE(u.trust.has_value());
  BOOST_TEST(u.trust->describe() == "trust 20.5 -> 17.5 (override WRONG_FACTS -3)");
  BOOST_TEST(trustText(41) == "20.5");
  BOOST_TEST(signedTrustText(-1) == "-0.5");
  BOOST_TEST(signedTrustText(0) == "0");
}

BOOST_AUTO_TEST_CASE(dailyCapsLimitTheCappedCreditsOverASlidingDay) {
  struct Capped {
    TrustOutcome outcome;
    int capHalves;
  };
  for (const Capped& c :
       {Capped{TrustOutcome::kAutonomousVerified, 20}, Capped{TrustOutcome::kShadowAgreed, 20},
        Capped{TrustOutcome::kUsefulTap, 10}}) {
    BOOST_TEST_CONTEXT(trustOutcomeName(c.outcome)) {
      TrustBudget b = at(Graduation::kShadow, 0);
      int i = 0;
      while (b.trustHalves() < c.capHalves) {
        BOOST_REQUIRE(b.recordOutcome(kT0 + i * 1min, c.outcome).trust.has_value());
        ++i;
      }
      BOOST_TEST(b.trustHalves() == c.capHalves);
      // At the cap: nothing moves, nothing is reported, until the first credit is 24 h old.
      BOOST_TEST(b.recordOutcome(kT0 + 2h, c.outcome).empty());
      BOOST_TEST(b.recordOutcome(kT0 + kDay - kMs, c.outcome).empty());
      BOOST_TEST(b.trustHalves() == c.capHalves);
      auto next = b.recordOutcome(kT0 + kDay, c.outcome);
      BOOST_REQUIRE(next.trust.has_value());
      BOOST_TEST(b.trustHalves() > c.capHalves);
    }
  }
}

BOOST_AUTO_TEST_CASE(capsAreSeparatePerKindAndApprovalsAreUncapped) {
  TrustBudget b = at(Graduation::kShadow, 0);
  for (int i = 0; i < 15; ++i) b.recordOutcome(kT0, TrustOutcome::kShadowAgreed);
  BOOST_TEST(b.trustHalves() == 20);
  for (int i = 0; i < 15; ++i) b.recordOutcome(kT0, TrustOutcome::kAutonomousVerified);
  BOOST_TEST(b.trustHalves() == 40);
  for (int i = 0; i < 15; ++i) b.recordOutcome(kT0, TrustOutcome::kUsefulTap);
  BOOST_TEST(b.trustHalves() == 50);
  for (int i = 0; i < 20; ++i) b.recordOutcome(kT0, TrustOutcome::kProposalApprovedUnedited);
  BOOST_TEST(b.trustHalves() == 130);  // +2 x 20, no cap
}

BOOST_AUTO_TEST_CASE(trustStaysWithinZeroAndAHundred) {
  TrustBudget top = at(Graduation::kShadow, 199);
  auto u = top.recordOutcome(kT0, TrustOutcome::kProposalApprovedUnedited);
  BOOST_REQUIRE(u.trust.has_value());
  BOOST_TEST(u.trust->appliedHalves == 1);
  BOOST_TEST(
      u.trust->describe() ==
      "trust 99.5 -> 100 (proposal_approved_unedited +0.5 of +2: trust is bounded to 0..100)");
  BOOST_TEST(top.recordOutcome(kT0, TrustOutcome::kProposalApprovedUnedited).empty());
  BOOST_TEST(top.trustHalves() == 200);

  TrustBudget bottom = at(Graduation::kShadow, 3);
  BOOST_TEST(bottom.recordOverride(kT0, OverrideReason::kWrongFacts).trust->appliedHalves == -3);
  BOOST_TEST(bottom.recordOverride(kT0, OverrideReason::kTone).empty());
  BOOST_TEST(bottom.trustHalves() == 0);
}

BOOST_AUTO_TEST_CASE(aClockSteppingBackDoesNotEscapeTheDailyCap) {
  TrustBudget b = at(Graduation::kShadow, 0);
  for (int i = 0; i < 10; ++i) b.recordOutcome(kT0 + 10h, TrustOutcome::kShadowAgreed);
  BOOST_TEST(b.recordOutcome(kT0, TrustOutcome::kShadowAgreed).empty());  // taken as kT0 + 10 h
  BOOST_TEST(b.recordOutcome(kT0 + 34h - kMs, TrustOutcome::kShadowAgreed).empty());
  BOOST_TEST(b.recordOutcome(kT0 + 34h, TrustOutcome::kShadowAgreed).trust.has_value());
}

BOOST_AUTO_TEST_CASE(autonomousRegressesToProposeBelowForty) {
  TrustBudget b = at(Graduation::kAutonomous, 82);
  BOOST_TEST(b.recordOverride(kT0, OverrideReason::kTone).graduation.empty());  // exactly 40
  BOOST_TEST(b.earned() == Graduation::kAutonomous);
  auto u = b.recordOverride(kT0 + 1h, OverrideReason::kBadTiming);
  BOOST_REQUIRE_EQUAL(u.graduation.size(), 1u);
  BOOST_TEST(u.graduation[0].cause == GraduationCause::kRegression);
  BOOST_TEST(u.graduation[0].describe() == "regression AUTONOMOUS -> PROPOSE: trust 39 < 40");
  BOOST_TEST((u.graduation[0].at == kT0 + 1h));
  BOOST_TEST(b.earned() == Graduation::kPropose);
  BOOST_TEST((b.since() == kT0 + 1h));
  BOOST_TEST((b.lastRegression() == kT0 + 1h));
}

BOOST_AUTO_TEST_CASE(proposeRegressesToShadowBelowTen) {
  TrustBudget b = at(Graduation::kPropose, 22);
  BOOST_TEST(b.recordOverride(kT0, OverrideReason::kTone).graduation.empty());  // exactly 10
  auto u = b.recordOutcome(kT0 + 1h, TrustOutcome::kVerificationMismatch);
  BOOST_REQUIRE_EQUAL(u.graduation.size(), 1u);
  BOOST_TEST(u.graduation[0].describe() == "regression PROPOSE -> SHADOW: trust 5 < 10");
  BOOST_TEST(b.effective() == Graduation::kShadow);
}

BOOST_AUTO_TEST_CASE(aBreakerTripRegressesAutonomousOnly) {
  TrustBudget a = at(Graduation::kAutonomous, 200);
  auto u = a.breakerTripped(kT0, "BRK-SCH");
  BOOST_REQUIRE_EQUAL(u.graduation.size(), 1u);
  BOOST_TEST(u.graduation[0].describe() ==
             "regression AUTONOMOUS -> PROPOSE: breaker BRK-SCH tripped");
  BOOST_TEST(!u.trust.has_value());  // a trip costs no trust by itself
  BOOST_TEST(a.trustHalves() == 200);
  BOOST_TEST(a.breakerTripped(kT0 + 1h, "BRK-SCH").empty());  // PROPOSE: the breaker clamps it
  TrustBudget s = at(Graduation::kShadow, 100);
  BOOST_TEST(s.breakerTripped(kT0, "BRK-OUT").empty());
}

BOOST_AUTO_TEST_CASE(aSev2CostsTwentyFiveAndRegressesAutonomous) {
  TrustBudget a = at(Graduation::kAutonomous, 200);
  auto u = *a.recordSev(kT0, "sev-2", 2);
  BOOST_TEST(a.trustHalves() == 150);
  BOOST_REQUIRE_EQUAL(u.graduation.size(), 1u);
  BOOST_TEST(u.graduation[0].describe() == "regression AUTONOMOUS -> PROPOSE: SEV2 sev-2");
  BOOST_REQUIRE(u.sev.has_value());
  BOOST_TEST(u.sev->level == 2);
  // At PROPOSE a SEV2 regresses only through the trust floor.
  TrustBudget p = at(Graduation::kPropose, 70);
  BOOST_TEST(p.recordSev(kT0, "sev-3", 2)->graduation.empty());  // 35 - 25 = 10
  auto low = *p.recordSev(kT0 + 1h, "sev-4", 3);                 // 10 - 10 = 0
  BOOST_REQUIRE_EQUAL(low.graduation.size(), 1u);
  BOOST_TEST(low.graduation[0].reason == "trust 0 < 10");
}

BOOST_AUTO_TEST_CASE(aSev1SetsTrustToZeroAndTheFunctionToShadow) {
  TrustBudget a = at(Graduation::kAutonomous, 190);
  auto u = a.recordSev(kT0, "sev-1", 1);
  BOOST_REQUIRE(u.ok());
  BOOST_REQUIRE(u->trust.has_value());
  BOOST_TEST(u->trust->requestedHalves == -190);
  BOOST_TEST(a.trustHalves() == 0);
  BOOST_REQUIRE_EQUAL(u->graduation.size(), 1u);  // straight to SHADOW, one step
  BOOST_TEST(u->graduation[0].describe() == "regression AUTONOMOUS -> SHADOW: SEV1 sev-1");
  BOOST_TEST(a.effective() == Graduation::kShadow);
  // In SHADOW already at 0, a SEV1 is recorded (it blocks advancing) and moves nothing else.
  auto again = a.recordSev(kT0 + 1h, "sev-5", 1);
  BOOST_TEST(!again->trust.has_value());
  BOOST_TEST(again->graduation.empty());
  BOOST_TEST(a.sevs().size() == 2u);
}

BOOST_AUTO_TEST_CASE(sevInputsAreChecked) {
  TrustBudget b = fresh();
  BOOST_TEST(b.recordSev(kT0, "sev-1", 0).message() == "SEV level 0 is not one of 1..4");
  BOOST_TEST(b.recordSev(kT0, "sev-1", 5).message() == "SEV level 5 is not one of 1..4");
  BOOST_TEST(b.recordSev(kT0, "", 2).message() == "a SEV needs its id");
  BOOST_TEST(b.recordSev(kT0, "sev-1", 3).ok());
  BOOST_TEST(b.recordSev(kT0, "sev-1", 2).message() ==
             "SEV sev-1 is already recorded for staffing_scheduling");
  BOOST_TEST(b.recordSev(kT0, "sev-4", 4)->empty());  // SEV4: not in the table, not recorded
  BOOST_TEST(b.sevs().size() == 1u);
  BOOST_TEST(b.closeSev(kT0, "sev-7").message() ==
             "SEV sev-7 is not recorded for staffing_scheduling");
  BOOST_TEST(b.closeSev(kT0, "sev-1").ok());
  BOOST_TEST(b.closeSev(kT0, "sev-1").message() == "SEV sev-1 is already closed");
}

// --- Advancement: SHADOW -> PROPOSE ---------------------------------------------------------

BOOST_AUTO_TEST_CASE(shadowAdvancesWhenEveryConditionIsMetExactly) {
  TrustBudget b = readyForPropose();
  const Eligibility e = b.eligibility(kShadowReady);
  BOOST_TEST(e.eligible, e.describe());
  BOOST_TEST(e.describe() == "staffing_scheduling SHADOW -> PROPOSE: eligible");
  BOOST_TEST(conditionNamed(e, "trust").actual == "20");
  BOOST_TEST(conditionNamed(e, "days_since_listening_ended").actual == "14 days");
  BOOST_TEST(conditionNamed(e, "shadow_decisions").actual == "50");
  BOOST_TEST(conditionNamed(e, "shadow_agreement").actual == "80% (40 of 50)");
  BOOST_TEST(conditionNamed(e, "open_sev_1_2").actual == "none");
  BOOST_TEST(
      (conditionNamed(e, "hysteresis").status == GraduationCondition::Status::kNotApplicable));
  auto refused = b.advance(kShadowReady, false);
  BOOST_REQUIRE(!refused.ok());
  BOOST_TEST(refused.message() ==
             "advancing staffing_scheduling to PROPOSE needs the owner's confirmation "
             "(graduation.advance is PROPOSE_CONFIRM)");
  BOOST_TEST(b.earned() == Graduation::kShadow);
  auto u = b.advance(kShadowReady, true);
  BOOST_REQUIRE_MESSAGE(u.ok(), u.message());
  BOOST_REQUIRE_EQUAL(u->graduation.size(), 1u);
  BOOST_TEST(u->graduation[0].cause == GraduationCause::kAdvance);
  BOOST_TEST(u->graduation[0].evidence.size() == e.conditions.size());
  BOOST_TEST(b.earned() == Graduation::kPropose);
  BOOST_TEST((b.since() == kShadowReady));
}

BOOST_AUTO_TEST_CASE(shadowIsRefusedOneShortOfEachThreshold) {
  const std::vector<OneShort> cases = {
      {"trust", [] { return withTrust(readyForPropose(), 39); }, kShadowReady},
      {"days_since_listening_ended", readyForPropose, kShadowReady - kMs},
      {"shadow_decisions",
       [] {
         TrustBudget b = fresh();
         shadowDecisions(b, kT0, 49, 0);
         return withTrust(b, 40);
       },
       kShadowReady},
      {"shadow_agreement",
       [] {
         TrustBudget b = fresh();
         shadowDecisions(b, kT0, 39, 11);
         return withTrust(b, 40);
       },
       kShadowReady},
      {"open_sev_1_2",
       [] {
         TrustBudget b = readyForPropose();
         BOOST_REQUIRE(b.recordSev(kT0 + 6 * kDay, "sev-2", 2).ok());
         return withTrust(b, 40);
       },
       kShadowReady},
  };
  expectRefusedForThatAlone(cases);
}

BOOST_AUTO_TEST_CASE(refusalsNameEachUnmetConditionWithItsValue) {
  TrustBudget b = fresh();
  shadowDecisions(b, kT0, 39, 11);
  const Eligibility e = b.eligibility(kT0 + 5 * kDay);
  BOOST_TEST(e.describe() ==
             "staffing_scheduling SHADOW -> PROPOSE: not eligible (days_since_listening_ended 5 "
             "days, needs >= 14 days; shadow_agreement 78% (39 of 50), needs >= 80%)");
}

BOOST_AUTO_TEST_CASE(onlyAnOpenSevOfLevelOneOrTwoBlocksShadow) {
  TrustBudget b = readyForPropose();
  BOOST_REQUIRE(b.recordSev(kT0 + 6 * kDay, "sev-3", 3).ok());
  b = withTrust(b, 40);
  BOOST_TEST(b.eligibility(kShadowReady).eligible);  // a SEV3 does not block
  BOOST_REQUIRE(b.recordSev(kT0 + 7 * kDay, "sev-2", 2).ok());
  b = withTrust(b, 40);
  BOOST_TEST(conditionNamed(b.eligibility(kShadowReady), "open_sev_1_2").actual == "sev-2 (SEV2)");
  BOOST_REQUIRE(b.closeSev(kT0 + 8 * kDay, "sev-2").ok());
  BOOST_TEST(b.eligibility(kShadowReady).eligible);
}

// --- Advancement: PROPOSE -> AUTONOMOUS -----------------------------------------------------

BOOST_AUTO_TEST_CASE(proposeAdvancesWhenEveryConditionIsMetExactly) {
  TrustBudget b = readyForAutonomous();
  const Eligibility e = b.eligibility(kProposeReady);
  BOOST_TEST(e.eligible, e.describe());
  BOOST_TEST(conditionNamed(e, "trust").actual == "60");
  BOOST_TEST(conditionNamed(e, "proposals").actual == "100");
  BOOST_TEST(conditionNamed(e, "approved_without_edit").actual == "90% (90 of 100)");
  BOOST_TEST(conditionNamed(e, "sev_1_2_in_30_days").actual == "0");
  BOOST_TEST(conditionNamed(e, "days_at_level").actual == "14 days");
  const GraduationCondition& ece = conditionNamed(e, "calibration_ece");
  BOOST_TEST((ece.status == GraduationCondition::Status::kNotApplicable));
  BOOST_TEST(ece.required == "< 0.10");
  BOOST_TEST(ece.actual.find("not applicable") == 0u, ece.actual);
  BOOST_TEST(!b.advance(kProposeReady, false).ok());
  auto u = b.advance(kProposeReady, true);
  BOOST_REQUIRE_MESSAGE(u.ok(), u.message());
  BOOST_TEST(b.earned() == Graduation::kAutonomous);
  const Eligibility top = b.eligibility(kProposeReady);
  BOOST_TEST(!top.to.has_value());
  BOOST_TEST(b.advance(kProposeReady + kDay, true).message() ==
             "staffing_scheduling is AUTONOMOUS: no higher level");
}

BOOST_AUTO_TEST_CASE(proposeIsRefusedOneShortOfEachThreshold) {
  const std::vector<OneShort> cases = {
      {"trust", [] { return withTrust(readyForAutonomous(), 119); }, kProposeReady},
      {"days_at_level", readyForAutonomous, kProposeReady - kMs},
      {"proposals",
       [] {
         TrustBudget b = readyForPropose();
         BOOST_REQUIRE(b.advance(kShadowReady, true).ok());
         proposals(b, kShadowReady, 90, 9);  // 99 proposals, 90.9 % unedited
         return withTrust(b, 120);
       },
       kProposeReady},
      {"approved_without_edit",
       [] {
         TrustBudget b = readyForPropose();
         BOOST_REQUIRE(b.advance(kShadowReady, true).ok());
         proposals(b, kShadowReady, 89, 11);
         return withTrust(b, 120);
       },
       kProposeReady},
      {"sev_1_2_in_30_days",
       [] {
         TrustBudget b = readyForAutonomous();
         BOOST_REQUIRE(b.recordSev(kSevAt, "sev-2", 2).ok());
         return withTrust(b, 120);
       },
       kSevAt + 30 * kDay - kMs},  // still inside (at - 30 d, at]
  };
  expectRefusedForThatAlone(cases);
}

BOOST_AUTO_TEST_CASE(aSevLeavesTheThirtyDayWindowExactlyThirtyDaysLater) {
  TrustBudget b = readyForAutonomous();
  BOOST_REQUIRE(b.recordSev(kSevAt, "sev-2", 2).ok());
  b = withTrust(b, 120);
  BOOST_TEST(unmet(b.eligibility(kSevAt + 30 * kDay)) == noUnmet());
  BOOST_TEST(b.advance(kSevAt + 30 * kDay, true).ok());
}

BOOST_AUTO_TEST_CASE(onlyTheLastHundredProposalsCount) {
  TrustBudget b = readyForPropose();
  BOOST_REQUIRE(b.advance(kShadowReady, true).ok());
  proposals(b, kShadowReady, 0, 10);          // ten edited first...
  proposals(b, kShadowReady + kDay, 100, 0);  // ...then pushed out by a hundred clean ones
  b = withTrust(b, 120);
  BOOST_TEST(conditionNamed(b.eligibility(kProposeReady), "approved_without_edit").actual ==
             "100% (100 of 100)");
}

// --- Hysteresis -----------------------------------------------------------------------------

BOOST_AUTO_TEST_CASE(afterARegressionTheNextAdvanceNeedsFourteenDaysAtTheLowerLevel) {
  TrustBudget b = readyForAutonomous();
  b = withTrust(b, 22);
  const TimePoint fell = kProposeReady;
  auto down = b.recordOverride(fell, OverrideReason::kBadTiming);  // 11 -> 10: still PROPOSE
  BOOST_TEST(down.graduation.empty());
  down = b.recordOverride(fell, OverrideReason::kBadTiming);  // 9: SHADOW
  BOOST_REQUIRE_EQUAL(down.graduation.size(), 1u);
  // The shadow evidence of before the advance does not count again.
  BOOST_TEST(conditionNamed(b.eligibility(fell), "shadow_decisions").actual == "0");
  shadowDecisions(b, fell, 50, 0);
  b = withTrust(b, 40);
  const Eligibility early = b.eligibility(fell + 14 * kDay - kMs);
  BOOST_TEST(unmet(early) == std::vector<std::string>{"hysteresis"}, early.describe());
  BOOST_TEST(conditionNamed(early, "hysteresis").actual == "13 days");
  BOOST_TEST(!b.advance(fell + 14 * kDay - kMs, true).ok());
  auto up = b.advance(fell + 14 * kDay, true);
  BOOST_REQUIRE_MESSAGE(up.ok(), up.message());
  BOOST_TEST(b.earned() == Graduation::kPropose);
  // Once advanced, the level did not begin with a regression.
  BOOST_TEST((conditionNamed(b.eligibility(fell + 15 * kDay), "hysteresis").status ==
              GraduationCondition::Status::kNotApplicable));
}

// --- Inactivity -----------------------------------------------------------------------------

BOOST_AUTO_TEST_CASE(aQuietFunctionResumesOneLevelLowerUntilTwentyCleanDecisions) {
  TrustBudget b = at(Graduation::kAutonomous, 200);  // no decision since kT0
  const TimePoint back = kT0 + 40 * kDay;
  auto resumed = b.recordDecision(back);
  BOOST_REQUIRE_EQUAL(resumed.graduation.size(), 1u);
  const GraduationChange& hold = resumed.graduation[0];
  BOOST_TEST(hold.cause == GraduationCause::kInactivityHold);
  BOOST_TEST(hold.from == Graduation::kAutonomous);
  BOOST_TEST(hold.to == Graduation::kPropose);
  BOOST_TEST(hold.earnedTo == Graduation::kAutonomous);
  BOOST_TEST(hold.reason ==
             "0 decisions in the 30 days before, fewer than 10: one level lower until 20 clean "
             "decisions");
  BOOST_TEST(b.effective() == Graduation::kPropose);
  BOOST_TEST(b.earned() == Graduation::kAutonomous);
  // 19 clean decisions, then a debit starts the count again.
  for (int i = 0; i < 19; ++i) {
    BOOST_TEST(b.recordDecision(back + i * 1min).graduation.empty());
    BOOST_TEST(b.recordOutcome(back + i * 1min, TrustOutcome::kProposalApprovedUnedited)
                   .graduation.empty());
  }
  BOOST_TEST(b.hold()->cleanDecisions == 19);
  BOOST_TEST(b.recordOverride(back + 1h, OverrideReason::kTone).graduation.empty());
  BOOST_TEST(b.hold()->cleanDecisions == 0);
  for (int i = 0; i < 19; ++i) {
    BOOST_TEST(
        b.recordOutcome(back + kDay, TrustOutcome::kProposalApprovedUnedited).graduation.empty());
  }
  auto ended = b.recordOutcome(back + kDay, TrustOutcome::kAutonomousVerified);
  BOOST_REQUIRE_EQUAL(ended.graduation.size(), 1u);
  BOOST_TEST(ended.graduation[0].cause == GraduationCause::kHoldEnded);
  BOOST_TEST(ended.graduation[0].describe() ==
             "hold_ended PROPOSE -> AUTONOMOUS (earned AUTONOMOUS -> AUTONOMOUS): 20 clean "
             "decisions since resuming after inactivity");
  BOOST_TEST(b.effective() == Graduation::kAutonomous);
  BOOST_TEST(!b.hold().has_value());
}

// Decision 0010: PROPOSE is the floor of the inactivity rule. A quiet site's call-outs keep
// being proposed to a manager; a hold down to SHADOW would stop them with nothing to end it.
BOOST_AUTO_TEST_CASE(aQuietProposeFunctionKeepsProposing) {
  TrustBudget b = readyForAutonomous();  // PROPOSE, last decision on day 23 after kT0
  const TimePoint back = kProposeReady + 40 * kDay;
  BOOST_TEST(b.recordDecision(back).graduation.empty());
  BOOST_TEST(b.effective() == Graduation::kPropose);
  BOOST_TEST(!b.hold().has_value());
}

BOOST_AUTO_TEST_CASE(tenDecisionsInThirtyDaysKeepTheLevelAndNineDoNot) {
  for (int n : {9, 10}) {
    BOOST_TEST_CONTEXT(n << " decisions") {
      TrustBudget history = fresh();
      const TimePoint now = kT0 + 60 * kDay;
      // The oldest of them exactly 30 days before would be outside (at - 30 d, at].
      for (int i = 0; i < n; ++i) history.recordDecision(now - 30 * kDay + kMs + i * 1h);
      TrustBudget b = promoted(history, Graduation::kAutonomous);
      const bool held = !b.recordDecision(now).graduation.empty();
      BOOST_TEST(held == (n == 9));
      BOOST_TEST(b.effective() == (n == 9 ? Graduation::kPropose : Graduation::kAutonomous));
    }
  }
  TrustBudget history = fresh();
  for (int i = 0; i < 10; ++i) history.recordDecision(kT0 + i * 1h);
  TrustBudget edge = promoted(history, Graduation::kAutonomous);
  BOOST_TEST(!edge.recordDecision(kT0 + 30 * kDay).graduation.empty());  // the first one left
}

BOOST_AUTO_TEST_CASE(aNewFunctionIsNotInactiveJustBecauseItIsNew) {
  // Begun at AUTONOMOUS (the owner's configuration): its first decisions, days apart, are
  // decisions of a new function, not of a quiet one.
  auto begun = TrustBudget::start(kFn, kT0, Graduation::kAutonomous);
  BOOST_REQUIRE_MESSAGE(begun.ok(), begun.message());
  TrustBudget b = *begun;
  BOOST_TEST(b.recordDecision(kT0 + kDay).graduation.empty());
  BOOST_TEST(b.recordDecision(kT0 + 30 * kDay - kMs).graduation.empty());
  BOOST_TEST(b.effective() == Graduation::kAutonomous);
  // Once the whole 30 days before a decision lie after the start, the rule applies as written:
  // two decisions in them are fewer than ten.
  auto held = b.recordDecision(kT0 + 30 * kDay + kDay);
  BOOST_REQUIRE_EQUAL(held.graduation.size(), 1u);
  BOOST_TEST(held.graduation[0].cause == GraduationCause::kInactivityHold);
  BOOST_TEST(b.effective() == Graduation::kPropose);
}

BOOST_AUTO_TEST_CASE(aBudgetBeginsAtTheConfiguredLevelWithTheTrustItsEntryNeeds) {
  for (Graduation g : {Graduation::kShadow, Graduation::kPropose, Graduation::kAutonomous}) {
    BOOST_TEST_CONTEXT(graduationName(g)) {
      auto b = TrustBudget::start(kFn, kT0, g);
      BOOST_REQUIRE_MESSAGE(b.ok(), b.message());
      BOOST_TEST(b->earned() == g);
      BOOST_TEST(b->effective() == g);
      BOOST_TEST(b->trustHalves() == entryTrustHalves(g));
      BOOST_TEST((b->since() == kT0));
    }
  }
  BOOST_TEST(entryTrustHalves(Graduation::kPropose) == 40);      // 20
  BOOST_TEST(entryTrustHalves(Graduation::kAutonomous) == 120);  // 60
  // A configured AUTONOMOUS function still regresses on the seed's floor.
  auto a = TrustBudget::start(kFn, kT0, Graduation::kAutonomous);
  BOOST_REQUIRE(a.ok());
  auto fell = a->recordOverride(kT0 + kDay, OverrideReason::kWrongFacts);
  BOOST_TEST(fell.graduation.empty());  // 60 - 3 = 57
  for (int i = 0; i < 6; ++i) a->recordOverride(kT0 + kDay, OverrideReason::kWrongFacts);
  BOOST_TEST(a->earned() == Graduation::kPropose);  // 39 < 40
}

BOOST_AUTO_TEST_CASE(shadowHasNoLevelToDropTo) {
  TrustBudget b = fresh();
  BOOST_TEST(b.recordDecision(kT0 + 100 * kDay).empty());
  BOOST_TEST(b.effective() == Graduation::kShadow);
  BOOST_TEST(b.decisions() == 1);
}

BOOST_AUTO_TEST_CASE(aRegressionDuringAHoldEndsItWithoutRaisingTheEffectiveLevel) {
  TrustBudget b = at(Graduation::kAutonomous, 200);
  BOOST_REQUIRE_EQUAL(b.recordDecision(kT0 + 40 * kDay).graduation.size(), 1u);
  BOOST_TEST(b.effective() == Graduation::kPropose);
  auto u = b.breakerTripped(kT0 + 41 * kDay, "BRK-SCH");
  BOOST_REQUIRE_EQUAL(u.graduation.size(), 1u);
  BOOST_TEST(u.graduation[0].describe() ==
             "regression PROPOSE -> PROPOSE (earned AUTONOMOUS -> PROPOSE): breaker BRK-SCH "
             "tripped");
  BOOST_TEST(!b.hold().has_value());
  BOOST_TEST(b.effective() == Graduation::kPropose);
}

// --- The owner ------------------------------------------------------------------------------

BOOST_AUTO_TEST_CASE(theOwnerMayNarrowAtAnyTimeButNeverWiden) {
  TrustBudget b = at(Graduation::kAutonomous, 200);
  auto same = b.ownerRegress(kT0, Graduation::kAutonomous, "testing");
  BOOST_REQUIRE(!same.ok());
  BOOST_TEST(same.message() ==
             "the owner can only narrow staffing_scheduling: it is AUTONOMOUS, AUTONOMOUS is not "
             "lower (advancing is graduation.advance, on the evidence)");
  BOOST_TEST(b.ownerRegress(kT0, Graduation::kShadow, "  ").message() ==
             "regressing staffing_scheduling needs a reason");
  const TimePoint t = kT0 + 20 * kDay;
  auto down = b.ownerRegress(t, Graduation::kShadow, "new menu week");
  BOOST_REQUIRE_MESSAGE(down.ok(), down.message());
  BOOST_REQUIRE_EQUAL(down->graduation.size(), 1u);
  BOOST_TEST(down->graduation[0].describe() ==
             "owner_regression AUTONOMOUS -> SHADOW: by the owner: new menu week");
  BOOST_TEST(b.trustHalves() == 200);  // narrowing costs no trust
  BOOST_TEST(!b.ownerRegress(t, Graduation::kPropose, "x").ok());
  // Advancing again goes through the thresholds, hysteresis included.
  shadowDecisions(b, t, 50, 0);
  const Eligibility e = b.eligibility(t + 14 * kDay - kMs);
  BOOST_TEST(unmet(e) == (std::vector<std::string>{"hysteresis"}), e.describe());
  BOOST_TEST(b.advance(t + 14 * kDay, true).ok());
}

// --- State ----------------------------------------------------------------------------------

BOOST_AUTO_TEST_CASE(theStateRoundTripsThroughJson) {
  TrustBudget b = at(Graduation::kAutonomous, 200);
  const TimePoint later = kT0 + 60 * kDay;
  BOOST_REQUIRE_EQUAL(b.recordDecision(later).graduation.size(), 1u);  // an inactivity hold
  BOOST_REQUIRE(b.recordSev(later, "sev-3", 3).ok());
  b.recordOverride(later, OverrideReason::kWrongJudgment);
  b.recordOutcome(later, TrustOutcome::kUsefulTap);
  b.recordOutcome(later, TrustOutcome::kShadowAgreed);
  auto back = TrustBudget::fromJson(b.toJson());
  BOOST_REQUIRE_MESSAGE(back.ok(), back.message());
  BOOST_TEST(json::canonical(back->toJson()) == json::canonical(b.toJson()));
  BOOST_TEST(back->effective() == Graduation::kPropose);
  BOOST_TEST(back->hold()->cleanDecisions == 1);
  BOOST_TEST(back->overrides().size() == 1u);
  BOOST_TEST(back->sevs().size() == 1u);
}

BOOST_AUTO_TEST_CASE(theOwnersNoticeIsKeptAndAStateWrittenBeforeItStillLoads) {
  TrustBudget b = fresh();
  BOOST_TEST(!b.eligibleNoticed().has_value());
  BOOST_TEST(b.noteEligibleNoticed(kT0 + kDay).empty());
  auto back = TrustBudget::fromJson(b.toJson());
  BOOST_REQUIRE_MESSAGE(back.ok(), back.message());
  BOOST_TEST((back->eligibleNoticed() == kT0 + kDay));
  json::Value old = fresh().toJson();
  old.asObject().erase("eligibleNoticed");
  auto older = TrustBudget::fromJson(old);
  BOOST_REQUIRE_MESSAGE(older.ok(), older.message());
  BOOST_TEST(!older->eligibleNoticed().has_value());
}

BOOST_AUTO_TEST_CASE(aDamagedStateIsRefusedNamingTheField) {
  struct Case {
    std::string expected;
    std::function<void(json::Object&)> spoil;
  };
  const std::vector<Case> cases = {
      {"state has an unknown field \"extra\"", [](json::Object& o) { o["extra"] = 1; }},
      {"state lacks the field \"since\"", [](json::Object& o) { o.erase("since"); }},
      {"state field \"trustHalves\" must be an integer in 0..200",
       [](json::Object& o) { o["trustHalves"] = 201; }},
      {"state field \"earned\" is not a graduation: MAYBE",
       [](json::Object& o) { o["earned"] = "MAYBE"; }},
      {"state field \"function\" is not a management function: payroll",
       [](json::Object& o) { o["function"] = "payroll"; }},
      {"state field \"shadow\" must be at most 100 characters 0 or 1",
       [](json::Object& o) { o["shadow"] = "012"; }},
      {"state.hold field \"clean\" must be an integer in 0..19",
       [](json::Object& o) {
         o["hold"] = json::Object{{"since", 0}, {"clean", 20}};
       }},
  };
  for (const Case& c : cases) {
    BOOST_TEST_CONTEXT(c.expected) {
      json::Value state = fresh().toJson();
      c.spoil(state.asObject());
      auto b = TrustBudget::fromJson(state);
      BOOST_REQUIRE(!b.ok());
      BOOST_TEST(b.message() == "trust budget state: " + c.expected);
    }
  }
}

BOOST_AUTO_TEST_SUITE_END()

// --- TrustStore over a real store -----------------------------------------------------------

namespace {

struct BudgetBox {
  BudgetBox() {
    Status made = initStateDir(dir, InitOptions{"site-a"});
    BOOST_REQUIRE_MESSAGE(made, made.message());
    reopen();
  }
  void reopen() {
    trust.reset();
    store.reset();
    auto opened = SiteStore::open(dir);
    BOOST_REQUIRE_MESSAGE(opened, opened.message());
    store = std::move(*opened);
    trust = std::make_unique<TrustStore>(store->log(), store->db());
  }
  TrustUpdate update(TimePoint at, const TrustStore::Step& step, std::string_view ref = {}) {
    auto u = trust->update(kFn, at, "engine", ref, step);
    BOOST_REQUIRE_MESSAGE(u.ok(), u.message());
    return *u;
  }
  std::vector<Entry> entries(std::string_view kind) {
    auto found = testing::entriesOfKind(store->log(), kind);
    BOOST_REQUIRE_MESSAGE(found.ok(), found.message());
    return *found;
  }
  TrustBudget stored() {
    auto b = trust->find(kFn);
    BOOST_REQUIRE_MESSAGE(b.ok(), b.message());
    BOOST_REQUIRE(b->has_value());
    return **b;
  }

  testing::TempDir tmp;
  std::string dir = tmp.sub("state");
  std::unique_ptr<SiteStore> store;
  std::unique_ptr<TrustStore> trust;
};

using atoms::testing::field;

}  // namespace

BOOST_AUTO_TEST_SUITE(trust_store)

BOOST_AUTO_TEST_CASE(aFunctionBeginsAtItsFirstUpdateAndEveryChangeIsAudited) {
  BudgetBox box;
  auto none = box.trust->find(kFn);
  BOOST_REQUIRE(none.ok());
  BOOST_TEST(!none->has_value());
  box.update(kT0, [](TrustBudget& b) { return b.recordDecision(kT0); });
  auto started = box.entries("graduation.changed");
  BOOST_REQUIRE_EQUAL(started.size(), 1u);
  BOOST_TEST(field(started[0], "cause") == "started");
  BOOST_TEST(field(started[0], "to") == "SHADOW");
  BOOST_TEST(box.entries("trust.changed").empty());  // a decision moves no trust

  box.update(
      kT0 + 1min,
      [](TrustBudget& b) { return b.recordOutcome(kT0 + 1min, TrustOutcome::kShadowAgreed); },
      "receipt:7");
  auto credits = box.entries("trust.changed");
  BOOST_REQUIRE_EQUAL(credits.size(), 1u);
  BOOST_TEST(credits[0].actor == "engine");
  BOOST_TEST(credits[0].ts == "2025-12-18T00:01:00.000Z");
  BOOST_TEST(field(credits[0], "event") == "shadow_agreed");
  BOOST_TEST(field(credits[0], "from") == "0");
  BOOST_TEST(field(credits[0], "to") == "1");
  BOOST_TEST(field(credits[0], "delta") == "+1");
  BOOST_TEST(field(credits[0], "ref") == "receipt:7");
}

BOOST_AUTO_TEST_CASE(aConfiguredFunctionBeginsAtItsLevelAuditedAsConfigured) {
  BudgetBox box;
  box.trust = std::make_unique<TrustStore>(
      box.store->log(), box.store->db(),
      std::map<std::string, Graduation>{{std::string(kFn), Graduation::kAutonomous}});
  BOOST_TEST(box.trust->startLevel(kFn) == Graduation::kAutonomous);
  BOOST_TEST(box.trust->startLevel("quiet_hr") == Graduation::kShadow);
  auto e = box.trust->eligibility(kFn, kT0);
  BOOST_REQUIRE(e.ok());
  BOOST_TEST(e->from == Graduation::kAutonomous);  // not begun: as it would begin
  box.update(kT0, [](TrustBudget& b) { return b.recordDecision(kT0); });
  auto begun = box.entries("graduation.changed");
  BOOST_REQUIRE_EQUAL(begun.size(), 1u);
  BOOST_TEST(field(begun[0], "cause") == "configured");
  BOOST_TEST(field(begun[0], "from") == "SHADOW");
  BOOST_TEST(field(begun[0], "to") == "AUTONOMOUS");
  BOOST_TEST(field(begun[0], "trust") == "60");
  BOOST_TEST(field(begun[0], "reason") ==
             "begins at AUTONOMOUS as the owner configured it at installation "
             "(policy.graduation.staffing_scheduling), with the trust AUTONOMOUS needs; listening "
             "ends");
  BOOST_TEST(box.stored().earned() == Graduation::kAutonomous);
  BOOST_TEST(box.stored().trustHalves() == 120);
}

BOOST_AUTO_TEST_CASE(theBudgetSurvivesAReopen) {
  BudgetBox box;
  for (int i = 0; i < 12; ++i) {
    const TimePoint t = kT0 + i * 1min;
    box.update(t, [t](TrustBudget& b) { return b.recordDecision(t); });
    box.update(t, [t](TrustBudget& b) { return b.recordOutcome(t, TrustOutcome::kShadowAgreed); });
  }
  box.update(kT0 + 1h, [](TrustBudget& b) { return *b.recordSev(kT0 + 1h, "sev-3", 3); });
  const std::string before = json::canonical(box.stored().toJson());
  box.reopen();
  const TrustBudget after = box.stored();
  BOOST_TEST(json::canonical(after.toJson()) == before);
  BOOST_TEST(after.trustHalves() == 0);  // +10 capped, then SEV3 -10
  BOOST_TEST(after.decisions() == 12);
  // The daily cap is remembered too: the 13th agreement of the day still earns nothing.
  auto capped = box.update(kT0 + 2h, [](TrustBudget& b) {
    return b.recordOutcome(kT0 + 2h, TrustOutcome::kShadowAgreed);
  });
  BOOST_TEST(!capped.trust.has_value());
  BOOST_TEST(box.entries("trust.changed").size() == 11u);  // ten credits and the SEV3
  auto sev = box.entries("trust.sev");
  BOOST_REQUIRE_EQUAL(sev.size(), 1u);
  BOOST_TEST(field(sev[0], "state") == "open");
}

BOOST_AUTO_TEST_CASE(anAdvanceIsAuditedWithItsEvidenceAndTheGateReadsTheEffectiveLevel) {
  BudgetBox box;
  TrustBudget ready = readyForPropose();
  // The store holds what the pure machine built: write it through a step that replaces it.
  box.update(kShadowReady, [&](TrustBudget& b) {
    b = ready;
    return TrustUpdate{};
  });
  auto refused = box.trust->update(kFn, kShadowReady, "panel:owner", "",
                                   [](TrustBudget& b) { return b.advance(kShadowReady, false); });
  BOOST_REQUIRE(!refused.ok());
  auto e = box.trust->eligibility(kFn, kShadowReady);
  BOOST_REQUIRE(e.ok());
  BOOST_TEST(e->eligible);
  auto up = box.trust->update(kFn, kShadowReady, "panel:owner", "approval:3",
                              [](TrustBudget& b) { return b.advance(kShadowReady, true); });
  BOOST_REQUIRE_MESSAGE(up.ok(), up.message());
  auto changes = box.entries("graduation.changed");
  BOOST_REQUIRE_EQUAL(changes.size(), 2u);  // started, advance
  const Entry& advance = changes[1];
  BOOST_TEST(advance.actor == "panel:owner");
  BOOST_TEST(field(advance, "cause") == "advance");
  BOOST_TEST(field(advance, "from") == "SHADOW");
  BOOST_TEST(field(advance, "to") == "PROPOSE");
  BOOST_TEST(field(advance, "ref") == "approval:3");
  const json::Value* evidence = advance.body.find("evidence");
  BOOST_REQUIRE(evidence && evidence->isArray());
  BOOST_TEST(evidence->asArray().size() == e->conditions.size());
  auto graduations = box.trust->graduations();
  BOOST_REQUIRE(graduations.ok());
  BOOST_TEST(graduations->at(std::string(kFn)) == Graduation::kPropose);
}

BOOST_AUTO_TEST_CASE(aRefusedStepWritesNothing) {
  BudgetBox box;
  const std::uint64_t size = box.store->log().size();
  auto r = box.trust->update(kFn, kT0, "panel:owner", "", [](TrustBudget& b) {
    return b.ownerRegress(kT0, Graduation::kShadow, "x");
  });
  BOOST_REQUIRE(!r.ok());
  BOOST_TEST(box.store->log().size() == size);
  auto none = box.trust->find(kFn);
  BOOST_REQUIRE(none.ok());
  BOOST_TEST(!none->has_value());  // not even begun
  auto unknown = box.trust->update("payroll", kT0, "engine", "",
                                   [](TrustBudget& b) { return b.recordDecision(kT0); });
  BOOST_TEST(unknown.message() ==
             "trust budget: \"payroll\" is not a management function (seed 000)");
}

BOOST_AUTO_TEST_CASE(aRegressionIsAuditedInTheSameBatchAsItsCause) {
  BudgetBox box;
  TrustBudget autonomous = at(Graduation::kAutonomous, 88);
  box.update(kT0, [&](TrustBudget& b) {
    b = autonomous;
    return TrustUpdate{};
  });
  const std::uint64_t before = box.store->log().size();
  auto batch = box.store->log().begin();
  BOOST_REQUIRE(batch.ok());
  auto u = box.trust->update(*batch, kFn, kT0 + 1h, "engine", "receipt:9", [](TrustBudget& b) {
    return b.recordOutcome(kT0 + 1h, TrustOutcome::kVerificationMismatch);
  });
  BOOST_REQUIRE_MESSAGE(u.ok(), u.message());
  BOOST_TEST(box.store->log().size() == before);  // nothing until the caller commits
  BOOST_REQUIRE(batch->commit().ok());
  BOOST_TEST(box.store->log().size() == before + 2);  // trust.changed, graduation.changed
  auto regression = box.entries("graduation.changed").back();
  BOOST_TEST(field(regression, "reason") == "trust 39 < 40");
}

BOOST_AUTO_TEST_SUITE_END()
