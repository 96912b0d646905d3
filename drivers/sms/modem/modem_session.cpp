#include "drivers/sms/modem/modem_session.h"

#include <algorithm>
#include <utility>

#include "drivers/sms/modem/at_parser.h"
#include "drivers/sms/modem/pdu.h"

namespace atoms::drivers::modem {

using std::chrono::milliseconds;

ModemSession::ModemSession(const ModemConfig& config, HealthBoard& health, UnitRandom random)
    : config_(config),
      health_(health),
      backoff_(config.backoffInitial, config.backoffMax, std::move(random)) {}

// --- the port ---------------------------------------------------------------------------------

bool ModemSession::open() {
  health_.update([](ModemHealth& h) { h.state = ModemHealth::State::kConnecting; });
  auto port = SerialPort::open(config_.serial);
  if (!port) {
    health_.setError(port.error().message);
    return false;
  }
  port_ = std::move(*port);
  channel_ = std::make_unique<AtChannel>(
      *port_, [this](UnsolicitedLine line) { onUnsolicited(std::move(line)); });
  channel_->setPduMode(pduMode());
  health_.update([](ModemHealth& h) { ++h.opens; });
  needsReset_ = false;
  needsReinit_ = false;
  if (!initialize()) {
    close();
    return false;
  }
  backoff_.reset();
  return true;
}

void ModemSession::close() {
  channel_.reset();
  port_.reset();
  events_.clear();  // URCs of the closed session: a new one reads storage again
}

void ModemSession::reset() {
  close();
  needsReset_ = false;
  needsReinit_ = false;
  std::string reason = std::move(resetReason_);
  resetReason_.clear();
  firstFailure_.clear();
  health_.update([&](ModemHealth& h) {
    ++h.resets;
    h.lastResetReason = reason.empty() ? h.lastError : reason;
  });
  scheduleReconnect();
}

void ModemSession::scheduleReconnect() {
  reconnectAt_ = Steady::now() + backoff_.next();
  health_.update([](ModemHealth& h) { h.state = ModemHealth::State::kBackoff; });
}

void ModemSession::markReady() {
  keepaliveDue_ = Steady::now() + config_.keepaliveInterval;
  health_.update([](ModemHealth& h) {
    h.state = ModemHealth::State::kReady;
    ++h.inits;
    h.consecutiveFailures = 0;
    h.undecodable = 0;
  });
}

bool ModemSession::pump(milliseconds timeout, int wakeFd) {
  const Result<bool> woken = channel_->pump(timeout, wakeFd);
  if (!woken) {
    health_.setError(woken.error().message);
    needsReset_ = true;
    return false;
  }
  return *woken;
}

// --- AT commands with failure accounting --------------------------------------------------------

AtResponse ModemSession::at(const std::string& command, milliseconds timeout,
                            std::string_view shown) {
  if (needsReset_ || !channel_) {
    AtResponse r;
    r.outcome = AtResponse::Outcome::kIoError;
    r.ioError = "the modem is being reset";
    return r;
  }
  AtResponse r = channel_->command(command, timeout);
  account(shown.empty() ? command : std::string(shown), r);
  return r;
}

AtResponse ModemSession::submit(const std::string& command, const std::string& payload) {
  AtResponse r;
  if (needsReset_ || !channel_) {
    r.outcome = AtResponse::Outcome::kIoError;
    r.ioError = "the modem is being reset";
    return r;
  }
  r = channel_->commandWithPrompt(command, payload, config_.promptTimeout, config_.sendTimeout);
  account("AT+CMGS", r);
  return r;
}

void ModemSession::account(const std::string& shown, const AtResponse& r) {
  if (r.echoSeen) needsReinit_ = true;  // echo is back on: the modem restarted
  if (r.outcome == AtResponse::Outcome::kIoError) {
    health_.setError(r.describe(shown));
    needsReset_ = true;
    return;
  }
  if (r.silent()) {
    // Lines without a final result after them were not an answer: garbage.
    if (!r.lines.empty()) health_.update([&](ModemHealth& h) { h.garbageLines += r.lines.size(); });
    failure(r.describe(shown));
    if (channel_) {
      if (Status s = channel_->drain(config_.quietTime, config_.quietTime * 10); !s) {
        health_.setError(s.message());
        needsReset_ = true;
      }
    }
    return;
  }
  keepaliveDue_ = Steady::now() + config_.keepaliveInterval;
  const auto now = config_.now();
  health_.update([&](ModemHealth& h) {
    h.consecutiveFailures = 0;
    h.lastAnswerAt = now;
  });
}

void ModemSession::failure(const std::string& why) {
  bool reset = false;
  bool first = false;
  health_.update([&](ModemHealth& h) {
    first = h.consecutiveFailures == 0;
    reset = ++h.consecutiveFailures >= config_.maxConsecutiveFailures;
  });
  // The command the modem first stopped answering is the one that hung; the failures after it
  // (the next poll, AT+CMGL or AT+CSQ) only confirm it.
  if (first || firstFailure_.empty()) firstFailure_ = why;
  std::string error = why;
  if (reset && !initializing_) {
    error = firstFailure_ == why
                ? "the modem stopped answering: " + why
                : "the modem stopped answering after " + firstFailure_ + " (then " + why + ")";
    resetReason_ = error;
    needsReset_ = true;  // a failing init closes the port itself
  }
  health_.setError(error);
}

// --- init -------------------------------------------------------------------------------------

bool ModemSession::initialize() {
  initializing_ = true;
  const bool ok = initializeSteps();
  initializing_ = false;
  return ok;
}

bool ModemSession::initializeSteps() {
  health_.update([](ModemHealth& h) { h.consecutiveFailures = 0; });
  const auto fail = [&](const std::string& why) {
    health_.setError("modem init: " + why);
    return false;
  };
  if (Status s = channel_->drain(config_.quietTime, config_.quietTime * 10); !s)
    return fail(s.message());
  // A modem just powered up may swallow the first AT (autobauding).
  AtResponse r;
  for (int i = 0; i < 3 && !r.ok() && !needsReset_; ++i) r = at("AT", config_.commandTimeout);
  if (!r.ok()) return fail(r.describe("AT"));
  if (r = at("ATE0", config_.commandTimeout); !r.ok()) return fail(r.describe("ATE0"));
  (void)at("AT+CMEE=1", config_.commandTimeout);  // numeric errors where supported

  if (!unlockSim(fail)) return false;

  const std::string cmgf = pduMode() ? "AT+CMGF=0" : "AT+CMGF=1";
  if (r = at(cmgf, config_.commandTimeout); !r.ok())
    return fail(r.describe(cmgf) + (pduMode() ? " (no PDU mode: set mode = text)" : ""));
  if (!pduMode()) {
    (void)at("AT+CSCS=\"IRA\"", config_.commandTimeout);
    std::string fo = config_.requestStatusReports ? "49" : "17";  // SUBMIT, relative VP, SRR
    const int vp = relativeValidityCode(config_.validity.value_or(std::chrono::hours(24 * 7)));
    if (r = at("AT+CSMP=" + fo + "," + std::to_string(vp) + ",0,0", config_.commandTimeout);
        !r.ok())
      return fail(r.describe("AT+CSMP"));
  }
  if (!config_.storage.empty()) {
    const std::string& s = config_.storage;
    const std::string cpms = "AT+CPMS=\"" + s + "\",\"" + s + "\",\"" + s + "\"";
    if (r = at(cpms, config_.commandTimeout); !r.ok()) return fail(r.describe(cpms));
  }
  readStorageStatus();

  service_ = 0;
  if (r = at("AT+CSMS?", config_.commandTimeout); r.ok()) {
    for (const std::string& line : r.lines) {
      if (line.rfind("+CSMS:", 0) == 0)
        service_ = parseAtInteger(splitAtParameters(afterColon(line))[0], 0, 128).value_or(0);
    }
  }
  if (config_.inbound == ModemConfig::Inbound::kDirect && service_ != 1) {
    if (r = at("AT+CSMS=1", config_.commandTimeout); !r.ok())
      return fail(r.describe("AT+CSMS=1") +
                  " (no acknowledged direct delivery: set inbound = stored)");
    service_ = 1;
  }
  bool routed = false;
  for (const std::string& cnmi : cnmiCandidates()) {
    if (r = at("AT+CNMI=" + cnmi, config_.commandTimeout); r.ok()) {
      routed = true;
      break;
    }
    if (needsReset_) break;
  }
  if (!routed) return fail("the modem refused every AT+CNMI setting: " + r.describe("AT+CNMI"));

  std::string model;
  for (const char* cmd : {"AT+CGMI", "AT+CGMM"}) {
    if (r = at(cmd, config_.commandTimeout); r.ok() && !r.lines.empty())
      model += (model.empty() ? "" : " ") + r.lines.front();
  }
  probeSignal();
  if (needsReset_) return fail(health_.snapshot().lastError);
  health_.update([&](ModemHealth& h) { h.modem = model.substr(0, 120); });
  needsReinit_ = false;  // the echo of the first AT, or a boot URC, is what this init fixed
  return true;
}

template <class Fail>
bool ModemSession::unlockSim(const Fail& fail) {
  AtResponse r = at("AT+CPIN?", config_.commandTimeout);
  if (r.silent() || needsReset_) return fail(r.describe("AT+CPIN?"));
  if (!r.ok()) {
    if (r.final.code == 10) return fail("no SIM card (+CME ERROR: 10)");
    return true;  // a modem without AT+CPIN?: assume the SIM is usable, sending will tell
  }
  std::string state;
  for (const std::string& line : r.lines) {
    if (line.rfind("+CPIN:", 0) == 0) state = std::string(splitAtParameters(afterColon(line))[0]);
  }
  if (state.empty() || state == "READY") return true;
  if (state == "SIM PIN") {
    if (config_.simPin.empty())
      return fail("the SIM asks for a PIN and none is configured (modem.simPin)");
    // Three wrong PINs lock the SIM: a refused PIN is never sent again by this gateway.
    if (pinRefused_)
      return fail(
          "the SIM refused the configured PIN; it is not sent again (3 wrong PINs "
          "lock the SIM): correct it and restart");
    r = at("AT+CPIN=\"" + config_.simPin + "\"", config_.commandTimeout, "AT+CPIN=<pin>");
    if (r.outcome == AtResponse::Outcome::kError) {
      pinRefused_ = true;
      return fail("the SIM refused the configured PIN: " + r.describe("AT+CPIN=<pin>") +
                  "; it is not sent again (3 wrong PINs lock the SIM)");
    }
    if (!r.ok()) return fail(r.describe("AT+CPIN=<pin>"));
    return true;
  }
  return fail("the SIM is locked (" + state + "): unlock it in a phone first");
}

std::vector<std::string> ModemSession::cnmiCandidates() const {
  const bool reports = config_.requestStatusReports;
  if (config_.inbound == ModemConfig::Inbound::kDirect) {
    return reports ? std::vector<std::string>{"2,2,0,1,0", "1,2,0,1,0"}
                   : std::vector<std::string>{"2,2,0,0,0", "1,2,0,0,0"};
  }
  if (!reports) return {"2,1,0,0,0", "1,1,0,0,0"};
  // Stored status reports (+CDSI) are read with AT+CMGR, which text mode prints without a body
  // line; text mode asks for them directly (+CDS) instead.
  if (!pduMode()) return {"2,1,0,1,0", "1,1,0,1,0"};
  return {"2,1,0,2,0", "2,1,0,1,0", "1,1,0,2,0", "1,1,0,1,0"};
}

// --- storage ----------------------------------------------------------------------------------

bool ModemSession::selectStorage(const std::string& storage) {
  if (storage == currentStorage_) return true;
  const AtResponse r = at("AT+CPMS=\"" + storage + "\"", config_.commandTimeout);
  if (!r.ok()) return false;
  currentStorage_ = storage;
  return true;
}

void ModemSession::readStorageStatus() {
  const AtResponse r = at("AT+CPMS?", config_.commandTimeout);
  if (!r.ok()) return;
  for (const std::string& line : r.lines) {
    if (const auto s = parseStorageStatus(line)) {
      if (isStorageName(s->storage)) {
        currentStorage_ = s->storage;
        storages_.insert(s->storage);
      }
      health_.update([&](ModemHealth& h) {
        h.storageUsed = s->used;
        h.storageTotal = s->total;
      });
    }
  }
}

// --- keepalive and unsolicited lines ------------------------------------------------------------

void ModemSession::keepaliveIfDue() {
  if (Steady::now() < keepaliveDue_) return;
  keepaliveDue_ = Steady::now() + config_.keepaliveInterval;
  probeSignal();
}

void ModemSession::probeSignal() {
  lastProbe_ = Steady::now();
  const AtResponse r = at("AT+CSQ", config_.commandTimeout);
  if (!r.ok()) return;
  for (const std::string& line : r.lines) {
    if (const auto rssi = parseSignalQuality(line))
      health_.update([&](ModemHealth& h) { h.signal = *rssi == 99 ? -1 : *rssi; });
  }
}

// Runs inside AtChannel calls: only queues.
void ModemSession::onUnsolicited(UnsolicitedLine line) {
  if (line.kind == UnsolicitedLine::Kind::kGarbage) {
    health_.update([](ModemHealth& h) { ++h.garbageLines; });
    // Probe soon (not more than once a second): a confused modem is found quickly.
    keepaliveDue_ =
        std::min(keepaliveDue_, std::max(Steady::now(), lastProbe_ + milliseconds(1000)));
    return;
  }
  if (line.urc.kind == Urc::Kind::kBoot) {
    needsReinit_ = true;
    return;
  }
  if (line.urc.kind == Urc::Kind::kOther) return;
  events_.push_back(std::move(line));
}

std::optional<UnsolicitedLine> ModemSession::takeEvent() {
  if (events_.empty()) return std::nullopt;
  UnsolicitedLine e = std::move(events_.front());
  events_.pop_front();
  return e;
}

}  // namespace atoms::drivers::modem
