// Crash test: a child process appends batches to the audit log and is killed with SIGKILL at
// random points, many times. After every kill the log must open, verify end to end, hold every
// entry the child reported durable (each exactly once, in order), and continue its chain.
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <boost/test/unit_test.hpp>
#include <chrono>
#include <random>
#include <string>

#include "store/audit_entry.h"
#include "store/log_verifier.h"
#include "store/site_store.h"
#include "tests/support/temp_dir.h"

extern char** environ;

namespace atoms {
namespace {

// A running append_child with its stdout on a pipe.
class Child {
 public:
  Child(const std::string& dir, unsigned seed) {
    int fds[2];
    BOOST_REQUIRE(::pipe2(fds, O_CLOEXEC) == 0);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, fds[1], STDOUT_FILENO);
    std::string program = ATOMS_APPEND_CHILD;
    std::string seedText = std::to_string(seed);
    char* argv[] = {program.data(), const_cast<char*>(dir.c_str()), seedText.data(), nullptr};
    BOOST_REQUIRE(::posix_spawn(&pid_, program.c_str(), &actions, nullptr, argv, environ) == 0);
    posix_spawn_file_actions_destroy(&actions);
    ::close(fds[1]);
    fd_ = fds[0];
  }
  ~Child() {
    if (pid_ > 0) kill();
    if (fd_ >= 0) ::close(fd_);
  }

  // Reads "durable N" lines until `lines` were seen; returns the last N (0 if none). Waits on the
  // pipe with a deadline; the child exiting early fails the test.
  std::uint64_t readDurable(int lines) {
    std::uint64_t last = 0;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (lines > 0) {
      auto nl = buffer_.find('\n');
      if (nl != std::string::npos) {
        std::string line = buffer_.substr(0, nl);
        buffer_.erase(0, nl + 1);
        BOOST_REQUIRE(line.rfind("durable ", 0) == 0);
        last = std::stoull(line.substr(8));
        --lines;
        continue;
      }
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
          deadline - std::chrono::steady_clock::now());
      BOOST_REQUIRE_MESSAGE(left.count() > 0, "append_child reported nothing in time");
      pollfd p{fd_, POLLIN, 0};
      BOOST_REQUIRE(::poll(&p, 1, static_cast<int>(left.count())) >= 0);
      char chunk[4096];
      ssize_t n = ::read(fd_, chunk, sizeof chunk);
      BOOST_REQUIRE_MESSAGE(n > 0, "append_child exited early");
      buffer_.append(chunk, static_cast<size_t>(n));
    }
    return last;
  }

  void kill() {
    ::kill(pid_, SIGKILL);
    int status = 0;
    ::waitpid(pid_, &status, 0);
    pid_ = -1;
  }

 private:
  pid_t pid_ = -1;
  int fd_ = -1;
  std::string buffer_;
};

BOOST_AUTO_TEST_SUITE(crash)

BOOST_AUTO_TEST_CASE(logSurvivesSigkillAtRandomPoints) {
  testing::TempDir tmp;
  const std::string dir = tmp.sub("state");
  BOOST_REQUIRE(initStateDir(dir, {"crash-site"}).ok());

  std::mt19937 rng(20261129);
  std::uint64_t durable = 0;
  for (int round = 0; round < 30; ++round) {
    Child child(dir, rng());
    // Round 0 kills during start-up; the others after a random number of commits, so the kill
    // lands at a random point of the next batch (writing rows, signing, committing, printing).
    const int lines = round == 0 ? 0 : static_cast<int>(rng() % 12);
    const std::uint64_t reported = child.readDurable(lines);
    child.kill();
    durable = std::max(durable, reported);

    auto store = SiteStore::open(dir);
    BOOST_REQUIRE_MESSAGE(store.ok(), "round " << round << ": " << store.message());
    AuditLog& log = (*store)->log();
    BOOST_TEST_REQUIRE(log.size() >= durable, "round " << round << ": lost durable entries");
    BOOST_TEST(log.signedSize() == log.size());

    VerifyReport report = verifyDatabase((*store)->db(), (*store)->verifierKey(), "crash-site");
    BOOST_TEST_REQUIRE(report.ok(), "round " << round << ": " << report.problem);
    BOOST_TEST(report.entries == log.size());

    // Every entry present exactly once, in order: body.n == seq.
    auto texts = log.entryTexts(0, log.size());
    BOOST_REQUIRE(texts.ok());
    for (std::uint64_t seq = 0; seq < texts->size(); ++seq) {
      auto entry = parseEntry((*texts)[seq]);
      BOOST_REQUIRE(entry.ok());
      const json::Value* n = entry->body.find("n");
      if (entry->kind == "test.append") {
        BOOST_REQUIRE(n != nullptr);
        BOOST_TEST(n->asInt() == static_cast<std::int64_t>(seq));
      }
    }

    // The chain continues from here.
    const std::uint64_t before = log.size();
    auto seq = log.append(formatTimestamp({}), "test.resume", "test", json::Object{});
    BOOST_REQUIRE_MESSAGE(seq.ok(), seq.message());
    BOOST_TEST(*seq == before);
    BOOST_TEST(log.size() == before + 1);
    durable = log.size();
  }
  BOOST_TEST(durable > 30u);
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace
}  // namespace atoms
