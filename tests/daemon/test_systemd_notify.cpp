// `serve` under systemd with Type=notify (daemon/service/systemd_notify.h; the issue "The
// appliance", item 2): the test plays systemd's notify socket and reads what serve tells it.
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <boost/test/unit_test.hpp>
#include <chrono>
#include <cstring>
#include <string>
#include <vector>

#include "store/state_dir.h"
#include "tests/daemon/helpers.h"

using namespace atoms;
using namespace std::chrono_literals;

namespace {

constexpr auto kNotifyDeadline =
    60s;  // the sanitizer build starts slowly; a passing run never waits

// systemd's side: a datagram socket at a path, read with a deadline.
class NotifySocket {
 public:
  explicit NotifySocket(std::string path) : path_(std::move(path)) {
    fd_ = ::socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    BOOST_REQUIRE(fd_ >= 0);
    sockaddr_un a{};
    a.sun_family = AF_UNIX;
    BOOST_REQUIRE(path_.size() < sizeof(a.sun_path));
    std::memcpy(a.sun_path, path_.c_str(), path_.size() + 1);
    BOOST_REQUIRE(::bind(fd_, reinterpret_cast<sockaddr*>(&a), sizeof(a)) == 0);
  }
  ~NotifySocket() { ::close(fd_); }
  const std::string& path() const { return path_; }

  // Every message until one contains `needle` (kept in `seen`); false at the deadline.
  bool waitFor(const std::string& needle, std::chrono::milliseconds deadline = kNotifyDeadline) {
    const auto until = std::chrono::steady_clock::now() + deadline;
    while (std::chrono::steady_clock::now() < until) {
      pollfd p{fd_, POLLIN, 0};
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
          until - std::chrono::steady_clock::now());
      if (::poll(&p, 1, static_cast<int>(std::max(left.count(), 1L))) <= 0) continue;
      char buf[4096];
      const ssize_t n = ::recv(fd_, buf, sizeof buf, 0);
      if (n <= 0) continue;
      seen.emplace_back(buf, static_cast<std::size_t>(n));
      if (seen.back().find(needle) != std::string::npos) return true;
    }
    return false;
  }
  std::vector<std::string> seen;

 private:
  std::string path_;
  int fd_ = -1;
};

}  // namespace

BOOST_AUTO_TEST_SUITE(systemd_notify)

BOOST_AUTO_TEST_CASE(serveSaysReadyPingsTheWatchdogFromTheEngineAndSaysStopping) {
  test::TempDir tmp;
  const std::string stateDir = tmp.file("state");
  BOOST_REQUIRE(initStateDir(stateDir, InitOptions{"site-n"}).ok());
  const std::string config = tmp.write("atoms-edge.conf", "state.dir = " + stateDir + "\n");
  NotifySocket systemd(tmp.file("notify"));
  test::ChildProcess child({test::edgeBinary(), "serve", "--config", config},
                           {{"NOTIFY_SOCKET", systemd.path()},
                            {"WATCHDOG_USEC", "300000"},
                            {"WATCHDOG_PID", std::nullopt}});

  BOOST_REQUIRE_MESSAGE(systemd.waitFor("READY=1"), child.err());
  BOOST_TEST(systemd.seen.front() == "STATUS=starting");
  BOOST_TEST(systemd.seen.back() == "READY=1\nSTATUS=serving site site-n");
  // Every 100 ms (a third of WatchdogSec), from the engine's timer.
  BOOST_REQUIRE(systemd.waitFor("WATCHDOG=1"));
  BOOST_REQUIRE(systemd.waitFor("WATCHDOG=1"));
  child.signal(SIGTERM);
  BOOST_REQUIRE_MESSAGE(systemd.waitFor("STOPPING=1"), child.err());
  const auto status = child.wait(kNotifyDeadline);
  BOOST_REQUIRE(status.has_value());
  BOOST_TEST(*status == 0, child.err());
  BOOST_TEST(child.err().find("cannot tell systemd") == std::string::npos, child.err());
}

BOOST_AUTO_TEST_CASE(aServiceThatCannotStartTellsSystemdWhyAndNeverReady) {
  test::TempDir tmp;
  const std::string config = tmp.write("atoms-edge.conf", "state.dir = " + tmp.file("none") + "\n");
  NotifySocket systemd(tmp.file("notify"));
  test::ChildProcess child({test::edgeBinary(), "serve", "--config", config},
                           {{"NOTIFY_SOCKET", systemd.path()}});
  BOOST_REQUIRE_MESSAGE(systemd.waitFor("STATUS=refusing to start: store: "), child.err());
  const auto status = child.wait(kNotifyDeadline);
  BOOST_REQUIRE(status.has_value());
  BOOST_TEST(*status != 0);
  for (const std::string& m : systemd.seen) BOOST_TEST(m.find("READY=1") == std::string::npos);
}

BOOST_AUTO_TEST_SUITE_END()
