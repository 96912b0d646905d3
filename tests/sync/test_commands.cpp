#include <boost/test/unit_test.hpp>
// Signed cloud commands without a broker: the pure verifier (table), the processor with the
// replay guard in a real store (also across a reopen), the rate limit of cheap refusals, and the
// daemon's target (kill switch rules, configuration whitelist).
#include <memory>

#include "daemon/service/config_schema.h"
#include "domain/policy/command_target.h"
#include "domain/policy/kill_switch.h"
#include "domain/policy/policy_gate.h"
#include "domain/policy/shipped_actions.h"
#include "store/site_store.h"
#include "store/state_dir.h"
#include "sync/command/command_journal.h"
#include "sync/command/command_processor.h"
#include "sync/command/config_overrides.h"
#include "tests/support/temp_dir.h"
#include "tests/sync/test_commands_support.h"

namespace atoms::test {
namespace {

using namespace std::chrono_literals;
using sync::command::refusalCodeName;

const std::string kSite = "site-a";
// A fixed instant: the tests set the clock, they never read the real one.
const sync::TimePoint kNow = *sync::parseTimestamp("2026-12-01T10:00:00.000Z");

struct Keys {
  SigningKey cloud = SigningKey::generate(kCloudKeyName);
  SigningKey other = SigningKey::generate(kCloudKeyName);  // same name, another key
  VerifierKey pinned = cloud.verifier();
};

template <class T>
std::string codeOf(const T& verdictOrDecision) {
  return std::string(refusalCodeName(verdictOrDecision.code));
}

BOOST_AUTO_TEST_SUITE(command_verifier)

BOOST_AUTO_TEST_CASE(decidesEachKindOfPayloadAsTheProtocolSays) {
  Keys k;
  const auto good = killSwitchCommand(kSite, "c-1", "L1", kNow - 1min);
  auto with = [&](const std::string& field, json::Value v) {
    json::Object o = good;
    o[field] = std::move(v);
    return signCommand(o, k.cloud);
  };
  auto withArgs = [&](json::Object args) { return with("args", json::Value(std::move(args))); };
  std::string tampered = signCommand(good, k.cloud);
  tampered.replace(tampered.find("\"L1\""), 4, "\"L3\"");
  json::Object extra = good;
  extra["priority"] = 1;

  struct Case {
    std::string name, payload, code;
  };
  const std::vector<Case> cases = {
      {"good", signCommand(good, k.cloud), "applied"},
      {"config.set", signCommand(configCommand(kSite, "c-2", "sync.window", "8", kNow), k.cloud),
       "applied"},
      {"issued within the clock skew", with("issuedAt", formatTimestamp(kNow + 4min)), "applied"},
      {"expired", signCommand(killSwitchCommand(kSite, "c-1", "L1", kNow - 10min, 10min), k.cloud),
       "expired"},
      {"not yet valid", with("issuedAt", formatTimestamp(kNow + 6min)), "not_yet_valid"},
      {"wrong site", with("site", "site-b"), "wrong_site"},
      {"unsigned", json::canonical(json::Value(good)) + "\n", "unsigned"},
      {"signed by another key", signCommand(good, k.other), "unknown_key"},
      {"tampered text", tampered, "bad_signature"},
      {"oversize", signText(std::string(17 * 1024, 'x') + "\n", k.cloud), "oversize"},
      {"broken signature line", json::canonical(json::Value(good)) + "\n\n\xE2\x80\x94 x !!\n",
       "malformed"},
      {"unknown kind", with("kind", "shift.cancel"), "invalid"},
      {"bad level", withArgs({{"level", "L4"}, {"reason", "r"}}), "invalid"},
      {"level as a number", withArgs({{"level", 1}, {"reason", "r"}}), "invalid"},
      {"empty reason", withArgs({{"level", "L1"}, {"reason", ""}}), "invalid"},
      {"unknown argument", withArgs({{"level", "L1"}, {"reason", "r"}, {"scope", "org"}}),
       "invalid"},
      {"unknown field", signCommand(extra, k.cloud), "invalid"},
      {"version 2", with("v", 2), "invalid"},
      {"v as a string", with("v", "1"), "invalid"},
      {"id with a space", with("id", "c 1"), "invalid"},
      {"by without a role", with("by", "ana"), "invalid"},
      {"expiry before issue", with("expiresAt", formatTimestamp(kNow - 2min)), "invalid"},
      {"lifetime over 7 days",
       signCommand(killSwitchCommand(kSite, "c-1", "L1", kNow - 1min, 8 * 24h), k.cloud),
       "invalid"},
      {"time without milliseconds", with("expiresAt", "2026-12-01T10:09:00Z"), "invalid"},
      {"not canonical JSON", signText("{\"v\": 1}\n", k.cloud), "invalid"},
      {"two lines", signText(json::canonical(json::Value(good)) + "\n{}\n", k.cloud), "invalid"},
  };
  for (const Case& c : cases) {
    BOOST_TEST_CONTEXT(c.name) {
      const auto v = sync::command::verifyCommand(c.payload, &k.pinned, kSite, kNow);
      BOOST_TEST(codeOf(v) == c.code);
      BOOST_TEST(v.reason.empty() == (c.code == "applied"));
    }
  }
}

BOOST_AUTO_TEST_CASE(refusesEverythingWhenNoKeyIsPinned) {
  Keys k;
  const auto v = sync::command::verifyCommand(
      signCommand(killSwitchCommand(kSite, "c-1", "L1", kNow), k.cloud), nullptr, kSite, kNow);
  BOOST_TEST(codeOf(v) == "no_cloud_key");
  BOOST_TEST(v.reason.find("no cloud key pinned") != std::string::npos);
  BOOST_TEST(!v.command);
}

BOOST_AUTO_TEST_CASE(keepsTheVerifiedCommandOfATimeOrSiteRefusalSoItsIdIsRecorded) {
  Keys k;
  const auto v = sync::command::verifyCommand(
      signCommand(killSwitchCommand("site-b", "c-9", "L2", kNow), k.cloud), &k.pinned, kSite, kNow);
  BOOST_TEST(codeOf(v) == "wrong_site");
  BOOST_REQUIRE(v.command);
  BOOST_TEST(v.command->id == "c-9");
  BOOST_TEST(std::get<sync::command::KillSwitchArgs>(v.command->args).level == 2);
}

BOOST_AUTO_TEST_CASE(parsesTheConfigNullValueAsARemoval) {
  auto cmd =
      sync::command::parseCommandText(json::canonical(json::Value(configCommand(
                                          kSite, "c-3", "sync.window", json::Value(), kNow))) +
                                      "\n");
  BOOST_REQUIRE_MESSAGE(cmd, cmd.message());
  BOOST_TEST(!std::get<sync::command::ConfigArgs>(cmd->args).value.has_value());
}

BOOST_AUTO_TEST_CASE(resultsRoundTrip) {
  sync::command::CommandResult r{kSite,
                                 "c-1",
                                 "kill_switch.set",
                                 "applied",
                                 "applied",
                                 "kill switch raised from L0 to L1",
                                 "2026-12-01T10:00:00.000Z",
                                 std::string(64, 'a'),
                                 12};
  auto back = sync::command::parseCommandResult(sync::command::commandResultJson(r));
  BOOST_REQUIRE_MESSAGE(back, back.message());
  BOOST_TEST((*back == r));
  r.id.reset();
  r.kind.reset();
  r.seq.reset();
  back = sync::command::parseCommandResult(sync::command::commandResultJson(r));
  BOOST_REQUIRE_MESSAGE(back, back.message());
  BOOST_TEST((*back == r));
}

BOOST_AUTO_TEST_SUITE_END()

// ------------------------------------------------------------------------------------------
// The processor over a real store.

struct Box {
  explicit Box(std::optional<VerifierKey> key) : cloudKey(std::move(key)) {
    if (Status s = initStateDir(dir, InitOptions{kSite}); !s) throw std::runtime_error(s.message());
    open();
  }
  void open() {
    processor.reset();
    target.reset();
    killSwitch.reset();
    store.reset();
    auto opened = SiteStore::open(dir);
    if (!opened) throw std::runtime_error(opened.message());
    store = std::move(*opened);
    killSwitch = std::make_unique<policy::KillSwitch>(store->log(), store->db());
    target = std::make_unique<policy::PolicyCommandTarget>(
        gate, *killSwitch, store->db(), checkServiceConfigValue, [this] { return policyState; },
        [this] { ++afterApply; });
    processor =
        std::make_unique<sync::command::CommandProcessor>(sync::command::CommandProcessor::Deps{
            store->log(), store->db(), *target, cloudKey, [this] { return now; }});
  }
  sync::command::Decision handle(const std::string& payload) { return processor->handle(payload); }
  policy::KillSwitchState level() { return *killSwitch->current(); }
  std::uint64_t decided() { return *sync::command::countDecidedCommands(store->db()); }
  std::vector<json::Value> refusals() { return entryBodies(store->log(), "command.refused"); }

