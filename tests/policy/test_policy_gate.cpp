#include <boost/test/unit_test.hpp>

// The policy gate (domain/policy/policy_gate.h) over the table built into the binary: one table
// of proposed actions and site states, each row naming the rule it checks, then the decision's
// record and the built-in table's agreement with the checked-in file.
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "domain/policy/policy_gate.h"
#include "domain/policy/shipped_actions.h"
#include "tests/support/build_paths.h"

namespace atoms::policy {
namespace {

PolicyGate shippedGate() {
  auto table = shippedActionTable();
  BOOST_REQUIRE_MESSAGE(table, table.message());
  return PolicyGate(std::move(*table));
}

ProposedAction byTheBox(std::string kind) { return {std::move(kind), "engine", true, "", {}}; }
ProposedAction byAPerson(std::string kind, std::string subject = "") {
  return {std::move(kind), "panel:owner-1", false, std::move(subject), {}};
}
ProposedAction levelChange(std::string kind, KillSwitchLevel level, bool automated) {
  return {std::move(kind), automated ? "auto:integrity" : "cloud:ops:ana", automated, "", level};
}

PolicyState at(KillSwitchLevel level, Graduation graduation = Graduation::kAutonomous) {
  PolicyState s;
  s.level = level;
  s.defaultGraduation = graduation;
  return s;
}
PolicyState withBreakerOpen(std::string breaker) {
  PolicyState s = at(KillSwitchLevel::kL0);
  s.openBreakers.insert(std::move(breaker));
  return s;
}
PolicyState withPriorAdverse(int n) {
  PolicyState s = at(KillSwitchLevel::kL0);
  s.priorAdverseAgainstSubject = n;
  return s;
}

struct Case {
  std::string name;  // the rule, with its source
  ProposedAction action;
  PolicyState state;
  EffectiveOutcome outcome;
  std::string ruleContains;
};

BOOST_AUTO_TEST_CASE(decidesEveryKindOfCaseByTheRuleThatApplies) {
  using K = KillSwitchLevel;
  using G = Graduation;
  using O = EffectiveOutcome;
  const PolicyGate gate = shippedGate();
  const std::vector<Case> cases = {
      {"an unknown kind is a packet for a human", byTheBox("shift.teleport"), at(K::kL0),
       O::kHumanPacket, "unknown action kind \"shift.teleport\""},
      {"AUTONOMOUS outreach at L0 by a graduated function runs", byTheBox("callout.offer"),
       at(K::kL0), O::kExecute, "declared AUTONOMOUS"},
      {"seed 001 s7 L1: outreach is held, not dropped", byTheBox("callout.offer"), at(K::kL1),
       O::kHold, "L1 outreach freeze"},
      {"seed 001 s7 L1: a reply in the person's own thread passes", byTheBox("sms.reply"),
       at(K::kL1), O::kExecute, "declared AUTONOMOUS"},
      {"seed 001 s8: BRK-OUT open holds outreach", byTheBox("callout.offer"),
       withBreakerOpen("BRK-OUT"), O::kHold, "BRK-OUT open"},
      {"seed 001 s8: BRK-SCH open clamps a write to PROPOSE", byTheBox("shift.assign"),
       withBreakerOpen("BRK-SCH"), O::kQueueForApproval, "BRK-SCH open"},
      {"another function's breaker does not reach it", byTheBox("shift.assign"),
       withBreakerOpen("BRK-OUT"), O::kExecute, "declared AUTONOMOUS"},
      {"seed 001 s6 PROPOSE: the box proposes, a human confirms", byTheBox("shift.assign"),
       at(K::kL0, G::kPropose), O::kQueueForApproval, "PROPOSE"},
      {"seed 001 s6 SHADOW: decided and recorded, not done", byTheBox("shift.assign"),
       at(K::kL0, G::kShadow), O::kRecordOnly, "SHADOW"},
      {"a person's instruction is not bounded by the box's graduation", byAPerson("shift.assign"),
       at(K::kL0, G::kShadow), O::kExecute, "declared AUTONOMOUS"},
      {"seed 001 s7 L2: writes are frozen", byAPerson("config.set"), at(K::kL2), O::kRecordOnly,
       "L2 write freeze"},
      {"seed 001 s7 L3: nothing runs", byAPerson("config.set"), at(K::kL3), O::kDeny,
       "L3 full stop"},
      {"seed 001 s7: the escalation path stays up at L3", byTheBox("safety.alert"), at(K::kL3),
       O::kExecute, "escalation path"},
      {"HUMAN_ONLY is a packet, never executed", byAPerson("termination.decide", "p-7"), at(K::kL0),
       O::kHumanPacket, "HUMAN_ONLY"},
      {"a person lowers the kill switch from L3", levelChange("killswitch.set", K::kL0, false),
       at(K::kL3), O::kExecute, "escalation path"},
      {"seed 001 s7: an automated process raises it", levelChange("killswitch.raise", K::kL3, true),
       at(K::kL1), O::kExecute, "escalation path"},
      {"seed 001 s7: an automated process never lowers it",
       levelChange("killswitch.raise", K::kL1, true), at(K::kL2), O::kDeny, "can only raise"},
      {"a level change names its level", byAPerson("killswitch.set"), at(K::kL0), O::kDeny,
       "must name its level"},
      {"RISK-08: one earlier adverse action is not yet a pattern",
       byAPerson("schedule.reduce_hours", "p-7"), withPriorAdverse(1), O::kQueueForApproval,
       "declared PROPOSE_CONFIRM"},
      {"RISK-08: the third adverse action against one person goes to a human",
       byAPerson("schedule.reduce_hours", "p-7"), withPriorAdverse(2), O::kHumanPacket,
       "2 earlier adverse actions against p-7 asked for within 30 days"},
      {"RISK-08 counts what people ask for, not the box's own moves",
       {"schedule.reduce_hours", "engine", true, "p-7", {}},
       withPriorAdverse(5),
       O::kQueueForApproval,
       "declared PROPOSE_CONFIRM"},
  };
  for (const Case& c : cases) {
    BOOST_TEST_CONTEXT(c.name) {
      const GateDecision d = gate.decide(c.action, c.state);
      BOOST_TEST(effectiveOutcomeName(d.outcome) == effectiveOutcomeName(c.outcome));
      BOOST_TEST(d.rule.find(c.ruleContains) != std::string::npos, d.rule);
      BOOST_TEST(d.kind == c.action.kind);
      BOOST_TEST(d.rule.find('\n') == std::string::npos);
    }
  }
}

BOOST_AUTO_TEST_CASE(aDecisionRecordsWhatItWasDecidedOn) {
  const PolicyGate gate = shippedGate();
  PolicyState s = at(KillSwitchLevel::kL0, Graduation::kAutonomous);
  s.openBreakers.insert("BRK-OUT");
  const GateDecision held = gate.decide(byTheBox("callout.offer"), s);
  const json::Value j = held.toJson();
  BOOST_TEST(j.find("outcome")->asString() == "hold");
  BOOST_TEST(j.find("declared")->asString() == "AUTONOMOUS");
  BOOST_TEST(j.find("killSwitch")->asString() == "L0");
  BOOST_TEST(j.find("graduation")->asString() == "AUTONOMOUS");
  BOOST_TEST(j.find("breaker")->asString() == "BRK-OUT");
  BOOST_TEST(j.find("pattern") == nullptr);
  BOOST_TEST(held.describe() == "callout.offer: hold (" + held.rule + ")");

  const GateDecision unknown = gate.decide(byTheBox("shift.teleport"), s);
  BOOST_TEST(unknown.toJson().find("declared")->isNull());
  BOOST_TEST(autonomyClassName(unknown.effective) == "HUMAN_ONLY");

  // A person's action records no graduation: it did not apply.
  BOOST_TEST(gate.decide(byAPerson("config.set"), s).toJson().find("graduation") == nullptr);
}

BOOST_AUTO_TEST_CASE(theBuiltInTableIsTheCheckedInFile) {
  std::ifstream in(atoms::testing::sourceDir() + "/etc/policy/actions.json");
  std::stringstream file;
  file << in.rdbuf();
  BOOST_REQUIRE(!file.str().empty());
  BOOST_TEST((file.str() == shippedActionTableText()));
  auto table = shippedActionTable();
  BOOST_REQUIRE_MESSAGE(table, table.message());
  for (const char* kind : {"killswitch.set", "killswitch.raise", "config.set", "safety.alert"}) {
    BOOST_TEST(table->find(kind).ok(), kind);
  }
}

}  // namespace
}  // namespace atoms::policy
