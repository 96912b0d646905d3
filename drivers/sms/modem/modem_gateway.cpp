#include "drivers/sms/modem/modem_gateway.h"

#include <poll.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <exception>
#include <map>
#include <random>
#include <utility>
#include <variant>
#include <vector>

#include "base/bytes.h"
#include "drivers/sms/modem/at_channel.h"
#include "drivers/sms/modem/at_parser.h"
#include "drivers/sms/modem/concat_reassembler.h"
#include "drivers/sms/modem/pdu.h"
#include "drivers/sms/modem/send_journal.h"
#include "drivers/sms/modem/submit_builder.h"
#include "drivers/sms/modem/text_mode.h"

namespace atoms::drivers::modem {

namespace {

using Steady = std::chrono::steady_clock;
using std::chrono::milliseconds;

// +CMS ERROR codes (27.005 3.2.5, 24.011 E.2) after which sending the same message again cannot
// succeed: the number or the subscription is wrong, or the PDU itself.
bool retryableCmsError(int code) {
  switch (code) {
    case 1:    // unassigned (unallocated) number
    case 8:    // operator determined barring
    case 10:   // call barred
    case 21:   // short message transfer rejected
    case 28:   // unidentified subscriber
    case 29:   // facility rejected
    case 30:   // unknown subscriber
    case 50:   // requested facility not subscribed
    case 96:   // invalid mandatory information
    case 97:   // message type non-existent or not implemented
    case 111:  // protocol error, unspecified
    case 304:  // invalid PDU mode parameter
    case 305:  // invalid text mode parameter
      return false;
    default:
      return true;
  }
}

// Storage names come from the modem (URCs); only plain names are ever put into a command.
bool isStorageName(std::string_view s) {
  return s.size() >= 2 && s.size() <= 4 && std::all_of(s.begin(), s.end(), [](char c) {
           return std::isupper(static_cast<unsigned char>(c)) != 0;
         });
}

std::string digitsOnly(std::string_view number) {
  std::string out;
  for (char c : number) {
    if (std::isdigit(static_cast<unsigned char>(c)) != 0) out.push_back(c);
  }
  return out;
}

// The recipient of a status report may come back in another format (national vs international):
// the same number when the digits agree, or one ends with the other (at least 6 digits).
bool sameNumber(std::string_view a, std::string_view b) {
  const std::string da = digitsOnly(a), db = digitsOnly(b);
  if (da == db) return !da.empty();
  const std::string& longer = da.size() > db.size() ? da : db;
  const std::string& shorter = da.size() > db.size() ? db : da;
  return shorter.size() >= 6 &&
         longer.compare(longer.size() - shorter.size(), shorter.size(), shorter) == 0;
}

std::string lastParameter(std::string_view params) {
  const std::vector<std::string> p = splitAtParameters(params);
  return p.back();
}

std::string afterColon(std::string_view header) {
  const std::size_t colon = header.find(':');
  return colon == std::string_view::npos ? std::string() : std::string(header.substr(colon + 1));
}

std::int64_t epochMillis(SmsClock::time_point t) {
  return std::chrono::duration_cast<milliseconds>(t.time_since_epoch()).count();
}

}  // namespace

std::string_view modemStateName(ModemHealth::State state) {
  switch (state) {
    case ModemHealth::State::kStopped:
      return "stopped";
    case ModemHealth::State::kConnecting:
      return "connecting";
    case ModemHealth::State::kReady:
      return "ready";
    case ModemHealth::State::kBackoff:
      return "backoff";
  }
  return "stopped";
}

Status validateModemConfig(const ModemConfig& c) {
  if (c.serial.device.empty()) return makeError("modem: device is not set");
  if (!isSupportedBaud(c.serial.baud))
    return makeError("modem: baud " + std::to_string(c.serial.baud) +
                     " is not a standard rate (1200..921600)");
  if (!c.smsc.empty() && !isDialableNumber(c.smsc))
    return makeError("modem: smsc \"" + c.smsc + "\" is not a phone number");
  if (!c.storage.empty() && !isStorageName(c.storage))
    return makeError("modem: storage \"" + c.storage + "\" is not a storage name (SM, ME, MT)");
  if (c.simPin.size() > 8 || !std::all_of(c.simPin.begin(), c.simPin.end(), [](char ch) {
        return std::isdigit(static_cast<unsigned char>(ch)) != 0;
      }))
    return makeError("modem: the SIM PIN must be 4 to 8 digits");
  if (!c.simPin.empty() && c.simPin.size() < 4)
    return makeError("modem: the SIM PIN must be 4 to 8 digits");
  const auto positive = [](milliseconds m) { return m.count() > 0; };
  if (!positive(c.commandTimeout) || !positive(c.promptTimeout) || !positive(c.sendTimeout) ||
      !positive(c.queueTimeout) || !positive(c.keepaliveInterval) ||
      !positive(c.storageScanInterval) || !positive(c.refusedRetryInterval) ||
      !positive(c.reassemblyTimeout) || !positive(c.quietTime) || !positive(c.backoffInitial) ||
      c.backoffMax < c.backoffInitial)
    return makeError("modem: every timeout and interval must be positive (backoff max >= initial)");
  if (c.maxConsecutiveFailures < 1) return makeError("modem: maxConsecutiveFailures must be >= 1");
  if (c.validity && c.validity->count() <= 0)
    return makeError("modem: the validity period must be positive");
  if (!c.now) return makeError("modem: no clock");
  return Status::success();
}

// --- jobs -----------------------------------------------------------------------------------

struct ModemGateway::Job {
  enum class Kind { kSend, kReconcile };
  Kind kind = Kind::kSend;
  OutboundSms message;
  std::vector<EncodedPdu> pdus;  // PDU mode
  std::string text;              // text mode
  SmsClock::time_point since{};  // reconcile
  // Guarded by the gateway's mutex.
  bool started = false;
  bool done = false;
  std::optional<SendResult> sendResult;
  ReconcileResult reconcileResult;
};

// --- the worker -----------------------------------------------------------------------------

class ModemGateway::Worker {
 public:
  Worker(ModemGateway& gateway, SmsSink& sink, std::unique_ptr<SendJournal> journal)
      : gw_(gateway),
        config_(gateway.config_),
        sink_(sink),
        journal_(std::move(journal)),
        reassembler_(config_.reassemblyTimeout),
        backoff_(config_.backoffInitial),
        random_(std::random_device{}()) {
    if (journal_) {
      for (JournalSend& s : journal_->acceptedSends())
        outstanding_.push_back({std::move(s), false});
    }
  }

