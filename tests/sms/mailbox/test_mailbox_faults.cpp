// Faults under the mailbox's store-first steps, through the SQLite VFS shim
// (tests/support/fault_vfs.h): an inbound accept, an outbox claim and a whole dispatcher pass are
// each run with the 1st, 2nd, ... VFS call failing in turn, in every scenario of vfsScenarios(),
// until they run with no fault hit; after each step the store is reopened (a restart) with a
// healthy disk. Nothing is lost, nothing is stored or sent twice, and a failure is reported.

#include <boost/test/unit_test.hpp>
#include <memory>
#include <string>

#include "store/log_verifier.h"
#include "tests/sms/mailbox/mailbox_fixture.h"
#include "tests/support/fault_vfs.h"

namespace atoms::sms::mailbox {
namespace {

using atoms::testing::FaultSteps;
using atoms::testing::FaultVfs;
using atoms::testing::VfsScenario;
using atoms::testing::vfsScenarios;
using testing::MailboxFixture;

drivers::InboundSms inbound(const std::string& providerId) {
  drivers::InboundSms m;
  m.providerId = providerId;
  m.from = "+15551230002";
  m.to = "+15559990000";
  m.body = "Jamal didn't show, I'm alone on the line";
  return m;
}

// The mailbox fixture on a store opened through the VFS shim, with a gateway that transmits every
// send (so that a message sent twice shows up twice).
class FaultyMailbox {
 public:
  FaultyMailbox() { f.gateway.setHonourIdempotencyKeys(false); }

  // A restart around the disk's recovery (and the power cut, if the scenario has one).
  void restart(FaultSteps& steps) {
    f.closeStore();
    steps.restart();
    f.openStore();
  }

  // Empties the page cache, so that the next operation reads its pages through the VFS (where
  // reads can fail) instead of finding them loaded by what ran before it.
  void forgetCachedPages() {
    Status s =
        f.runner->run([](SiteStore& store) { return store.db().exec("PRAGMA shrink_memory"); });
    BOOST_TEST_REQUIRE(s.ok(), s.message());
  }

  std::int64_t inboxRows(const std::string& providerId) {
    std::int64_t n = -1;
    Status s = f.runner->run([&](SiteStore& store) -> Status {
      auto stmt = store.db().prepare("SELECT count(*) FROM sms_inbox WHERE provider_id = ?");
      if (!stmt) return stmt.error();
      stmt->bind(1, providerId);
      auto row = stmt->step();
      if (!row) return row.error();
      n = stmt->columnInt64(0);
      return Status::success();
    });
    BOOST_TEST_REQUIRE(s.ok(), s.message());
    return n;
  }

  // "sms.in" entries for the message.
  std::size_t inboundEntries(const std::string& providerId) {
    std::size_t n = 0;
    for (const Entry& e : f.entries("sms.in")) {
      const json::Value* id = e.body.find("provider_id");
      if (id != nullptr && id->asString() == providerId) ++n;
    }
    return n;
  }

  std::size_t transmissions(const std::string& id) {
    std::size_t n = 0;
    for (const auto& t : f.gateway.transmissions()) n += t.message.idempotencyKey == id ? 1 : 0;
    return n;
  }

  // The audit log verifies end to end.
  void verifyLog() {
    Status s = f.runner->run([](SiteStore& store) -> Status {
      const VerifyReport report =
          verifyDatabase(store.db(), store.verifierKey(), store.identity().siteId);
      if (!report.ok()) return makeError(report.problem);
      if (report.entries != store.log().size()) return makeError("the log has unverified entries");
      return Status::success();
    });
    BOOST_TEST(s.ok(), s.message());
  }

  // A dispatcher pass on a healthy disk, which must succeed.
  void dispatchPass() {
    auto d = f.dispatcher();
    Status pass = d->runPass();
    BOOST_TEST(pass.ok(), pass.message());
  }

  // Runs step(steps, n) with the 1st, 2nd, ... VFS call failing in turn, in every scenario of
  // vfsScenarios(), until a run hits no fault; n counts the steps of all scenarios (for unique
  // message ids). The step arms, runs the operation, restarts and checks; it returns whether the
  // outcome was in doubt (reported failed, found done after the restart).
  template <class Step>
  void failEachCallInTurn(Step step) {
    int n = 0;
    for (const VfsScenario& scenario : vfsScenarios()) {
      FaultSteps steps(vfs, scenario);
      int inDoubt = 0;
      while (steps.next()) {
        BOOST_TEST_CONTEXT(steps.describe()) {
          if (step(steps, ++n)) ++inDoubt;
        }
      }
      BOOST_TEST_MESSAGE(steps.summary() << " (" << inDoubt << " in doubt)");
      BOOST_TEST(steps.faults() > 0U, scenario.name);
    }
  }

