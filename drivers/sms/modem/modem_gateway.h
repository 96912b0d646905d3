// ModemGateway: the SmsGateway of a GSM/LTE modem on a serial port, speaking AT commands
// (3GPP TS 27.005 / 27.007). Operator documentation: docs/sms-modem.md.
//
// Threads: start() runs one worker thread that owns the port and is the only one talking to the
// modem (AtChannel's poll loop). send() and reconcile() hand a job to it and wait (modem_jobs.h);
// the sink is called from it. So commands never interleave, and no lock is held across I/O: the
// job queue and the health board (modem_health.h) each guard their own state.
//
// Parts (each file states its contract): the worker's loop here; the session (modem_session.h:
// the port, the init sequence and SIM PIN, the watchdog, keepalive and reopen backoff); inbound
// (modem_inbound.h: stored and direct messages, reassembly, status reports); outbound
// (modem_outbound.h: encoding, AT+CMGS, the send journal, delivery reports). Configuration:
// modem_config.h; randomness (the first concatenation reference, the backoff's jitter) comes from
// ModemConfig::random.
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

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <thread>

#include "base/result.h"
#include "drivers/sms/modem/modem_config.h"
#include "drivers/sms/modem/modem_health.h"
#include "drivers/sms/modem/modem_jobs.h"
#include "drivers/sms/modem/modem_outbound.h"
#include "drivers/sms/sms_gateway.h"

namespace atoms::drivers::modem {

class ModemGateway final : public SmsGateway {
 public:
  // Draws the first concatenation reference from config.random (or the gateway's own randomness);
  // start() continues the journal's instead when it has one.
  explicit ModemGateway(ModemConfig config);
  ~ModemGateway() override;  // stop()

  std::string_view name() const override { return "modem"; }
  // Validates the configuration, opens the journal and starts the worker; the port is opened by
  // the worker (a missing modem is retried with backoff and shown in health(), not an error here).
  // A journal that recorded a concatenation reference sets the next one (continuing the last run's
  // sequence); only a new journal (or none) leaves the one drawn from config.random.
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

  class Worker;  // modem_gateway.cpp

 private:
  ModemConfig config_;
  UnitRandom random_;  // config_.random, or the gateway's own
  SubmitEncoder encoder_;
  JobQueue jobs_;
  HealthBoard health_;
  std::unique_ptr<Worker> worker_;
  std::thread thread_;
};

}  // namespace atoms::drivers::modem
