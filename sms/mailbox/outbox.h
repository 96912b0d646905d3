// Outbox: the outbound half of the mailbox (DESIGN.md section 2, "store first, then act"). A
// message is committed to table sms_outbox, with its audit entry, before any driver sees it; the
// Dispatcher then moves it through the states of outbox_row.h, one committed step at a time, so a
// crash at any point leaves a row whose state says exactly what may have happened.
//
// - enqueue() validates, stores and audits ("sms.out"); the row's id is the idempotency key the
//   gateway gets, stable across retries and restarts; enqueueing the same id again is a no-op.
// - Retries: a retryable error puts the row back to queued after retryDelay(); a permanent error,
//   the attempt cap or the message's expiry fail it for good ("sms.out.failed" audited).
// - In doubt: a row left in `sending` (crash between send() and recording its outcome, or a send
//   that failed with maybeAccepted) is reconciled with the gateway before anything else is sent
//   for it: accepted -> sent; not found -> sent again; unknown -> the uncertain-outcome policy
//   (docs/sms-mailbox.md): counted as sent and flagged ("sms.out.uncertain"), never sent twice,
//   except safety alerts, which are sent again (a duplicate alert is better than a missed one).
// - Delivery reports move a row forward only (outboxStateRank); duplicates change nothing; a
//   report that arrives before the send is recorded is kept and applied when it is.
// What is audited, and why bodies are not: docs/sms-mailbox.md, "Audit".
//
// Threading: every method is thread-safe; each runs through the StoreRunner as one transaction
// (one AuditLog batch). enqueueIn() is the exception: it runs inside the caller's open batch, on
// the writer (inside StoreRunner::run, or on the engine thread). Listeners are called after the
// commit on the calling thread, never under a lock; they must be quick (post to the engine).
// One Dispatcher per Outbox (and per database): two dispatchers would reconcile each other's
// in-flight sends.
// Errors: one line; validation errors name the message id and the field.
#pragma once

#include <cstddef>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/random.h"
#include "base/result.h"
#include "base/unix_time.h"
#include "drivers/sms/sms_gateway.h"
#include "sms/mailbox/outbox_row.h"
#include "sms/mailbox/outbox_table.h"
#include "sms/mailbox/retry_policy.h"
#include "store/audit_log.h"
#include "store/store_runner.h"

namespace atoms::sms::mailbox {

class Outbox {
 public:
  // Called with the row after it reached sent, delivered, undelivered, failed or withdrawn.
  using OutcomeListener = std::function<void(const OutboxRow&)>;

  // `store`, and what it runs on, must outlive the Outbox. Precondition: validatePolicy(policy).
  Outbox(StoreRunner& store, NowFunction now, UnitRandom random, RetryPolicy policy = {});
  Outbox(const Outbox&) = delete;
  Outbox& operator=(const Outbox&) = delete;

  // Called (maybe before the enqueue commits: a spurious wake is harmless) whenever a row may
  // have become due: enqueue, release. The Dispatcher registers itself here.
  void setWakeUp(std::function<void()> wake);
  void setOnOutcome(OutcomeListener listener);

  TimePoint now() const { return now_(); }
  const RetryPolicy& policy() const { return policy_; }

  // Validates `request`, stores it as queued (due at notBefore, or now) and audits "sms.out";
  // returns the id. The same id again with the same recipient, text and class returns the id and
  // stores nothing; with anything else it is an error. Refusals (errors naming the field: id,
  // recipient not E.164, empty body, body over 1,600 characters, invalid UTF-8, NUL byte, expiry
  // not after notBefore/now) store no row and are audited as "sms.out.refused".
  Result<std::string> enqueue(const OutboundRequest& request);
  // The same inside the caller's batch on the writer, so the row commits (or not) with the
  // caller's own rows and receipt. A refusal adds its "sms.out.refused" entry to `batch` and
  // returns the error; `batch` stays usable either way.
  Result<std::string> enqueueIn(Database& db, AuditLog::Batch& batch,
                                const OutboundRequest& request);

  Result<std::optional<OutboxRow>> find(std::string_view id);
  Result<std::vector<OutboxRow>> list(const OutboxQuery& query);

  // queued/held -> withdrawn (reason kept as last_error). Error when there is no such message or
  // it is past that point ("SMS X cannot be withdrawn: it is already sent"). Not audited: the
  // caller audits its own decision.
  Status withdraw(std::string_view id, std::string_view reason);
  // queued -> held for every message (of class `only`, when given); returns how many. Not audited
  // (the kill switch or operator decision that asks for it is).
  Result<int> hold(std::optional<MessageClass> only, std::string_view reason);
  // held -> queued, due now (or later if it was due later); returns how many.
  Result<int> release(std::optional<MessageClass> only);

  // --- The dispatcher's steps (each one transaction) ---
  // The first in-doubt row (state sending, next_attempt_at <= now), if any.
  Result<std::optional<OutboxRow>> nextInDoubt();
  // Takes the first due queued row: sending, attempts + 1. Due rows past their expiry are failed
  // on the way (audited). nullopt when nothing is due.
  Result<std::optional<OutboxRow>> claimNext();
  // Records what send() answered for a row claimNext() returned.
  Status recordSend(const OutboxRow& claimed, std::string_view gateway,
                    const drivers::SendResult& result);
  // Records what reconcile() answered for a row nextInDoubt() returned.
  Status recordReconcile(const OutboxRow& inDoubt, std::string_view gateway,
                         const drivers::ReconcileResult& result);
  // When the dispatcher has something to do next (the earliest due queued or sending row).
  Result<std::optional<TimePoint>> nextDue();

  // --- The sink's step ---
  // Stores the report (once per provider id and state) and applies it to the row with that
  // provider id, if there is one yet. Error only when the report is malformed (no provider id)
  // or the store fails.
  Status applyReport(std::string_view gateway, const drivers::DeliveryReport& report);

  // What the gateway is handed for a row.
  static drivers::OutboundSms outboundSms(const OutboxRow& row);

 private:
  struct Txn;
  struct EnqueueOutcome;

  // Runs `body` in one batch through the runner; commits when it returns ok, then tells the
  // outcome listener about the rows it collected.
  Status transact(const std::function<Status(Txn&)>& body);
  EnqueueOutcome enqueueLocked(Database& db, AuditLog::Batch& batch,
                               const OutboundRequest& request);
  Status fail(Txn& txn, OutboxRow& row, std::string reason);
  Status markAccepted(Txn& txn, OutboxRow& row, std::string_view gateway,
                      const drivers::SendAccepted& accepted);
  Status markUncertain(Txn& txn, OutboxRow& row, std::string_view gateway);
  Status applyReportTo(Txn& txn, OutboxRow& row, const drivers::DeliveryReport& report);
  Result<OutboxRow> reloadInState(Txn& txn, const OutboxRow& expected);
  TimePoint retryAt(TimePoint now, int attempts);
  void wake();
  void notify(const std::vector<OutboxRow>& rows);

  StoreRunner& store_;
  NowFunction now_;
  UnitRandom random_;
  RetryPolicy policy_;

  std::mutex hooksMutex_;  // guards the two hooks
  std::function<void()> wake_;
  OutcomeListener onOutcome_;
};

}  // namespace atoms::sms::mailbox
