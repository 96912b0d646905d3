// SmsSubsystem: text messages in `atoms-edge serve` (docs/configuration.md, "Configuring SMS").
// Off when sms.driver = off. Otherwise it builds the gateway the config names (the simulated one,
// Twilio with its webhook server, or a GSM modem), the mailbox over the engine thread (a
// PostingStoreRunner: the engine owns the store), the Inbox the gateway delivers into, the Outbox
// and its Dispatcher thread, and starts the gateway, then the dispatcher. stop() stops the
// dispatcher, then the gateway, so nothing is sent or accepted after it returns.
//
// Refuses to start, with one line naming the key, on a misconfiguration (sms_config.h). A
// provider that cannot be reached or a modem that is absent is not a start failure: the outbox
// keeps messages and retries them, the modem driver reopens its port with backoff; the log says
// so once.
//
// Inbound: after each inbound message is committed, processPending() of the InboundProcessor is
// posted to the engine thread (coalesced: one pending call covers a burst), and once at start for
// rows left `new` by a previous run. A stop-class text (STOP and its family, a stop-like reply) is
// BRK-OUT's signal, reported from the classification the processor hands back
// (SmsMailbox::onClassified), so the text is read once, by the conversation layer. The processor is
// made at start by the factory set here, over the live mailbox, and destroyed at stop. Without a
// factory the processor does nothing: rows stay `new` until the conversation layer
// (sms/conversation/) is set here and handles them.
//
// Refused Twilio webhooks (bad signature, malformed form, ...) are audited as
// "sms.webhook.refused" from the engine thread, at most kRefusalAuditsPerMinute a minute (the
// entry after a gap carries how many were left out), so a flood of forged requests cannot flood
// the log.
//
// Threading: construction, setInboundProcessor, start and stop on the main thread. outbox() and
// inbox() are thread-safe objects (sms/mailbox); call them only between start and stop. Must be
// started after the store and the engine and stopped before them (EdgeServer's order does that).
#pragma once

#include <Poco/Logger.h>

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <random>
#include <thread>

#include "daemon/service/service_subsystem.h"
#include "drivers/http/health_probe.h"

namespace atoms {

class RefusalAudit;
class StoreSubsystem;
class EngineSubsystem;
class PolicySubsystem;
namespace drivers {
class SmsGateway;
}  // namespace drivers
namespace sms::conversation {
struct ConversationSettings;
struct HumanContact;
struct Classification;
}  // namespace sms::conversation
class StoreRunner;
class PostingStoreRunner;
namespace sms::mailbox {
class Outbox;
class Inbox;
class Dispatcher;
}  // namespace sms::mailbox

// What handles stored inbound messages: the conversation layer. Called on the engine thread
// (which owns the store); reads Inbox::unhandled() and marks each row handled once acted on,
// idempotently (a crash between the two re-handles a row). Must not block on other threads.
class InboundProcessor {
 public:
  virtual ~InboundProcessor() = default;
  virtual void processPending() = 0;
  // The kill switch froze outreach (L1 or higher: true) or lifted the freeze (back at L0: false),
  // at start with the stored level and after every change. Lifting it decides again on every
  // message it held (seed 001 section 7: re-checked on release, withdrawn past 48 h).
  virtual void setOutreachFrozen(bool /*frozen*/) {}
  // The kill switch froze writes (L2 or higher: true) or lifted that freeze: new requests wait
  // (parked) and are handled from scratch when it lifts (seed 001 section 7). `event` names the
  // change (the kill switch's audit timestamp), for announcing it once.
  virtual void setWritesFrozen(bool /*frozen*/, const std::string& /*event*/) {}
};

// The running mailbox, as a processor is built over it. The store, inbox and outbox outlive the
// processor; the settings are valid during the factory call only (copy what you keep).
struct SmsMailbox {
  atoms::StoreRunner& store;  // runs inline on the engine thread
  sms::mailbox::Inbox& inbox;
  sms::mailbox::Outbox& outbox;
  const sms::conversation::ConversationSettings& conversation;  // sms.quiet-hours.*, ...
  const sms::conversation::HumanContact& contact;               // sms.contact.*
  // The processor calls it (engine thread, quickly) once per stored message with the one
  // classification of its text (sms/conversation/conversation.h, setOnClassified): BRK-OUT's
  // stop-class signal. May be empty.
  std::function<void(std::int64_t inboxId, const sms::conversation::Classification& text)>
      onClassified;
};
using InboundProcessorFactory =
    std::function<std::unique_ptr<InboundProcessor>(const SmsMailbox& mailbox)>;

class SmsSubsystem final : public ServiceSubsystem {
 public:
  static constexpr int kRefusalAuditsPerMinute = 20;

  SmsSubsystem(Poco::Logger& logger, StoreSubsystem& store, EngineSubsystem& engine);
  ~SmsSubsystem() override;
  const char* name() const override { return "sms"; }

  // Before start(). Called at each start (main thread); an empty factory, or one that returns
  // nullptr, leaves inbound rows `new`.
  void setInboundProcessorFactory(InboundProcessorFactory factory);
  // Before start(). The kill switch the processor follows (setOutreachFrozen); without one
  // outreach is never frozen. Must be started before this subsystem and stopped after it.
  // What GET /readyz on this service's HTTP listener checks (drivers/http/health_probe.h).
  // Before start().
  void setReadiness(drivers::ReadinessCheck readiness) { readiness_ = std::move(readiness); }
  void setPolicy(PolicySubsystem* policy) { policy_ = policy; }

  // nullptr while stopped or when sms.driver = off. Other subsystems send through outbox()
  // (enqueue from any thread; enqueueIn from the engine thread inside their own batch).
  sms::mailbox::Outbox* outbox() { return outbox_.get(); }
  sms::mailbox::Inbox* inbox() { return inbox_.get(); }
  // The running gateway (the demo and tests reach the simulated one through it).
  drivers::SmsGateway* gateway() { return gateway_.get(); }
  // The running dispatcher (tests wait until it is idle).
  sms::mailbox::Dispatcher* dispatcher() { return dispatcher_.get(); }

 protected:
  Status start(Poco::Util::Application& app) override;
  void stop() override;

 private:
  class ModemWatch;

  void postProcessing();  // any thread
  void tearDown();        // main thread

  Poco::Logger& logger_;
  StoreSubsystem& store_;
  EngineSubsystem& engine_;
  InboundProcessorFactory processorFactory_;
  PolicySubsystem* policy_ = nullptr;
  drivers::ReadinessCheck readiness_;
  int policyListener_ = 0;                      // PolicySubsystem listener id; 0: none
  std::optional<std::uint64_t> clockListener_;  // on a simulated clock: wakes the dispatcher

  std::mt19937_64 random_;  // retry jitter; used only inside store operations (one at a time)
  std::unique_ptr<atoms::PostingStoreRunner> runner_;
  std::unique_ptr<sms::mailbox::Outbox> outbox_;
  std::unique_ptr<drivers::SmsGateway> gateway_;
  std::unique_ptr<sms::mailbox::Inbox> inbox_;
  std::unique_ptr<sms::mailbox::Dispatcher> dispatcher_;
  std::unique_ptr<ModemWatch> modemWatch_;
  std::unique_ptr<InboundProcessor> processor_;  // used on the engine thread only
  std::unique_ptr<RefusalAudit> refusalAudit_;   // used on the engine thread only

  std::atomic<bool> processingPosted_{false};
  bool active_ = false;  // engine thread (and main thread before the gateway starts)
};

}  // namespace atoms
