#include <boost/test/unit_test.hpp>

// Action classes (domain/policy/action_classes.h): the shipped table in etc/policy/, every loader
// error, and clamp() over graduation x kill-switch level x breaker, each case citing its seed rule.
#include <array>
#include <set>
#include <string>
#include <vector>

#include "domain/policy/action_classes.h"
#include "tests/support/build_paths.h"
#include "tests/support/temp_dir.h"

namespace atoms::policy {
namespace {

// The table the repository ships (atoms::testing::sourceDir(): the checkout, set by
// tests/policy/CMakeLists).
const std::string kShippedTable = atoms::testing::sourceDir() + "/etc/policy/actions.json";

constexpr std::array kGraduations{Graduation::kShadow, Graduation::kPropose,
                                  Graduation::kAutonomous};
constexpr std::array kLevels{KillSwitchLevel::kL0, KillSwitchLevel::kL1, KillSwitchLevel::kL2,
                             KillSwitchLevel::kL3};

// One valid row; each error test breaks one thing.
std::string row(const std::string& kind, const std::string& extra = "",
                const std::string& cls = "AUTONOMOUS") {
  return R"({"kind":")" + kind + R"(","class":")" + cls +
         R"(","confirmer":"manager_of_record","function":"staffing_scheduling",)"
         R"("effect":"outreach","breaker":"BRK-OUT","description":"d","source":"seed 001 s7")" +
         extra + "}";
}
std::string file(const std::string& rows) { return R"({"version":1,"actions":[)" + rows + "]}"; }

std::string parseError(const std::string& text) {
  auto t = ActionClassTable::parse(text, "actions.json");
  BOOST_REQUIRE_MESSAGE(!t.ok(), "expected an error for " + text);
  BOOST_TEST(t.message().find('\n') == std::string::npos);  // one line
  BOOST_TEST(t.message().rfind("actions.json: ", 0) == 0);  // names the file
  return t.message();
}

ActionClass action(AutonomyClass declared, ActionEffect effect) {
  ActionClass a;
  a.kind = "test.kind";
  a.declared = declared;
  a.effect = effect;
  a.function = "staffing_scheduling";
  a.breaker = effect == ActionEffect::kEscalationPath ? "none" : "BRK-SCH";
  a.source = "test";
  return a;
}

