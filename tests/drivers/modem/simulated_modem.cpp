#include "tests/drivers/modem/simulated_modem.h"

#include <fcntl.h>
#include <poll.h>
#include <pty.h>
#include <sys/eventfd.h>
#include <termios.h>
#include <unistd.h>

#include <cerrno>
#include <stdexcept>

#include "drivers/sms/modem/at_parser.h"

namespace atoms::drivers::modem::testing {

namespace {

std::string two(int v) { return std::string(v < 10 ? "0" : "") + std::to_string(v); }

// 27.005 text mode time: "yy/MM/dd,hh:mm:ss+zz".
std::string textTime(const SmscTime& t) {
  const int q = t.offsetQuarters;
  return two(t.year % 100) + "/" + two(t.month) + "/" + two(t.day) + "," + two(t.hour) + ":" +
         two(t.minute) + ":" + two(t.second) + (q < 0 ? "-" : "+") + two(q < 0 ? -q : q);
}

bool startsWith(const std::string& s, const std::string& prefix) {
  return s.compare(0, prefix.size(), prefix) == 0;
}

}  // namespace

SimulatedModem::SimulatedModem() {
  char name[128] = {};
  int slave = -1;
  if (::openpty(&master_, &slave, name, nullptr, nullptr) != 0)
    throw std::runtime_error("openpty failed");
  slavePath_ = name;
  slaveKeep_ = slave;
  termios tio{};
  ::tcgetattr(slaveKeep_, &tio);
  ::cfmakeraw(&tio);
  ::tcsetattr(slaveKeep_, TCSANOW, &tio);
  ::fcntl(master_, F_SETFL, ::fcntl(master_, F_GETFL) | O_NONBLOCK);
  wake_ = ::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
  thread_ = std::thread([this] { run(); });
}

SimulatedModem::~SimulatedModem() {
  {
    std::lock_guard lock(mutex_);
    stop_ = true;
  }
  const std::uint64_t one = 1;
  (void)!::write(wake_, &one, sizeof one);
  thread_.join();
  ::close(wake_);
  ::close(master_);
  ::close(slaveKeep_);
}

void SimulatedModem::run() {
  for (;;) {
    pollfd fds[2] = {{master_, POLLIN, 0}, {wake_, POLLIN, 0}};
    if (::poll(fds, 2, -1) < 0 && errno != EINTR) return;
    {
      std::lock_guard lock(mutex_);
      if (stop_) return;
    }
    if (fds[1].revents & POLLIN) {
      std::uint64_t n = 0;
      (void)!::read(wake_, &n, sizeof n);
    }
    if (fds[0].revents & POLLIN) {
      char buf[512];
      const ssize_t n = ::read(master_, buf, sizeof buf);
      if (n > 0) onBytes(std::string(buf, static_cast<std::size_t>(n)));
    }
  }
}

void SimulatedModem::onBytes(const std::string& bytes) {
  std::lock_guard lock(mutex_);
  if (silent_) return;
  for (char c : bytes) {
    if (inPayload_) {
      if (c == '\x1a') {
        inPayload_ = false;
        std::string payload = std::move(buffer_);
        buffer_.clear();
        onPayload(payload);
      } else if (c == '\x1b') {
        inPayload_ = false;
        buffer_.clear();
        emitLocked("OK");
      } else {
        buffer_.push_back(c);
      }
      continue;
    }
    if (c == '\r') {
      std::string line = std::move(buffer_);
      buffer_.clear();
      if (!line.empty()) onLine(line);
      if (silent_) break;
    } else if (c != '\n') {
      buffer_.push_back(c);
    }
  }
  changedLocked();
}

void SimulatedModem::onLine(const std::string& line) {
  commands_.push_back(line);
  if (echo_) writeLocked(line + "\r");
  if (garbage_) {
    writeLocked("\r\n#\xff\xfe%GARBAGE~~" + std::to_string(commands_.size()) + "\r\n+XYZ?\r\n");
    return;
  }
  writeLocked(answer(line));
}

std::string SimulatedModem::answer(const std::string& cmd) {
  const std::string ok = "\r\nOK\r\n";
  const std::string error = "\r\nERROR\r\n";
  const auto value = [&](const std::string& prefix) { return cmd.substr(prefix.size()); };
  if (cmd == "AT" || startsWith(cmd, "AT+CMEE=") || startsWith(cmd, "AT+CSCS=") ||
      startsWith(cmd, "AT+CSMP="))
    return ok;
  if (cmd == "ATE0" || cmd == "ATE1") {
    echo_ = cmd == "ATE1";
    return ok;
  }
  if (cmd == "AT+CPIN?")
    return "\r\n+CPIN: " + std::string(pin_.empty() ? "READY" : "SIM PIN") + "\r\n" + ok;
  if (startsWith(cmd, "AT+CPIN=")) {
    if (pin_.empty()) return "\r\n+CME ERROR: 3\r\n";
    if (splitAtParameters(value("AT+CPIN="))[0] != pin_) return "\r\n+CME ERROR: 16\r\n";
    pin_.clear();
    return ok;
  }
  if (cmd == "AT+CGMI") return "\r\nAtoms Test\r\n" + ok;
  if (cmd == "AT+CGMM") return "\r\nPTY Modem\r\n" + ok;
  if (cmd == "AT+CSQ") return "\r\n+CSQ: 21,99\r\n" + ok;
  if (startsWith(cmd, "AT+CMGF=")) {
    const auto v = parseAtInteger(value("AT+CMGF="), 0, 1);
    if (!v) return error;
    cmgf_ = *v;
    return ok;
  }
  if (cmd == "AT+CPMS?") {
    const std::string n = std::to_string(storage_.size());
    return "\r\n+CPMS: \"SM\"," + n + ",30,\"SM\"," + n + ",30,\"SM\"," + n + ",30\r\n" + ok;
  }
  if (startsWith(cmd, "AT+CPMS=")) {
    for (const std::string& s : splitAtParameters(value("AT+CPMS="))) {
      if (s != "SM") return "\r\n+CMS ERROR: 302\r\n";
    }
    const std::string n = std::to_string(storage_.size());
    return "\r\n+CPMS: " + n + ",30," + n + ",30," + n + ",30\r\n" + ok;
  }
  if (cmd == "AT+CSMS?") return "\r\n+CSMS: " + std::to_string(csms_) + ",1,1,1\r\n" + ok;
  if (startsWith(cmd, "AT+CSMS=")) {
    const auto v = parseAtInteger(value("AT+CSMS="), 0, 1);
    if (!v) return "\r\n+CMS ERROR: 303\r\n";
    csms_ = *v;
    return "\r\n+CSMS: 1,1,1\r\n" + ok;
  }
  if (startsWith(cmd, "AT+CNMI=")) {
    const std::vector<std::string> p = splitAtParameters(value("AT+CNMI="));
    if (p.size() < 4) return "\r\n+CMS ERROR: 303\r\n";
    const auto mt = parseAtInteger(p[1], 0, 3);
    const auto ds = parseAtInteger(p[3], 0, 2);
    if (!mt || !ds || (*ds == 2 && rejectStoredReports_)) return "\r\n+CMS ERROR: 303\r\n";
    cnmiMt_ = *mt;
    cnmiDs_ = *ds;
    return ok;
  }
  if (startsWith(cmd, "AT+CMGS=")) {
    inPayload_ = true;
    payloadCommand_ = cmd;
    return "\r\n> ";
  }
  if (startsWith(cmd, "AT+CMGR=")) {
    const auto i = parseAtInteger(value("AT+CMGR="), 0, 1000);
    const auto it = i ? storage_.find(*i) : storage_.end();
    if (it == storage_.end()) return "\r\n+CMS ERROR: 321\r\n";
    const std::string line = storedLineLocked(it->first, it->second, false);
    it->second.status = 1;
    return line + ok;
  }
  if (cmd == "AT+CMGL=4" || cmd == "AT+CMGL=\"ALL\"") {
    std::string out;
    for (auto& [index, s] : storage_) {
      out += storedLineLocked(index, s, true);
      s.status = 1;
    }
    return out + ok;
  }
  if (startsWith(cmd, "AT+CMGD=")) {
    const auto i = parseAtInteger(value("AT+CMGD="), 0, 1000);
    if (!i) return error;
    storage_.erase(*i);
    ++deletes_;
    return ok;
  }
  if (cmd == "AT+CNMA" || cmd == "AT+CNMA=0") {
    if (csms_ != 1) return "\r\n+CMS ERROR: 340\r\n";
    ++acks_;
    return ok;
  }
  if (cmd == "AT+CNMA=2") {
    if (csms_ != 1) return "\r\n+CMS ERROR: 340\r\n";
    ++nacks_;
    return ok;
  }
  return error;
}

std::string SimulatedModem::storedLineLocked(int index, const Stored& s, bool list) {
  const std::string prefix = list ? "+CMGL: " + std::to_string(index) + "," : "+CMGR: ";
  if (cmgf_ == 0) {
    return "\r\n" + prefix + std::to_string(s.status) + ",," + std::to_string(s.tpduLength) +
           "\r\n" + s.pdu + "\r\n";
  }
  const std::string stat = s.status == 0 ? "\"REC UNREAD\"" : "\"REC READ\"";
  return "\r\n" + prefix + stat + "," + s.textHeader + "\r\n" + s.text + "\r\n";
}

void SimulatedModem::onPayload(const std::string& payload) {
  if (swallowAfter_ >= 0 && static_cast<int>(sent_.size()) >= swallowAfter_) {
    silent_ = true;
    return;
  }
  Sent sent;
  sent.command = payloadCommand_;
  sent.payload = payload;
  if (echo_) writeLocked(payload + "\r");
  if (cmgf_ == 0) {
    const auto length = parseAtInteger(payloadCommand_.substr(8), 0, 255);
    auto pdu = decodeSubmit(payload, length ? std::optional<int>(*length) : std::nullopt);
    if (!pdu) {
      emitLocked("+CMS ERROR: 304");
      return;
    }
    sent.pdu = std::move(*pdu);
  }
  if (failSends_ > 0) {
    --failSends_;
    emitLocked("+CMS ERROR: " + std::to_string(failCode_));
    return;
  }
  sent.reference = nextReference_;
  nextReference_ = (nextReference_ + 1) % 256;
  sent_.push_back(sent);
  emitLocked("+CMGS: " + std::to_string(sent.reference));
  emitLocked("OK");
  const bool wantsReport = sent.pdu ? sent.pdu->statusReportRequest : true;
  if (autoReports_ && wantsReport) {
    StatusReportPdu r;
    r.messageReference = static_cast<std::uint8_t>(sent.reference);
    std::string to =
        sent.pdu ? sent.pdu->destination : splitAtParameters(payloadCommand_.substr(8))[0];
    r.recipient = Address{to, static_cast<std::uint8_t>(to.rfind('+', 0) == 0 ? 0x91 : 0x81)};
    r.timestamp = SmscTime{2024, 5, 6, 7, 8, 9, 8};
    r.discharge = SmscTime{2024, 5, 6, 7, 8, 12, 8};
    r.status = autoStatus_;
    reportLocked(r);
  }
}

void SimulatedModem::writeLocked(const std::string& bytes) {
  std::size_t at = 0;
  while (at < bytes.size()) {
    const ssize_t n = ::write(master_, bytes.data() + at, bytes.size() - at);
    if (n > 0) {
      at += static_cast<std::size_t>(n);
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    return;  // the line is full (nobody reading): drop, as a UART would
  }
}

void SimulatedModem::emitLocked(const std::string& text) { writeLocked("\r\n" + text + "\r\n"); }

int SimulatedModem::storeLocked(Stored entry) {
  int index = 0;
  while (storage_.contains(index)) ++index;
  storage_[index] = std::move(entry);
  return index;
}

namespace {

// How the modem holds a received message: its PDU and, for text mode, its header and text.
SimulatedModem::Stored storedOf(const DeliverPdu& pdu) {
  auto encoded = encodeDeliver(pdu);
  if (!encoded) throw std::runtime_error("SimulatedModem: " + encoded.error().message);
  SimulatedModem::Stored s;
  s.pdu = encoded->hex;
  s.tpduLength = encoded->tpduLength;
  s.textHeader = "\"" + pdu.originator.text + "\",,\"" + textTime(pdu.timestamp) + "\"";
  auto text = userDataText(pdu.userData);
  s.text = text ? *text : "";
  return s;
}

}  // namespace

void SimulatedModem::deliverLocked(const DeliverPdu& pdu) {
  Stored s = storedOf(pdu);
  if (cnmiMt_ == 2) {
    if (cmgf_ == 0) {
      emitLocked("+CMT: ," + std::to_string(s.tpduLength) + "\r\n" + s.pdu);
    } else {
      emitLocked("+CMT: " + s.textHeader + "\r\n" + s.text);
    }
    return;
  }
  const int index = storeLocked(std::move(s));
  if (cnmiMt_ == 1) emitLocked("+CMTI: \"SM\"," + std::to_string(index));
}

void SimulatedModem::reportLocked(const StatusReportPdu& report) {
  auto encoded = encodeStatusReport(report);
  if (!encoded) throw std::runtime_error("injectStatusReport: " + encoded.error().message);
  if (cnmiDs_ == 1) {
    if (cmgf_ == 0) {
      emitLocked("+CDS: " + std::to_string(encoded->tpduLength) + "\r\n" + encoded->hex);
    } else {
      emitLocked("+CDS: 6," + std::to_string(report.messageReference) + ",\"" +
                 report.recipient.text + "\"," + std::to_string(report.recipient.type) + ",\"" +
                 textTime(report.timestamp) + "\",\"" + textTime(report.discharge) + "\"," +
                 std::to_string(report.status));
    }
  } else if (cnmiDs_ == 2) {
    Stored s;
    s.pdu = encoded->hex;
    s.tpduLength = encoded->tpduLength;
    const int index = storeLocked(std::move(s));
    emitLocked("+CDSI: \"SM\"," + std::to_string(index));
  }
}

void SimulatedModem::setSilent(bool silent) {
  std::lock_guard lock(mutex_);
  silent_ = silent;
  buffer_.clear();
  inPayload_ = false;
  swallowAfter_ = -1;
}

void SimulatedModem::setGarbageAnswers(bool garbage) {
  std::lock_guard lock(mutex_);
  garbage_ = garbage;
}

void SimulatedModem::failNextSends(int count, int cmsCode) {
  std::lock_guard lock(mutex_);
  failSends_ = count;
  failCode_ = cmsCode;
}

void SimulatedModem::swallowPayloadAfter(int sends) {
  std::lock_guard lock(mutex_);
  swallowAfter_ = sends;
}

void SimulatedModem::setRejectStoredReports(bool reject) {
  std::lock_guard lock(mutex_);
  rejectStoredReports_ = reject;
}

void SimulatedModem::setAutoReports(bool on, std::uint8_t tpStatus) {
  std::lock_guard lock(mutex_);
  autoReports_ = on;
  autoStatus_ = tpStatus;
}

void SimulatedModem::requirePin(const std::string& pin) {
  std::lock_guard lock(mutex_);
  pin_ = pin;
}

void SimulatedModem::reboot(bool announce) {
  std::lock_guard lock(mutex_);
  echo_ = true;
  cmgf_ = 0;
  cnmiMt_ = cnmiDs_ = 0;
  csms_ = 0;
  inPayload_ = false;
  buffer_.clear();
  silent_ = false;
  garbage_ = false;
  if (announce) emitLocked("RDY");
  changedLocked();
}

void SimulatedModem::injectDeliver(const DeliverPdu& pdu) {
  std::lock_guard lock(mutex_);
  deliverLocked(pdu);
  changedLocked();
}

void SimulatedModem::injectStatusReport(const StatusReportPdu& report) {
  std::lock_guard lock(mutex_);
  reportLocked(report);
  changedLocked();
}

void SimulatedModem::injectRaw(const std::string& bytes) {
  std::lock_guard lock(mutex_);
  writeLocked(bytes);
}

int SimulatedModem::storeDeliver(const DeliverPdu& pdu) {
  Stored s = storedOf(pdu);
  std::lock_guard lock(mutex_);
  const int index = storeLocked(std::move(s));
  changedLocked();
  return index;
}

int SimulatedModem::storeRaw(const std::string& pduHex, int tpduLength) {
  std::lock_guard lock(mutex_);
  Stored s;
  s.pdu = pduHex;
  s.tpduLength = tpduLength;
  const int index = storeLocked(std::move(s));
  if (cnmiMt_ == 1) emitLocked("+CMTI: \"SM\"," + std::to_string(index));
  changedLocked();
  return index;
}

std::vector<SimulatedModem::Sent> SimulatedModem::sent() const {
  std::lock_guard lock(mutex_);
  return sent_;
}

std::vector<std::string> SimulatedModem::commands() const {
  std::lock_guard lock(mutex_);
  return commands_;
}

std::map<int, SimulatedModem::Stored> SimulatedModem::storage() const {
  std::lock_guard lock(mutex_);
  return storage_;
}

int SimulatedModem::acks() const {
  std::lock_guard lock(mutex_);
  return acks_;
}

int SimulatedModem::negativeAcks() const {
  std::lock_guard lock(mutex_);
  return nacks_;
}

int SimulatedModem::deletes() const {
  std::lock_guard lock(mutex_);
  return deletes_;
}

int SimulatedModem::commandCount(const std::string& prefix) const {
  std::lock_guard lock(mutex_);
  int n = 0;
  for (const std::string& c : commands_) n += startsWith(c, prefix) ? 1 : 0;
  return n;
}

void SimulatedModem::changedLocked() {
  ++generation_;
  changed_.notify_all();
}

bool SimulatedModem::waitFor(const std::function<bool()>& predicate,
                             std::chrono::milliseconds timeout) const {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  for (;;) {
    std::uint64_t seen = 0;
    {
      std::lock_guard lock(mutex_);
      seen = generation_;
    }
    if (predicate()) return true;
    std::unique_lock lock(mutex_);
    if (!changed_.wait_until(lock, deadline, [&] { return generation_ != seen; }))
      return predicate();
  }
}

}  // namespace atoms::drivers::modem::testing
