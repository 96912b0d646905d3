#include <fcntl.h>
#include <poll.h>
#include <pty.h>
#include <termios.h>
#include <unistd.h>

#include <boost/test/unit_test.hpp>
#include <chrono>
#include <condition_variable>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "drivers/sms/modem/at_channel.h"

using namespace atoms::drivers::modem;
using std::chrono::milliseconds;

namespace {

// The far end of a pty that answers each command line (ended by CR, or by Ctrl-Z for a payload)
// with a scripted reply: lets a test put URCs, echo and garbage exactly where it wants them.
class ScriptedPeer {
 public:
  ScriptedPeer() {
    char name[128] = {};
    if (::openpty(&master_, &slave_, name, nullptr, nullptr) != 0) throw std::runtime_error("pty");
    path_ = name;
    termios tio{};
    ::tcgetattr(slave_, &tio);
    ::cfmakeraw(&tio);
    ::tcsetattr(slave_, TCSANOW, &tio);
    if (::pipe(stop_) != 0) throw std::runtime_error("pipe");
    thread_ = std::thread([this] { run(); });
  }
  ~ScriptedPeer() {
    stopThread();
    closeMaster();
    ::close(slave_);
    ::close(stop_[0]);
    ::close(stop_[1]);
  }

  const std::string& path() const { return path_; }
  void on(const std::string& command, const std::string& reply) {
    std::lock_guard lock(mutex_);
    replies_[command] = reply;
  }
  void write(const std::string& bytes) { (void)!::write(master_, bytes.data(), bytes.size()); }
  std::string received() const {
    std::lock_guard lock(mutex_);
    return received_;
  }
  // Waits until exactly `bytes` have arrived (or the deadline passes) and returns what did.
  std::string waitReceived(const std::string& bytes) const {
    std::unique_lock lock(mutex_);
    changed_.wait_for(lock, std::chrono::seconds(10), [&] { return received_ == bytes; });
    return received_;
  }
  // The line goes away. The answering thread stops first: while it sits in poll(2) on the master,
  // the kernel holds the master open and the slave would never see the hang-up.
  void closeMaster() {
    stopThread();
    std::lock_guard lock(mutex_);
    if (master_ >= 0) ::close(master_);
    master_ = -1;
  }

 private:
  void stopThread() {
    if (!thread_.joinable()) return;
    (void)!::write(stop_[1], "x", 1);
    thread_.join();
  }

  void run() {
    std::string line;
    for (;;) {
      int fd = -1;
      {
        std::lock_guard lock(mutex_);
        fd = master_;
      }
      pollfd fds[2] = {{fd, POLLIN, 0}, {stop_[0], POLLIN, 0}};
      if (::poll(fds, 2, -1) < 0 || (fds[1].revents & POLLIN)) return;
      if (!(fds[0].revents & POLLIN)) continue;
      char buf[256];
      const ssize_t n = ::read(fd, buf, sizeof buf);
      if (n <= 0) return;
      for (ssize_t i = 0; i < n; ++i) {
        std::lock_guard lock(mutex_);
        received_.push_back(buf[i]);
        changed_.notify_all();
        if (buf[i] == '\r' || buf[i] == '\x1a') {
          const auto it = replies_.find(line);
          if (it != replies_.end()) (void)!::write(master_, it->second.data(), it->second.size());
          line.clear();
        } else {
          line.push_back(buf[i]);
        }
      }
    }
  }

  int master_ = -1, slave_ = -1;
  int stop_[2] = {-1, -1};
  std::string path_;
  std::thread thread_;
  mutable std::mutex mutex_;
  mutable std::condition_variable changed_;
  std::map<std::string, std::string> replies_;
  std::string received_;
};

struct Fixture {
  Fixture() {
    auto p = SerialPort::open(SerialSettings{peer.path(), 115200, false});
    BOOST_TEST_REQUIRE(p.ok(), p.message());
    port = std::move(*p);
    channel = std::make_unique<AtChannel>(
        *port, [this](UnsolicitedLine u) { unsolicited.push_back(std::move(u)); });
  }
  ScriptedPeer peer;
  std::unique_ptr<SerialPort> port;
  std::unique_ptr<AtChannel> channel;
  std::vector<UnsolicitedLine> unsolicited;
};

const milliseconds kAnswer(2000);  // generous: a command with a scripted reply returns at once

}  // namespace

BOOST_FIXTURE_TEST_SUITE(at_channel, Fixture)

