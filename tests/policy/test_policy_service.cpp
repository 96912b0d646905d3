#include <boost/test/unit_test.hpp>

// PolicyService (domain/policy/policy_service.h) on its own: a real store, the shipped action
// table, a simulated clock, no engine and no service. The box's decisions and the approver's
// answers move the trust budget of the kind's function, an incident costs only its function, the
// owner's advance is bounded by the ceiling (refusals audited), and the kill switch, the breakers
// and a broken audit chain reach the gate's state and the listeners.
#include <chrono>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/clock.h"
#include "domain/policy/breaker.h"
#include "domain/policy/breaker_board.h"
#include "domain/policy/policy_service.h"
#include "domain/policy/shipped_actions.h"
#include "domain/policy/trust_store.h"
#include "store/site_store.h"
#include "store/state_dir.h"
#include "tests/policy/policy_test_util.h"
#include "tests/support/audit_entries.h"
#include "tests/support/temp_dir.h"

using namespace atoms;
using namespace atoms::policy;

namespace {

using atoms::testing::kFn;
using Ceilings = std::map<std::string, Graduation>;

struct Signal {
  std::string breaker, signal, actor;
};

// The service over a fresh store. `ceilings` overrides the default (PROPOSE) of some functions.
class Box {
 public:
  explicit Box(const Ceilings& ceilings = {})
      : clock_(TimePoint{} + std::chrono::hours(24 * 365 * 57)) {
    Status made = initStateDir(dir_, InitOptions{"site-a"});
    BOOST_REQUIRE_MESSAGE(made, made.message());
    auto opened = SiteStore::open(dir_);
    BOOST_REQUIRE_MESSAGE(opened, opened.message());
    store_ = std::move(*opened);
    Ceilings all;
    for (const std::string& function : gate_.table().functions()) {
      auto it = ceilings.find(function);
      all[function] = it != ceilings.end() ? it->second : Graduation::kPropose;
    }
    auto service = PolicyService::open(PolicyService::Deps{
        store_->log(), store_->db(), gate_.table(), clock_, std::move(all),
        [this](PolicyLogLevel level, const std::string& msg, const PolicyLogFields&) {
          logged.push_back({level, msg});
        },
        [this](const std::string& breaker, const std::string& signal, const std::string& actor) {
          signals.push_back({breaker, signal, actor});
        }});
    BOOST_REQUIRE_MESSAGE(service, service.message());
    service_ = std::move(*service);
  }
  ~Box() {
    service_.reset();
    board_.reset();
  }

  PolicyService& service() { return *service_; }
  AuditLog& log() { return store_->log(); }
  TimePoint now() const { return clock_.now(); }
  std::string gateSees(std::string_view function) {
    return std::string(graduationName(service_->state().graduation.at(std::string(function))));
  }
  // Runs `fn` with a batch of its own and commits it, as a turn of the call-out desk does.
  template <typename F>
  void inBatch(F fn) {
    auto batch = store_->log().begin();
    BOOST_REQUIRE_MESSAGE(batch, batch.message());
    fn(*batch);
    auto committed = batch->commit();
    BOOST_REQUIRE_MESSAGE(committed, committed.message());
  }
  void decide(const std::string& kind, bool automated = true) {
    inBatch([&](AuditLog::Batch& batch) {
      service_->recordDecision(batch, now(), ProposedAction{kind, "engine", automated, "", {}});
    });
  }
  void answer(const std::string& kind, bool approved, const std::string& ref,
              std::optional<OverrideReason> overrideReason = std::nullopt) {
    inBatch([&](AuditLog::Batch& batch) {
      service_->recordProposalOutcome(batch, now(), kind, approved, overrideReason, ref);
    });
  }
  std::vector<Entry> entries(std::string_view kind) {
    auto found = testing::entriesOfKind(store_->log(), kind);
    BOOST_REQUIRE_MESSAGE(found.ok(), found.message());
    return *found;
  }
  std::optional<TrustBudget> budget(std::string_view function) {
    auto found = TrustStore(store_->log(), store_->db()).find(function);
    BOOST_REQUIRE_MESSAGE(found.ok(), found.message());
    return *found;
  }
  // The site's BRK-OUT and BRK-SCH, attached to the service as serve attaches them.
  BreakerBoard& attachBoard() {
    auto board = BreakerBoard::open(store_->log(), store_->db(),
                                    {outreachBreakerConfig(2), scheduleBreakerConfig()}, now());
    BOOST_REQUIRE_MESSAGE(board, board.message());
    board_ = std::move(*board);
    PolicyService* service = service_.get();
    board_->setOnTrip([service](AuditLog::Batch& batch, const BreakerEvent& e) {
      return service->recordBreakerTripIn(batch, e.breaker, e.at);
    });
    board_->setOnChange([service](const BreakerEvent& e) { service->breakerChanged(e); });
    service_->attachBreakers(board_.get());
    return *board_;
  }
  bool wasLogged(PolicyLogLevel level, std::string_view msg) const {
    for (const auto& [l, m] : logged) {
      if (l == level && m == msg) return true;
    }
    return false;
  }

