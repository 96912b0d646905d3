// Test helpers for tests/daemon: a temporary directory, a child process with its output captured
// (read with poll and a deadline, never a sleep), and a Poco channel that keeps log messages.
#pragma once

#include <Poco/Channel.h>
#include <Poco/Message.h>
#include <sys/types.h>

#include <chrono>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "tests/support/build_paths.h"
#include "tests/support/temp_dir.h"

namespace atoms::test {

using atoms::testing::TempDir;

// Changes to the environment a child inherits from the test: name -> value to set it, name ->
// nullopt to remove it.
using EnvChanges = std::map<std::string, std::optional<std::string>>;

// A child process with stdout/stderr captured through pipes, and stdin on /dev/null or, with
// `stdinPipe`, a stream the test writes to (writeStdin, closeStdin; not a terminal).
class ChildProcess {
 public:
  // argv[0] is the program path; the child gets the test's environment with `env` applied.
  // BOOST_REQUIREs that the spawn worked.
  explicit ChildProcess(const std::vector<std::string>& argv, const EnvChanges& env = {},
                        bool stdinPipe = false);
  // Kills (SIGKILL) and reaps a child that is still running.
  ~ChildProcess();
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;

  // Reads output until stderr contains needle (true) or the deadline passes or the child closes
  // its output (false).
  bool waitForStderr(const std::string& needle, std::chrono::milliseconds deadline);
  // The same for stdout, counting only what came after the first `from` bytes of it.
  bool waitForStdout(const std::string& needle, std::chrono::milliseconds deadline,
                     std::size_t from = 0);
  // Writes all of text to the child's stdin (a few lines: the pipe never fills); BOOST_REQUIREs
  // a stdin pipe. closeStdin() ends the child's input.
  void writeStdin(const std::string& text);
  void closeStdin();
  // Reads until the child closes its output, then reaps it. The exit status, or 128 + signal
  // number when a signal ended it; nullopt if the deadline passed first (the child is killed).
  std::optional<int> wait(std::chrono::milliseconds deadline);
  void signal(int sig);

  const std::string& out() const { return out_; }
  const std::string& err() const { return err_; }

 private:
  // One poll round; false once both pipes are closed or the deadline passed.
  bool readSome(std::chrono::steady_clock::time_point until);
  void reap();

  pid_t pid_ = -1;
  int outFd_ = -1;
  int errFd_ = -1;
  int inFd_ = -1;
  std::string out_;
  std::string err_;
  std::optional<int> status_;
};

// Runs the atoms-edge binary under test with args and waits for it (up to 60 s).
struct RunResult {
  int status = -1;
  std::string out;
  std::string err;
};
RunResult runEdge(const std::vector<std::string>& args, const EnvChanges& env = {});
using ::atoms::testing::edgeBinary;

// The whole content of a file; BOOST_REQUIREs that it can be read.
std::string readFile(const std::string& path);
// The permission bits of path (e.g. 0600); BOOST_REQUIREs that it exists.
unsigned fileMode(const std::string& path);

// Keeps every message logged to it. Thread-safe.
class CaptureChannel : public Poco::Channel {
 public:
  void log(const Poco::Message& msg) override;
  std::vector<Poco::Message> messages() const;

 private:
  mutable std::mutex mutex_;
  std::vector<Poco::Message> messages_;
};

inline bool contains(const std::string& hay, const std::string& needle) {
  return hay.find(needle) != std::string::npos;
}

}  // namespace atoms::test
