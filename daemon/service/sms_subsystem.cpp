#include "daemon/service/sms_subsystem.h"

#include <cstdint>
#include <cstdlib>

#include "daemon/engine/engine.h"
#include "daemon/log/log.h"
#include "daemon/service/engine_subsystem.h"
#include "daemon/service/policy_subsystem.h"
#include "daemon/service/refusal_audit.h"
#include "daemon/service/sms_breaker_signals.h"
#include "daemon/service/sms_config.h"
#include "daemon/service/store_subsystem.h"
#include "drivers/sms/failover_gateway.h"
#include "drivers/sms/modem/modem_gateway.h"
#include "drivers/sms/simulated/simulated_gateway.h"
#include "drivers/sms/twilio/twilio_gateway.h"
#include "sms/conversation/classification.h"
#include "sms/mailbox/dispatcher.h"
#include "sms/mailbox/inbox.h"
#include "sms/mailbox/message_checks.h"
#include "sms/mailbox/outbox.h"
#include "store/audit_entry.h"
#include "store/state_dir.h"
#include "store/store_runner.h"

namespace atoms {
namespace {

using sms::mailbox::OutboxRow;
using sms::mailbox::OutboxState;

// Until the conversation layer is set: inbound rows are stored and stay `new`, to be handled
// (in arrival order) once it is.
class LeaveRowsNew final : public InboundProcessor {
 public:
  void processPending() override {}
};

std::optional<std::string> credentialsDirectory() {
  const char* dir = std::getenv(kCredentialsDirectoryEnv);
  if (dir == nullptr || *dir == '\0') return std::nullopt;
  return std::string(dir);
}

// The gateway itself, or the member of a FailoverGateway, that is a T; nullptr when none is.
template <class T>
T* carrier(drivers::SmsGateway* gateway) {
  if (auto* found = dynamic_cast<T*>(gateway)) return found;
  if (auto* failover = dynamic_cast<drivers::FailoverGateway*>(gateway)) {
    if (auto* found = dynamic_cast<T*>(&failover->primary())) return found;
    return dynamic_cast<T*>(&failover->fallback());
  }
  return nullptr;
}

// What the modem driver tells the log (ModemConfig::onNotice; the driver's worker thread). Numbers
// are masked like every other number in the log.
std::function<void(const drivers::modem::ModemNotice&)> modemNoticeLog(Poco::Logger& logger) {
  return [&logger](const drivers::modem::ModemNotice& n) {
    using Kind = drivers::modem::ModemNotice::Kind;
    const std::string number = sms::mailbox::maskNumber(n.number);
    if (n.kind == Kind::kRepeatedPart) {
      logInfo(logger, "a part of a text already handled came again from the network; dropped",
              {{"from", number}, {"part", n.detail}});
      return;
    }
    if (n.cmsError < 0) {
      logWarning(logger, "the modem refused to send a text to " + number,
                 {{"to", number}, {"answer", n.detail}});
      return;
    }
    logWarning(logger,
               "the modem refused to send a text (+CMS ERROR " + std::to_string(n.cmsError) +
                   ") to " + number,
               {{"to", number},
                {"cms_error", n.cmsError},
                {"about", drivers::sendErrorCauseName(drivers::modem::cmsErrorCause(n.cmsError))},
                {"answer", n.detail}});
  };
}

}  // namespace

// Logs the modem's health as it changes: "ready" each time it (re)initialises, and one warning per
// outage (not per reopen attempt) with the driver's own error, which names the device.
class SmsSubsystem::ModemWatch {
 public:
  ModemWatch(drivers::modem::ModemGateway& modem, Poco::Logger& logger)
      : modem_(modem), logger_(logger) {
    thread_ = std::thread([this] { run(); });
  }
  // Call after the gateway stopped (its state change wakes the thread).
  ~ModemWatch() {
    stopping_ = true;
    if (thread_.joinable()) thread_.join();
  }

 private:
  using Health = drivers::modem::ModemHealth;

  // A reset since the modem was last ready: its reason, which names the command that hung (not
  // the poll that found the modem still silent); else the last error.
  static const std::string& outageError(const Health& h, int resetsWhenReady) {
    if (h.resets > resetsWhenReady && !h.lastResetReason.empty()) return h.lastResetReason;
    return h.lastError;
  }