  FaultVfs vfs;  // first: the store opens through it, and it outlives the store
  MailboxFixture f;
};

BOOST_AUTO_TEST_SUITE(mailbox_faults)

// The inbox commits a message before the gateway is answered (acknowledged): a failed accept
// stores nothing and the gateway redelivers; an accepted one is stored once, and its redelivery
// is recognised as a duplicate.
BOOST_AUTO_TEST_CASE(anInboundMessageIsStoredOnceOrNotAtAllAfterAFaultAtEveryStep) {
  FaultyMailbox m;
  m.failEachCallInTurn([&](FaultSteps& steps, int n) {
    const std::string id = "SMfault" + std::to_string(n);
    std::size_t announced = 0;  // calls of the stored-listener (which posts to the engine)
    m.f.inbox->setOnStored([&](const InboxRow&) { ++announced; });
    m.forgetCachedPages();
    steps.arm();
    const Status accepted = m.f.gateway.deliverInbound(inbound(id));
    steps.operationDone();
    BOOST_TEST(announced == (accepted.ok() ? 1U : 0U));
    m.restart(steps);

    const std::int64_t rows = m.inboxRows(id);
    if (accepted.ok()) BOOST_TEST(rows == 1);
    // Unacknowledged and not stored, unless the disk died after the commit's writes (then it is
    // stored, and the redelivery below finds it).
    if (!accepted.ok() && !steps.crashed()) BOOST_TEST(rows == 0);
    BOOST_TEST(rows <= 1);

    m.f.inbox->setOnStored([&](const InboxRow&) { ++announced; });
    announced = 0;
    const Status again = m.f.gateway.deliverInbound(inbound(id));
    BOOST_TEST(again.ok(), again.message());
    BOOST_TEST(announced == (rows == 0 ? 1U : 0U));
    BOOST_TEST(m.inboxRows(id) == 1);
    BOOST_TEST(m.inboundEntries(id) == 1U);
    m.verifyLog();
    return !accepted.ok() && rows == 1;
  });
}

// The dispatcher claims a queued message (committed) before it sends it: a failed claim returns
// nothing to send and leaves the message claimable; the next pass sends it, once.
BOOST_AUTO_TEST_CASE(aFailedClaimSendsNothingAndTheMessageIsSentOnceLater) {
  FaultyMailbox m;
  m.failEachCallInTurn([&](FaultSteps& steps, int n) {
    const std::string id = "fault-claim-" + std::to_string(n);
    auto enqueued = m.f.outbox->enqueue(MailboxFixture::request(id));
    BOOST_TEST_REQUIRE(enqueued.ok(), enqueued.message());
    m.forgetCachedPages();
    steps.arm();
    auto claimed = m.f.outbox->claimNext();
    steps.operationDone();
    if (claimed.ok()) {
      BOOST_TEST_REQUIRE(claimed->has_value());
      BOOST_TEST((*claimed)->id == id);
    }
    m.restart(steps);

    const OutboxRow row = m.f.row(id);
    const bool claimable = row.state == OutboxState::kQueued && row.attempts == 0;
    const bool inDoubt = row.state == OutboxState::kSending && row.attempts == 1;
    if (claimed.ok()) BOOST_TEST(inDoubt, "claimed, then " << row.state);
    // Still claimable, unless the disk died after the claim's writes: then it is in doubt, which
    // the next pass reconciles with the gateway before anything is sent.
    if (!claimed.ok()) BOOST_TEST((claimable || (steps.crashed() && inDoubt)), row.state);
    BOOST_TEST(m.transmissions(id) == 0U);

    m.dispatchPass();
    BOOST_TEST(m.f.row(id).state == OutboxState::kSent);
    BOOST_TEST(m.transmissions(id) == 1U);
    m.verifyLog();
    return !claimed.ok() && inDoubt;
  });
}

// The whole pass (reconcile, claim, send, record the answer) failing at each step: a message is
// transmitted at most once by the failed pass, and exactly once when the next pass is done.
BOOST_AUTO_TEST_CASE(aDispatcherPassFailingAtEveryStepSendsEachMessageExactlyOnce) {
  FaultyMailbox m;
  m.failEachCallInTurn([&](FaultSteps& steps, int n) {
    const std::string id = "fault-pass-" + std::to_string(n);
    auto enqueued = m.f.outbox->enqueue(MailboxFixture::request(id));
    BOOST_TEST_REQUIRE(enqueued.ok(), enqueued.message());
    auto d = m.f.dispatcher();
    m.forgetCachedPages();
    steps.arm();
    const Status pass = d->runPass();
    steps.operationDone();
    d.reset();
    const std::size_t sent = m.transmissions(id);
    BOOST_TEST(sent <= 1U);
    if (pass.ok()) BOOST_TEST(sent == 1U);
    m.restart(steps);

    m.dispatchPass();
    BOOST_TEST(m.f.row(id).state == OutboxState::kSent);
    BOOST_TEST(m.transmissions(id) == 1U);
    m.verifyLog();
    return !pass.ok() && sent == 1;  // sent, then recording the answer failed
  });
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace
}  // namespace atoms::sms::mailbox
