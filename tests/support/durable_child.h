// DurableChild: a child process for crash tests. It runs a program with its stdout on a pipe; the
// program prints "durable <id>" once something is committed, and the test kills it with SIGKILL
// at a point of its choosing, then checks that everything reported durable survived.
//
// readDurable() waits on the pipe with a deadline (never sleeps); the child exiting before it has
// reported enough fails the test. Single-threaded; the destructor kills a child still running.
#pragma once

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <boost/test/unit_test.hpp>
#include <chrono>
#include <string>
#include <vector>

extern char** environ;

namespace atoms::testing {

class DurableChild {
 public:
  // argv[0] is the program's path.
  explicit DurableChild(std::vector<std::string> argv) : name_(argv.at(0)) {
    int fds[2];
    BOOST_REQUIRE(::pipe2(fds, O_CLOEXEC) == 0);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, fds[1], STDOUT_FILENO);
    std::vector<char*> args;
    for (std::string& a : argv) args.push_back(a.data());
    args.push_back(nullptr);
    BOOST_REQUIRE(::posix_spawn(&pid_, argv[0].c_str(), &actions, nullptr, args.data(), environ) ==
                  0);
    posix_spawn_file_actions_destroy(&actions);
    ::close(fds[1]);
    fd_ = fds[0];
  }
  DurableChild(const DurableChild&) = delete;
  DurableChild& operator=(const DurableChild&) = delete;
  ~DurableChild() {
    if (pid_ > 0) kill();
    if (fd_ >= 0) ::close(fd_);
  }

  // Reads `count` "durable <id>" lines and returns the ids, in order.
  std::vector<std::string> readDurable(int count) {
    std::vector<std::string> ids;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (static_cast<int>(ids.size()) < count) {
      const auto nl = buffer_.find('\n');
      if (nl != std::string::npos) {
        const std::string line = buffer_.substr(0, nl);
        buffer_.erase(0, nl + 1);
        BOOST_REQUIRE_MESSAGE(line.rfind("durable ", 0) == 0, name_ << " printed: " << line);
        ids.push_back(line.substr(8));
        continue;
      }
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
          deadline - std::chrono::steady_clock::now());
      BOOST_REQUIRE_MESSAGE(left.count() > 0, name_ << " reported nothing in time");
      pollfd p{fd_, POLLIN, 0};
      BOOST_REQUIRE(::poll(&p, 1, static_cast<int>(left.count())) >= 0);
      char chunk[4096];
      const ssize_t n = ::read(fd_, chunk, sizeof chunk);
      BOOST_REQUIRE_MESSAGE(n > 0, name_ << " exited early");
      buffer_.append(chunk, static_cast<std::size_t>(n));
    }
    return ids;
  }

  void kill() {
    ::kill(pid_, SIGKILL);
    int status = 0;
    ::waitpid(pid_, &status, 0);
    pid_ = -1;
  }

 private:
  std::string name_;
  pid_t pid_ = -1;
  int fd_ = -1;
  std::string buffer_;
};

}  // namespace atoms::testing
