// Faults under the audit log, through the SQLite VFS shim (tests/support/fault_vfs.h): an audit
// batch (several entries and the checkpoint, committed together) is run with the 1st, 2nd, ...
// VFS call failing in turn, in every scenario of vfsScenarios(), until it runs with no fault hit.
// After each step the store is reopened with a healthy disk: the log verifies end to end and holds
// the whole batch or none of it, and all of it when the commit was reported.

#include <boost/test/unit_test.hpp>
#include <memory>
#include <string>

#include "base/timestamp.h"
#include "store/audit_entry.h"
#include "store/log_verifier.h"
#include "store/site_store.h"
#include "tests/support/fault_vfs.h"
#include "tests/support/temp_dir.h"

namespace atoms {
namespace {

using testing::FaultSteps;
using testing::FaultVfs;
using testing::VfsFault;
using testing::VfsOp;
using testing::VfsScenario;

constexpr const char* kSite = "fault-site";
constexpr std::int64_t kBatchEntries = 3;

std::unique_ptr<SiteStore> openStore(const std::string& dir) {
  auto store = SiteStore::open(dir);
  BOOST_TEST_REQUIRE(store.ok(), store.message());
  return std::move(*store);
}

// One batch of kBatchEntries entries tagged with `tag`.
Status appendBatch(AuditLog& log, std::int64_t tag) {
  auto batch = log.begin();
  if (!batch) return batch.error();
  for (std::int64_t i = 0; i < kBatchEntries; ++i) {
    auto seq =
        batch->add(formatTimestamp({}), "test.fault", "test", json::Object{{"tag", tag}, {"i", i}});
    if (!seq) return seq.error();
  }
  auto note = batch->commit();
  if (!note) return note.error();
  return Status::success();
}

// How many entries of the log carry `tag`.
std::int64_t entriesTagged(const AuditLog& log, std::int64_t tag) {
  auto texts = log.entryTexts(0, log.size());
  BOOST_TEST_REQUIRE(texts.ok(), texts.message());
  std::int64_t n = 0;
  for (const std::string& text : *texts) {
    auto entry = parseEntry(text);
    BOOST_TEST_REQUIRE(entry.ok(), entry.message());
    const json::Value* value = entry->body.find("tag");
    if (value != nullptr && value->asInt() == tag) ++n;
  }
  return n;
}

bool hasMeta(Database& db, const std::string& key) {
  auto stmt = db.prepare("SELECT 1 FROM meta WHERE key = ?");
  BOOST_TEST_REQUIRE(stmt.ok(), stmt.message());
  stmt->bind(1, key);
  auto row = stmt->step();
  BOOST_TEST_REQUIRE(row.ok(), row.message());
  return *row;
}

// A state directory whose store opens through the VFS shim, and the loop of the tests below.
class FaultyStore {
 public:
  FaultyStore() {
    BOOST_REQUIRE(initStateDir(dir, {kSite}).ok());
    store = openStore(dir);
  }

  // Runs operation(store, tag) (tag: unique to the step) with the 1st, 2nd, ... VFS call failing
  // in turn, in every scenario of vfsScenarios(), until it runs with no fault hit. After each step
  // the store is reopened on a healthy disk and committed(store, tag) says whether what the
  // operation wrote is there: all of it when the operation reported success, none after a
  // reported failure without a crash (after one it may be there: its writes reached the disk,
  // then its sync failed, which a caller's retry must allow). The log verifies after every step.
  template <class Operation, class Committed>
  void failEachCallInTurn(Operation operation, Committed committed) {
    std::int64_t tag = 0;
    for (const VfsScenario& scenario : testing::vfsScenarios()) {
      FaultSteps steps(vfs, scenario);
      int inDoubt = 0;  // reported failed, found committed after the crash
      while (steps.next()) {
        BOOST_TEST_CONTEXT(steps.describe()) {
          ++tag;
          // A cold page cache: the operation reads its pages through the VFS, where reads fail.
          BOOST_REQUIRE(store->db().exec("PRAGMA shrink_memory").ok());
          steps.arm();
          const Status s = operation(*store, tag);
          steps.operationDone();
          store.reset();
          steps.restart();
          store = openStore(dir);

          const bool found = committed(*store, tag);
          if (s.ok()) BOOST_TEST(found, "reported committed, but it is not there");
          if (!s.ok() && !steps.crashed()) BOOST_TEST(!found, "reported failed: " << s.message());
          if (!s.ok() && found) ++inDoubt;
          const VerifyReport report = verifyDatabase(store->db(), store->verifierKey(), kSite);
          BOOST_TEST(report.ok(), report.problem);
          BOOST_TEST(report.entries == store->log().size());
        }
      }
      BOOST_TEST_MESSAGE(steps.summary() << " (" << inDoubt << " in doubt)");
      BOOST_TEST(steps.faults() > 0U, scenario.name);
    }
  }