BOOST_AUTO_TEST_CASE(collectsInformationLinesUntilOk) {
  peer.on("AT+CSQ", "\r\n+CSQ: 21,99\r\n\r\nOK\r\n");
  const AtResponse r = channel->command("AT+CSQ", kAnswer);
  BOOST_TEST(r.ok());
  BOOST_TEST(r.lines == (std::vector<std::string>{"+CSQ: 21,99"}),
             boost::test_tools::per_element());
  BOOST_TEST(peer.waitReceived("AT+CSQ\r") == "AT+CSQ\r");
  BOOST_TEST(unsolicited.empty());
}

BOOST_AUTO_TEST_CASE(endsOnEachKindOfError) {
  peer.on("AT+X", "\r\nERROR\r\n");
  peer.on("AT+CMGS=9", "\r\n+CMS ERROR: 304\r\n");
  peer.on("AT+CPIN?", "\r\n+CME ERROR: 10\r\n");
  AtResponse r = channel->command("AT+X", kAnswer);
  BOOST_CHECK(r.outcome == AtResponse::Outcome::kError);
  r = channel->commandWithPrompt("AT+CMGS=9", "00", kAnswer, kAnswer);  // refused before "> "
  BOOST_CHECK(r.final.kind == FinalResult::Kind::kCmsError);
  BOOST_TEST(r.final.code == 304);
  BOOST_TEST(r.describe("AT+CMGS=9") == "AT+CMGS=9: +CMS ERROR: 304");
  r = channel->command("AT+CPIN?", kAnswer);
  BOOST_CHECK(r.final.kind == FinalResult::Kind::kCmeError);
  BOOST_TEST(r.final.code == 10);
}

BOOST_AUTO_TEST_CASE(routesAUrcThatArrivesInTheMiddleOfACommand) {
  peer.on("AT+CSQ", "\r\n+CSQ: 9,99\r\n\r\n+CMTI: \"SM\",4\r\n\r\nOK\r\n");
  const AtResponse r = channel->command("AT+CSQ", kAnswer);
  BOOST_TEST(r.ok());
  BOOST_TEST(r.lines.size() == 1u);
  BOOST_TEST_REQUIRE(unsolicited.size() == 1u);
  BOOST_CHECK(unsolicited[0].urc.kind == Urc::Kind::kNewMessageStored);
  BOOST_TEST(unsolicited[0].urc.index == 4);
}

BOOST_AUTO_TEST_CASE(keepsTheSecondLineOfACmtWithIt) {
  // The PDU line after +CMT: is not an information line of the command, even if it looks odd.
  peer.on("AT", "\r\n+CMT: ,23\r\n0011000B916407281553F80000AA0AE8329BFD4697D9EC37\r\n\r\nOK\r\n");
  const AtResponse r = channel->command("AT", kAnswer);
  BOOST_TEST(r.ok());
  BOOST_TEST(r.lines.empty());
  BOOST_TEST_REQUIRE(unsolicited.size() == 1u);
  BOOST_CHECK(unsolicited[0].urc.kind == Urc::Kind::kNewMessage);
  BOOST_TEST(unsolicited[0].body == "0011000B916407281553F80000AA0AE8329BFD4697D9EC37");
}

BOOST_AUTO_TEST_CASE(takesALineAnsweringTheCommandForAnAnswerNotAUrc) {
  peer.on("AT+CPIN?", "\r\n+CPIN: READY\r\n\r\nOK\r\n");
  const AtResponse r = channel->command("AT+CPIN?", kAnswer);
  BOOST_TEST(r.lines == (std::vector<std::string>{"+CPIN: READY"}),
             boost::test_tools::per_element());
  BOOST_TEST(unsolicited.empty());
}

BOOST_AUTO_TEST_CASE(skipsAndFlagsTheEcho) {
  peer.on("ATE0", "ATE0\r\r\nOK\r\n");
  const AtResponse r = channel->command("ATE0", kAnswer);
  BOOST_TEST(r.ok());
  BOOST_TEST(r.echoSeen);
  BOOST_TEST(r.lines.empty());
}

BOOST_AUTO_TEST_CASE(typesThePayloadAfterThePrompt) {
  peer.on("AT+CMGS=23", "\r\n> ");
  peer.on("0011000B916407281553F80000AA0AE8329BFD4697D9EC37", "\r\n+CMGS: 9\r\n\r\nOK\r\n");
  const AtResponse r = channel->commandWithPrompt(
      "AT+CMGS=23", "0011000B916407281553F80000AA0AE8329BFD4697D9EC37", kAnswer, kAnswer);
  BOOST_TEST(r.ok(), r.describe("AT+CMGS"));
  BOOST_TEST(*parseMessageReference(r.lines.at(0)) == 9);
  const std::string typed = "AT+CMGS=23\r0011000B916407281553F80000AA0AE8329BFD4697D9EC37\x1a";
  BOOST_TEST(peer.waitReceived(typed) == typed);
}

