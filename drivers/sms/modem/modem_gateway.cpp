#include "drivers/sms/modem/modem_gateway.h"

#include <poll.h>

#include <algorithm>
#include <cmath>
#include <exception>
#include <random>
#include <utility>

#include "drivers/sms/modem/modem_inbound.h"
#include "drivers/sms/modem/modem_session.h"
#include "drivers/sms/modem/send_journal.h"

namespace atoms::drivers::modem {

namespace {

using Steady = std::chrono::steady_clock;
using std::chrono::milliseconds;

// Without ModemConfig::random: a generator of the gateway's own, seeded from std::random_device.
UnitRandom ownRandom() {
  auto engine = std::make_shared<std::minstd_rand>(std::random_device{}());
  return [engine] { return std::uniform_real_distribution<double>(0.0, 1.0)(*engine); };
}

std::uint8_t firstConcatReference(const UnitRandom& random) {
  return static_cast<std::uint8_t>(std::clamp(std::floor(random() * 256.0), 0.0, 255.0));
}

}  // namespace

// --- the worker -------------------------------------------------------------------------------

// The loop of the worker thread: keeps the session open (reopening it with backoff), re-initialises
// a modem that restarted, and in each turn handles the session's unsolicited lines, one job, and
// the timers, then waits for the modem, a job or the next timer.
class ModemGateway::Worker {
 public:
  Worker(ModemGateway& gateway, SmsSink& sink, std::unique_ptr<SendJournal> journal)
      : gw_(gateway),
        config_(gateway.config_),
        session_(config_, gateway.health_, [&gateway] { return gateway.random_(); }),
        outbound_(config_, session_, gateway.health_, sink, std::move(journal), gateway.encoder_),
        inbound_(config_, session_, gateway.health_, sink, outbound_) {}

  void run() {
    try {
      loop();
    } catch (const std::exception& e) {
      gw_.health_.setError(std::string("modem worker stopped on an exception: ") + e.what());
    } catch (...) {
      gw_.health_.setError("modem worker stopped on an unknown exception");
    }
    session_.close();
    gw_.jobs_.failAll("the modem gateway stopped");
    gw_.health_.update([](ModemHealth& h) { h.state = ModemHealth::State::kStopped; });
  }

 private:
  void loop() {
    while (!gw_.jobs_.stopping()) {
      if (!session_.isOpen()) {
        if (Steady::now() < session_.reconnectAt()) {
          waitWhileDown(session_.reconnectAt());
          continue;
        }
        if (!connect()) {
          session_.scheduleReconnect();
          continue;
        }
      }
      if (session_.needsReinit() && !session_.needsReset()) {
        session_.clearReinit();
        if (!session_.initialize()) {
          session_.reset();
          continue;
        }
        afterInit();
      }
      inbound_.processEvents();
      if (!session_.needsReset()) processOneJob();
      if (!session_.needsReset()) runTimers();
      if (session_.needsReset()) {
        session_.reset();
        continue;
      }
      if (session_.hasEvents() || session_.needsReinit() || gw_.jobs_.hasQueued()) continue;
      if (session_.pump(untilNextTimer(), gw_.jobs_.wakeFd())) gw_.jobs_.consumeWake();
    }
  }

  bool connect() {
    if (!session_.open()) return false;
    afterInit();
    return true;
  }

  void afterInit() {
    inbound_.afterInit();
    session_.markReady();
  }

  // While the port is closed: answers reconcile jobs, leaves sends queued (send() gives up on its
  // own after queueTimeout), returns at `until` or when stopping.
  void waitWhileDown(Steady::time_point until) {
    while (!gw_.jobs_.stopping()) {
      processOneJob(/*reconcileOnly=*/true);
      const auto left = std::chrono::ceil<milliseconds>(until - Steady::now());
      if (left.count() <= 0) return;
      pollfd pfd{gw_.jobs_.wakeFd(), POLLIN, 0};
      if (::poll(&pfd, 1, static_cast<int>(left.count())) > 0) gw_.jobs_.consumeWake();
    }
  }

  void runTimers() {
    inbound_.runTimers();
    if (!session_.needsReset()) session_.keepaliveIfDue();
  }

