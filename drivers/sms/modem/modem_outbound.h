// The outbound side of the modem driver (modem_gateway.h; docs/sms-modem.md):
// - SubmitEncoder, on the caller's thread: a message as the modem will take it (PDU mode: one
//   SMS-SUBMIT per segment of planSegments(), several sharing one 8-bit concatenation reference,
//   the next of a counter that starts where the caller's randomness says; text mode: one GSM-7
//   body), or why it cannot be sent at all.
// - ModemOutbound, on the worker's thread: sends a job part by part with AT+CMGS over the session,
//   recording the attempt before and the outcome after in the send journal (send_journal.h), so
//   reconcile() can tell after a crash whether a message went out; names an accepted message
//   "mr:<TP-MR>[,<TP-MR>...]@<epoch ms>"; and matches status reports to the sends they are about
//   (by reference and recipient) to hand the sink one DeliveryReport per message (delivered when
//   every part is, failed or undelivered as soon as one part is).
//
// Errors: SendError values (retryable unless the modem's error says a resend cannot succeed);
// journal and sink troubles go to the HealthBoard.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "drivers/sms/modem/modem_config.h"
#include "drivers/sms/modem/modem_health.h"
#include "drivers/sms/modem/modem_jobs.h"
#include "drivers/sms/modem/modem_session.h"
#include "drivers/sms/modem/pdu.h"
#include "drivers/sms/modem/send_journal.h"
#include "drivers/sms/sms_gateway.h"

namespace atoms::drivers::modem {

// Thread-safe.
class SubmitEncoder {
 public:
  // `config` must outlive the encoder; `firstReference`: the first concatenation reference.
  SubmitEncoder(const ModemConfig& config, std::uint8_t firstReference);

  // Fills job.pdus (PDU mode) or job.text (text mode) for job.message; a SendError (not
  // retryable) when the message cannot be sent as given (a bad destination, a body the mode cannot
  // carry). In PDU mode each message takes the next reference (its parts share it).
  std::optional<SendError> encode(ModemJob& job);
  // The reference the next message will take; continueAt() sets it (from the send journal, at
  // start, before any send).
  int nextReference() const { return nextReference_.load(); }
  void continueAt(int reference) { nextReference_ = static_cast<std::uint8_t>(reference & 0xFF); }

 private:
  const ModemConfig& config_;
  std::atomic<std::uint8_t> nextReference_;
};

// What a +CMS ERROR on AT+CMGS is about (27.005 3.2.5, 24.011 E.2 / 23.040 9.2.3.22), the
// SendError's cause: the recipient (1 unassigned number, 21 short message transfer rejected,
// ...), the message itself (96 invalid mandatory information, 304/305 invalid PDU or text mode
// parameter, ...), or the way there (everything else: the network, the SIM, the modem: kTransport,
// which is what BRK-CONN-modem counts).
SendErrorCause cmsErrorCause(int code);
// Whether sending the same message again can succeed after this +CMS ERROR.
bool cmsErrorIsRetryable(int code);

// What became of a status report.
enum class ReportOutcome {
  kCommitted,  // a DeliveryReport the sink committed
  kRefused,    // the sink refused it: offer the report again later
  kIgnored,    // nothing to tell: not one of ours, the SMSC still trying, parts still to come,
               // or told already
};

// The worker's thread only.
class ModemOutbound {
 public:
  // `config`, `session`, `health`, `sink` and `encoder` must outlive it; `journal` may be null
  // (then reconcile() cannot tell). Sends the journal holds as accepted wait for their reports.
  // `encoder` gives the reference the next long text takes, recorded with each attempt.
  ModemOutbound(const ModemConfig& config, ModemSession& session, HealthBoard& health,
                SmsSink& sink, std::unique_ptr<SendJournal> journal, const SubmitEncoder& encoder);

  // Part by part. A part refused, or unanswered, before the last part was typed: a retryable error
  // (the recipient cannot have the whole text; a retry sends it whole under a new reference). No
  // answer once the last (or only) part was typed: a retryable error with maybeAccepted (the
  // outbox asks reconcile(), which says kUnknown: never sent twice). A +CMS ERROR is counted
  // (health: sendsRefused) and told (ModemConfig::onNotice).
  SendResult send(const ModemJob& job);
  ReconcileResult reconcile(const std::string& idempotencyKey, SmsClock::time_point since);
  ReportOutcome applyReport(const StatusReportPdu& report);

 private:
  struct Outstanding {
    JournalSend send;
    bool reported = false;  // a final state went to the sink
  };
  void pruneOutstanding();
  void tellRefused(const ModemJob& job, const AtResponse& r);

  const ModemConfig& config_;
  ModemSession& session_;
  HealthBoard& health_;
  SmsSink& sink_;
  std::unique_ptr<SendJournal> journal_;
  const SubmitEncoder& encoder_;
  std::vector<Outstanding> outstanding_;
};

}  // namespace atoms::drivers::modem
