// ModemGateway: the SmsGateway of a GSM/LTE modem on a serial port, speaking AT commands
// (3GPP TS 27.005 / 27.007). Operator documentation: docs/sms-modem.md.
//
// Threads: start() runs one worker thread that owns the port and is the only one talking to the
// modem (AtChannel's poll loop). send() and reconcile() hand a job to it and wait; the sink is
// called from it. So commands never interleave, and no lock is held across I/O: the one mutex
// guards the job queue and the health snapshot.
//
// Outbound: send() splits the text (planSegments), encodes one SMS-SUBMIT per segment (8-bit
// concatenation reference for several) and sends each with AT+CMGS. providerId is
// "mr:<TP-MR>[,<TP-MR>...]@<epoch ms>": unique, and the key status reports are matched by.
// Text mode sends one GSM-7 segment (text_mode.h).
//
// Inbound: new messages and status reports are either stored by the modem and announced
// (+CMTI/+CDSI; `Inbound::kStored`, the default) or routed directly (+CMT/+CDS with +CNMA
// acknowledgement; `kDirect`). A message goes to the sink first; only when the sink says it is
// committed is it deleted from storage (AT+CMGD) or acknowledged (AT+CNMA). Refused: stored
// messages stay and are offered again later; direct ones get a negative acknowledgement so the
// network delivers them again. Concatenated parts are reassembled (ConcatReassembler). Status
// reports become DeliveryReports (delivered, failed, undelivered; a multi-part message is
// delivered when all its parts are).
//
// Watchdog: a command with no answer, or an answer that makes no sense, counts as a failure;
// `maxConsecutiveFailures` of them close the port, and the worker reopens it and runs the init
// sequence again, with exponential backoff (with jitter) while that fails. A modem that
// announces a restart (RDY, +CFUN: 1, ...) or echoes commands again is re-initialised on the same
// port. When idle the worker probes the modem every `keepaliveInterval` (AT+CSQ), and at once
// after garbage. health() reports all of this.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <thread>

#include "base/result.h"
#include "drivers/sms/modem/serial_port.h"
#include "drivers/sms/sms_gateway.h"

namespace atoms::drivers::modem {

struct ModemConfig {
  SerialSettings serial;  // device, baud, RTS/CTS

  enum class Mode { kPdu, kText };
  Mode mode = Mode::kPdu;
  enum class Inbound { kStored, kDirect };
  Inbound inbound = Inbound::kStored;

  std::string smsc;       // "" = the SIM's own SMSC (the usual case); else "+CC..."
  std::string simPin;     // "" = none; sent only when the SIM asks for it, never logged
  std::string storage;    // message storage for AT+CPMS ("SM", "ME", "MT"); "" = modem default
  std::string ownNumber;  // InboundSms::to; "" when unknown
  bool requestStatusReports = true;
  std::optional<std::chrono::minutes> validity = std::chrono::hours(24);  // relative TP-VP

  std::chrono::milliseconds commandTimeout{5000};
  std::chrono::milliseconds promptTimeout{5000};  // AT+CMGS until "> "
  std::chrono::milliseconds sendTimeout{60000};   // after the PDU: the network round trip
  std::chrono::milliseconds queueTimeout{30000};  // how long send() waits for a ready modem
  std::chrono::milliseconds keepaliveInterval{30000};
  std::chrono::milliseconds storageScanInterval{60000};
  std::chrono::milliseconds refusedRetryInterval{30000};  // offer a refused message again
  std::chrono::milliseconds reassemblyTimeout{std::chrono::minutes(10)};
  std::chrono::milliseconds quietTime{200};  // silence that ends a drain after a timeout
  std::chrono::milliseconds backoffInitial{1000};
  std::chrono::milliseconds backoffMax{60000};
  int maxConsecutiveFailures = 2;

  // Local record of sends for reconcile() (send_journal.h); "" = none (reconcile: kUnknown).
  std::string journalPath;
  std::chrono::hours journalRetention{24 * 7};

  // Wall-clock time for timestamps, reassembly and retry deadlines; tests inject a fake one.
  std::function<SmsClock::time_point()> now = [] { return SmsClock::now(); };
};

// Ok, or one line naming the first bad field.
Status validateModemConfig(const ModemConfig& config);

struct ModemHealth {
  enum class State { kStopped, kConnecting, kReady, kBackoff };
  State state = State::kStopped;
  std::string lastError;  // the last failure, one line; "" when none yet
  std::string modem;      // manufacturer and model as the modem reports them
  int opens = 0;          // successful opens of the port
  int inits = 0;          // completed init sequences
  int resets = 0;         // closes after failures (silence, garbage, I/O errors)
  int consecutiveFailures = 0;
  std::uint64_t garbageLines = 0;
  std::uint64_t sent = 0;      // messages accepted by the modem
  std::uint64_t received = 0;  // messages committed by the sink
  std::uint64_t reports = 0;   // delivery reports committed by the sink
  std::uint64_t refusedBySink = 0;
  int undecodable = 0;  // stored messages that cannot be read (left in storage)
  int signal = -1;      // +CSQ rssi 0..31, -1 unknown
  int storageUsed = -1, storageTotal = -1;
  std::optional<SmsClock::time_point> lastAnswerAt;
};
std::string_view modemStateName(ModemHealth::State state);  // "stopped", "connecting", ...

class ModemGateway final : public SmsGateway {
 public:
  explicit ModemGateway(ModemConfig config);
  ~ModemGateway() override;  // stop()

  std::string_view name() const override { return "modem"; }
  // Validates the configuration, opens the journal and starts the worker; the port is opened by
  // the worker (a missing modem is retried with backoff and shown in health(), not an error here).
  Status start(SmsSink& sink) override;
  // Returns once the worker ended: after the command in flight (at most sendTimeout for an
  // AT+CMGS); sends still queued fail with a retryable error.
  void stop() override;
  // Blocking; see sms_gateway.h. Not started or stopped: retryable error.
  SendResult send(const OutboundSms& message) override;
  ReconcileResult reconcile(const OutboundSms& message, SmsClock::time_point since) override;

  ModemHealth health() const;
  // Waits until `predicate(health())` holds or `timeout` passes; returns whether it held. For a
  // service that waits for the modem at start, and for tests (no polling, no sleeps).
  bool waitForHealth(const std::function<bool(const ModemHealth&)>& predicate,
                     std::chrono::milliseconds timeout) const;

  // Implementation types (modem_gateway.cpp).
  struct Job;
  class Worker;

 private:
  ModemConfig config_;
  std::atomic<std::uint8_t> nextConcatReference_;
  int wakeFd_ = -1;

  mutable std::mutex mutex_;                 // guards everything below
  mutable std::condition_variable changed_;  // a job finished or the health changed
  std::deque<std::shared_ptr<Job>> jobs_;
  ModemHealth health_;
  bool running_ = false;
  bool stopping_ = false;

  std::unique_ptr<Worker> worker_;
  std::thread thread_;

  std::shared_ptr<Job> enqueue(std::shared_ptr<Job> job);
  void wake();
};

}  // namespace atoms::drivers::modem