  FaultVfs vfs;  // before any database is opened, so that every one goes through it
  testing::TempDir tmp;
  const std::string dir = tmp.sub("state");
  std::unique_ptr<SiteStore> store;
};

BOOST_AUTO_TEST_SUITE(audit_faults)

// The shim the other tests rely on: it fails what it is told to, and its power cut drops exactly
// the writes no sync covered (with synchronous=OFF a commit is lost; with our FULL it is kept).
BOOST_AUTO_TEST_CASE(theVfsShimFailsTheNthCallAndItsPowerCutDropsUnsyncedWrites) {
  FaultVfs vfs;
  testing::TempDir tmp;
  const std::string dir = tmp.sub("state");
  BOOST_REQUIRE(initStateDir(dir, {kSite}).ok());
  {
    auto state = openStateDir(dir, OpenMode::ReadWrite);
    BOOST_TEST_REQUIRE(state.ok(), state.message());
    vfs.arm(VfsFault{{VfsOp::kSync}, 1, 0, false});
    Status s = state->db.exec("INSERT INTO meta(key, value) VALUES('a', '1')");
    BOOST_TEST(!s.ok());
    BOOST_TEST(s.message().find("disk I/O error") != std::string::npos, s.message());
    BOOST_TEST(vfs.fired());
    BOOST_TEST(vfs.calls(VfsOp::kSync) == 1U);
    BOOST_TEST(vfs.calls(VfsOp::kWrite) > 0U);
    BOOST_TEST(state->db.exec("INSERT INTO meta(key, value) VALUES('a', '2')").ok());  // once only
  }
  for (const bool synced : {false, true}) {
    const std::string key = synced ? "kept" : "lost";
    {
      auto state = openStateDir(dir, OpenMode::ReadWrite);
      BOOST_TEST_REQUIRE(state.ok(), state.message());
      if (!synced) BOOST_REQUIRE(state->db.exec("PRAGMA synchronous = OFF").ok());
      BOOST_REQUIRE(state->db.exec("INSERT INTO meta(key, value) VALUES('" + key + "', 'x')").ok());
    }
    BOOST_REQUIRE(vfs.powerCut().ok());
    auto state = openStateDir(dir, OpenMode::ReadWrite);
    BOOST_TEST_REQUIRE(state.ok(), state.message());
    BOOST_TEST(hasMeta(state->db, key) == synced, key);
    BOOST_TEST(hasMeta(state->db, "a"));
  }
}

BOOST_AUTO_TEST_CASE(anAuditBatchIsWholeOrAbsentAfterAFaultAtEveryStep) {
  FaultyStore f;
  std::uint64_t before = 0;
  f.failEachCallInTurn(
      [&](SiteStore& store, std::int64_t tag) {
        before = store.log().size();
        const Status s = appendBatch(store.log(), tag);
        // The log in memory follows what was reported.
        BOOST_TEST(store.log().size() == (s.ok() ? before + kBatchEntries : before));
        return s;
      },
      [&](SiteStore& store, std::int64_t tag) {
        const std::int64_t batch = entriesTagged(store.log(), tag);
        BOOST_TEST((batch == 0 || batch == kBatchEntries), batch << " entries of the batch");
        BOOST_TEST(store.log().size() == before + static_cast<std::uint64_t>(batch));
        return batch == kBatchEntries;
      });
}

// A batch that adds no entry commits only the caller's domain rows (the outbox's claim is one).
// Its failure must mean that nothing was committed, or a caller would redo committed work.
BOOST_AUTO_TEST_CASE(aBatchWithoutEntriesReportsAFailureOnlyWhenNothingWasCommitted) {
  FaultyStore f;
  BOOST_REQUIRE(
      f.store->log().append(formatTimestamp({}), "test.start", "test", json::Object{}).ok());
  const std::string newest = f.store->log().checkpointAt(1).value();
  auto key = [](std::int64_t tag) { return "fault." + std::to_string(tag); };
  f.failEachCallInTurn(
      [&](SiteStore& store, std::int64_t tag) -> Status {
        auto batch = store.log().begin();
        if (!batch) return batch.error();
        auto insert = store.db().prepare("INSERT INTO meta(key, value) VALUES(?, 'x')");
        if (!insert) return insert.error();
        insert->bind(1, key(tag));
        if (auto done = insert->step(); !done) return done.error();
        insert = Statement();
        auto note = batch->commit();
        if (!note) return note.error();
        BOOST_TEST(*note == newest);
        return Status::success();
      },
      [&](SiteStore& store, std::int64_t tag) { return hasMeta(store.db(), key(tag)); });
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace
}  // namespace atoms