  void run() {
    Health::State last = Health::State::kConnecting;
    bool wasReady = false;
    bool outage = false;
    int resetsWhenReady = 0;
    while (!stopping_) {
      Health now;
      const bool changed = modem_.waitForHealth(
          [&](const Health& h) {
            now = h;
            return h.state != last || h.state == Health::State::kStopped || stopping_;
          },
          std::chrono::seconds(1));
      if (!changed || now.state == last) continue;
      last = now.state;
      switch (now.state) {
        case Health::State::kStopped:
          return;
        case Health::State::kReady:
          outage = false;
          wasReady = true;
          resetsWhenReady = now.resets;
          logInfo(logger_, "modem ready",
                  {{"modem", now.modem}, {"signal", now.signal}, {"inits", now.inits}});
          break;
        case Health::State::kConnecting:
          if (wasReady && !outage) {
            outage = true;
            logWarning(logger_, "modem stopped answering; the driver re-initialises it",
                       {{"error", outageError(now, resetsWhenReady)}});
          }
          break;
        case Health::State::kBackoff:
          if (!outage) {
            outage = true;
            logWarning(logger_,
                       "modem not available; the driver keeps trying to open it, messages wait "
                       "in the outbox",
                       {{"error", outageError(now, resetsWhenReady)}});
          }
          break;
      }
    }
  }