BOOST_AUTO_TEST_CASE(cancelsTheEntryWhenNoPromptComes) {
  const AtResponse r =
      channel->commandWithPrompt("AT+CMGS=5", "0000000000", milliseconds(100), kAnswer);
  BOOST_CHECK(r.outcome == AtResponse::Outcome::kNoPrompt);
  BOOST_TEST(r.silent());
  BOOST_TEST(peer.waitReceived("AT+CMGS=5\r\x1b") == "AT+CMGS=5\r\x1b");  // ESC, no payload
}

BOOST_AUTO_TEST_CASE(timesOutWhenNothingAnswers) {
  const AtResponse r = channel->command("AT", milliseconds(100));
  BOOST_CHECK(r.outcome == AtResponse::Outcome::kTimeout);
  BOOST_TEST(r.describe("AT") == "AT: no answer in time");
}

BOOST_AUTO_TEST_CASE(aLateAnswerDrainedIsNotTakenForTheNextCommand) {
  peer.on("AT+SLOW", "");
  BOOST_TEST(channel->command("AT+SLOW", milliseconds(50)).silent());
  peer.write("\r\nOK\r\n");  // the slow command's answer, too late
  BOOST_TEST(channel->drain(milliseconds(100), milliseconds(2000)).ok());
  BOOST_TEST_REQUIRE(unsolicited.size() == 1u);
  BOOST_CHECK(unsolicited[0].kind == UnsolicitedLine::Kind::kGarbage);
  BOOST_TEST(unsolicited[0].line == "OK");
  peer.on("AT+CSQ", "\r\nERROR\r\n");
  BOOST_CHECK(channel->command("AT+CSQ", kAnswer).outcome == AtResponse::Outcome::kError);
}

BOOST_AUTO_TEST_CASE(handsGarbageAndUrcsToTheHandlerWhenIdle) {
  peer.write("\r\n\x01\x02junk\r\n\r\nRING\r\n\r\n+CMTI: \"ME\",2\r\n" +
             std::string(LineSplitter::kMaxLineLength + 5, 'z') + "\r\n");
  while (unsolicited.size() < 5) {
    const auto r = channel->pump(kAnswer, -1);
    BOOST_TEST_REQUIRE(r.ok(), r.message());
  }
  BOOST_CHECK(unsolicited[0].kind == UnsolicitedLine::Kind::kGarbage);
  BOOST_CHECK(unsolicited[1].urc.kind == Urc::Kind::kOther);
  BOOST_TEST(unsolicited[2].urc.storage == "ME");
  BOOST_CHECK(unsolicited[3].kind == UnsolicitedLine::Kind::kGarbage);  // the endless line
  BOOST_TEST(unsolicited[3].line.size() == 200u);
  BOOST_CHECK(unsolicited[4].kind == UnsolicitedLine::Kind::kGarbage);  // and its tail
}

BOOST_AUTO_TEST_CASE(returnsEarlyWhenWoken) {
  int fds[2];
  BOOST_TEST_REQUIRE(::pipe(fds) == 0);
  (void)!::write(fds[1], "w", 1);
  const auto r = channel->pump(milliseconds(60000), fds[0]);
  BOOST_TEST(r.ok());
  BOOST_TEST(*r);
  ::close(fds[0]);
  ::close(fds[1]);
}

BOOST_AUTO_TEST_CASE(reportsAnIoErrorWhenTheLineGoesAway) {
  peer.closeMaster();
  const auto r = channel->pump(kAnswer, -1);
  BOOST_TEST(!r.ok());
  BOOST_TEST(r.message().find(peer.path()) != std::string::npos);
  BOOST_CHECK(channel->command("AT", kAnswer).outcome == AtResponse::Outcome::kIoError);
}

BOOST_AUTO_TEST_CASE(refusesADeviceThatIsAlreadyOpen) {
  auto second = SerialPort::open(SerialSettings{peer.path(), 115200, false});
  BOOST_TEST(!second.ok());
  BOOST_TEST(second.message().find("in use") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(refusesBadSettings) {
  BOOST_TEST(SerialPort::open(SerialSettings{"", 115200, false}).message().find("no device") !=
             std::string::npos);
  BOOST_TEST(SerialPort::open(SerialSettings{peer.path(), 12345, false}).message().find("12345") !=
             std::string::npos);
  BOOST_TEST(SerialPort::open(SerialSettings{"/dev/null", 9600, false}).message().find("tty") !=
             std::string::npos);
  BOOST_TEST(SerialPort::open(SerialSettings{"/nonexistent/tty", 9600, false})
                 .message()
                 .find("/nonexistent/tty") != std::string::npos);
}

BOOST_AUTO_TEST_SUITE_END()