  void run() {
    try {
      loop();
    } catch (const std::exception& e) {
      setError(std::string("modem worker stopped on an exception: ") + e.what());
    } catch (...) {
      setError("modem worker stopped on an unknown exception");
    }
    closePort();
    finishAllJobs();
    updateHealth([](ModemHealth& h) { h.state = ModemHealth::State::kStopped; });
  }

 private:
  struct Outstanding {
    JournalSend send;
    bool reported = false;  // a final state went to the sink
  };
  struct PendingDelivery {
    AssembledMessage message;
    SmsClock::time_point retryAt;
  };
  enum class Disposition { kCommitted, kHeld, kRefused, kIgnored };

  // --- loop ---------------------------------------------------------------------------------

  void loop() {
    while (!stopping()) {
      if (!channel_) {
        if (Steady::now() < reconnectAt_) {
          waitWhileDown(reconnectAt_);
          continue;
        }
        if (!connect()) {
          scheduleReconnect();
          continue;
        }
      }
      if (needsReinit_ && !needsReset_) {
        needsReinit_ = false;
        if (!initialize()) {
          reset();
          continue;
        }
        afterInit();
      }
      processEvents();
      if (!needsReset_) processOneJob();
      if (!needsReset_) runTimers();
      if (needsReset_) {
        reset();
        continue;
      }
      if (!events_.empty() || needsReinit_ || hasQueuedJob()) continue;
      const Result<bool> woken = channel_->pump(untilNextTimer(), gw_.wakeFd_);
      if (!woken) {
        setError(woken.error().message);
        needsReset_ = true;
      } else if (*woken) {
        consumeWake();
      }
    }
  }

  bool stopping() const {
    std::lock_guard lock(gw_.mutex_);
    return gw_.stopping_;
  }

  bool hasQueuedJob() const {
    std::lock_guard lock(gw_.mutex_);
    return !gw_.jobs_.empty();
  }

  void consumeWake() {
    std::uint64_t count = 0;
    (void)!::read(gw_.wakeFd_, &count, sizeof count);
  }

  // While the port is closed: answers reconcile jobs, leaves sends queued (send() gives up on its
  // own after queueTimeout), returns at `until` or when stopping.
  void waitWhileDown(Steady::time_point until) {
    while (!stopping()) {
      processOneJob(/*reconcileOnly=*/true);
      const auto left = std::chrono::ceil<milliseconds>(until - Steady::now());
      if (left.count() <= 0) return;
      pollfd pfd{gw_.wakeFd_, POLLIN, 0};
      if (::poll(&pfd, 1, static_cast<int>(left.count())) > 0) consumeWake();
    }
  }

  void scheduleReconnect() {
    std::uniform_real_distribution<double> jitter(0.8, 1.2);
    const auto delay = milliseconds(static_cast<long long>(backoff_.count() * jitter(random_)));
    reconnectAt_ = Steady::now() + delay;
    backoff_ = std::min(backoff_ * 2, config_.backoffMax);
    updateHealth([](ModemHealth& h) { h.state = ModemHealth::State::kBackoff; });
  }

  // After a failure: close the port and come back after the backoff.
  void reset() {
    closePort();
    needsReset_ = false;
    needsReinit_ = false;
    updateHealth([](ModemHealth& h) { ++h.resets; });
    scheduleReconnect();
  }

  void closePort() {
    channel_.reset();
    port_.reset();
    events_.clear();  // URCs of the closed session: a new one reads storage again
  }

