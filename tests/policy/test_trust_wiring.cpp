#include <boost/test/unit_test.hpp>

// The trust budget wired into the policy gate (daemon/service/policy_subsystem.h;
// docs/decisions/0010-trust-budget-start-and-ceiling.md), in-process with the store, engine and
// policy subsystems on a simulated clock: policy.graduation.<function> is where a budget begins
// and its ceiling; the box's decisions, the approver's answers, breaker trips and the owner's
// steps move it; the daily check tells the owner once when a step is open.
#include <chrono>
#include <functional>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "base/clock.h"
#include "base/writer_call.h"
#include "daemon/service/engine_subsystem.h"
#include "daemon/service/policy_subsystem.h"
#include "daemon/service/store_subsystem.h"
#include "store/site_store.h"
#include "store/state_dir.h"
#include "tests/policy/policy_test_util.h"
#include "tests/support/audit_entries.h"
#include "tests/support/fields.h"
#include "tests/support/temp_dir.h"
#include "tests/support/test_app.h"

namespace atoms::test {
namespace {

using namespace std::chrono_literals;
using policy::Graduation;
constexpr auto kDay = std::chrono::hours(24);
using atoms::testing::kFn;
using Config = std::map<std::string, std::string>;

// A site whose store, engine (on a simulated clock) and policy subsystems run in-process.
class Box {
 public:
  explicit Box(Config config) : clock_(TimePoint{} + std::chrono::hours(24 * 365 * 57)) {
    Status made = initStateDir(dir_, InitOptions{"site-a"});
    BOOST_REQUIRE_MESSAGE(made, made.message());
    config.emplace("state.dir", dir_);
    config.emplace("policy.integrity_check_interval_s", "0");
    app_ = std::make_unique<TestApp>(config);
    for (ServiceSubsystem* s : std::initializer_list<ServiceSubsystem*>{&store, &engine, &policy}) {
      Status started = s->startService(*app_);
      BOOST_REQUIRE_MESSAGE(started, s->name() << ": " << started.message());
    }
  }
  ~Box() {
    policy.stopService();
    engine.stopService();
    store.stopService();
  }

  // Runs `fn` on the engine thread and returns what it returned.
  template <typename F>
  auto run(F fn) {
    auto result = callOnWriter(engine.engine(), std::move(fn));
    BOOST_REQUIRE(result.has_value());
    return std::move(*result);
  }
  Graduation gateSees(std::string_view function) {
    return run([&] { return policy.state().graduation.at(std::string(function)); });
  }
  // One automated decision of `kind`, in a batch of its own, as the call-out desk makes it.
  void decide(const std::string& kind, bool automated = true) {
    run([&] {
      auto batch = store.store().log().begin();
      BOOST_REQUIRE(batch.ok());
      policy::ProposedAction a{kind, "engine", automated, "", std::nullopt};
      policy.recordDecision(*batch, clock_.now(), a);
      BOOST_REQUIRE(batch->commit().ok());
      return true;
    });
  }
  void answer(const std::string& kind, bool approved, const std::string& ref,
              std::optional<policy::OverrideReason> overrideReason = std::nullopt) {
    run([&] {
      auto batch = store.store().log().begin();
      BOOST_REQUIRE(batch.ok());
      policy.recordProposalOutcome(*batch, clock_.now(), kind, approved, overrideReason, ref);
      BOOST_REQUIRE(batch->commit().ok());
      return true;
    });
  }
  std::vector<Entry> entries(std::string_view kind) {
    auto found = run([&] { return testing::entriesOfKind(store.store().log(), kind); });
    BOOST_REQUIRE_MESSAGE(found.ok(), found.message());
    return *found;
  }
  std::optional<policy::TrustBudget> budget(std::string_view function) {
    auto found = run(
        [&] { return policy::TrustStore(store.store().log(), store.store().db()).find(function); });
    BOOST_REQUIRE_MESSAGE(found.ok(), found.message());
    return *found;
  }
  // Stops the policy subsystem and starts it again with `config` (as a restart with an edited
  // file does); the store and the engine keep running.
  void restartPolicy(Config config) {
    policy.stopService();
    app_.reset();  // one Poco application at a time
    config.emplace("state.dir", dir_);
    config.emplace("policy.integrity_check_interval_s", "0");
    app_ = std::make_unique<TestApp>(config);
    Status started = policy.startService(*app_);
    BOOST_REQUIRE_MESSAGE(started, started.message());
  }
  void advanceClock(std::chrono::system_clock::duration by) { clock_.advance(by); }
  TimePoint now() const { return clock_.now(); }

