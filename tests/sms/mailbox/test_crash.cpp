// Crash test: a child process (outbox_child) enqueues messages and dispatches them to a gateway
// whose memory is a ledger file outside the child, and is killed with SIGKILL at random points,
// many rounds in a row; each new child recovers what the previous one left. At the end every
// message the children reported durable must have been accepted by the gateway exactly once,
// nothing may have been accepted that the outbox does not know, and the audit log must hold one
// "sms.out" entry per message and verify end to end.

#include <boost/test/unit_test.hpp>
#include <chrono>
#include <map>
#include <random>
#include <set>
#include <string>

#include "sms/mailbox/dispatcher.h"
#include "sms/mailbox/outbox.h"
#include "store/audit_entry.h"
#include "store/log_verifier.h"
#include "store/site_store.h"
#include "store/state_dir.h"
#include "store/store_runner.h"
#include "tests/sms/mailbox/ledger_gateway.h"
#include "tests/support/build_paths.h"
#include "tests/support/durable_child.h"
#include "tests/support/temp_dir.h"

namespace atoms::sms::mailbox {
namespace {

BOOST_AUTO_TEST_SUITE(crash)

BOOST_AUTO_TEST_CASE(nothingIsLostOrSentTwiceAcrossSigkillAtRandomPoints) {
  atoms::testing::TempDir tmp;
  const std::string dir = tmp.sub("state");
  const std::string ledger = tmp.file("gateway.ledger");
  BOOST_REQUIRE(initStateDir(dir, {"crash-site"}).ok());

  std::mt19937 rng(20260302);
  std::set<std::string> durable;
  std::int64_t inDoubt = 0;  // rows a kill left in `sending`, for the record
  constexpr int kRounds = 30;
  for (int round = 0; round < kRounds; ++round) {
    atoms::testing::DurableChild child(
        {atoms::testing::outboxChild(), dir, ledger, std::to_string(round), std::to_string(rng())});
    // Round 0 dies during start-up; the others after a random number of enqueues, so the kill
    // lands anywhere in enqueue, claim, send, record or reconcile.
    const int lines = round == 0 ? 0 : static_cast<int>(rng() % 25);
    for (const std::string& id : child.readDurable(lines)) durable.insert(id);
    child.kill();

    auto store = SiteStore::open(dir);
    BOOST_REQUIRE_MESSAGE(store.ok(), "round " << round << ": " << store.message());
    auto sending =
        (*store)->db().prepare("SELECT count(*) FROM sms_outbox WHERE state = 'sending'");
    BOOST_REQUIRE(sending.ok());
    BOOST_REQUIRE(sending->step().ok());
    inDoubt += sending->columnInt64(0);
  }

  // Recovery as the next start would do it, then every message sent.
  auto opened = SiteStore::open(dir);
  BOOST_REQUIRE_MESSAGE(opened.ok(), opened.message());
  SiteStore& store = **opened;
  LockedStoreRunner runner(store);
  // A clock a day ahead: every retry is due.
  const auto later = std::chrono::system_clock::now() + std::chrono::hours(24);
  RetryPolicy policy;
  policy.maxAttempts = 1000;
  Outbox outbox(
      runner, [&] { return later; }, [] { return 0.0; }, policy);
  testing::LedgerGateway gateway(ledger, 1, 0);
  Dispatcher dispatcher(outbox, gateway, DispatcherOptions{false, {}, {}, {}});
  BOOST_REQUIRE(dispatcher.runPass().ok());

  auto rows = outbox.list(OutboxQuery{std::nullopt, false, 1'000'000});
  BOOST_REQUIRE(rows.ok());
  std::map<std::string, OutboxRow> byId;
  for (const OutboxRow& row : *rows) byId.emplace(row.id, row);

  // Nothing reported durable was lost.
  for (const std::string& id : durable) {
    BOOST_TEST(byId.count(id) == 1u, "durable message " << id << " is missing");
  }
  // Every message ended sent, by an answer the gateway gave (not by the uncertain policy).
  for (const auto& [id, row] : byId) {
    BOOST_TEST((row.state == OutboxState::kSent), id << " is " << outboxStateName(row.state));
    BOOST_TEST(!row.uncertain, id);
  }
  // The gateway accepted each exactly once, with the id the outbox recorded, and nothing else.
  auto accepted = testing::LedgerGateway::read(ledger);
  BOOST_REQUIRE(accepted.ok());
  std::map<std::string, std::vector<std::string>> acceptedIds;
  for (const testing::LedgerLine& l : *accepted) acceptedIds[l.key].push_back(l.providerId);
  for (const auto& [key, ids] : acceptedIds) {
    BOOST_TEST(ids.size() == 1u, key << " was accepted " << ids.size() << " times");
    auto row = byId.find(key);
    BOOST_TEST_REQUIRE((row != byId.end()), "the gateway accepted unknown message " << key);
    BOOST_TEST(row->second.providerId == ids.front(), key);
  }
  BOOST_TEST(acceptedIds.size() == byId.size());

  // One "sms.out" entry per row, committed with it; and the log verifies.
  std::multiset<std::string> audited;
  auto texts = store.log().entryTexts(0, store.log().size());
  BOOST_REQUIRE(texts.ok());
  for (const std::string& text : *texts) {
    auto entry = parseEntry(text);
    BOOST_REQUIRE(entry.ok());
    if (entry->kind == "sms.out") audited.insert(entry->body.find("id")->asString());
  }
  BOOST_TEST(audited.size() == byId.size());
  for (const auto& [id, row] : byId) BOOST_TEST(audited.count(id) == 1u, id);
  VerifyReport report = verifyDatabase(store.db(), store.verifierKey(), "crash-site");
  BOOST_TEST(report.ok(), report.problem);

  BOOST_TEST(durable.size() > static_cast<std::size_t>(kRounds));
  BOOST_TEST_MESSAGE("crash test: " << durable.size() << " durable messages over " << kRounds
                                    << " kills, " << byId.size() << " stored, " << accepted->size()
                                    << " accepted by the gateway, " << inDoubt
                                    << " left in doubt by a kill");
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace
}  // namespace atoms::sms::mailbox
