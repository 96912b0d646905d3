#include "tests/daemon/helpers.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <boost/test/unit_test.hpp>
#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

extern char** environ;

namespace atoms::test {

namespace {

// environ with `changes` applied, as NAME=VALUE strings.
std::vector<std::string> childEnvironment(const EnvChanges& changes) {
  std::vector<std::string> env;
  for (char** e = environ; *e != nullptr; ++e) {
    const std::string entry(*e);
    if (changes.count(entry.substr(0, entry.find('='))) == 0) env.push_back(entry);
  }
  for (const auto& [name, value] : changes) {
    if (value) env.push_back(name + "=" + *value);
  }
  return env;
}

}  // namespace

ChildProcess::ChildProcess(const std::vector<std::string>& argv, const EnvChanges& env,
                           bool stdinPipe) {
  int outPipe[2];
  int errPipe[2];
  int inPipe[2] = {-1, -1};
  BOOST_REQUIRE(::pipe2(outPipe, O_CLOEXEC) == 0);
  BOOST_REQUIRE(::pipe2(errPipe, O_CLOEXEC) == 0);
  // A socket pair rather than a pipe: a write after the child is gone fails with EPIPE
  // (MSG_NOSIGNAL) instead of killing the test with SIGPIPE.
  if (stdinPipe) BOOST_REQUIRE(::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, inPipe) == 0);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  if (stdinPipe) {
    posix_spawn_file_actions_adddup2(&actions, inPipe[0], 0);
  } else {
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  }
  posix_spawn_file_actions_adddup2(&actions, outPipe[1], 1);
  posix_spawn_file_actions_adddup2(&actions, errPipe[1], 2);
  // The child starts with default signal handling and an empty mask, whatever the test runner set.
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  sigset_t none;
  sigset_t all;
  sigemptyset(&none);
  sigfillset(&all);
  posix_spawnattr_setsigmask(&attr, &none);
  posix_spawnattr_setsigdefault(&attr, &all);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  std::vector<std::string> envStrings = childEnvironment(env);
  std::vector<char*> envp;
  for (std::string& e : envStrings) envp.push_back(e.data());
  envp.push_back(nullptr);
  int rc = ::posix_spawn(&pid_, argv[0].c_str(), &actions, &attr, args.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attr);
  ::close(outPipe[1]);
  ::close(errPipe[1]);
  if (stdinPipe) ::close(inPipe[0]);
  outFd_ = outPipe[0];
  errFd_ = errPipe[0];
  inFd_ = inPipe[1];
  BOOST_REQUIRE_MESSAGE(rc == 0, "posix_spawn " << argv[0] << " failed: " << rc);
}

ChildProcess::~ChildProcess() {
  closeStdin();
  if (pid_ > 0) {
    ::kill(pid_, SIGKILL);
    reap();
  }
  if (outFd_ >= 0) ::close(outFd_);
  if (errFd_ >= 0) ::close(errFd_);
}

bool ChildProcess::readSome(std::chrono::steady_clock::time_point until) {
  if (outFd_ < 0 && errFd_ < 0) return false;
  auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
      until - std::chrono::steady_clock::now());
  if (left.count() <= 0) return false;
  pollfd fds[2] = {{outFd_, POLLIN, 0}, {errFd_, POLLIN, 0}};
  int n = ::poll(fds, 2, static_cast<int>(left.count()));
  if (n < 0 && errno == EINTR) return true;
  if (n <= 0) return false;  // deadline, or a poll error
  int* fdp[2] = {&outFd_, &errFd_};
  std::string* sinks[2] = {&out_, &err_};
  for (int i = 0; i < 2; ++i) {
    if (fds[i].fd < 0 || fds[i].revents == 0) continue;
    char buf[4096];
    ssize_t got = ::read(fds[i].fd, buf, sizeof buf);
    if (got > 0) {
      sinks[i]->append(buf, static_cast<std::size_t>(got));
    } else if (got == 0 || (errno != EINTR && errno != EAGAIN)) {
      ::close(*fdp[i]);
      *fdp[i] = -1;
    }
  }
  return true;
}

