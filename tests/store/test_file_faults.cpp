// Faults in the store's own files, through the file-system seam (base/file_system.h): the
// FaultFileSystem fails the 1st, 2nd, ... call of a write in turn (no space, I/O error), once or
// from then on followed by a power cut, until the write runs with no fault hit. Whatever the step,
// the file holds its old or its new content (never a torn one), the error is reported, and what
// was reported written survives the power cut.

#include <sodium.h>

#include <boost/test/unit_test.hpp>
#include <cerrno>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "base/bytes.h"
#include "base/file_io.h"
#include "store/key_file.h"
#include "store/site_store.h"
#include "store/state_dir.h"
#include "tests/support/fault_file_system.h"
#include "tests/support/temp_dir.h"

namespace atoms {
namespace {

using testing::FaultFileSystem;
using testing::FsFault;
using testing::FsOp;
using testing::TempDir;

constexpr const char* kAbsent = "(absent)";

// The content of path; kAbsent when there is nothing there.
std::string contentOf(const std::string& path) {
  if (!std::filesystem::exists(path)) return kAbsent;
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

struct FsScenario {
  const char* name;
  int error;
  bool powerCut;  // the fault persists (the disk is gone), then the power is cut
};

const std::vector<FsScenario>& scenarios() {
  static const std::vector<FsScenario> all = {
      {"no space", ENOSPC, false},
      {"I/O error", EIO, false},
      {"no space, then power cut", ENOSPC, true},
      {"I/O error, then power cut", EIO, true},
  };
  return all;
}

// Fails the 1st, 2nd, ... file-system call of `operation` in turn until a run hits no fault.
// Per step: prepare(n) on a healthy disk, the operation with the fault armed, then
// check(status, afterPowerCut) once, and once more after the power cut if the scenario has one.
// Returns the number of steps (the last one ran untouched).
template <class Prepare, class Operation, class Check>
std::uint64_t failEachCallInTurn(FaultFileSystem& fs, const FsScenario& scenario, Prepare prepare,
                                 Operation operation, Check check) {
  for (std::uint64_t n = 1;; ++n) {
    BOOST_TEST_CONTEXT(scenario.name << ", failing call " << n) {
      prepare(n);
      fs.arm(FsFault{FsOp::kAny, n, scenario.error, scenario.powerCut});
      const Status s = operation();
      const bool fired = fs.fired();
      fs.disarm();
      if (fired) BOOST_TEST(!s.ok(), "the fault at call " << n << " was not reported");
      if (!fired) BOOST_TEST(s.ok(), s.message());
      check(s, false);
      if (scenario.powerCut) {
        Status cut = fs.powerCut();
        BOOST_TEST_REQUIRE(cut.ok(), cut.message());
        check(s, true);
      }
      if (!fired) return n;
    }
  }
}

SecretBytes randomKey() {
  BOOST_REQUIRE(initSodium());
  SecretBytes key(keyKindSize(KeyKind::Database));
  randombytes_buf(key.data(), key.size());
  return key;
}

BOOST_AUTO_TEST_SUITE(file_faults)

// The double the other tests rely on: without this, a power cut that drops nothing would make
// them pass for nothing.
BOOST_AUTO_TEST_CASE(powerCutKeepsWhatWasSyncedAndNothingElse) {
  TempDir dir;
  FaultFileSystem fs;
  auto write = [&](const std::string& name, const std::string& text, bool sync) {
    auto file = fs.createFile(dir.file(name), CreateMode::kTruncate, 0600);
    BOOST_REQUIRE(file.ok());
    BOOST_REQUIRE((*file)->append(text).ok());
    if (sync) BOOST_REQUIRE((*file)->sync().ok());
    BOOST_REQUIRE((*file)->close().ok());
  };
  dir.write("renamed", "old");
  dir.write("removed", "still here");
  write("synced", "one", true);
  BOOST_REQUIRE(fs.syncDirectory(dir.path()).ok());
  write("synced", "two", false);      // rewritten, never synced
  write("unnamed", "text", true);     // synced, but its name never was
  write("renamed.tmp", "new", true);  // the atomic replacement, without the directory's sync
  BOOST_REQUIRE(fs.rename(dir.file("renamed.tmp"), dir.file("renamed")).ok());
  BOOST_REQUIRE(fs.remove(dir.file("removed")).ok());
  BOOST_TEST(contentOf(dir.file("synced")) == "two");

  BOOST_REQUIRE(fs.powerCut().ok());
  BOOST_TEST(contentOf(dir.file("synced")) == "one");
  BOOST_TEST(contentOf(dir.file("unnamed")) == kAbsent);
  BOOST_TEST(contentOf(dir.file("renamed")) == "old");
  BOOST_TEST(contentOf(dir.file("renamed.tmp")) == kAbsent);
  BOOST_TEST(contentOf(dir.file("removed")) == "still here");
}

BOOST_AUTO_TEST_CASE(failsTheNthCallOfAnOperationOnceAndAFailingWriteLandsHalf) {
  TempDir dir;
  FaultFileSystem fs;
  fs.arm(FsFault{FsOp::kAppend, 2, ENOSPC, false});
  auto file = fs.createFile(dir.file("f"), CreateMode::kTruncate, 0600);
  BOOST_REQUIRE(file.ok());
  BOOST_TEST((*file)->append("ab").ok());
  Status full = (*file)->append("cdef");
  BOOST_TEST(!full.ok());
  BOOST_TEST((full.kind() == ErrorKind::kIo));
  BOOST_TEST(full.message() == errnoText(ENOSPC));
  BOOST_TEST((*file)->append("gh").ok());  // once only
  BOOST_TEST(fs.fired());
  BOOST_TEST(fs.calls(FsOp::kAppend) == 3U);
  BOOST_TEST(fs.calls(FsOp::kAny) == 4U);
  BOOST_REQUIRE((*file)->close().ok());
  BOOST_TEST(contentOf(dir.file("f")) == "abcdgh");

  // From the first directory sync on, everything fails.
  fs.arm(FsFault{FsOp::kSyncDirectory, 1, EIO, true});
  BOOST_TEST(!fs.syncDirectory(dir.path()).ok());
  BOOST_TEST(!fs.rename(dir.file("f"), dir.file("g")).ok());
  fs.disarm();
  BOOST_TEST(fs.rename(dir.file("f"), dir.file("g")).ok());
}

BOOST_AUTO_TEST_CASE(aReplacedFileHoldsTheOldOrTheNewContentAfterAFaultAtEveryStep) {
  for (const FsScenario& scenario : scenarios()) {
    TempDir dir;
    FaultFileSystem fs;
    const std::string path = dir.file("note");
    std::string old;
    std::string next;
    const std::uint64_t steps = failEachCallInTurn(
        fs, scenario,
        [&](std::uint64_t n) {
          old = "version " + std::to_string(n - 1) + "\n";
          next = "version " + std::to_string(n) + "\n";
          BOOST_REQUIRE(replaceFileDurably(path, old).ok());
        },
        [&] { return replaceFileDurably(path, next, fs); },
        [&](const Status& s, bool cut) {
          const auto now = contentOf(path);
          BOOST_TEST((now == old || now == next), "the file holds '" << now << "'");
          if (s.ok()) BOOST_TEST(now == next);
          if (cut || !scenario.powerCut) BOOST_TEST(contentOf(path + ".tmp") == kAbsent);
        });
    // create, write, fsync, close, rename, fsync the directory
    BOOST_TEST(steps == 7U, scenario.name);
  }
}

BOOST_AUTO_TEST_CASE(theHighWaterFileHoldsTheOldOrTheNewCheckpointAfterAFaultAtEveryStep) {
  for (const FsScenario& scenario : scenarios()) {
    TempDir tmp;
    const std::string dir = tmp.sub("state");
    BOOST_REQUIRE(initStateDir(dir, {"fault-site"}).ok());
    FaultFileSystem fs;
    std::unique_ptr<SiteStore> store;
    std::string old;
    std::string next;
    std::uint64_t oldSize = 0;
    const std::uint64_t steps = failEachCallInTurn(
        fs, scenario,
        [&](std::uint64_t n) {
          // A restart, which brings the high-water file up to the newest signed checkpoint.
          store.reset();
          auto opened = SiteStore::open(dir, fs);
          BOOST_TEST_REQUIRE(opened.ok(), opened.message());
          store = std::move(*opened);
          AuditLog& log = store->log();
          BOOST_TEST(log.highWaterSize() == log.signedSize());
          auto seq = log.append(formatTimestamp({}), "test.fault", "test",
                                json::Object{{"n", static_cast<std::int64_t>(n)}});
          BOOST_REQUIRE(seq.ok());
          old = contentOf(highWaterPath(dir));
          oldSize = log.highWaterSize();
          next = log.checkpointAt(log.size()).value();
        },
        [&]() -> Status {
          auto published = store->log().publishCheckpoint(store->log().size());
          if (!published) return published.error();
          BOOST_TEST(*published == next);
          return Status::success();
        },
        [&](const Status& s, bool cut) {
          const auto now = contentOf(highWaterPath(dir));
          BOOST_TEST((now == old || now == next), "the high-water file holds another note");
          if (s.ok()) BOOST_TEST(now == next);
          // Nothing may be published after a failure: the log still records the old size.
          if (!cut)
            BOOST_TEST(store->log().highWaterSize() == (s.ok() ? store->log().size() : oldSize));
        });
    // Under the lock, the file read again (open, stat, read), then create, write, fsync, close,
    // rename, fsync the directory.
    BOOST_TEST(steps == 10U, scenario.name << ": " << steps);
    store.reset();
    auto reopened = SiteStore::open(dir);
    BOOST_TEST_REQUIRE(reopened.ok(), reopened.message());
    BOOST_TEST((*reopened)->log().size() == steps);
  }
}

BOOST_AUTO_TEST_CASE(aKeyFileIsWholeOrAbsentAfterAFaultAtEveryStep) {
  const SecretBytes key = randomKey();
  const Bytes expected(key.view().begin(), key.view().end());
  for (const FsScenario& scenario : scenarios()) {
    TempDir dir;
    FaultFileSystem fs;
    std::string path;
    const std::uint64_t steps = failEachCallInTurn(
        fs, scenario, [&](std::uint64_t n) { path = dir.file("db-" + std::to_string(n) + ".key"); },
        [&] { return writeKeyFile(path, KeyKind::Database, key, fs); },
        [&](const Status& s, bool cut) {
          auto back = readKeyFile(path, KeyKind::Database);
          if (s.ok()) {
            BOOST_TEST_REQUIRE(back.ok(), back.message());
            BOOST_TEST(Bytes(back->view().begin(), back->view().end()) == expected);
          } else if (cut || !scenario.powerCut) {
            // Removed again; after a power cut its name was never made durable.
            BOOST_TEST(contentOf(path) == kAbsent);
          } else if (back.ok()) {
            // The disk died before the removal: what is left is the whole key or refused.
            BOOST_TEST(Bytes(back->view().begin(), back->view().end()) == expected);
          }
        });
    // create, chmod, write, fsync, close, fsync the directory
    BOOST_TEST(steps == 7U, scenario.name);
  }
}

BOOST_AUTO_TEST_CASE(initLeavesNothingBehindOrAWholeStateDirectoryAfterAFaultAtEveryStep) {
  for (const FsScenario& scenario : scenarios()) {
    TempDir tmp;
    FaultFileSystem fs;
    const std::string site = tmp.sub("site");
    const std::string dir = site + "/state";  // two levels to create: mkdir -p
    const std::uint64_t steps = failEachCallInTurn(
        fs, scenario, [&](std::uint64_t) { std::filesystem::remove_all(site); },
        [&] { return initStateDir(dir, {"fault-site"}, fs); },
        [&](const Status& s, bool cut) {
          auto opened = openStateDir(dir, OpenMode::ReadOnly);
          // Reported done: whole, also after a power cut (every new directory's name synced).
          if (s.ok()) BOOST_TEST(opened.ok(), opened.message());
          // Reported failed on a disk that still works: undone, mkdir -p included, so a retry
          // starts afresh.
          if (!s.ok() && !scenario.powerCut) BOOST_TEST(!std::filesystem::exists(site));
          // The undo needs a working disk: after a dead disk and a power cut a key file may be
          // left, but never a database the removal of which would lose anything, unless whole.
          if (!s.ok() && cut) {
            BOOST_TEST((opened.ok() || !std::filesystem::exists(dir + "/atoms.db")));
          }
        });
    BOOST_TEST(steps > 15U, scenario.name << ": " << steps << " steps");
  }
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace
}  // namespace atoms