  drivers::modem::ModemGateway& modem_;
  Poco::Logger& logger_;
  std::atomic<bool> stopping_{false};
  std::thread thread_;
};

SmsSubsystem::SmsSubsystem(Poco::Logger& logger, StoreSubsystem& store, EngineSubsystem& engine)
    : logger_(logger), store_(store), engine_(engine), random_(std::random_device{}()) {}

SmsSubsystem::~SmsSubsystem() { tearDown(); }

void SmsSubsystem::setInboundProcessorFactory(InboundProcessorFactory factory) {
  processorFactory_ = std::move(factory);
}

Status SmsSubsystem::start(Poco::Util::Application& app) {
  auto loaded = loadSmsSettings(app.config(), store_.stateDir(), credentialsDirectory());
  if (!loaded) return loaded.error();
  SmsSettings settings = std::move(*loaded);
  if (settings.driver == SmsDriver::kOff) {
    logInfo(logger_, "SMS is off (sms.driver = off)");
    return Status::success();
  }

  Engine& engine = engine_.engine();
  Clock& clock = engine_.clock();
  auto now = [&clock] { return clock.now(); };
  runner_ = std::make_unique<atoms::PostingStoreRunner>(store_.store(), engine);
  outbox_ = std::make_unique<sms::mailbox::Outbox>(
      *runner_, now, [this] { return std::uniform_real_distribution<double>(0.0, 1.0)(random_); },
      settings.retry);
  outbox_->setOnOutcome([this](const OutboxRow& row) {
    if (auto report = outboxOutcomeReport(row); report && policy_) policy_->reportBreaker(*report);
    if (row.state != OutboxState::kFailed && row.state != OutboxState::kUndelivered) return;
    logWarning(logger_, "SMS not delivered",
               {{"id", row.id},
                {"to", sms::mailbox::maskNumber(row.to)},
                {"state", sms::mailbox::outboxStateName(row.state)},
                {"attempts", row.attempts},
                {"error", row.lastError}});
  });

  // Shared by the failover's onFailover and the dispatcher's onSendResult (dispatcher thread).
  auto sendSignals = std::make_shared<SendAnswerSignals>();
  switch (settings.driver) {
    case SmsDriver::kSimulated:
      gateway_ = std::make_unique<drivers::SimulatedSmsGateway>();
      break;
    case SmsDriver::kTwilio: {
      drivers::twilio::TwilioGatewayOptions options;
      options.readiness = readiness_;
      options.now = now;
      options.onRefused = [this, &engine, &clock](const drivers::twilio::RefusedWebhook& event) {
        // Webhook thread: hand the audit to the engine, which owns the store; never wait here.
        (void)engine.post([this, event, &clock] {
          if (!active_) return;
          json::Object body{{"status", static_cast<std::int64_t>(event.httpStatus)},
                            {"reason", event.reason},
                            {"path", event.path},
                            {"peer", event.peer},
                            {"authenticated", event.authenticated}};
          if (!event.providerId.empty()) body["provider_id"] = event.providerId;
          if (!event.from.empty()) body["from"] = sms::mailbox::maskNumber(event.from);
          refusalAudit_->record(store_.store(), logger_, "sms:twilio", std::move(body), clock.now(),
                                {{"status", event.httpStatus},
                                 {"reason", event.reason},
                                 {"path", event.path},
                                 {"peer", event.peer}});
        });
      };
      gateway_ = std::make_unique<drivers::twilio::TwilioGateway>(std::move(*settings.twilio),
                                                                  std::move(options));
      if (settings.modemFailover) {
        // Safety alerts Twilio surely did not take leave by the modem at once (sms.failover).
        settings.modem->now = now;
        settings.modem->onNotice = modemNoticeLog(logger_);
        gateway_ = std::make_unique<drivers::FailoverGateway>(
            std::move(gateway_),
            std::make_unique<drivers::modem::ModemGateway>(std::move(*settings.modem)),
            [this, sendSignals](const drivers::FailoverEvent& e) {
              // Dispatcher thread, inside send(): onSendResult below follows for the same send.
              for (const BreakerReport& report : sendSignals->handOver(gateway_->name(), e)) {
                if (policy_) policy_->reportBreaker(report);
              }
              if (e.fallbackOk) {
                logWarning(logger_, "safety alert sent by the modem: Twilio did not take it",
                           {{"id", e.idempotencyKey}, {"twilio_error", e.primaryError}});
              } else {
                logWarning(logger_, "safety alert not taken by Twilio nor the modem; retried",
                           {{"id", e.idempotencyKey},
                            {"twilio_error", e.primaryError},
                            {"modem_error", e.fallbackError}});
              }
            });
      }
      break;
    }
    case SmsDriver::kModem:
      settings.modem->now = now;
      settings.modem->onNotice = modemNoticeLog(logger_);
      gateway_ = std::make_unique<drivers::modem::ModemGateway>(std::move(*settings.modem));
      break;
    case SmsDriver::kOff:
      break;
  }
  refusalAudit_ = std::make_unique<RefusalAudit>("sms.webhook.refused", "webhook refused",
                                                 kRefusalAuditsPerMinute);
  inbox_ =
      std::make_unique<sms::mailbox::Inbox>(*runner_, *outbox_, std::string(gateway_->name()), now);
  if (processorFactory_) {
    processor_ = processorFactory_(
        SmsMailbox{*runner_, *inbox_, *outbox_, settings.conversation, settings.contact,
                   [this](std::int64_t, const sms::conversation::Classification& text) {
                     if (auto report = inboundReport(text); report && policy_)
                       policy_->reportBreaker(*report);
                   }});
  }
  if (!processor_) {
    processor_ = std::make_unique<LeaveRowsNew>();
    logInfo(logger_, "no conversation layer: inbound messages are stored and stay new");
  }
  inbox_->setOnStored([this](const sms::mailbox::InboxRow&) { postProcessing(); });
  sms::mailbox::DispatcherOptions dispatch;
  dispatch.followsSystemTime = clock.followsSystemTime();
  dispatch.onError = [this](const std::string& error) {
    logWarning(logger_, "SMS dispatcher pass failed; it will try again", {{"error", error}});
  };
  dispatch.onSendResult = [this, sendSignals](std::string_view gateway,
                                              const drivers::SendResult& result) {
    if (auto report = sendSignals->answer(gateway, result); report && policy_) {
      policy_->reportBreaker(*report);
    }
  };
  dispatcher_ = std::make_unique<sms::mailbox::Dispatcher>(*outbox_, *gateway_, dispatch);

  active_ = true;  // before anything can post to the engine
  if (Status s = gateway_->start(*inbox_); !s) {
    tearDown();
    if (settings.driver == SmsDriver::kTwilio && s.kind() == ErrorKind::kIo) {
      // Nearly always the port: taken by another process, or an address the box does not have.
      return makeError("sms.twilio.listen-address/sms.twilio.listen-port " +
                       app.config().getString("sms.twilio.listen-address") + ":" +
                       app.config().getString("sms.twilio.listen-port") +
                       ": the webhook server cannot listen: " + s.message());
    }
    return makeError("sms: the " + std::string(smsDriverName(settings.driver)) +
                     " gateway did not start: " + s.message());
  }
  if (auto* modem = carrier<drivers::modem::ModemGateway>(gateway_.get())) {
    modemWatch_ = std::make_unique<ModemWatch>(*modem, logger_);
  }
  if (Status s = dispatcher_->start(); !s) {
    tearDown();
    return makeError("sms: the dispatcher did not start: " + s.message());
  }
  if (!clock.followsSystemTime()) {
    // Simulated time: the dispatcher sleeps until told that the clock moved (retries fall due).
    clockListener_ = clock.addListener([this] { dispatcher_->wake(); });
  }
  if (policy_ != nullptr) {
    // Called on the engine thread, now with the stored level and after every change.
    policyListener_ = policy_->addListener([this](policy::KillSwitchLevel level) {
      if (!active_) return;
      // L1 or higher, or BRK-OUT open (the policy calls again when BRK-OUT moves).
      processor_->setOutreachFrozen(policy_->outreachFrozen());
      auto current = policy_->killSwitch().current();
      processor_->setWritesFrozen(level >= policy::KillSwitchLevel::kL2,
                                  current ? current->setAt : std::string());
    });
  }
  postProcessing();  // rows a previous run stored but did not handle

  const std::string driver(smsDriverName(settings.driver));
  if (auto* twilio = carrier<drivers::twilio::TwilioGateway>(gateway_.get())) {
    const std::string listen = app.config().getString("sms.twilio.listen-address") + ":" +
                               std::to_string(twilio->webhookPort());
    logInfo(logger_, "SMS started",
            {{"driver", driver},
             {"webhook", listen},
             {"public_url", app.config().getString("sms.twilio.public-url")},
             {"api", app.config().getString("sms.twilio.api-base-url")}});
    logInfo(logger_,
            "Twilio is reached only to send; while it is unreachable messages wait in the outbox "
            "and are retried");
    if (settings.modemFailover) {
      logInfo(logger_, "safety alerts Twilio does not take are sent by the modem",
              {{"device", app.config().getString("sms.modem.device")}});
    }
  } else if (settings.driver == SmsDriver::kModem) {
    logInfo(logger_, "SMS started",
            {{"driver", driver}, {"device", app.config().getString("sms.modem.device")}});
  } else {
    logInfo(logger_, "SMS started", {{"driver", driver}});
    logInfo(logger_, "the simulated SMS gateway sends nothing off the box");
  }
  return Status::success();
}

void SmsSubsystem::postProcessing() {
  if (processingPosted_.exchange(true)) return;  // one pending call covers a burst
  const bool posted = engine_.engine().post([this] {
    processingPosted_ = false;
    if (!active_) return;
    processor_->processPending();
  });
  if (!posted) processingPosted_ = false;
}

void SmsSubsystem::stop() { tearDown(); }

void SmsSubsystem::tearDown() {
  if (policyListener_ != 0) policy_->removeListener(policyListener_);
  policyListener_ = 0;
  if (clockListener_) engine_.clock().removeListener(*clockListener_);
  clockListener_.reset();
  // Nothing is sent after the dispatcher stops, nothing accepted after the gateway stops (it joins
  // its threads; no sink call follows).
  if (dispatcher_) dispatcher_->stop();
  if (gateway_) gateway_->stop();
  modemWatch_.reset();
  if (runner_ && active_) {
    // Events already posted (processing, audits) run before this one; after it, none touches us.
    // An error means the engine stopped: then it runs nothing more either.
    // The processor goes here too: its timers belong to the engine, and Engine::cancel is for
    // the engine thread only.
    (void)runner_->run([this](SiteStore&) {
      active_ = false;
      processor_.reset();
      return Status::success();
    });
  }
  active_ = false;
  dispatcher_.reset();
  processor_.reset();
  inbox_.reset();
  gateway_.reset();
  outbox_.reset();
  refusalAudit_.reset();
  runner_.reset();
}

}  // namespace atoms