  bool connect() {
    updateHealth([](ModemHealth& h) { h.state = ModemHealth::State::kConnecting; });
    auto port = SerialPort::open(config_.serial);
    if (!port) {
      setError(port.error().message);
      return false;
    }
    port_ = std::move(*port);
    channel_ = std::make_unique<AtChannel>(
        *port_, [this](UnsolicitedLine line) { onUnsolicited(std::move(line)); });
    channel_->setPduMode(pduMode());
    updateHealth([](ModemHealth& h) { ++h.opens; });
    needsReset_ = false;
    needsReinit_ = false;
    if (!initialize()) {
      closePort();
      return false;
    }
    afterInit();
    backoff_ = config_.backoffInitial;
    return true;
  }

  bool pduMode() const { return config_.mode == ModemConfig::Mode::kPdu; }

  // --- AT commands with failure accounting --------------------------------------------------

  AtResponse at(const std::string& command, milliseconds timeout, std::string_view shown = {}) {
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

  void account(const std::string& shown, const AtResponse& r) {
    if (r.echoSeen) needsReinit_ = true;  // echo is back on: the modem restarted
    if (r.outcome == AtResponse::Outcome::kIoError) {
      setError(r.describe(shown));
      needsReset_ = true;
      return;
    }
    if (r.silent()) {
      // Lines without a final result after them were not an answer: garbage.
      if (!r.lines.empty()) updateHealth([&](ModemHealth& h) { h.garbageLines += r.lines.size(); });
      failure(r.describe(shown));
      if (channel_) {
        if (Status s = channel_->drain(config_.quietTime, config_.quietTime * 10); !s) {
          setError(s.message());
          needsReset_ = true;
        }
      }
      return;
    }
    keepaliveDue_ = Steady::now() + config_.keepaliveInterval;
    const auto now = config_.now();
    updateHealth([&](ModemHealth& h) {
      h.consecutiveFailures = 0;
      h.lastAnswerAt = now;
    });
  }

  // No answer, or an answer that makes no sense.
  void failure(const std::string& why) {
    bool reset = false;
    updateHealth([&](ModemHealth& h) {
      h.lastError = why;
      reset = ++h.consecutiveFailures >= config_.maxConsecutiveFailures;
    });
    if (reset && !initializing_) needsReset_ = true;  // a failing init closes the port itself
  }

  // --- init ---------------------------------------------------------------------------------

  bool initialize() {
    initializing_ = true;
    const bool ok = initializeSteps();
    initializing_ = false;
    return ok;
  }

  bool initializeSteps() {
    updateHealth([](ModemHealth& h) { h.consecutiveFailures = 0; });
    const auto fail = [&](const std::string& why) {
      setError("modem init: " + why);
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
    if (needsReset_) return fail(gw_.health().lastError);
    updateHealth([&](ModemHealth& h) { h.modem = model.substr(0, 120); });
    needsReinit_ = false;  // the echo of the first AT, or a boot URC, is what this init fixed
    return true;
  }

  template <class Fail>
  bool unlockSim(const Fail& fail) {
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

  std::vector<std::string> cnmiCandidates() const {
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

  void afterInit() {
    // Storage indexes may have changed under us (a restart, another program): forget what was
    // read from storage and read it again.
    reassembler_.dropStored();
    std::erase_if(pending_, [](const PendingDelivery& p) { return !p.message.locations.empty(); });
    retryAfter_.clear();
    bad_.clear();
    skip_.clear();
    scanDue_ = Steady::now();
    keepaliveDue_ = Steady::now() + config_.keepaliveInterval;
    updateHealth([](ModemHealth& h) {
      h.state = ModemHealth::State::kReady;
      ++h.inits;
      h.consecutiveFailures = 0;
      h.undecodable = 0;
    });
  }

  void readStorageStatus() {
    const AtResponse r = at("AT+CPMS?", config_.commandTimeout);
    if (!r.ok()) return;
    for (const std::string& line : r.lines) {
      if (const auto s = parseStorageStatus(line)) {
        if (isStorageName(s->storage)) {
          currentStorage_ = s->storage;
          storages_.insert(s->storage);
        }
        updateHealth([&](ModemHealth& h) {
          h.storageUsed = s->used;
          h.storageTotal = s->total;
        });
      }
    }
  }

  void probeSignal() {
    lastProbe_ = Steady::now();
    const AtResponse r = at("AT+CSQ", config_.commandTimeout);
    if (!r.ok()) return;
    for (const std::string& line : r.lines) {
      if (const auto rssi = parseSignalQuality(line))
        updateHealth([&](ModemHealth& h) { h.signal = *rssi == 99 ? -1 : *rssi; });
    }
  }

  // --- unsolicited --------------------------------------------------------------------------

  // Runs inside AtChannel calls: only queues.
  void onUnsolicited(UnsolicitedLine line) {
    if (line.kind == UnsolicitedLine::Kind::kGarbage) {
      updateHealth([](ModemHealth& h) { ++h.garbageLines; });
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

  void processEvents() {
    while (!events_.empty() && !needsReset_) {
      UnsolicitedLine e = std::move(events_.front());
      events_.pop_front();
      switch (e.urc.kind) {
        case Urc::Kind::kNewMessageStored:
        case Urc::Kind::kStatusReportStored:
          if (!isStorageName(e.urc.storage)) break;
          storages_.insert(e.urc.storage);
          readStored(StoredLocation{e.urc.storage, e.urc.index});
          break;
        case Urc::Kind::kNewMessage:
          onDirectMessage(e);
          break;
        case Urc::Kind::kStatusReport:
          onDirectReport(e);
          break;
        default:
          break;
      }
    }
  }

  // --- inbound: direct (+CMT / +CDS) --------------------------------------------------------

  void onDirectMessage(const UnsolicitedLine& e) {
    const std::string params = afterColon(e.urc.header);
    std::optional<ReceivedPart> part;
    if (pduMode()) {
      const auto length = parseAtInteger(lastParameter(params), 0, 255);
      auto pdu = decodeIncoming(e.body, length ? std::optional<int>(*length) : std::nullopt);
      if (pdu && std::holds_alternative<DeliverPdu>(*pdu)) {
        auto p = partOf(std::get<DeliverPdu>(*pdu));
        if (p)
          part = std::move(*p);
        else
          pdu = p.error();
      }
      if (!part) {
        undecodableDirect("+CMT", pdu ? "not an SMS-DELIVER" : pdu.error().message);
        return;
      }
    } else {
      auto header = parseTextDeliverHeader(params, 0);
      if (!header) {
        undecodableDirect("+CMT", header.error().message);
        return;
      }
      part = ReceivedPart{header->originator, std::nullopt, textModeReceived(e.body),
                          header->timestamp, std::nullopt};
    }
    const bool multiPart = part->concat && part->concat->total > 1;
    const Disposition d = handlePart(std::move(*part), /*keepOnRefusal=*/multiPart);
    // A part of a longer message is held in memory from here on (docs/sms-modem.md).
    acknowledge(multiPart || d != Disposition::kRefused);
  }

  void onDirectReport(const UnsolicitedLine& e) {
    const std::string params = afterColon(e.urc.header);
    Result<StatusReportPdu> report = makeError("not a status report");
    if (pduMode()) {
      const auto length = parseAtInteger(lastParameter(params), 0, 255);
      auto pdu = decodeIncoming(e.body, length ? std::optional<int>(*length) : std::nullopt);
      if (pdu && std::holds_alternative<StatusReportPdu>(*pdu)) {
        report = std::get<StatusReportPdu>(*pdu);
      } else if (!pdu) {
        report = pdu.error();
      }
    } else {
      report = parseTextStatusReport(params);
    }
    if (!report) {
      undecodableDirect("+CDS", report.error().message);
      return;
    }
    acknowledge(handleReport(*report) != Disposition::kRefused);
  }

  void undecodableDirect(const char* what, const std::string& why) {
    // Nothing can be committed from it; a negative acknowledgement would only bring it back.
    setError(std::string("unreadable ") + what + " dropped: " + why);
    updateHealth([](ModemHealth& h) { ++h.undecodable; });
    acknowledge(true);
  }

  // +CNMA is expected only with the phase 2+ service (AT+CSMS=1).
  void acknowledge(bool positive) {
    if (service_ != 1) return;
    if (positive) {
      (void)at("AT+CNMA", config_.commandTimeout);
    } else if (pduMode()) {
      (void)at("AT+CNMA=2", config_.commandTimeout);  // RP-ERROR: the network retries later
    }
    // Text mode has no negative acknowledgement: the modem times out, and may turn routing off.
    else {
      needsReinit_ = true;
    }
  }

  // --- inbound: stored (+CMTI / +CDSI, scans) -------------------------------------------------

  bool held(const StoredLocation& loc) const {
    if (reassembler_.holds(loc) || bad_.contains(loc) || skip_.contains(loc)) return true;
    const auto r = retryAfter_.find(loc);
    if (r != retryAfter_.end() && config_.now() < r->second) return true;
    for (const PendingDelivery& p : pending_) {
      if (std::find(p.message.locations.begin(), p.message.locations.end(), loc) !=
          p.message.locations.end())
        return true;
    }
    return false;
  }

  bool selectStorage(const std::string& storage) {
    if (storage == currentStorage_) return true;
    const AtResponse r = at("AT+CPMS=\"" + storage + "\"", config_.commandTimeout);
    if (!r.ok()) return false;
    currentStorage_ = storage;
    return true;
  }

  void readStored(const StoredLocation& loc) {
    if (held(loc) || !selectStorage(loc.storage)) return;
    const AtResponse r = at("AT+CMGR=" + std::to_string(loc.index), config_.commandTimeout);
    if (!r.ok()) return;  // gone already (+CMS ERROR: 321), or accounted as a failure
    auto message = parseReadMessage(r.lines);
    if (!message) return;
    processStored(loc, *message);
  }

  void scanStorage() {
    scanDue_ = Steady::now() + config_.storageScanInterval;
    const auto now = config_.now();
    std::erase_if(retryAfter_, [&](const auto& r) { return r.second <= now; });  // read again
    std::set<std::string> storages = storages_;
    if (!currentStorage_.empty()) storages.insert(currentStorage_);
    if (storages.empty()) storages.insert("");  // the modem's default, whatever it is called
    for (const std::string& storage : storages) {
      if (!storage.empty() && !selectStorage(storage)) continue;
      const std::string list = pduMode() ? "AT+CMGL=4" : "AT+CMGL=\"ALL\"";
      const AtResponse r = at(list, config_.commandTimeout * 4);
      if (!r.ok()) continue;
      std::vector<std::string> errors;
      for (const StoredMessage& m : parseMessageList(r.lines, errors)) {
        const StoredLocation loc{storage.empty() ? currentStorage_ : storage, m.index};
        if (!held(loc)) processStored(loc, m);
        if (needsReset_) return;
      }
      if (!errors.empty()) updateHealth([&](ModemHealth& h) { h.garbageLines += errors.size(); });
    }
    readStorageStatus();
  }

  void markBad(const StoredLocation& loc, const std::string& why) {
    bad_.insert(loc);
    setError("stored message " + loc.storage + "/" + std::to_string(loc.index) +
             " cannot be read (left in storage): " + why);
    updateHealth([&](ModemHealth& h) { h.undecodable = static_cast<int>(bad_.size()); });
  }

  void processStored(const StoredLocation& loc, const StoredMessage& m) {
    Disposition d = Disposition::kIgnored;
    bool isReport = false;
    if (pduMode()) {
      if (m.status == 2 || m.status == 3) {  // an outgoing message someone saved on the SIM
        skip_.insert(loc);
        return;
      }
      const auto length = parseAtInteger(lastParameter(m.header), 0, 255);
      auto pdu = decodeIncoming(m.body, length ? std::optional<int>(*length) : std::nullopt);
      if (!pdu) return markBad(loc, pdu.error().message);
      if (auto* deliver = std::get_if<DeliverPdu>(&*pdu)) {
        auto part = partOf(*deliver);
        if (!part) return markBad(loc, part.error().message);
        part->location = loc;
        d = handlePart(std::move(*part), false);
      } else {
        isReport = true;
        d = handleReport(std::get<StatusReportPdu>(*pdu));
      }
    } else {
      const std::vector<std::string> p = splitAtParameters(m.header);
      const std::size_t statusAt = m.index >= 0 ? 1 : 0;
      if (p.size() > statusAt && p[statusAt].rfind("STO", 0) == 0) {
        skip_.insert(loc);
        return;
      }
      auto header = parseTextDeliverHeader(m.header, m.index >= 0 ? 2 : 1);
      if (!header) return markBad(loc, header.error().message);
      d = handlePart(ReceivedPart{header->originator, std::nullopt, textModeReceived(m.body),
                                  header->timestamp, loc},
                     false);
    }
    if (d == Disposition::kRefused) {
      retryAfter_[loc] = config_.now() + config_.refusedRetryInterval;
    } else if (isReport) {
      deleteStored(loc);  // committed, or nothing to commit (unknown or intermediate report)
    }
  }

  void deleteStored(const StoredLocation& loc) {
    if (!selectStorage(loc.storage)) return;
    const AtResponse r = at("AT+CMGD=" + std::to_string(loc.index), config_.commandTimeout);
    if (!r.ok() && !r.silent()) setError(r.describe("AT+CMGD"));  // read again, deduplicated
    retryAfter_.erase(loc);
  }

  // --- inbound: messages and reports ------------------------------------------------------------

  Result<ReceivedPart> partOf(const DeliverPdu& pdu) {
    auto text = userDataText(pdu.userData);
    if (!text) return text.error();
    return ReceivedPart{pdu.originator.text, pdu.userData.concat, std::move(*text), pdu.timestamp,
                        std::nullopt};
  }

  Disposition handlePart(ReceivedPart part, bool keepOnRefusal) {
    auto message = reassembler_.add(std::move(part), config_.now());
    if (!message) return Disposition::kHeld;
    return deliver(std::move(*message), keepOnRefusal);
  }

  Disposition deliver(AssembledMessage message, bool keepOnRefusal) {
    InboundSms in;
    in.providerId = "gsm:" + toHex(sha256(asBytes(message.identity))).substr(0, 32);
    in.from = message.originator;
    in.to = config_.ownNumber;
    in.body = message.text;
    in.receivedAt = message.firstTimestamp.utc().value_or(config_.now());
    Status s;
    try {
      s = sink_.acceptInbound(in);
    } catch (...) {
      s = makeError("the sink threw");
    }
    if (s) {
      updateHealth([](ModemHealth& h) { ++h.received; });
      for (const StoredLocation& loc : message.locations) deleteStored(loc);
      return Disposition::kCommitted;
    }
    updateHealth([&](ModemHealth& h) {
      ++h.refusedBySink;
      h.lastError = "the inbox refused a message (kept, offered again later): " + s.message();
    });
    if (message.locations.empty() && keepOnRefusal) {
      pending_.push_back({std::move(message), config_.now() + config_.refusedRetryInterval});
    } else {
      for (const StoredLocation& loc : message.locations)
        retryAfter_[loc] = config_.now() + config_.refusedRetryInterval;
    }
    return Disposition::kRefused;
  }

  Disposition handleReport(const StatusReportPdu& report) {
    Outstanding* match = nullptr;
    std::size_t part = 0;
    for (auto it = outstanding_.rbegin(); it != outstanding_.rend() && match == nullptr; ++it) {
      if (!sameNumber(it->send.to, report.recipient.text)) continue;
      for (std::size_t i = 0; i < it->send.references.size(); ++i) {
        if (it->send.references[i] == report.messageReference) {
          match = &*it;
          part = i;
          break;
        }
      }
    }
    if (match == nullptr) return Disposition::kIgnored;  // not one of ours, or too old
    const DeliveryState state = deliveryStateOfStatus(report.status);
    if (state == DeliveryState::kSent) return Disposition::kIgnored;  // the SMSC is still trying
    JournalSend& send = match->send;
    if (!send.partStates[part] || *send.partStates[part] != state) {
      send.partStates[part] = state;
      if (journal_) {
        if (Status s = journal_->recordPartState(send.providerId, part, state, config_.now()); !s)
          setError(s.message());
      }
    }
    if (match->reported) return Disposition::kIgnored;
    std::optional<DeliveryState> overall;
    if (std::all_of(send.partStates.begin(), send.partStates.end(),
                    [](const auto& s) { return s && *s == DeliveryState::kDelivered; })) {
      overall = DeliveryState::kDelivered;
    } else if (state != DeliveryState::kDelivered) {
      overall = state;
    }
    if (!overall) return Disposition::kIgnored;  // other parts still to come
    DeliveryReport out;
    out.providerId = send.providerId;
    out.state = *overall;
    if (*overall != DeliveryState::kDelivered) out.errorCode = std::to_string(report.status);
    out.at = report.discharge.utc().value_or(config_.now());
    Status s;
    try {
      s = sink_.acceptReport(out);
    } catch (...) {
      s = makeError("the sink threw");
    }
    if (!s) {
      updateHealth([&](ModemHealth& h) {
        ++h.refusedBySink;
        h.lastError = "the outbox refused a delivery report (offered again later): " + s.message();
      });
      return Disposition::kRefused;
    }
    match->reported = true;
    updateHealth([](ModemHealth& h) { ++h.reports; });
    return Disposition::kCommitted;
  }

  // --- timers ---------------------------------------------------------------------------------

  void runTimers() {
    const auto now = config_.now();
    for (AssembledMessage& m : reassembler_.expire(now)) {
      deliver(std::move(m), true);
      if (needsReset_) return;
    }
    std::vector<PendingDelivery> due;
    for (auto it = pending_.begin(); it != pending_.end();) {
      if (it->retryAt <= now) {
        due.push_back(std::move(*it));
        it = pending_.erase(it);
      } else {
        ++it;
      }
    }
    for (PendingDelivery& p : due) deliver(std::move(p.message), true);
    if (Steady::now() >= scanDue_ || retryDue(now)) scanStorage();
    if (!needsReset_ && Steady::now() >= keepaliveDue_) {
      keepaliveDue_ = Steady::now() + config_.keepaliveInterval;
      probeSignal();
    }
  }

  bool retryDue(SmsClock::time_point now) const {
    return std::any_of(retryAfter_.begin(), retryAfter_.end(),
                       [&](const auto& r) { return r.second <= now; });
  }

  milliseconds untilNextTimer() const {
    const auto steadyNow = Steady::now();
    auto next = std::min(scanDue_, keepaliveDue_);
    const auto now = config_.now();
    const auto inSteady = [&](SmsClock::time_point t) {
      return steadyNow + std::chrono::duration_cast<Steady::duration>(t - now);
    };
    if (const auto d = reassembler_.nextDeadline()) next = std::min(next, inSteady(*d));
    for (const PendingDelivery& p : pending_) next = std::min(next, inSteady(p.retryAt));
    for (const auto& [loc, at] : retryAfter_) next = std::min(next, inSteady(at));
    const auto left = std::chrono::ceil<milliseconds>(next - steadyNow);
    return std::clamp(left, milliseconds(0), config_.keepaliveInterval);
  }

  // --- jobs -----------------------------------------------------------------------------------

  void processOneJob(bool reconcileOnly = false) {
    std::shared_ptr<Job> job;
    {
      std::lock_guard lock(gw_.mutex_);
      for (auto it = gw_.jobs_.begin(); it != gw_.jobs_.end(); ++it) {
        if (reconcileOnly && (*it)->kind != Job::Kind::kReconcile) continue;
        job = *it;
        gw_.jobs_.erase(it);
        job->started = true;
        break;
      }
    }
    if (!job) return;
    std::optional<SendResult> sendResult;
    ReconcileResult reconcileResult;
    if (job->kind == Job::Kind::kReconcile) {
      if (journal_) reconcileResult = journal_->reconcile(job->message.idempotencyKey, job->since);
    } else {
      sendResult = send(*job);
    }
    {
      std::lock_guard lock(gw_.mutex_);
      job->sendResult = std::move(sendResult);
      job->reconcileResult = reconcileResult;
      job->done = true;
    }
    gw_.changed_.notify_all();
  }

  void finishAllJobs() {
    {
      std::lock_guard lock(gw_.mutex_);
      for (auto& job : gw_.jobs_) {
        job->sendResult = SendError{true, "the modem gateway stopped"};
        job->done = true;
      }
      gw_.jobs_.clear();
    }
    gw_.changed_.notify_all();
  }

  SendResult send(Job& job) {
    const std::string& key = job.message.idempotencyKey;
    if (journal_) {
      if (Status s = journal_->recordAttempt(key, config_.now()); !s)
        return SendError{true, "cannot record the send before it happens: " + s.message()};
    }
    const std::size_t parts = pduMode() ? job.pdus.size() : 1;
    std::vector<int> references;
    for (std::size_t i = 0; i < parts; ++i) {
      std::string command, payload;
      if (pduMode()) {
        command = "AT+CMGS=" + std::to_string(job.pdus[i].tpduLength);
        payload = job.pdus[i].hex;
      } else {
        command = "AT+CMGS=\"" + job.message.to + "\"";
        payload = job.text;
      }
      AtResponse r;
      if (needsReset_ || !channel_) {
        r.outcome = AtResponse::Outcome::kIoError;
        r.ioError = "the modem is being reset";
      } else {
        r = channel_->commandWithPrompt(command, payload, config_.promptTimeout,
                                        config_.sendTimeout);
        account("AT+CMGS", r);
      }
      if (r.ok()) {
        std::optional<int> mr;
        for (const std::string& line : r.lines) {
          if (!mr) mr = parseMessageReference(line);
        }
        if (!mr) failure("AT+CMGS answered OK without a message reference");
        references.push_back(mr.value_or(-1));
        continue;
      }
      // Sure that nothing of this part went out: an error answer, or no prompt.
      const bool refused =
          r.outcome == AtResponse::Outcome::kError || r.outcome == AtResponse::Outcome::kNoPrompt;
      const std::string what = r.describe("AT+CMGS");
      if (references.empty() && refused) {
        if (journal_) (void)journal_->recordRefused(key, config_.now());
        const bool retryable = r.outcome != AtResponse::Outcome::kError ||
                               r.final.kind != FinalResult::Kind::kCmsError ||
                               retryableCmsError(r.final.code);
        return SendError{retryable, "the modem did not send the message: " + what};
      }
      if (journal_) (void)journal_->recordUncertain(key, config_.now());
      if (references.empty()) {
        return SendError{true, "no answer after the message was handed to the modem (" + what +
                                   "); it may have been sent"};
      }
      return SendError{true, "part " + std::to_string(i + 1) + " of " + std::to_string(parts) +
                                 " failed after the earlier parts were sent (" + what +
                                 "); a retry sends every part again"};
    }
    JournalSend sent;
    sent.to = job.message.to;
    sent.references = references;
    sent.partStates.resize(references.size());
    sent.at = config_.now();
    sent.providerId = "mr:";
    for (std::size_t i = 0; i < references.size(); ++i)
      sent.providerId += (i ? "," : "") + std::to_string(references[i]);
    sent.providerId += "@" + std::to_string(epochMillis(sent.at));
    if (journal_) {
      if (Status s = journal_->recordAccepted(key, sent); !s) setError(s.message());
    }
    if (config_.requestStatusReports) {
      outstanding_.push_back({sent, false});
      pruneOutstanding();
    }
    updateHealth([](ModemHealth& h) { ++h.sent; });
    return SendAccepted{sent.providerId, static_cast<int>(parts)};
  }

  void pruneOutstanding() {
    const auto cutoff = config_.now() - config_.journalRetention;
    std::erase_if(outstanding_, [&](const Outstanding& o) { return o.send.at < cutoff; });
    constexpr std::size_t kMaxOutstanding = 4096;
    if (outstanding_.size() > kMaxOutstanding)
      outstanding_.erase(
          outstanding_.begin(),
          outstanding_.begin() + static_cast<long>(outstanding_.size() - kMaxOutstanding));
  }

  // --- health -----------------------------------------------------------------------------------

  template <class F>
  void updateHealth(F&& f) {
    {
      std::lock_guard lock(gw_.mutex_);
      f(gw_.health_);
    }
    gw_.changed_.notify_all();
  }

  void setError(const std::string& message) {
    updateHealth([&](ModemHealth& h) { h.lastError = message; });
  }

  ModemGateway& gw_;
  const ModemConfig& config_;
  SmsSink& sink_;
  std::unique_ptr<SendJournal> journal_;

  std::unique_ptr<SerialPort> port_;
  std::unique_ptr<AtChannel> channel_;
  std::deque<UnsolicitedLine> events_;
  bool needsReset_ = false;
  bool needsReinit_ = false;
  bool initializing_ = false;
  bool pinRefused_ = false;
  int service_ = 0;  // AT+CSMS service: 1 = acknowledge +CMT/+CDS with +CNMA
  std::string currentStorage_;
  std::set<std::string> storages_;

  ConcatReassembler reassembler_;
  std::vector<PendingDelivery> pending_;  // refused, held in memory (nothing stored to re-read)
  std::map<StoredLocation, SmsClock::time_point> retryAfter_;  // refused, left in storage
  std::set<StoredLocation> bad_;   // cannot be read: left in storage, not read again
  std::set<StoredLocation> skip_;  // not a received message
  std::vector<Outstanding> outstanding_;

  milliseconds backoff_;
  Steady::time_point reconnectAt_{};
  Steady::time_point scanDue_{};
  Steady::time_point keepaliveDue_{};
  Steady::time_point lastProbe_{};
  std::minstd_rand random_;
};

// --- the gateway ------------------------------------------------------------------------------

ModemGateway::ModemGateway(ModemConfig config)
    : config_(std::move(config)),
      nextConcatReference_(static_cast<std::uint8_t>(std::random_device{}())) {
  wakeFd_ = ::eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
}

ModemGateway::~ModemGateway() {
  stop();
  if (wakeFd_ >= 0) ::close(wakeFd_);
}

Status ModemGateway::start(SmsSink& sink) {
  if (Status s = validateModemConfig(config_); !s) return s;
  if (wakeFd_ < 0) return makeError("modem: cannot create an eventfd");
  std::unique_ptr<SendJournal> journal;
  if (!config_.journalPath.empty()) {
    auto j = SendJournal::open(config_.journalPath, config_.now(), config_.journalRetention);
    if (!j) return j.error();
    journal = std::move(*j);
  }
  {
    std::lock_guard lock(mutex_);
    if (running_) return makeError("modem: already started");
    running_ = true;
    stopping_ = false;
    health_ = ModemHealth{};
    health_.state = ModemHealth::State::kConnecting;
  }
  worker_ = std::make_unique<Worker>(*this, sink, std::move(journal));
  thread_ = std::thread([this] { worker_->run(); });
  return Status::success();
}

void ModemGateway::stop() {
  {
    std::lock_guard lock(mutex_);
    if (!running_) return;
    stopping_ = true;
  }
  wake();
  if (thread_.joinable()) thread_.join();
  worker_.reset();
  {
    std::lock_guard lock(mutex_);
    running_ = false;
  }
  changed_.notify_all();
}

void ModemGateway::wake() {
  const std::uint64_t one = 1;
  (void)!::write(wakeFd_, &one, sizeof one);
}

std::shared_ptr<ModemGateway::Job> ModemGateway::enqueue(std::shared_ptr<Job> job) {
  {
    std::lock_guard lock(mutex_);
    if (!running_ || stopping_) return nullptr;
    jobs_.push_back(job);
  }
  wake();
  return job;
}

SendResult ModemGateway::send(const OutboundSms& message) {
  auto job = std::make_shared<Job>();
  job->kind = Job::Kind::kSend;
  job->message = message;
  if (config_.mode == ModemConfig::Mode::kPdu) {
    SubmitSettings settings{config_.smsc, config_.requestStatusReports, config_.validity};
    auto submits = buildSubmits(message.to, message.body, settings, nextConcatReference_++);
    if (!submits) return SendError{false, submits.error().message};
    for (const SubmitPdu& s : *submits) {
      auto pdu = encodeSubmit(s);
      if (!pdu) return SendError{false, pdu.error().message};
      job->pdus.push_back(std::move(*pdu));
    }
  } else {
    if (!isDialableNumber(message.to))
      return SendError{false, "destination \"" + message.to + "\" is not a phone number"};
    auto text = textModeBody(message.body);
    if (!text) return SendError{false, text.error().message};
    job->text = std::move(*text);
  }
  if (!enqueue(job)) return SendError{true, "the modem gateway is not running"};

  std::unique_lock lock(mutex_);
  const bool finished =
      changed_.wait_for(lock, config_.queueTimeout, [&] { return job->done || job->started; });
  if (!finished) {
    std::erase(jobs_, job);  // never started: nothing went to the modem
    return SendError{
        true, "the modem was not ready within " + std::to_string(config_.queueTimeout.count()) +
                  " ms: " + (health_.lastError.empty() ? "starting" : health_.lastError)};
  }
  // Started: the worker's own timeouts bound the rest.
  changed_.wait(lock, [&] { return job->done; });
  return *job->sendResult;
}

ReconcileResult ModemGateway::reconcile(const OutboundSms& message, SmsClock::time_point since) {
  auto job = std::make_shared<Job>();
  job->kind = Job::Kind::kReconcile;
  job->message = message;
  job->since = since;
  if (!enqueue(job)) return {ReconcileResult::Kind::kUnknown, {}};
  std::unique_lock lock(mutex_);
  changed_.wait(lock, [&] { return job->done; });
  return job->reconcileResult;
}

ModemHealth ModemGateway::health() const {
  std::lock_guard lock(mutex_);
  return health_;
}

bool ModemGateway::waitForHealth(const std::function<bool(const ModemHealth&)>& predicate,
                                 std::chrono::milliseconds timeout) const {
  std::unique_lock lock(mutex_);
  return changed_.wait_for(lock, timeout, [&] { return predicate(health_); });
}

}  // namespace atoms::drivers::modem
