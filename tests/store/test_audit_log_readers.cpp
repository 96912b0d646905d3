#include <boost/test/unit_test.hpp>
// Reading commands beside a writing `serve` (the issue "Sync: two defects...", defect 1):
// export-segments and verify open the log on a connection of their own while the service appends
// and records checkpoints in the high-water file. Each must load one consistent snapshot, and the
// mark, written by both, must never move back.
#include <atomic>
#include <cstdint>
#include <mutex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "base/file_io.h"
#include "tests/store/audit_fixture.h"

using namespace atoms;
using namespace atoms::testing;

namespace {

// The size the high-water file records (its note's second line), 0 when there is none.
std::uint64_t markIn(const std::string& path) {
  auto text = readFileToString(path);
  if (!text) return 0;
  std::istringstream lines(*text);
  std::string origin, size;
  std::getline(lines, origin);
  std::getline(lines, size);
  return std::stoull(size);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(audit_log_readers)

BOOST_AUTO_TEST_CASE(readersOpenAGrowingLogConsistentlyAndTheMarkOnlyRises) {
  LogFixture f;
  f.appendMany(2);
  const SigningKey key = f.key();
  std::atomic<bool> stop{false};
  std::mutex failedMutex;
  std::string failed;  // the writer's first error (no Boost.Test assertions off the main thread)
  std::thread writer([&] {
    // As serve does: commit a batch (its checkpoint in the same transaction), then record it.
    for (std::int64_t n = 0; !stop; ++n) {
      auto batch = f.log->begin();
      Status s = batch ? Status::success() : Status(batch.error());
      if (s)
        s = batch->add(tsAt(n), "sms.in", "gateway", json::Object{{"n", n}}).ok()
                ? Status::success()
                : makeError("add failed");
      if (s) {
        auto note = batch->commit();
        if (!note) s = note.error();
      }
      if (s) {
        auto published = f.log->publishCheckpoint(f.log->signedSize());
        if (!published) s = published.error();
      }
      if (!s) {
        std::lock_guard<std::mutex> lock(failedMutex);
        failed = s.message();
        return;
      }
    }
  });

  // Stops and joins the writer however the loop below ends (a failed requirement throws).
  struct Join {
    std::atomic<bool>& stop;
    std::thread& thread;
    ~Join() {
      stop = true;
      thread.join();
    }
  } join{stop, writer};

  std::uint64_t lastMark = markIn(f.hwPath());
  std::uint64_t lastSize = 0;
  for (int i = 0; i < 150; ++i) {
    // As export-segments and verify do: their own connection, the log opened, the mark caught up.
    auto state = openStateDir(f.dir.path(), OpenMode::ReadWrite);
    BOOST_TEST_REQUIRE(state.ok(), state.message());
    auto log =
        AuditLog::open(state->db, SigningKey::fromSecret(key.name(), key.secret().clone()).value(),
                       kSite, f.hwPath());
    BOOST_TEST_REQUIRE(log.ok(), "open " << i << ": " << log.message());
    BOOST_TEST(log->size() == log->signedSize());
    BOOST_TEST(log->size() >= lastSize);
    lastSize = log->size();
    auto note = log->publishCheckpoint(log->signedSize());
    BOOST_TEST_REQUIRE(note.ok(), note.message());
    const std::uint64_t mark = markIn(f.hwPath());
    BOOST_TEST_REQUIRE(mark >= lastMark, "the mark moved back from " << lastMark << " to " << mark);
    lastMark = mark;
  }
  stop = true;
  std::lock_guard<std::mutex> lock(failedMutex);
  BOOST_TEST(failed.empty(), failed);
  BOOST_TEST(lastSize > 2u);  // the log grew while it was read
}

BOOST_AUTO_TEST_SUITE_END()