bool ChildProcess::waitForStderr(const std::string& needle, std::chrono::milliseconds deadline) {
  auto until = std::chrono::steady_clock::now() + deadline;
  while (!contains(err_, needle)) {
    if (!readSome(until)) return contains(err_, needle);
  }
  return true;
}

bool ChildProcess::waitForStdout(const std::string& needle, std::chrono::milliseconds deadline,
                                 std::size_t from) {
  auto until = std::chrono::steady_clock::now() + deadline;
  auto found = [&] { return out_.size() > from && out_.find(needle, from) != std::string::npos; };
  while (!found()) {
    if (!readSome(until)) return found();
  }
  return true;
}

void ChildProcess::writeStdin(const std::string& text) {
  BOOST_REQUIRE_MESSAGE(inFd_ >= 0, "the child's stdin is not a pipe of the test");
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::send(inFd_, text.data() + done, text.size() - done, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    BOOST_REQUIRE_MESSAGE(n > 0, "writing to the child's stdin failed");
    done += static_cast<std::size_t>(n);
  }
}

void ChildProcess::closeStdin() {
  if (inFd_ >= 0) ::close(inFd_);
  inFd_ = -1;
}

std::optional<int> ChildProcess::wait(std::chrono::milliseconds deadline) {
  if (status_) return status_;
  auto until = std::chrono::steady_clock::now() + deadline;
  while (outFd_ >= 0 || errFd_ >= 0) {
    if (!readSome(until)) break;
  }
  if (outFd_ >= 0 || errFd_ >= 0) {  // deadline passed with the child still writing or silent
    ::kill(pid_, SIGKILL);
    reap();
    return std::nullopt;
  }
  reap();  // output closed: the child is exiting
  return status_;
}

void ChildProcess::reap() {
  int raw = 0;
  pid_t r;
  do {
    r = ::waitpid(pid_, &raw, 0);
  } while (r < 0 && errno == EINTR);
  pid_t reaped = pid_;
  pid_ = -1;  // never signal a pid that may have been reused
  if (r != reaped) return;
  if (WIFEXITED(raw)) {
    status_ = WEXITSTATUS(raw);
  } else if (WIFSIGNALED(raw)) {
    status_ = 128 + WTERMSIG(raw);
  }
}

void ChildProcess::signal(int sig) {
  if (pid_ > 0) ::kill(pid_, sig);
}

RunResult runEdge(const std::vector<std::string>& args, const EnvChanges& env) {
  std::vector<std::string> argv{edgeBinary()};
  argv.insert(argv.end(), args.begin(), args.end());
  ChildProcess child(argv, env);
  // A hang detector, not a time limit: the demo under the sanitizers on a loaded machine took 60 s.
  std::optional<int> status = child.wait(std::chrono::seconds(240));
  BOOST_REQUIRE_MESSAGE(status.has_value(), "atoms-edge did not finish in time");
  return RunResult{*status, child.out(), child.err()};
}

std::string readFile(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  BOOST_REQUIRE_MESSAGE(f.is_open(), "cannot read " << path);
  std::ostringstream text;
  text << f.rdbuf();
  return text.str();
}

unsigned fileMode(const std::string& path) {
  struct stat st {};
  BOOST_REQUIRE_MESSAGE(::stat(path.c_str(), &st) == 0, "cannot stat " << path);
  return static_cast<unsigned>(st.st_mode & 07777);
}

void CaptureChannel::log(const Poco::Message& msg) {
  std::lock_guard<std::mutex> lock(mutex_);
  messages_.push_back(msg);
}

std::vector<Poco::Message> CaptureChannel::messages() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return messages_;
}

}  // namespace atoms::test