  milliseconds untilNextTimer() const {
    const auto steadyNow = Steady::now();
    const auto now = config_.now();
    const auto next = std::min(inbound_.nextDue(steadyNow, now), session_.keepaliveDue());
    const auto left = std::chrono::ceil<milliseconds>(next - steadyNow);
    return std::clamp(left, milliseconds(0), config_.keepaliveInterval);
  }

  void processOneJob(bool reconcileOnly = false) {
    const std::shared_ptr<ModemJob> job = gw_.jobs_.take(reconcileOnly);
    if (!job) return;
    std::optional<SendResult> sendResult;
    ReconcileResult reconcileResult;
    if (job->kind == ModemJob::Kind::kReconcile) {
      reconcileResult = outbound_.reconcile(job->message.idempotencyKey, job->since);
    } else {
      sendResult = outbound_.send(*job);
    }
    gw_.jobs_.finish(*job, std::move(sendResult), reconcileResult);
  }

  ModemGateway& gw_;
  const ModemConfig& config_;
  ModemSession session_;
  ModemOutbound outbound_;
  ModemInbound inbound_;
};

// --- the gateway ------------------------------------------------------------------------------

ModemGateway::ModemGateway(ModemConfig config)
    : config_(std::move(config)),
      random_(config_.random ? config_.random : ownRandom()),
      encoder_(config_, firstConcatReference(random_)) {}

ModemGateway::~ModemGateway() { stop(); }

Status ModemGateway::start(SmsSink& sink) {
  if (Status s = validateModemConfig(config_); !s) return s;
  if (jobs_.wakeFd() < 0) return makeError("modem: cannot create an eventfd");
  std::unique_ptr<SendJournal> journal;
  if (!config_.journalPath.empty()) {
    auto j = SendJournal::open(config_.journalPath, config_.now(), config_.journalRetention);
    if (!j) return j.error();
    journal = std::move(*j);
    // Continue the references of the last run: a phone may still hold parts sent under them.
    if (const auto next = journal->nextReference()) encoder_.continueAt(*next);
  }
  if (!jobs_.open()) return makeError("modem: already started");
  health_.update([](ModemHealth& h) {
    h = ModemHealth{};
    h.state = ModemHealth::State::kConnecting;
  });
  worker_ = std::make_unique<Worker>(*this, sink, std::move(journal));
  thread_ = std::thread([this] { worker_->run(); });
  return Status::success();
}

void ModemGateway::stop() {
  if (!jobs_.beginStop()) return;
  if (thread_.joinable()) thread_.join();
  worker_.reset();
  jobs_.closed();
}

SendResult ModemGateway::send(const OutboundSms& message) {
  auto job = std::make_shared<ModemJob>();
  job->kind = ModemJob::Kind::kSend;
  job->message = message;
  if (auto refused = encoder_.encode(*job)) return *refused;
  if (!jobs_.push(job)) return SendError{true, "the modem gateway is not running"};
  if (!jobs_.waitTaken(job, config_.queueTimeout)) {
    // Never started: nothing went to the modem.
    const std::string lastError = health_.snapshot().lastError;
    return SendError{true, "the modem was not ready within " +
                               std::to_string(config_.queueTimeout.count()) +
                               " ms: " + (lastError.empty() ? "starting" : lastError)};
  }
  // Started: the worker's own timeouts bound the rest.
  jobs_.waitDone(*job);
  return *job->sendResult;
}

ReconcileResult ModemGateway::reconcile(const OutboundSms& message, SmsClock::time_point since) {
  auto job = std::make_shared<ModemJob>();
  job->kind = ModemJob::Kind::kReconcile;
  job->message = message;
  job->since = since;
  if (!jobs_.push(job)) return {ReconcileResult::Kind::kUnknown, {}};
  jobs_.waitDone(*job);
  return job->reconcileResult;
}

ModemHealth ModemGateway::health() const { return health_.snapshot(); }

bool ModemGateway::waitForHealth(const std::function<bool(const ModemHealth&)>& predicate,
                                 std::chrono::milliseconds timeout) const {
  return health_.waitFor(predicate, timeout);
}

}  // namespace atoms::drivers::modem