  std::vector<std::pair<PolicyLogLevel, std::string>> logged;
  std::vector<Signal> signals;

 private:
  testing::TempDir tmp_;
  std::string dir_ = tmp_.sub("state");
  SimulatedClock clock_;
  PolicyGate gate_{*shippedActionTable()};
  std::unique_ptr<SiteStore> store_;
  std::unique_ptr<BreakerBoard> board_;
  std::unique_ptr<PolicyService> service_;
};

// The entry's string fields `names`, separated by spaces ("-" for one it lacks), and its actor.
std::string summary(const Entry& e, std::initializer_list<const char*> names) {
  std::string out;
  for (const char* name : names) {
    const json::Value* v = e.body.find(name);
    out += (v && v->isString() ? v->asString() : std::string("-")) + " ";
  }
  return out + "by " + e.actor;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(policy_service)

BOOST_AUTO_TEST_CASE(aDecisionOfTheBoxIsRecordedAndCountedForItsFunction) {
  Box box(Ceilings{{std::string(kFn), Graduation::kAutonomous}});
  BOOST_TEST(box.wasLogged(PolicyLogLevel::kInfo, "kill switch at L0 (normal)"));
  box.decide("callout.record");        // internal: no graduation bounds it
  box.decide("callout.offer", false);  // a person asked
  BOOST_TEST(!box.budget(kFn).has_value());
  box.decide("callout.offer");
  box.decide("shift.assign");
  auto b = box.budget(kFn);
  BOOST_REQUIRE(b.has_value());
  BOOST_TEST(b->decisions() == 2);
  const auto begun = box.entries("graduation.changed");
  BOOST_REQUIRE_EQUAL(begun.size(), 1u);  // the first decision began the budget at its ceiling
  BOOST_TEST(summary(begun[0], {"cause", "to", "ref"}) ==
             "configured AUTONOMOUS callout.offer by engine");
  BOOST_TEST(box.gateSees(kFn) == "AUTONOMOUS");
  BOOST_TEST(box.gateSees("quiet_hr") == "PROPOSE");  // never begun: its ceiling
}

BOOST_AUTO_TEST_CASE(aDeniedProposalWithAnOverrideReasonCostsItsFunctionTrust) {
  Box box;
  box.answer("overtime.approve", false, "approval-6", OverrideReason::kWrongJudgment);
  // An approval never carries one: the reason is dropped, the credit is the approval's.
  box.answer("callout.offer", true, "approval-7", OverrideReason::kTone);
  const auto moves = box.entries("trust.changed");
  BOOST_REQUIRE_EQUAL(moves.size(), 2u);  // a denial itself moves nothing; its override does
  const std::initializer_list<const char*> shown = {"function", "event", "detail",
                                                    "from",     "to",    "ref"};
  BOOST_TEST(summary(moves[0], shown) ==
             "staffing_scheduling override WRONG_JUDGMENT 20 17 approval-6 by engine");
  BOOST_TEST(summary(moves[1], shown) ==
             "staffing_scheduling proposal_approved_unedited - 17 19 approval-7 by engine");
  auto b = box.budget(kFn);
  BOOST_REQUIRE(b.has_value());
  BOOST_TEST(b->overrides().size() == 1u);
  box.answer("no.such.kind", false, "approval-8", OverrideReason::kTone);  // no function: nothing
  BOOST_TEST(box.entries("trust.changed").size() == 2u);
}

BOOST_AUTO_TEST_CASE(anIncidentRegressesOnlyTheFunctionItIsAttributedTo) {
  Box box(
      Ceilings{{std::string(kFn), Graduation::kAutonomous}, {"quiet_hr", Graduation::kAutonomous}});
  box.decide("pto.approve");  // quiet_hr begins too
  auto sev = box.service().recordIncident(kFn, "inc-7", 2, "panel:owner");
  BOOST_REQUIRE_MESSAGE(sev, sev.message());
  BOOST_TEST(box.gateSees(kFn) == "PROPOSE");
  BOOST_TEST(box.gateSees("quiet_hr") == "AUTONOMOUS");
  BOOST_TEST(box.budget("quiet_hr")->trustHalves() == 120);
  BOOST_TEST(box.budget(kFn)->trustHalves() == 70);  // 60 - 25
  const auto sevs = box.entries("trust.sev");
  BOOST_REQUIRE_EQUAL(sevs.size(), 1u);
  BOOST_TEST(summary(sevs[0], {"function", "id", "state"}) ==
             "staffing_scheduling inc-7 open by panel:owner");

  auto again = box.service().recordIncident(kFn, "inc-7", 3, "panel:owner");
  BOOST_TEST(!again.ok());  // a repeated id changes nothing
  BOOST_TEST(box.entries("graduation.refused").size() == 1u);
  BOOST_TEST(box.budget(kFn)->trustHalves() == 70);
}

BOOST_AUTO_TEST_CASE(anAdvanceAboveTheCeilingIsRefusedAndAudited) {
  Box box(Ceilings{{"quiet_hr", Graduation::kShadow}});
  auto refused = box.service().advance("quiet_hr", "panel:owner");
  BOOST_TEST(refused.message() ==
             "quiet_hr is at SHADOW, the highest level policy.graduation.quiet_hr allows; raise "
             "that setting first");
  BOOST_TEST(box.service().advance(kFn, "auto:tuner", true).message() ==
             "only the owner can advance staffing_scheduling; an automated process never does "
             "(seed 001 section 6)");
  const auto audited = box.entries("graduation.refused");
  BOOST_REQUIRE_EQUAL(audited.size(), 2u);
  BOOST_TEST(summary(audited[0], {"function", "action"}) ==
             "quiet_hr graduation.advance by panel:owner");
  BOOST_TEST(summary(audited[0], {"reason"}) == refused.message() + " by panel:owner");
  BOOST_TEST(box.wasLogged(PolicyLogLevel::kWarning, "graduation change refused"));
  BOOST_TEST(box.entries("graduation.changed").empty());  // nothing else written
  BOOST_TEST(!box.budget("quiet_hr").has_value());
  BOOST_TEST(box.gateSees("quiet_hr") == "SHADOW");
}

BOOST_AUTO_TEST_CASE(aViolationAtActSignalsBrkSchAndIsAnOpenSev2) {
  Box box(Ceilings{{std::string(kFn), Graduation::kAutonomous}});
  box.inBatch([&](AuditLog::Batch& batch) {
    box.service().recordViolationAtAct(batch, box.now(), "shift.assign", "callout-1-act-3");
  });
  BOOST_REQUIRE_EQUAL(box.signals.size(), 1u);
  BOOST_TEST(box.signals[0].breaker == "BRK-SCH");
  BOOST_TEST(box.signals[0].signal == std::string(kSignalLaborViolationAtAct));
  BOOST_TEST(box.signals[0].actor == "callout");
  const auto sevs = box.entries("trust.sev");
  BOOST_REQUIRE_EQUAL(sevs.size(), 1u);
  BOOST_TEST(summary(sevs[0], {"function", "id", "state"}) ==
             "staffing_scheduling callout-1-act-3 open by engine");
  BOOST_TEST(box.gateSees(kFn) == "PROPOSE");
}

BOOST_AUTO_TEST_CASE(aKillSwitchChangeReachesTheListenersAndFreezesOutreach) {
  Box box;
  std::vector<KillSwitchLevel> heard;
  const int id = box.service().addListener([&](KillSwitchLevel l) { heard.push_back(l); });
  BOOST_REQUIRE_EQUAL(heard.size(), 1u);  // told the current level at once
  BOOST_TEST(!box.service().outreachFrozen());
  auto set = box.service().killSwitch().set("2027-01-01T00:00:00.000Z", KillSwitchLevel::kL1,
                                            "storm", KillSwitchSetter{"panel:owner", false});
  BOOST_REQUIRE_MESSAGE(set, set.message());
  box.service().levelMayHaveChanged();
  box.service().levelMayHaveChanged();  // unchanged: nobody is told again
  BOOST_REQUIRE_EQUAL(heard.size(), 2u);
  BOOST_TEST((heard[1] == KillSwitchLevel::kL1));
  BOOST_TEST(box.service().outreachFrozen());
  BOOST_TEST((box.service().state().level == KillSwitchLevel::kL1));
  BOOST_TEST(box.wasLogged(PolicyLogLevel::kWarning, "kill switch changed"));
  box.service().removeListener(id);
  box.service().integrityFailed(VerifyReport{.problem = "seq 3: leaf hash mismatch"});
  BOOST_TEST(heard.size() == 2u);
  auto current = box.service().killSwitch().current();
  BOOST_REQUIRE_MESSAGE(current, current.message());
  BOOST_TEST((current->level == KillSwitchLevel::kL3));
  BOOST_TEST(current->setBy == "integrity");
  BOOST_TEST(current->automated);
  BOOST_TEST(current->reason == "audit chain integrity failure: seq 3: leaf hash mismatch");
}

BOOST_AUTO_TEST_CASE(aBrkOutTripRegressesItsFunctionsAndFreezesOutreach) {
  Box box(
      Ceilings{{"rituals_comms", Graduation::kAutonomous}, {"quiet_hr", Graduation::kAutonomous}});
  BreakerBoard& board = box.attachBoard();
  int told = 0;
  box.service().addListener([&](KillSwitchLevel) { ++told; });
  auto tripped = board.trip("BRK-OUT", box.now(), "engine", "a test");
  BOOST_REQUIRE_MESSAGE(tripped, tripped.message());
  BOOST_TEST(box.service().outreachFrozen());
  BOOST_TEST(told == 2);  // at addition, and when BRK-OUT moved
  BOOST_TEST(box.service().state().openBreakers == (std::set<std::string>{"BRK-OUT"}));
  BOOST_TEST(box.gateSees("rituals_comms") == "PROPOSE");  // sms.reply is behind BRK-OUT
  BOOST_TEST(box.gateSees("quiet_hr") == "AUTONOMOUS");    // BRK-SCH only
  BOOST_TEST(box.wasLogged(PolicyLogLevel::kWarning, "breaker opened"));
}

BOOST_AUTO_TEST_CASE(theDailyCheckIsDueADayLater) {
  Box box;
  BOOST_TEST((box.service().eligibilityDue() == box.now() + PolicyService::kEligibilityCheckEvery));
  BOOST_TEST(box.entries("graduation.eligible").empty());  // nothing begun, nothing to tell
}

BOOST_AUTO_TEST_SUITE_END()