 private:
  testing::TempDir tmp_;
  std::string dir_ = tmp_.sub("state");
  SimulatedClock clock_;
  std::unique_ptr<TestApp> app_;

 public:
  StoreSubsystem store{Poco::Logger::get("store")};
  EngineSubsystem engine{Poco::Logger::get("engine"), clock_};
  PolicySubsystem policy{Poco::Logger::get("policy"), store, engine};
};

using atoms::testing::field;

BOOST_AUTO_TEST_SUITE(trust_wiring)

BOOST_AUTO_TEST_CASE(theGateSeesTheConfiguredLevelOfEveryFunctionBeforeAnyDecision) {
  Box box(Config{{"policy.graduation.staffing_scheduling", "autonomous"},
                 {"policy.graduation.quiet_hr", "shadow"}});
  BOOST_TEST(box.gateSees(kFn) == Graduation::kAutonomous);
  BOOST_TEST(box.gateSees("quiet_hr") == Graduation::kShadow);
  BOOST_TEST(box.gateSees("rituals_comms") == Graduation::kPropose);  // the default
  BOOST_TEST(box.entries("graduation.changed").empty());              // nothing begun yet
  auto listed = box.run([&] { return box.policy.trustBudgets(); });
  BOOST_REQUIRE_MESSAGE(listed.ok(), listed.message());
  BOOST_REQUIRE_EQUAL(listed->size(), 7u);  // every function of the action table
  BOOST_TEST(listed->front().function == kFn);
  BOOST_TEST(!listed->front().begun);
  BOOST_TEST(listed->front().trustHalves == 120);
  BOOST_TEST(!listed->front().withinCeiling);  // AUTONOMOUS: no higher level
}

BOOST_AUTO_TEST_CASE(onlyTheBoxsOwnBoundedDecisionsCountAndTheFirstBeginsTheBudget) {
  Box box(Config{{"policy.graduation.staffing_scheduling", "autonomous"}});
  box.decide("callout.record");        // internal: no graduation bounds it
  box.decide("callout.escalate");      // the escalation path
  box.decide("callout.offer", false);  // a person asked
  box.decide("no.such.kind");          // the gate makes it a packet
  BOOST_TEST(!box.budget(kFn).has_value());
  box.decide("callout.offer");
  auto b = box.budget(kFn);
  BOOST_REQUIRE(b.has_value());
  BOOST_TEST(b->decisions() == 1);
  BOOST_TEST(b->earned() == Graduation::kAutonomous);
  auto begun = box.entries("graduation.changed");
  BOOST_REQUIRE_EQUAL(begun.size(), 1u);
  BOOST_TEST(field(begun[0], "cause") == "configured");
  BOOST_TEST(field(begun[0], "to") == "AUTONOMOUS");
  BOOST_TEST(field(begun[0], "ref") == "callout.offer");
  BOOST_TEST(box.gateSees(kFn) == Graduation::kAutonomous);
}

BOOST_AUTO_TEST_CASE(anApprovalCreditsTwoAndADenialCountsAgainstTheProposals) {
  Box box(Config{});
  box.answer("callout.offer", true, "approval-4");
  auto credits = box.entries("trust.changed");
  BOOST_REQUIRE_EQUAL(credits.size(), 1u);
  BOOST_TEST(field(credits[0], "event") == "proposal_approved_unedited");
  BOOST_TEST(field(credits[0], "from") == "20");  // PROPOSE begins with 20
  BOOST_TEST(field(credits[0], "to") == "22");
  BOOST_TEST(field(credits[0], "ref") == "approval-4");
  box.answer("overtime.approve", false, "approval-5");
  BOOST_TEST(box.entries("trust.changed").size() == 1u);  // a denial moves no trust
  auto e = box.run([&] { return box.policy.trustBudgets(); });
  BOOST_REQUIRE(e.ok());
  BOOST_TEST(e->front()
                 .eligibility.toJson()
                 .asObject()
                 .at("conditions")
                 .asArray()[2]
                 .asObject()
                 .at("actual")
                 .asString() == "50% (1 of 2)");
}

BOOST_AUTO_TEST_CASE(aDenialWithAnOverrideReasonCostsTheFunctionTrust) {
  Box box(Config{});
  box.answer("overtime.approve", false, "approval-6", policy::OverrideReason::kWrongFacts);
  auto moves = box.entries("trust.changed");
  BOOST_REQUIRE_EQUAL(moves.size(), 1u);  // the denial itself moves nothing; the override does
  BOOST_TEST(field(moves[0], "function") == "staffing_scheduling");
  BOOST_TEST(field(moves[0], "event") == "override");
  BOOST_TEST(field(moves[0], "detail") == "WRONG_FACTS");
  BOOST_TEST(field(moves[0], "from") == "20");
  BOOST_TEST(field(moves[0], "to") == "17");
  BOOST_TEST(field(moves[0], "ref") == "approval-6");
  box.answer("callout.offer", false, "approval-7", policy::OverrideReason::kBadTiming);
  moves = box.entries("trust.changed");
  BOOST_REQUIRE_EQUAL(moves.size(), 2u);
  BOOST_TEST(field(moves[1], "detail") == "BAD_TIMING");
  BOOST_TEST(field(moves[1], "to") == "16");
  auto b = box.budget(kFn);
  BOOST_REQUIRE(b.has_value());
  BOOST_TEST(b->overrides().size() == 2u);
  // An approval never carries one: the reason is dropped, the credit is the approval's.
  box.answer("callout.offer", true, "approval-8", policy::OverrideReason::kTone);
  moves = box.entries("trust.changed");
  BOOST_REQUIRE_EQUAL(moves.size(), 3u);
  BOOST_TEST(field(moves[2], "event") == "proposal_approved_unedited");
}

BOOST_AUTO_TEST_CASE(aBreakerTripRegressesEveryAutonomousFunctionBehindIt) {
  Box box(Config{{"policy.graduation.staffing_scheduling", "autonomous"},
                 {"policy.graduation.quiet_hr", "autonomous"},
                 {"policy.graduation.rituals_comms", "autonomous"}});
  box.run([&] {
    box.policy.recordBreakerTrip("BRK-SCH", box.now());
    return true;
  });
  BOOST_TEST(box.gateSees(kFn) == Graduation::kPropose);
  BOOST_TEST(box.gateSees("quiet_hr") == Graduation::kPropose);  // pto.approve is behind BRK-SCH
  BOOST_TEST(box.gateSees("rituals_comms") == Graduation::kAutonomous);  // BRK-OUT only
  auto fell = box.entries("graduation.changed");
  std::vector<std::string> causes;
  for (const Entry& e : fell) causes.push_back(field(e, "function") + " " + field(e, "cause"));
  BOOST_TEST(causes == (std::vector<std::string>{"staffing_scheduling configured",
                                                 "staffing_scheduling regression",
                                                 "quiet_hr configured", "quiet_hr regression"}),
             boost::test_tools::per_element());
  BOOST_TEST(fell[1].actor == "breaker:BRK-SCH");
  BOOST_TEST(field(fell[1], "reason") == "breaker BRK-SCH tripped");
}

BOOST_AUTO_TEST_CASE(theOwnerNarrowsAtOnceAndAdvancesOnlyOnTheEvidenceWithinTheCeiling) {
  Box box(Config{{"policy.graduation.staffing_scheduling", "autonomous"},
                 {"policy.graduation.quiet_hr", "shadow"}});
  auto regress = [&](std::string_view fn, Graduation to, std::string_view why) {
    return box.run([&] { return box.policy.regress(fn, to, why, "panel:owner"); });
  };
  auto advance = [&](std::string_view fn, bool automated) {
    return box.run([&] { return box.policy.advance(fn, "panel:owner", automated); });
  };
  auto down = regress(kFn, Graduation::kPropose, "busy season");
  BOOST_REQUIRE_MESSAGE(down.ok(), down.message());
  BOOST_TEST(box.gateSees(kFn) == Graduation::kPropose);
  BOOST_TEST(regress(kFn, Graduation::kAutonomous, "again").message() ==
             "the owner can only narrow staffing_scheduling: it is PROPOSE, AUTONOMOUS is not "
             "lower (advancing is graduation.advance, on the evidence)");
  BOOST_TEST(regress("payroll", Graduation::kShadow, "x").message() ==
             "\"payroll\" is not a function of the action table");
  BOOST_TEST(advance(kFn, true).message() ==
             "only the owner can advance staffing_scheduling; an automated process never does "
             "(seed 001 section 6)");
  BOOST_TEST(advance("quiet_hr", false).message() ==
             "quiet_hr is at SHADOW, the highest level policy.graduation.quiet_hr allows; raise "
             "that setting first");
  auto early = advance(kFn, false);
  BOOST_REQUIRE(!early.ok());
  BOOST_TEST(
      early.message().find("staffing_scheduling PROPOSE -> AUTONOMOUS: not eligible (") == 0u,
      early.message());
  const auto refused = box.entries("graduation.refused");
  BOOST_REQUIRE_EQUAL(refused.size(), 5u);
  BOOST_TEST(refused[0].actor == "panel:owner");
  BOOST_TEST(field(refused[2], "action") == "graduation.advance");
  BOOST_TEST(box.gateSees(kFn) == Graduation::kPropose);  // nothing changed by a refusal

  // The evidence: 100 proposals approved without edit, 14 days after the regression. The daily
  // check tells the owner once; the owner's advance then takes it back to AUTONOMOUS.
  for (int day = 0; day < 10; ++day) {
    for (int i = 0; i < 10; ++i) {
      box.answer("callout.offer", true, "approval-" + std::to_string(day * 10 + i));
    }
    box.advanceClock(kDay);
  }
  box.advanceClock(5 * kDay);
  auto checked = box.run([&] { return box.policy.checkEligibility(); });
  BOOST_REQUIRE_MESSAGE(checked.ok(), checked.message());
  auto told = box.entries("graduation.eligible");
  BOOST_REQUIRE_EQUAL(told.size(), 1u);  // by this check or the daily timer's, once
  BOOST_TEST(field(told[0], "function") == kFn);
  BOOST_TEST(field(told[0], "to") == "AUTONOMOUS");
  BOOST_TEST(field(told[0], "ceiling") == "AUTONOMOUS");
  box.advanceClock(kDay);
  BOOST_TEST(*box.run([&] { return box.policy.checkEligibility(); }) == 0);  // not again
  BOOST_TEST(box.entries("graduation.eligible").size() == 1u);

  auto up = advance(kFn, false);
  BOOST_REQUIRE_MESSAGE(up.ok(), up.message());
  BOOST_TEST(box.gateSees(kFn) == Graduation::kAutonomous);
  const auto changed = box.entries("graduation.changed");
  BOOST_TEST(field(changed.back(), "cause") == "advance");
  BOOST_TEST(changed.back().actor == "panel:owner");
}

BOOST_AUTO_TEST_CASE(aCeilingBelowTheEarnedLevelBoundsWhatTheGateSees) {
  // The budget begun at AUTONOMOUS; the owner then lowers the setting (a restart): the gate sees
  // the setting, the budget keeps what it earned.
  Box box(Config{{"policy.graduation.staffing_scheduling", "autonomous"}});
  box.decide("shift.assign");
  BOOST_TEST(box.gateSees(kFn) == Graduation::kAutonomous);
  box.restartPolicy(Config{{"policy.graduation.staffing_scheduling", "shadow"}});
  BOOST_TEST(box.gateSees(kFn) == Graduation::kShadow);
  BOOST_TEST(box.budget(kFn)->earned() == Graduation::kAutonomous);
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace
}  // namespace atoms::test
