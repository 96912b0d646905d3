#include <boost/test/unit_test.hpp>

// The audit-chain integrity watch (domain/policy/integrity_watch.h) on a real store: a healthy
// log passes, a changed byte is reported once with its seq; and, in-process with the store, engine
// and policy subsystems, a log tampered while the box was off raises the kill switch to L3 at
// start, audited, for everyone listening.
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <optional>
#include <vector>

#include "daemon/service/engine_subsystem.h"
#include "daemon/service/policy_subsystem.h"
#include "daemon/service/store_subsystem.h"
#include "domain/policy/integrity_watch.h"
#include "store/audit_entry.h"
#include "store/site_store.h"
#include "store/state_dir.h"
#include "tests/support/temp_dir.h"
#include "tests/support/test_app.h"

namespace atoms::test {
namespace {

using namespace std::chrono_literals;
constexpr auto kDeadline = 60s;  // generous for the sanitizer build; a passing run is far quicker

struct Site {
  Site() {
    Status made = initStateDir(dir, InitOptions{"site-a"});
    BOOST_REQUIRE_MESSAGE(made, made.message());
    auto store = SiteStore::open(dir);
    BOOST_REQUIRE_MESSAGE(store, store.message());
    for (int i = 0; i < 5; ++i) {
      auto seq = (*store)->log().append("2026-12-01T10:00:0" + std::to_string(i) + ".000Z",
                                        "test.note", "test", json::Object{{"i", i}});
      BOOST_REQUIRE_MESSAGE(seq, seq.message());
    }
    key = (*store)->log().verifierKey();
  }
  // Changes one byte of entry `seq` behind the log's back, as a tampering tool would.
  void tamper(int seq) {
    auto state = openStateDir(dir, OpenMode::ReadWrite);
    BOOST_REQUIRE_MESSAGE(state, state.message());
    Status s = state->db.exec("UPDATE audit_entry SET entry = entry || x'20' WHERE seq = " +
                              std::to_string(seq));
    BOOST_REQUIRE_MESSAGE(s, s.message());
  }

  testing::TempDir tmp;
  std::string dir = tmp.sub("state");
  std::optional<VerifierKey> key;
};

struct Reports {
  std::mutex mutex;
  std::condition_variable changed;
  std::vector<VerifyReport> problems;
  int passed = 0;

  policy::IntegrityCallbacks callbacks() {
    return {[this](const VerifyReport& r) {
              std::lock_guard lock(mutex);
              problems.push_back(r);
              changed.notify_all();
            },
            [this](const VerifyReport&) {
              std::lock_guard lock(mutex);
              ++passed;
              changed.notify_all();
            },
            {}};
  }
  // Waits until the watch has completed `checks` checks.
  bool waitForChecks(std::size_t checks) {
    std::unique_lock lock(mutex);
    return changed.wait_for(lock, kDeadline, [&] {
      return problems.size() + static_cast<std::size_t>(passed) >= checks;
    });
  }
};

BOOST_AUTO_TEST_CASE(aHealthyLogPassesAndAChangedByteIsReportedOnceWithItsSeq) {
  Site site;
  Reports reports;
  policy::IntegrityWatch watch(
      policy::IntegrityWatchOptions{StateDirPaths::under(site.dir), *site.key, "site-a", 0s},
      reports.callbacks());
  watch.start();
  BOOST_REQUIRE(reports.waitForChecks(1));  // the check at start
  BOOST_TEST(reports.passed == 1);

  site.tamper(2);
  watch.checkNow();
  // A passed check cannot complete without reporting; a failed one may go unreported only when
  // it repeats a problem already reported, which is the next step's point.
  std::unique_lock lock(reports.mutex);
  BOOST_REQUIRE(
      reports.changed.wait_for(lock, kDeadline, [&] { return !reports.problems.empty(); }));
  lock.unlock();
  BOOST_TEST(reports.problems[0].firstBadSeq.value_or(0) == 2u);
  BOOST_TEST(reports.problems[0].problem.find("seq 2") != std::string::npos,
             reports.problems[0].problem);

  // Still broken: checked again, not reported again.
  const std::uint64_t before = watch.checks();
  watch.checkNow();
  BOOST_REQUIRE(watch.waitForChecks(before + 1, kDeadline));
  watch.stop();
  BOOST_TEST(reports.problems.size() == 1u);
}

BOOST_AUTO_TEST_CASE(aLogTamperedWhileTheBoxWasOffRaisesTheKillSwitchToL3AtStart) {
  Site site;
  site.tamper(3);
  TestApp app({{"state.dir", site.dir}, {"policy.integrity_check_interval_s", "0"}});
  StoreSubsystem store(Poco::Logger::get("store"));
  EngineSubsystem engine(Poco::Logger::get("engine"));
  PolicySubsystem policy(Poco::Logger::get("policy"), store, engine);
  for (ServiceSubsystem* s : std::initializer_list<ServiceSubsystem*>{&store, &engine, &policy}) {
    Status started = s->startService(app);
    BOOST_REQUIRE_MESSAGE(started, s->name() << ": " << started.message());
  }
  std::mutex mutex;
  std::condition_variable changed;
  std::vector<policy::KillSwitchLevel> levels;
  policy.addListener([&](policy::KillSwitchLevel level) {
    std::lock_guard lock(mutex);
    levels.push_back(level);
    changed.notify_all();
  });
  {
    std::unique_lock lock(mutex);
    BOOST_REQUIRE(changed.wait_for(lock, kDeadline, [&] {
      return !levels.empty() && levels.back() == policy::KillSwitchLevel::kL3;
    }));
  }
  policy.stopService();
  engine.stopService();
  store.stopService();

  auto reopened = SiteStore::open(site.dir);
  BOOST_REQUIRE_MESSAGE(reopened, reopened.message());
  policy::KillSwitch ks((*reopened)->log(), (*reopened)->db());
  auto state = ks.current();
  BOOST_REQUIRE_MESSAGE(state, state.message());
  BOOST_TEST(policy::killSwitchLevelName(state->level) == "L3");
  BOOST_TEST(state->automated);
  BOOST_TEST(state->setBy == "integrity");
  BOOST_TEST(state->reason.find("audit chain integrity failure: seq 3") == 0u, state->reason);
  // The tampered entry no longer parses, so read around it.
  const AuditLog& log = (*reopened)->log();
  auto texts = log.entryTexts(0, log.size());
  BOOST_REQUIRE_MESSAGE(texts, texts.message());
  std::vector<Entry> raised;
  for (const std::string& text : *texts) {
    auto entry = parseEntry(text);
    if (entry && entry->kind == "killswitch.set") raised.push_back(*entry);
  }
  BOOST_REQUIRE_EQUAL(raised.size(), 1u);
  BOOST_TEST(raised.front().actor == "integrity");
}

}  // namespace
}  // namespace atoms::test