int permissiveness(EffectiveOutcome o) {
  return o == EffectiveOutcome::kExecute ? 2 : o == EffectiveOutcome::kQueueForApproval ? 1 : 0;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(action_classes)

BOOST_AUTO_TEST_CASE(shippedTableLoadsWithClassFunctionAndSourceForEveryKind) {
  auto table = ActionClassTable::load(kShippedTable);
  BOOST_REQUIRE_MESSAGE(table.ok(), table.message());
  BOOST_TEST(table->all().size() >= 30u);
  for (const ActionClass& a : table->all()) {
    BOOST_TEST_CONTEXT(a.kind) {
      BOOST_TEST(!a.source.empty());
      BOOST_TEST(!a.function.empty());
      BOOST_TEST(!a.description.empty());
      auto found = table->find(a.kind);
      BOOST_REQUIRE(found.ok());
      BOOST_TEST(*found == &a);
    }
  }
}

BOOST_AUTO_TEST_CASE(shippedTableHoldsTheSeedsNamedKindsWithTheirClasses) {
  auto table = ActionClassTable::load(kShippedTable);
  BOOST_REQUIRE_MESSAGE(table.ok(), table.message());
  auto cls = [&](const std::string& kind) {
    auto a = table->find(kind);
    BOOST_REQUIRE_MESSAGE(a.ok(), a.message());
    return (*a)->declared;
  };
  // Seed 000 EC-MGR-009: call-out handling AUTONOMOUS; overtime PROPOSE_CONFIRM to the MoR.
  BOOST_TEST((cls("callout.offer") == AutonomyClass::kAutonomous));
  BOOST_TEST((cls("shift.assign") == AutonomyClass::kAutonomous));
  BOOST_TEST((cls("overtime.approve") == AutonomyClass::kProposeConfirm));
  // Seed 001 RISK-08 / section 6 / section 8 BRK-HR.
  BOOST_TEST((cls("schedule.reduce_hours") == AutonomyClass::kProposeConfirm));
  BOOST_TEST((cls("graduation.advance") == AutonomyClass::kProposeConfirm));
  BOOST_TEST((cls("pto.deny") == AutonomyClass::kHumanOnly));
  // Seed 000 section 2.1: compensation, discipline, termination, hiring are HUMAN_ONLY.
  for (const char* k :
       {"compensation.change", "discipline.record", "termination.decide", "hiring.decide"}) {
    BOOST_TEST_CONTEXT(k) { BOOST_TEST((cls(k) == AutonomyClass::kHumanOnly)); }
  }
  BOOST_TEST((cls("safety.packet") == AutonomyClass::kHumanOnly));
  BOOST_TEST((cls("safety.alert") == AutonomyClass::kAutonomous));
}

BOOST_AUTO_TEST_CASE(shippedTableNeverLetsPayOrAdverseKindsRunAlone) {
  // Seed 001 RISK-08; DESIGN.md section 5.
  auto table = ActionClassTable::load(kShippedTable);
  BOOST_REQUIRE_MESSAGE(table.ok(), table.message());
  int adverse = 0;
  for (const ActionClass& a : table->all()) {
    if (!a.touchesPay && !a.adverse) continue;
    adverse += a.adverse ? 1 : 0;
    BOOST_TEST_CONTEXT(a.kind) {
      BOOST_TEST((a.declared != AutonomyClass::kAutonomous));
      for (Graduation g : kGraduations) {
        for (KillSwitchLevel l : kLevels) {
          for (bool b : {false, true}) {
            BOOST_TEST((clamp(a, g, l, b).outcome != EffectiveOutcome::kExecute));
          }
        }
      }
    }
  }
  BOOST_TEST(adverse >= 3);
}

BOOST_AUTO_TEST_CASE(clampIsNeverMorePermissiveThanTheDeclaredClassForAnyShippedKind) {
  auto table = ActionClassTable::load(kShippedTable);
  BOOST_REQUIRE_MESSAGE(table.ok(), table.message());
  for (const ActionClass& a : table->all()) {
    for (Graduation g : kGraduations) {
      for (KillSwitchLevel l : kLevels) {
        for (bool b : {false, true}) {
          BOOST_TEST_CONTEXT(a.kind << " " << graduationName(g) << " " << killSwitchLevelName(l)
                                    << " breaker=" << b) {
            const Clamped c = clamp(a, g, l, b);
            BOOST_TEST(static_cast<int>(c.effective) >= static_cast<int>(a.declared));
            BOOST_TEST(!c.rule.empty());
            if (a.declared == AutonomyClass::kHumanOnly) {
              // DESIGN.md section 5: HUMAN_ONLY actions are never executed by the box.
              BOOST_TEST((c.outcome == EffectiveOutcome::kHumanPacket ||
                          c.outcome == EffectiveOutcome::kDeny));
            }
            if (a.declared == AutonomyClass::kProposeConfirm) {
              BOOST_TEST(permissiveness(c.outcome) <= 1);
            }
            if (a.effect == ActionEffect::kEscalationPath) {
              // Seed 001 section 7: the escalation path stays up at every level.
              BOOST_TEST((c.outcome != EffectiveOutcome::kDeny));
              BOOST_TEST((c.outcome != EffectiveOutcome::kHold));
              BOOST_TEST((c.outcome != EffectiveOutcome::kRecordOnly));
            } else if (l == KillSwitchLevel::kL3) {
              BOOST_TEST((c.outcome == EffectiveOutcome::kDeny));
            }
          }
        }
      }
    }
  }
}

BOOST_AUTO_TEST_CASE(findOfAnUnknownKindIsAnErrorTheGateTreatsAsHumanOnly) {
  auto table = ActionClassTable::parse(file(row("callout.offer")), "actions.json");
  BOOST_REQUIRE_MESSAGE(table.ok(), table.message());
  auto missing = table->find("payroll.run");
  BOOST_REQUIRE(!missing.ok());
  BOOST_TEST(missing.message() == "unknown action kind \"payroll.run\" (treated as HUMAN_ONLY)");
  BOOST_TEST(table->find("callout.offer").ok());
}

BOOST_AUTO_TEST_CASE(loaderAcceptsOptionalFlagsAndKeepsFileOrder) {
  auto table = ActionClassTable::parse(
      file(row("b.kind") + "," +
           row("a.kind", R"(,"touchesPay":true,"adverse":true)", "PROPOSE_CONFIRM")),
      "actions.json");
  BOOST_REQUIRE_MESSAGE(table.ok(), table.message());
  BOOST_REQUIRE_EQUAL(table->all().size(), 2u);
  BOOST_TEST(table->all()[0].kind == "b.kind");
  BOOST_TEST(!table->all()[0].touchesPay);
  BOOST_TEST(table->all()[1].touchesPay);
  BOOST_TEST(table->all()[1].adverse);
  BOOST_TEST((table->all()[1].declared == AutonomyClass::kProposeConfirm));
}

BOOST_AUTO_TEST_CASE(loaderRejectsAnUnknownFieldNamingTheKind) {
  BOOST_TEST(parseError(file(row("callout.offer", R"(,"urgent":true)"))) ==
             "actions.json: action \"callout.offer\": unknown field \"urgent\"");
}

BOOST_AUTO_TEST_CASE(loaderRejectsAnUnknownClassNamingTheKind) {
  BOOST_TEST(parseError(file(row("callout.offer", "", "MOSTLY_AUTONOMOUS")))
                 .find("action \"callout.offer\": unknown class \"MOSTLY_AUTONOMOUS\"") !=
             std::string::npos);
}

BOOST_AUTO_TEST_CASE(loaderRejectsADuplicateKind) {
  BOOST_TEST(parseError(file(row("callout.offer") + "," + row("callout.offer"))) ==
             "actions.json: action \"callout.offer\": duplicate kind");
}

BOOST_AUTO_TEST_CASE(loaderRejectsAMissingOrEmptySource) {
  const std::string noSource =
      R"({"kind":"shift.assign","class":"AUTONOMOUS","confirmer":"owner",)"
      R"("function":"staffing_scheduling","effect":"write","breaker":"BRK-SCH","description":"d"})";
  BOOST_TEST(parseError(file(noSource)) ==
             "actions.json: action \"shift.assign\": missing field \"source\"");
  std::string empty = row("shift.assign");
  empty.replace(empty.find("seed 001 s7"), 11, "");
  BOOST_TEST(parseError(file(empty)) ==
             "actions.json: action \"shift.assign\": field \"source\" must be a non-empty string");
}

BOOST_AUTO_TEST_CASE(loaderRejectsAMissingKindByPosition) {
  const std::string noKind =
      R"({"class":"AUTONOMOUS","confirmer":"owner","function":"planning","effect":"write",)"
      R"("breaker":"none","description":"d","source":"s"})";
  BOOST_TEST(parseError(file(row("a.b") + "," + noKind)) ==
             "actions.json: action #2: missing field \"kind\"");
}

BOOST_AUTO_TEST_CASE(loaderRejectsUnknownFunctionEffectBreakerAndConfirmer) {
  std::string r = row("callout.offer");
  auto swap = [&](const std::string& from, const std::string& to) {
    std::string t = r;
    t.replace(t.find(from), from.size(), to);
    return parseError(file(t));
  };
  BOOST_TEST(swap("staffing_scheduling", "vibes").find("unknown function \"vibes\"") !=
             std::string::npos);
  BOOST_TEST(swap("\"outreach\"", "\"broadcast\"").find("unknown effect \"broadcast\"") !=
             std::string::npos);
  BOOST_TEST(swap("BRK-OUT", "BRK-NOPE").find("unknown breaker \"BRK-NOPE\"") != std::string::npos);
  BOOST_TEST(swap("manager_of_record", "shift_lead").find("unknown confirmer \"shift_lead\"") !=
             std::string::npos);
}

BOOST_AUTO_TEST_CASE(loaderRejectsBadKindNamesAndWrongTypes) {
  BOOST_TEST(parseError(file(row("Callout"))).find("lowercase dotted") != std::string::npos);
  BOOST_TEST(parseError(file(row("callout..offer"))).find("lowercase dotted") != std::string::npos);
  BOOST_TEST(parseError(file(row("a.b", R"(,"adverse":"yes")"))) ==
             "actions.json: action \"a.b\": field \"adverse\" must be true or false");
  BOOST_TEST(parseError(file("3")) == "actions.json: action #1: must be a JSON object");
}

BOOST_AUTO_TEST_CASE(loaderRejectsPayOrAdverseKindsDeclaredAutonomous) {
  // Seed 001 RISK-08: cutting one person's hours cannot run alone.
  BOOST_TEST(parseError(file(row("schedule.reduce_hours", R"(,"adverse":true)"))) ==
             "actions.json: action \"schedule.reduce_hours\": a kind that is adverse to one "
             "person must be PROPOSE_CONFIRM or HUMAN_ONLY");
  BOOST_TEST(
      parseError(file(row("overtime.approve", R"(,"touchesPay":true)"))).find("touches pay") !=
      std::string::npos);
}

BOOST_AUTO_TEST_CASE(loaderRejectsAnEscalationPathThatWaitsForApprovalOrABreaker) {
  std::string r = row("safety.alert", "", "PROPOSE_CONFIRM");
  r.replace(r.find("\"outreach\""), 10, "\"escalation_path\"");
  BOOST_TEST(parseError(file(r)).find("must be AUTONOMOUS or HUMAN_ONLY") != std::string::npos);
  std::string b = row("safety.alert");
  b.replace(b.find("\"outreach\""), 10, "\"escalation_path\"");
  BOOST_TEST(parseError(file(b)).find("takes breaker \"none\"") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(loaderRejectsBadTopLevel) {
  BOOST_TEST(parseError("{").find("invalid JSON") != std::string::npos);
  BOOST_TEST(parseError("[]") == "actions.json: the file must hold one JSON object");
  BOOST_TEST(parseError(R"({"version":2,"actions":[]})") ==
             "actions.json: field \"version\" must be 1");
  BOOST_TEST(parseError(R"({"version":1,"actions":[]})") ==
             "actions.json: field \"actions\" must be a non-empty array");
  BOOST_TEST(parseError(R"({"version":1,"actions":[],"extra":1})") ==
             "actions.json: unknown field \"extra\"");
}

BOOST_AUTO_TEST_CASE(loadReadsAFileAndNamesAMissingOne) {
  testing::TempDir dir;
  const std::string path = dir.write("actions.json", file(row("callout.offer")));
  auto table = ActionClassTable::load(path);
  BOOST_REQUIRE_MESSAGE(table.ok(), table.message());
  BOOST_TEST(table->all().size() == 1u);
  auto missing = ActionClassTable::load(dir.file("absent.json"));
  BOOST_REQUIRE(!missing.ok());
  BOOST_TEST(missing.message().find("absent.json") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(namesRoundTrip) {
  for (auto c :
       {AutonomyClass::kAutonomous, AutonomyClass::kProposeConfirm, AutonomyClass::kHumanOnly}) {
    BOOST_TEST((autonomyClassFromName(autonomyClassName(c)) == c));
  }
  for (Graduation g : kGraduations) BOOST_TEST((graduationFromName(graduationName(g)) == g));
  BOOST_TEST(!graduationFromName("shadow").has_value());
  BOOST_TEST(effectiveOutcomeName(EffectiveOutcome::kQueueForApproval) == "queue_for_approval");
}

// The clamp table: one row per combination that matters, each naming the rule it pins.
struct ClampCase {
  const char* rule;
  AutonomyClass declared;
  ActionEffect effect;
  Graduation graduation;
  KillSwitchLevel level;
  bool breakerOpen;
  AutonomyClass effective;
  EffectiveOutcome outcome;
};

BOOST_AUTO_TEST_CASE(clampFollowsTheSeedRules) {
  using enum AutonomyClass;
  using enum ActionEffect;
  using G = Graduation;
  using enum KillSwitchLevel;
  using enum EffectiveOutcome;
  const std::vector<ClampCase> cases{
      {"L0, AUTONOMOUS function, closed breaker: declared class stands", kAutonomous, kWrite,
       G::kAutonomous, kL0, false, kAutonomous, kExecute},
      {"declared PROPOSE_CONFIRM queues even when the function is AUTONOMOUS", kProposeConfirm,
       kWrite, G::kAutonomous, kL0, false, kProposeConfirm, kQueueForApproval},
      {"seed 001 s6 PROPOSE: AUTONOMOUS kind clamped to PROPOSE_CONFIRM", kAutonomous, kWrite,
       G::kPropose, kL0, false, kProposeConfirm, kQueueForApproval},
      {"seed 001 s6 PROPOSE applies to replies in thread too", kAutonomous, kReplyInThread,
       G::kPropose, kL0, false, kProposeConfirm, kQueueForApproval},
      {"seed 001 s6 SHADOW: decide and record, do not act (write)", kAutonomous, kWrite, G::kShadow,
       kL0, false, kAutonomous, kRecordOnly},
      {"seed 001 s6 SHADOW: decide and record, do not act (outreach)", kAutonomous, kOutreach,
       G::kShadow, kL0, false, kAutonomous, kRecordOnly},
      {"seed 001 s6 SHADOW: a PROPOSE_CONFIRM item is not queued", kProposeConfirm, kWrite,
       G::kShadow, kL0, false, kProposeConfirm, kRecordOnly},
      {"seed 000 s8: internal moves are AUTONOMOUS in every function state (SHADOW)", kAutonomous,
       kInternal, G::kShadow, kL0, false, kAutonomous, kExecute},
      {"seed 000 s8: internal moves ignore an open breaker", kAutonomous, kInternal, G::kPropose,
       kL0, true, kAutonomous, kExecute},
      {"seed 001 s8: open breaker clamps a write to PROPOSE", kAutonomous, kWrite, G::kAutonomous,
       kL0, true, kProposeConfirm, kQueueForApproval},
      {"seed 001 s8: open breaker freezes outreach per L1 (held)", kAutonomous, kOutreach,
       G::kAutonomous, kL0, true, kAutonomous, kHold},
      {"seed 001 s8 + s7 L1: open breaker lets a reply in the person's own thread pass",
       kAutonomous, kReplyInThread, G::kAutonomous, kL0, true, kAutonomous, kExecute},
      {"seed 001 s7 L1: outreach held, not dropped", kAutonomous, kOutreach, G::kAutonomous, kL1,
       false, kAutonomous, kHold},
      {"seed 001 s7 L1: a PROPOSE_CONFIRM message is held too", kProposeConfirm, kOutreach,
       G::kAutonomous, kL1, false, kProposeConfirm, kHold},
      {"seed 001 s7 L1: replies in a person's own thread continue", kAutonomous, kReplyInThread,
       G::kAutonomous, kL1, false, kAutonomous, kExecute},
      {"seed 001 s7 L1: writes are not frozen at L1", kAutonomous, kWrite, G::kAutonomous, kL1,
       false, kAutonomous, kExecute},
      {"seed 001 s7 L1 + s8: open breaker still clamps writes under L1", kAutonomous, kWrite,
       G::kAutonomous, kL1, true, kProposeConfirm, kQueueForApproval},
      {"seed 001 s7 L1 + s6 SHADOW: shadow records rather than holds", kAutonomous, kOutreach,
       G::kShadow, kL1, false, kAutonomous, kRecordOnly},
      {"seed 001 s7 L1: approvals routing continues", kProposeConfirm, kWrite, G::kPropose, kL1,
       false, kProposeConfirm, kQueueForApproval},
      {"seed 001 s7 L2: writes park in shadow", kAutonomous, kWrite, G::kAutonomous, kL2, false,
       kAutonomous, kRecordOnly},
      {"seed 001 s7 L2: no new inbox items", kProposeConfirm, kWrite, G::kAutonomous, kL2, false,
       kProposeConfirm, kRecordOnly},
      {"seed 001 s7 L2: replies in thread park too", kAutonomous, kReplyInThread, G::kAutonomous,
       kL2, false, kAutonomous, kRecordOnly},
      {"seed 001 s7 L2: internal moves park too", kAutonomous, kInternal, G::kAutonomous, kL2,
       false, kAutonomous, kRecordOnly},
      {"seed 001 s7 L2: packets continue to the shadow inbox", kHumanOnly, kInternal,
       G::kAutonomous, kL2, false, kHumanOnly, kHumanPacket},
      {"seed 001 s7 L3: full stop, no runs", kAutonomous, kInternal, G::kAutonomous, kL3, false,
       kAutonomous, kDeny},
      {"seed 001 s7 L3: no packets from manager runs", kHumanOnly, kInternal, G::kAutonomous, kL3,
       false, kHumanOnly, kDeny},
      {"DESIGN s5: HUMAN_ONLY becomes a packet, whatever the graduation", kHumanOnly, kWrite,
       G::kAutonomous, kL0, false, kHumanOnly, kHumanPacket},
      {"DESIGN s5: HUMAN_ONLY is a packet in SHADOW too (seed 001 s9 daily packet)", kHumanOnly,
       kInternal, G::kShadow, kL0, true, kHumanOnly, kHumanPacket},
      {"seed 001 s7: escalation path at L3", kAutonomous, kEscalationPath, G::kAutonomous, kL3,
       false, kAutonomous, kExecute},
      {"seed 001 s7 L1: safety alerts pass L1 in SHADOW with a breaker open", kAutonomous,
       kEscalationPath, G::kShadow, kL1, true, kAutonomous, kExecute},
      {"seed 000 s2.1: safety packet reaches the MoR at L3", kHumanOnly, kEscalationPath,
       G::kShadow, kL3, true, kHumanOnly, kHumanPacket},
  };
  for (const ClampCase& c : cases) {
    BOOST_TEST_CONTEXT(c.rule) {
      const Clamped got = clamp(action(c.declared, c.effect), c.graduation, c.level, c.breakerOpen);
      BOOST_TEST(autonomyClassName(got.effective) == autonomyClassName(c.effective));
      BOOST_TEST(effectiveOutcomeName(got.outcome) == effectiveOutcomeName(c.outcome));
      BOOST_TEST(!got.rule.empty());
    }
  }
}

BOOST_AUTO_TEST_CASE(clampRuleNamesTheOpenBreakerAndTheLevel) {
  ActionClass a = action(AutonomyClass::kAutonomous, ActionEffect::kWrite);
  BOOST_TEST(clamp(a, Graduation::kAutonomous, KillSwitchLevel::kL0, true).rule.find("BRK-SCH") !=
             std::string::npos);
  BOOST_TEST(clamp(a, Graduation::kAutonomous, KillSwitchLevel::kL2, false).rule.find("L2") !=
             std::string::npos);
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace atoms::policy