  testing::TempDir tmp;
  std::string dir = tmp.sub("state");
  std::optional<VerifierKey> cloudKey;
  policy::PolicyGate gate{*policy::shippedActionTable()};
  // What the gate reads besides the level (which comes from the store): the daemon's start state.
  policy::PolicyState policyState{.defaultGraduation = policy::Graduation::kPropose};
  int afterApply = 0;
  sync::TimePoint now = kNow;
  std::unique_ptr<SiteStore> store;
  std::unique_ptr<policy::KillSwitch> killSwitch;
  std::unique_ptr<policy::PolicyCommandTarget> target;
  std::unique_ptr<sync::command::CommandProcessor> processor;
};

struct Fixture {
  Keys keys;
  Box box{keys.pinned};
};

std::string stringField(const json::Value& v, const char* field) {
  const json::Value* f = v.find(field);
  return f != nullptr && f->isString() ? f->asString() : std::string("(absent)");
}

BOOST_AUTO_TEST_SUITE(command_processor)

BOOST_FIXTURE_TEST_CASE(appliesAKillSwitchCommandOnceAndAuditsIt, Fixture) {
  const auto d = box.handle(signCommand(killSwitchCommand(kSite, "c-1", "L1", kNow), keys.cloud));
  BOOST_TEST(d.outcome == "applied");
  BOOST_TEST(d.message == "kill switch raised from L0 to L1");
  const auto state = box.level();
  BOOST_TEST(policy::killSwitchLevelName(state.level) == "L1");
  BOOST_TEST(state.setBy == "cloud:ops:ana");
  BOOST_TEST(state.reason == "cloud test: L1");
  BOOST_TEST(state.setAt == formatTimestamp(kNow));

  const auto applied = entryBodies(box.store->log(), "command.applied");
  BOOST_REQUIRE_EQUAL(applied.size(), 1u);
  BOOST_TEST(stringField(applied[0], "id") == "c-1");
  const auto set = entryBodies(box.store->log(), "killswitch.set");
  BOOST_REQUIRE_EQUAL(set.size(), 1u);
  BOOST_TEST(stringField(set[0], "from") == "L0");
  BOOST_TEST(stringField(set[0], "level") == "L1");
  BOOST_TEST(entryActors(box.store->log(), "killswitch.set")[0] == "cloud:ops:ana");

  auto result = sync::command::parseCommandResult(d.result);
  BOOST_REQUIRE_MESSAGE(result, result.message());
  BOOST_TEST(result->outcome == "applied");
  BOOST_TEST(result->id.value_or("") == "c-1");
  BOOST_TEST(result->site == kSite);
  BOOST_REQUIRE(result->seq);
  auto stored = sync::command::findDecidedCommand(box.store->db(), "c-1");
  BOOST_REQUIRE(stored && *stored);
  BOOST_TEST((*stored)->result == d.result);
  BOOST_TEST(((*stored)->auditSeq == result->seq));
}

BOOST_FIXTURE_TEST_CASE(aReplayIsRefusedAuditedAndAnsweredWithTheStoredResult, Fixture) {
  const std::string note = signCommand(killSwitchCommand(kSite, "c-1", "L2", kNow), keys.cloud);
  const auto first = box.handle(note);
  BOOST_REQUIRE(first.outcome == "applied");
  const std::uint64_t sizeAfterFirst = box.store->log().size();
  box.now += 1s;
  const auto again = box.handle(note);
  BOOST_TEST(again.outcome == "refused");
  BOOST_TEST(codeOf(again) == "replay");
  BOOST_TEST(again.result == first.result);  // the same bytes: the cloud sees one outcome
  BOOST_TEST(entryBodies(box.store->log(), "killswitch.set").size() == 1u);
  BOOST_TEST(box.level().setAt == formatTimestamp(kNow));
  BOOST_TEST(box.decided() == 1u);
  const auto refused = box.refusals();
  BOOST_REQUIRE_EQUAL(refused.size(), 1u);
  BOOST_TEST(stringField(refused[0], "code") == "replay");
  BOOST_TEST(stringField(refused[0], "id") == "c-1");
  BOOST_TEST(box.store->log().size() == sizeAfterFirst + 1);
}

BOOST_FIXTURE_TEST_CASE(theReplayGuardHoldsAcrossAReopen, Fixture) {
  const std::string note = signCommand(killSwitchCommand(kSite, "c-7", "L1", kNow), keys.cloud);
  const auto first = box.handle(note);
  BOOST_REQUIRE(first.outcome == "applied");
  // Someone lowers the level in between; a replayed raise must not undo that.
  BOOST_REQUIRE(
      box.handle(signCommand(killSwitchCommand(kSite, "c-8", "L0", kNow), keys.cloud)).outcome ==
      "applied");
  box.open();
  const auto again = box.handle(note);
  BOOST_TEST(codeOf(again) == "replay");
  BOOST_TEST(again.result == first.result);
  BOOST_TEST(policy::killSwitchLevelName(box.level().level) == "L0");
  BOOST_TEST(box.decided() == 2u);
}

BOOST_FIXTURE_TEST_CASE(anExpiredCommandIsDecidedOnceAsRefused, Fixture) {
  const std::string note =
      signCommand(killSwitchCommand(kSite, "c-2", "L1", kNow - 20min, 10min), keys.cloud);
  const auto d = box.handle(note);
  BOOST_TEST(d.outcome == "refused");
  BOOST_TEST(codeOf(d) == "expired");
  BOOST_TEST(policy::killSwitchLevelName(box.level().level) == "L0");
  auto stored = sync::command::findDecidedCommand(box.store->db(), "c-2");
  BOOST_REQUIRE(stored && *stored);
  BOOST_TEST((*stored)->outcome == "refused");
  BOOST_TEST((*stored)->code == "expired");
  BOOST_TEST(stringField(box.refusals().at(0), "code") == "expired");
  BOOST_TEST(codeOf(box.handle(note)) == "replay");
}

BOOST_FIXTURE_TEST_CASE(aForgedCommandChangesNothingAndItsIdIsNotBurnt, Fixture) {
  const auto cmd = killSwitchCommand(kSite, "c-3", "L3", kNow);
  const auto forged = box.handle(signCommand(cmd, keys.other));
  BOOST_TEST(codeOf(forged) == "unknown_key");
  BOOST_TEST(!forged.id);
  auto result = sync::command::parseCommandResult(forged.result);
  BOOST_REQUIRE_MESSAGE(result, result.message());
  BOOST_TEST(!result->id);  // an unverified id is never echoed
  BOOST_TEST(result->outcome == "refused");
  BOOST_TEST(result->code == "unknown_key");
  BOOST_TEST(box.decided() == 0u);
  BOOST_TEST(policy::killSwitchLevelName(box.level().level) == "L0");
  BOOST_TEST(stringField(box.refusals().at(0), "code") == "unknown_key");
  // The real command with that id still applies.
  BOOST_TEST(box.handle(signCommand(cmd, keys.cloud)).outcome == "applied");
}

BOOST_AUTO_TEST_CASE(withoutAPinnedKeyEveryCommandIsRefusedAndAudited) {
  Keys keys;
  Box box(std::nullopt);
  const auto d = box.handle(signCommand(killSwitchCommand(kSite, "c-1", "L1", kNow), keys.cloud));
  BOOST_TEST(codeOf(d) == "no_cloud_key");
  BOOST_TEST(policy::killSwitchLevelName(box.level().level) == "L0");
  const auto refused = box.refusals();
  BOOST_REQUIRE_EQUAL(refused.size(), 1u);
  BOOST_TEST(stringField(refused[0], "reason").find("no cloud key pinned") != std::string::npos);
}

BOOST_FIXTURE_TEST_CASE(aFloodOfCheapRefusalsIsAuditedAtARateAndCounted, Fixture) {
  const std::uint64_t budget = sync::command::ProcessorOptions{}.maxRefusalAuditsPerMinute;
  for (std::uint64_t i = 0; i < budget + 5; ++i) {
    BOOST_TEST(codeOf(box.handle("junk " + std::to_string(i))) == "unsigned");
  }
  BOOST_TEST(box.refusals().size() == budget);
  BOOST_TEST(box.processor->stats().refusalsNotAudited == 5u);
  box.now += 61s;
  box.handle("junk again");
  const auto refused = box.refusals();
  BOOST_REQUIRE_EQUAL(refused.size(), budget + 1);
  BOOST_TEST(refused.back().find("refusals_not_audited")->asInt() == 5);
}

BOOST_FIXTURE_TEST_CASE(anAutomatedIssuerCanOnlyRaiseTheLevel, Fixture) {
  auto cmd = [&](const std::string& id, const std::string& level, const std::string& by) {
    return signCommand(killSwitchCommand(kSite, id, level, kNow, 10min, by), keys.cloud);
  };
  BOOST_TEST(box.handle(cmd("a-1", "L2", "auto:integrity")).outcome == "applied");
  BOOST_TEST(box.level().automated);
  const auto lower = box.handle(cmd("a-2", "L1", "auto:integrity"));
  BOOST_TEST(codeOf(lower) == "rejected");
  BOOST_TEST(lower.message.find("can only raise") != std::string::npos);
  BOOST_TEST(policy::killSwitchLevelName(box.level().level) == "L2");
  BOOST_TEST(stringField(box.refusals().at(0), "code") == "rejected");
  // A person at the cloud may lower it.
  const auto human = box.handle(cmd("a-3", "L0", "person:owner-1"));
  BOOST_TEST(human.outcome == "applied");
  BOOST_TEST(human.message == "kill switch lowered from L2 to L0");
  BOOST_TEST(entryBodies(box.store->log(), "killswitch.set").size() == 2u);
}

BOOST_FIXTURE_TEST_CASE(configSetStoresAWhitelistedOverrideAndAuditsIt, Fixture) {
  auto& db = box.store->db();
  const auto set =
      box.handle(signCommand(configCommand(kSite, "k-1", "sync.window", "8", kNow), keys.cloud));
  BOOST_TEST(set.outcome == "applied");
  auto stored = sync::command::findConfigOverride(db, "sync.window");
  BOOST_REQUIRE(stored && *stored);
  BOOST_TEST((*stored)->value == "8");
  BOOST_TEST((*stored)->commandId == "k-1");
  const auto changes = entryBodies(box.store->log(), "config.change");
  BOOST_REQUIRE_EQUAL(changes.size(), 1u);
  BOOST_TEST(stringField(changes[0], "value") == "8");
  BOOST_TEST(changes[0].find("previous")->isNull());

  const auto cleared = box.handle(
      signCommand(configCommand(kSite, "k-2", "sync.window", json::Value(), kNow), keys.cloud));
  BOOST_TEST(cleared.outcome == "applied");
  BOOST_TEST(!*sync::command::findConfigOverride(db, "sync.window"));
  BOOST_TEST(entryBodies(box.store->log(), "config.change").size() == 2u);
}

BOOST_FIXTURE_TEST_CASE(configSetRefusesKeysOffTheWhitelistAndBadValues, Fixture) {
  struct Case {
    std::string key, value, expected;
  };
  const std::vector<Case> cases = {
      {"sync.broker", "tcp://evil:1883", "cannot be set from the cloud"},
      {"sync.cloud_key", "x+00000000+AA==", "cannot be set from the cloud"},
      {"state.dir", "/tmp", "cannot be set from the cloud"},
      {"sync.window", "0", "bad value '0' for sync.window"},
      {"sync.window", "eight", "bad value 'eight' for sync.window"},
  };
  int n = 0;
  for (const Case& c : cases) {
    BOOST_TEST_CONTEXT(c.key << "=" << c.value) {
      const auto d = box.handle(signCommand(
          configCommand(kSite, "bad-" + std::to_string(n++), c.key, c.value, kNow), keys.cloud));
      BOOST_TEST(codeOf(d) == "rejected");
      BOOST_TEST(d.message.find(c.expected) != std::string::npos, d.message);
    }
  }
  BOOST_TEST(sync::command::loadConfigOverrides(box.store->db())->empty());
  BOOST_TEST(entryBodies(box.store->log(), "config.change").empty());
  BOOST_TEST(entryBodies(box.store->log(), "command.applied").empty());  // rolled back
  BOOST_TEST(box.refusals().size() == cases.size());
  BOOST_TEST(box.decided() == cases.size());
}

BOOST_AUTO_TEST_SUITE_END()

// ------------------------------------------------------------------------------------------
// The policy gate between a verified command and what it changes.

BOOST_AUTO_TEST_SUITE(command_policy_gate)

BOOST_FIXTURE_TEST_CASE(anAppliedCommandCarriesTheGateDecisionAndNotifiesOnce, Fixture) {
  const auto d = box.handle(signCommand(killSwitchCommand(kSite, "g-1", "L1", kNow), keys.cloud));
  BOOST_TEST(d.outcome == "applied");
  BOOST_TEST(box.afterApply == 1);
  const auto decisions = entryBodies(box.store->log(), "policy.decision");
  BOOST_REQUIRE_EQUAL(decisions.size(), 1u);
  BOOST_TEST(stringField(decisions[0], "command") == "g-1");
  const json::Value* decision = decisions[0].find("decision");
  BOOST_REQUIRE(decision != nullptr);
  BOOST_TEST(stringField(*decision, "kind") == "killswitch.set");
  BOOST_TEST(stringField(*decision, "outcome") == "execute");
  BOOST_TEST(stringField(*decision, "killSwitch") == "L0");  // the level it was decided at

  // A refusal (a replay) changes nothing and notifies nobody.
  box.handle(signCommand(killSwitchCommand(kSite, "g-1", "L1", kNow), keys.cloud));
  BOOST_TEST(box.afterApply == 1);
}

BOOST_FIXTURE_TEST_CASE(configWritesAreFrozenFromL2AndTheRefusalNamesTheRule, Fixture) {
  BOOST_TEST(
      box.handle(signCommand(killSwitchCommand(kSite, "g-2", "L2", kNow), keys.cloud)).outcome ==
      "applied");
  const auto frozen =
      box.handle(signCommand(configCommand(kSite, "k-9", "sync.window", "8", kNow), keys.cloud));
  BOOST_TEST(codeOf(frozen) == "rejected");
  BOOST_TEST(frozen.message.find("refused by the policy gate: config.set: record_only") !=
                 std::string::npos,
             frozen.message);
  BOOST_TEST(frozen.message.find("L2 write freeze") != std::string::npos, frozen.message);
  BOOST_TEST(!*sync::command::findConfigOverride(box.store->db(), "sync.window"));
  BOOST_TEST(entryBodies(box.store->log(), "config.change").empty());
  BOOST_TEST(entryBodies(box.store->log(), "policy.decision").size() == 1u);  // the L2 command's

  // At L3 it is denied outright; lifting the level (a person may, at every level) lets it through.
  box.handle(signCommand(killSwitchCommand(kSite, "g-3", "L3", kNow), keys.cloud));
  const auto stopped =
      box.handle(signCommand(configCommand(kSite, "k-10", "sync.window", "8", kNow), keys.cloud));
  BOOST_TEST(stopped.message.find("config.set: deny") != std::string::npos, stopped.message);
  const auto lifted = box.handle(signCommand(
      killSwitchCommand(kSite, "g-4", "L0", kNow, 10min, "person:owner-1"), keys.cloud));
  BOOST_TEST(lifted.outcome == "applied");
  BOOST_TEST(lifted.message == "kill switch lowered from L3 to L0");
  const auto after =
      box.handle(signCommand(configCommand(kSite, "k-11", "sync.window", "8", kNow), keys.cloud));
  BOOST_TEST(after.outcome == "applied", after.message);
  BOOST_TEST(box.afterApply == 4);
}

BOOST_FIXTURE_TEST_CASE(anAutomatedIssuerCannotChangeConfigurationWhileTheBoxOnlyProposes,
                        Fixture) {
  const auto d = box.handle(signCommand(
      configCommand(kSite, "k-1", "sync.window", "8", kNow, 10min, "auto:tuner"), keys.cloud));
  BOOST_TEST(codeOf(d) == "rejected");
  BOOST_TEST(d.message.find("config.set: queue_for_approval") != std::string::npos, d.message);
  BOOST_TEST(!*sync::command::findConfigOverride(box.store->db(), "sync.window"));

  // A person's instruction is not bounded by the box's own graduation, even in SHADOW.
  box.policyState.defaultGraduation = policy::Graduation::kShadow;
  const auto human =
      box.handle(signCommand(configCommand(kSite, "k-2", "sync.window", "8", kNow), keys.cloud));
  BOOST_TEST(human.outcome == "applied", human.message);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(kill_switch)

BOOST_FIXTURE_TEST_CASE(settingTheSameLevelChangesAndAuditsNothing, Fixture) {
  policy::KillSwitch& ks = *box.killSwitch;
  const policy::KillSwitchSetter panel{"panel:ana", false};
  auto first = ks.set("2026-12-01T10:00:00.000Z", policy::KillSwitchLevel::kL1, "storm", panel);
  BOOST_REQUIRE_MESSAGE(first, first.message());
  BOOST_TEST(first->changed);
  auto same = ks.set("2026-12-01T10:01:00.000Z", policy::KillSwitchLevel::kL1, "again", panel);
  BOOST_REQUIRE_MESSAGE(same, same.message());
  BOOST_TEST(!same->changed);
  BOOST_TEST(same->describe() == "kill switch already at L1");
  BOOST_TEST(box.level().reason == "storm");
  BOOST_TEST(entryBodies(box.store->log(), "killswitch.set").size() == 1u);
}

BOOST_FIXTURE_TEST_CASE(aChangeNeedsAReason, Fixture) {
  auto r = box.killSwitch->set("2026-12-01T10:00:00.000Z", policy::KillSwitchLevel::kL2, "  ",
                               policy::KillSwitchSetter{"panel:ana", false});
  BOOST_TEST(!r);
  BOOST_TEST(policy::killSwitchLevelName(box.level().level) == "L0");
  BOOST_TEST(entryBodies(box.store->log(), "killswitch.set").empty());
}

BOOST_FIXTURE_TEST_CASE(theStateSurvivesAReopen, Fixture) {
  auto r = box.killSwitch->set("2026-12-01T10:00:00.000Z", policy::KillSwitchLevel::kL3,
                               "audit chain break", policy::KillSwitchSetter{"integrity", true});
  BOOST_REQUIRE_MESSAGE(r, r.message());
  box.open();
  const auto state = box.level();
  BOOST_TEST(policy::killSwitchLevelName(state.level) == "L3");
  BOOST_TEST(state.automated);
  BOOST_TEST(state.setBy == "integrity");
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace
}  // namespace atoms::test
