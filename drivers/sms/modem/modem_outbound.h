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

 private:
  const ModemConfig& config_;
  std::atomic<std::uint8_t> nextReference_;
};

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
  // `config`, `session`, `health` and `sink` must outlive it; `journal` may be null (then
  // reconcile() cannot tell). Sends the journal holds as accepted wait for their reports.
  ModemOutbound(const ModemConfig& config, ModemSession& session, HealthBoard& health,
                SmsSink& sink, std::unique_ptr<SendJournal> journal);

  SendResult send(const ModemJob& job);
  ReconcileResult reconcile(const std::string& idempotencyKey, SmsClock::time_point since);
  ReportOutcome applyReport(const StatusReportPdu& report);

 private:
  struct Outstanding {
    JournalSend send;
    bool reported = false;  // a final state went to the sink
  };
  void pruneOutstanding();

  const ModemConfig& config_;
  ModemSession& session_;
  HealthBoard& health_;
  SmsSink& sink_;
  std::unique_ptr<SendJournal> journal_;
  std::vector<Outstanding> outstanding_;
};

}  // namespace atoms::drivers::modem
