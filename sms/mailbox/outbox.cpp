#include "sms/mailbox/outbox.h"

#include <sodium.h>

#include <algorithm>
#include <array>

#include "base/bytes.h"
#include "base/secret.h"
#include "drivers/sms/encoding/segmentation.h"
#include "sms/mailbox/message_checks.h"
#include "store/audit_entry.h"

namespace atoms::sms::mailbox {

// The actor of the entries the outbox writes on its own account (failures, uncertain sends).
constexpr std::string_view kOutboxActor = "sms-outbox";

struct Outbox::Txn {
  Database& db;
  AuditLog::Batch& batch;
  OutboxTable table;
  TimePoint now;
  std::vector<OutboxRow> outcomes;  // for the listener, once committed

  Status audit(std::string_view kind, std::string_view actor, json::Object body) {
    auto seq = batch.add(formatTimestamp(now), kind, actor, json::Value(std::move(body)));
    if (!seq) return seq.error();
    return Status::success();
  }
};

struct Outbox::EnqueueOutcome {
  Result<std::string> id;
  bool refused = false;  // a validation refusal: only its audit entry was added to the batch
};

namespace {

std::string makeId() {
  initSodium();
  std::array<std::uint8_t, 16> bytes{};
  randombytes_buf(bytes.data(), bytes.size());
  return "sms-" + toHex(bytes);
}

// "outbound SMS sms-1f..: " or "outbound SMS: " when the id itself is unusable.
std::string label(std::string_view id) {
  return isToken(id) ? "outbound SMS " + std::string(id) + ": " : std::string("outbound SMS: ");
}

Status validateRequest(const OutboundRequest& r, TimePoint now) {
  const std::string l = label(r.id);
  if (!r.id.empty() && !isToken(r.id)) {
    return makeError(l + "id must be 1 to " + std::to_string(kMaxTokenLength) +
                     " printable ASCII characters without spaces");
  }
  if (!isE164(r.to)) {
    return makeError(l + "recipient " + maskNumber(r.to) +
                     " is not an E.164 number (like +15551234567)");
  }
  if (r.body.empty()) return makeError(l + "body is empty");
  if (auto s = checkBody(r.body); !s) return makeError(l + s.message());
  if (!r.ref.empty() && !isToken(r.ref)) {
    return makeError(l + "ref must be up to " + std::to_string(kMaxTokenLength) +
                     " printable ASCII characters without spaces");
  }
  if (r.actor.empty() || !json::isValidUtf8(r.actor)) {
    return makeError(l + "actor must be non-empty UTF-8");
  }
  if (r.expiresAt) {
    const TimePoint earliest = std::max(now, r.notBefore.value_or(now));
    if (*r.expiresAt <= earliest) {
      return makeError(l + "expires at " + formatTimestamp(*r.expiresAt) +
                       ", before it could be sent");
    }
  }
  return Status::success();
}

std::optional<OutboxState> reportTarget(drivers::DeliveryState state) {
  switch (state) {
    case drivers::DeliveryState::kQueued:
      return std::nullopt;  // the provider has it queued: what `sent` already says
    case drivers::DeliveryState::kSent:
      return OutboxState::kSent;
    case drivers::DeliveryState::kDelivered:
      return OutboxState::kDelivered;
    case drivers::DeliveryState::kUndelivered:
      return OutboxState::kUndelivered;
    case drivers::DeliveryState::kFailed:
      return OutboxState::kFailed;
  }
  return std::nullopt;
}

bool isFailure(OutboxState s) {
  return s == OutboxState::kUndelivered || s == OutboxState::kFailed;
}

}  // namespace

Outbox::Outbox(StoreRunner& store, NowFunction now, UnitRandom random, RetryPolicy policy)
    : store_(store), now_(std::move(now)), random_(std::move(random)), policy_(policy) {}

void Outbox::setWakeUp(std::function<void()> wake) {
  std::lock_guard<std::mutex> lock(hooksMutex_);
  wake_ = std::move(wake);
}

void Outbox::setOnOutcome(OutcomeListener listener) {
  std::lock_guard<std::mutex> lock(hooksMutex_);
  onOutcome_ = std::move(listener);
}

void Outbox::wake() {
  // Called under the lock, so setWakeUp(nullptr) in the dispatcher's destructor waits for it.
  std::lock_guard<std::mutex> lock(hooksMutex_);
  if (wake_) wake_();
}

void Outbox::notify(const std::vector<OutboxRow>& rows) {
  if (rows.empty()) return;
  OutcomeListener listener;
  {
    std::lock_guard<std::mutex> lock(hooksMutex_);
    listener = onOutcome_;
  }
  if (!listener) return;
  for (const OutboxRow& row : rows) listener(row);
}

Status Outbox::transact(const std::function<Status(Txn&)>& body) {
  std::vector<OutboxRow> outcomes;
  Status status = store_.run([&](SiteStore& store) -> Status {
    auto batch = store.log().begin();
    if (!batch) return batch.error();
    Txn txn{store.db(), *batch, OutboxTable(store.db()), now_(), {}};
    if (auto s = body(txn); !s) return s;  // the batch rolls back
    auto committed = batch->commit();
    if (!committed) return committed.error();
    outcomes = std::move(txn.outcomes);
    return Status::success();
  });
  if (status) notify(outcomes);
  return status;
}

TimePoint Outbox::retryAt(TimePoint now, int attempts) {
  const double unit = random_ ? random_() : 0.0;
  return now + retryDelay(policy_, attempts, unit);
}

drivers::OutboundSms Outbox::outboundSms(const OutboxRow& row) {
  return drivers::OutboundSms{row.id, row.to, row.body, row.messageClass == MessageClass::kSafety};
}

// --- enqueue -------------------------------------------------------------------------------

Outbox::EnqueueOutcome Outbox::enqueueLocked(Database& db, AuditLog::Batch& batch,
                                             const OutboundRequest& request) {
  const TimePoint now = now_();
  Txn txn{db, batch, OutboxTable(db), now, {}};
  if (auto invalid = validateRequest(request, now); !invalid) {
    json::Object body{{"to", maskNumber(request.to)}, {"reason", invalid.message()}};
    if (isToken(request.id)) body["id"] = request.id;
    const std::string_view actor = !request.actor.empty() && json::isValidUtf8(request.actor)
                                       ? std::string_view(request.actor)
                                       : kOutboxActor;
    if (auto s = txn.audit("sms.out.refused", actor, std::move(body)); !s) {
      return {s.error(), false};
    }
    return {invalid.error(), true};
  }

  const std::string id = request.id.empty() ? makeId() : request.id;
  auto existing = txn.table.find(id);
  if (!existing) return {existing.error(), false};
  if (*existing) {
    const OutboxRow& row = **existing;
    if (row.to == request.to && row.body == request.body &&
        row.messageClass == request.messageClass) {
      return {id, false};  // asked again for the same message: one message
    }
    return {makeError(label(id) + "the id is already used for a different message"), false};
  }

  auto segments = drivers::countSegments(request.body);
  if (!segments) return {makeError(label(id) + "body " + segments.message()), false};

  OutboxRow row;
  row.id = id;
  row.to = request.to;
  row.body = request.body;
  row.messageClass = request.messageClass;
  row.segments = *segments;
  row.ref = request.ref;
  row.state = OutboxState::kQueued;
  row.nextAttemptAt = std::max(now, request.notBefore.value_or(now));
  row.expiresAt = request.expiresAt;
  row.createdAt = now;
  row.updatedAt = now;
  auto seq = txn.table.insert(row);
  if (!seq) return {seq.error(), false};

  json::Object body{{"id", id},
                    {"to", maskNumber(request.to)},
                    {"class", std::string(messageClassName(request.messageClass))},
                    {"segments", row.segments},
                    {"chars", static_cast<std::int64_t>(drivers::countCodePoints(request.body))}};
  if (!request.ref.empty()) body["ref"] = request.ref;
  if (request.notBefore && *request.notBefore > now) {
    body["not_before"] = formatTimestamp(*request.notBefore);
  }
  if (auto s = txn.audit("sms.out", request.actor, std::move(body)); !s) return {s.error(), false};
  wake();
  return {id, false};
}

Result<std::string> Outbox::enqueueIn(Database& db, AuditLog::Batch& batch,
                                      const OutboundRequest& request) {
  return enqueueLocked(db, batch, request).id;
}

Result<std::string> Outbox::enqueue(const OutboundRequest& request) {
  Result<std::string> result = makeError("outbound SMS: not stored");
  Status status = store_.run([&](SiteStore& store) -> Status {
    auto batch = store.log().begin();
    if (!batch) return batch.error();
    EnqueueOutcome outcome = enqueueLocked(store.db(), *batch, request);
    if (!outcome.id && !outcome.refused) return outcome.id.error();  // rolls back
    auto committed = batch->commit();  // the row, or only the refusal's entry
    if (!committed) return committed.error();
    result = std::move(outcome.id);
    return Status::success();
  });
  if (!status) return status.error();
  return result;
}

// --- queries and caller actions ------------------------------------------------------------------

Result<std::optional<OutboxRow>> Outbox::find(std::string_view id) {
  Result<std::optional<OutboxRow>> result = std::optional<OutboxRow>();
  Status status = store_.run([&](SiteStore& store) -> Status {
    result = OutboxTable(store.db()).find(id);
    return Status::success();
  });
  if (!status) return status.error();
  return result;
}

Result<std::vector<OutboxRow>> Outbox::list(const OutboxQuery& query) {
  Result<std::vector<OutboxRow>> result = std::vector<OutboxRow>();
  Status status = store_.run([&](SiteStore& store) -> Status {
    result = OutboxTable(store.db()).list(query);
    return Status::success();
  });
  if (!status) return status.error();
  return result;
}

Status Outbox::withdraw(std::string_view id, std::string_view reason) {
  return transact([&](Txn& txn) -> Status {
    auto found = txn.table.find(id);
    if (!found) return found.error();
    if (!*found) return makeError("no outbound SMS with id " + std::string(id));
    OutboxRow& row = **found;
    if (row.state != OutboxState::kQueued && row.state != OutboxState::kHeld) {
      return makeError("SMS " + row.id + " cannot be withdrawn: it is already " +
                       std::string(outboxStateName(row.state)));
    }
    row.state = OutboxState::kWithdrawn;
    row.lastError = reason.empty() ? "withdrawn" : std::string(reason);
    row.updatedAt = txn.now;
    row.finalAt = txn.now;
    if (auto s = txn.table.update(row); !s) return s;
    txn.outcomes.push_back(row);
    return Status::success();
  });
}

Result<int> Outbox::hold(std::optional<MessageClass> only, std::string_view reason) {
  int count = 0;
  Status status = transact([&](Txn& txn) -> Status {
    auto rows = txn.table.inState(OutboxState::kQueued, only);
    if (!rows) return rows.error();
    for (OutboxRow& row : *rows) {
      row.state = OutboxState::kHeld;
      row.holdReason = std::string(reason);
      row.updatedAt = txn.now;
      if (auto s = txn.table.update(row); !s) return s;
    }
    count = static_cast<int>(rows->size());
    return Status::success();
  });
  if (!status) return status.error();
  return count;
}

Result<int> Outbox::release(std::optional<MessageClass> only) {
  int count = 0;
  Status status = transact([&](Txn& txn) -> Status {
    auto rows = txn.table.inState(OutboxState::kHeld, only);
    if (!rows) return rows.error();
    for (OutboxRow& row : *rows) {
      row.state = OutboxState::kQueued;
      row.holdReason.clear();
      row.nextAttemptAt = std::max(row.nextAttemptAt, txn.now);
      row.updatedAt = txn.now;
      if (auto s = txn.table.update(row); !s) return s;
    }
    count = static_cast<int>(rows->size());
    return Status::success();
  });
  if (!status) return status.error();
  if (count > 0) wake();
  return count;
}

// --- the dispatcher's steps ----------------------------------------------------------------------

Result<std::optional<OutboxRow>> Outbox::nextInDoubt() {
  Result<std::optional<OutboxRow>> result = std::optional<OutboxRow>();
  Status status = store_.run([&](SiteStore& store) -> Status {
    result = OutboxTable(store.db()).firstDue(OutboxState::kSending, now_());
    return Status::success();
  });
  if (!status) return status.error();
  return result;
}

Result<std::optional<TimePoint>> Outbox::nextDue() {
  Result<std::optional<TimePoint>> result = std::optional<TimePoint>();
  Status status = store_.run([&](SiteStore& store) -> Status {
    result = OutboxTable(store.db()).earliestDue();
    return Status::success();
  });
  if (!status) return status.error();
  return result;
}

Status Outbox::fail(Txn& txn, OutboxRow& row, std::string reason) {
  row.state = OutboxState::kFailed;
  row.lastError = std::move(reason);
  row.updatedAt = txn.now;
  row.finalAt = txn.now;
  if (auto s = txn.table.update(row); !s) return s;
  json::Object body{{"id", row.id},
                    {"to", maskNumber(row.to)},
                    {"state", std::string(outboxStateName(row.state))},
                    {"attempts", row.attempts},
                    {"reason", row.lastError}};
  if (!row.gateway.empty()) body["gateway"] = row.gateway;
  if (auto s = txn.audit("sms.out.failed", kOutboxActor, std::move(body)); !s) return s;
  txn.outcomes.push_back(row);
  return Status::success();
}

Result<std::optional<OutboxRow>> Outbox::claimNext() {
  // Expired rows are failed on the way, a bounded number per transaction so that one audit batch
  // never overflows (kMaxBatchEntries) however many expired at once.
  constexpr int kMaxExpiredPerTransaction = 64;
  std::optional<OutboxRow> claimed;
  bool more = true;
  while (more && !claimed) {
    more = false;
    Status status = transact([&](Txn& txn) -> Status {
      for (int expired = 0;;) {
        auto due = txn.table.firstDue(OutboxState::kQueued, txn.now);
        if (!due) return due.error();
        if (!*due) return Status::success();
        OutboxRow& row = **due;
        if (row.expiresAt && *row.expiresAt <= txn.now) {
          if (++expired > kMaxExpiredPerTransaction) {
            more = true;  // commit these and go on in a new transaction
            return Status::success();
          }
          const std::string reason =
              "expired at " + formatTimestamp(*row.expiresAt) + " before it could be sent";
          if (auto s = fail(txn, row, reason); !s) return s;
          continue;
        }
        row.state = OutboxState::kSending;
        row.attempts += 1;
        row.reconcileAttempts = 0;
        if (!row.firstAttemptAt) row.firstAttemptAt = txn.now;
        row.nextAttemptAt = txn.now;  // if this process dies now, the row is in doubt at once
        row.updatedAt = txn.now;
        if (auto s = txn.table.update(row); !s) return s;
        claimed = row;
        return Status::success();
      }
    });
    if (!status) return status.error();
  }
  return claimed;
}

Result<OutboxRow> Outbox::reloadInState(Txn& txn, const OutboxRow& expected) {
  auto found = txn.table.find(expected.id);
  if (!found) return found.error();
  if (!*found) return makeError("SMS " + expected.id + " is gone from the outbox");
  if ((*found)->state != OutboxState::kSending || (*found)->attempts != expected.attempts) {
    return makeError("SMS " + expected.id + " is no longer being sent (it is " +
                     std::string(outboxStateName((*found)->state)) +
                     "); this outcome is not recorded");
  }
  return std::move(**found);
}

Status Outbox::markAccepted(Txn& txn, OutboxRow& row, std::string_view gateway,
                            const drivers::SendAccepted& accepted) {
  row.state = OutboxState::kSent;
  row.gateway = std::string(gateway);
  row.providerId = sanitizeLine(accepted.providerId, kMaxTokenLength);
  if (accepted.segments > 0) row.segments = accepted.segments;
  row.lastError.clear();
  row.sentAt = txn.now;
  row.updatedAt = txn.now;
  if (auto s = txn.table.update(row); !s) return s;
  txn.outcomes.push_back(row);
  if (row.providerId.empty()) return Status::success();
  // Reports that overtook the send's own answer.
  auto early = txn.table.unappliedReports(row.gateway, row.providerId);
  if (!early) return early.error();
  std::sort(early->begin(), early->end(), [](const StoredReport& a, const StoredReport& b) {
    const auto rank = [](const StoredReport& r) {
      auto target = reportTarget(r.report.state);
      return target ? outboxStateRank(*target) : 0;
    };
    return rank(a) < rank(b);
  });
  for (const StoredReport& r : *early) {
    if (auto s = applyReportTo(txn, row, r.report); !s) return s;
  }
  return Status::success();
}

Status Outbox::markUncertain(Txn& txn, OutboxRow& row, std::string_view gateway) {
  const bool resend =
      row.messageClass == MessageClass::kSafety && row.attempts < policy_.maxAttempts;
  if (row.gateway.empty()) row.gateway = std::string(gateway);
  row.updatedAt = txn.now;
  if (resend) {
    row.state = OutboxState::kQueued;
    row.nextAttemptAt = txn.now;
    row.lastError = "the gateway cannot tell whether it took this safety alert; sending it again";
  } else {
    row.state = OutboxState::kSent;
    row.uncertain = true;
    row.sentAt = txn.now;
    row.lastError =
        "the gateway cannot tell whether it took this message; counted as sent and not sent "
        "again";
  }
  if (auto s = txn.table.update(row); !s) return s;
  json::Object body{{"id", row.id},
                    {"to", maskNumber(row.to)},
                    {"gateway", row.gateway},
                    {"attempts", row.attempts},
                    {"resent", resend}};
  if (auto s = txn.audit("sms.out.uncertain", kOutboxActor, std::move(body)); !s) return s;
  if (!resend) txn.outcomes.push_back(row);
  return Status::success();
}

Status Outbox::recordSend(const OutboxRow& claimed, std::string_view gateway,
                          const drivers::SendResult& result) {
  return transact([&](Txn& txn) -> Status {
    auto current = reloadInState(txn, claimed);
    if (!current) return current.error();
    OutboxRow& row = *current;
    if (result.ok()) return markAccepted(txn, row, gateway, result.accepted());

    const drivers::SendError& error = result.error();
    const std::string message =
        error.message.empty() ? std::string("send failed") : sanitizeLine(error.message);
    row.updatedAt = txn.now;
    if (error.maybeAccepted) {
      // Ask the gateway before sending again; stays in doubt until it answers.
      row.gateway = std::string(gateway);
      row.lastError = message + " (may have been accepted; checking with the gateway)";
      row.nextAttemptAt = retryAt(txn.now, row.attempts);
      return txn.table.update(row);
    }
    if (!error.retryable) return fail(txn, row, message);
    if (row.attempts >= policy_.maxAttempts) {
      return fail(txn, row,
                  message + " (gave up after " + std::to_string(row.attempts) + " attempts)");
    }
    row.state = OutboxState::kQueued;
    row.lastError = message;
    row.nextAttemptAt = retryAt(txn.now, row.attempts);
    return txn.table.update(row);
  });
}

Status Outbox::recordReconcile(const OutboxRow& inDoubt, std::string_view gateway,
                               const drivers::ReconcileResult& result) {
  using Kind = drivers::ReconcileResult::Kind;
  return transact([&](Txn& txn) -> Status {
    auto current = reloadInState(txn, inDoubt);
    if (!current) return current.error();
    OutboxRow& row = *current;
    row.updatedAt = txn.now;
    switch (result.kind) {
      case Kind::kAccepted:
        return markAccepted(txn, row, gateway, drivers::SendAccepted{result.providerId, 0});
      case Kind::kNotFound:
        if (row.attempts >= policy_.maxAttempts) {
          return fail(txn, row,
                      "the gateway never received it (gave up after " +
                          std::to_string(row.attempts) + " attempts)");
        }
        row.state = OutboxState::kQueued;
        row.reconcileAttempts = 0;
        row.nextAttemptAt = txn.now;
        row.lastError = "the gateway never received it; sending it again";
        return txn.table.update(row);
      case Kind::kUnknown:
        return markUncertain(txn, row, gateway);
      case Kind::kUnavailable:
        row.reconcileAttempts += 1;
        if (row.reconcileAttempts >= policy_.maxAttempts) return markUncertain(txn, row, gateway);
        row.nextAttemptAt = retryAt(txn.now, row.reconcileAttempts);
        row.lastError = "could not ask the gateway whether it took this message; asking again";
        return txn.table.update(row);
    }
    return makeError("SMS " + row.id + ": unknown reconcile answer");
  });
}

// --- delivery reports ----------------------------------------------------------------------------

Status Outbox::applyReportTo(Txn& txn, OutboxRow& row, const drivers::DeliveryReport& report) {
  if (auto s = txn.table.markReportApplied(row.gateway, report); !s) return s;
  const auto target = reportTarget(report.state);
  if (!target || outboxStateRank(*target) <= outboxStateRank(row.state) ||
      row.state == OutboxState::kWithdrawn) {
    return Status::success();  // a duplicate, or older news than the row already has
  }
  const bool correctsFailure = *target == OutboxState::kDelivered && isFailure(row.state);
  row.state = *target;
  row.updatedAt = txn.now;
  if (*target != OutboxState::kSent) row.finalAt = txn.now;
  if (isFailure(*target)) {
    row.errorCode = report.errorCode;
    row.lastError = "the provider reported it " + std::string(outboxStateName(*target)) +
                    (report.errorCode.empty() ? "" : " (error " + report.errorCode + ")");
  }
  if (auto s = txn.table.update(row); !s) return s;
  txn.outcomes.push_back(row);
  if (isFailure(*target)) {
    json::Object body{{"id", row.id},
                      {"to", maskNumber(row.to)},
                      {"state", std::string(outboxStateName(row.state))},
                      {"attempts", row.attempts},
                      {"gateway", row.gateway},
                      {"provider_id", row.providerId},
                      {"reason", row.lastError}};
    if (!row.errorCode.empty()) body["error_code"] = row.errorCode;
    return txn.audit("sms.out.failed", "sms:" + row.gateway, std::move(body));
  }
  if (correctsFailure) {
    // The log said it failed; say that it arrived after all.
    return txn.audit(
        "sms.out.delivered", "sms:" + row.gateway,
        json::Object{{"id", row.id}, {"gateway", row.gateway}, {"provider_id", row.providerId}});
  }
  return Status::success();
}

Status Outbox::applyReport(std::string_view gateway, const drivers::DeliveryReport& report) {
  if (!isToken(report.providerId)) {
    return makeError("delivery report from " + std::string(gateway) +
                     ": provider id is missing or not printable ASCII");
  }
  if (!report.errorCode.empty() && !isToken(report.errorCode, 32)) {
    return makeError("delivery report " + report.providerId + " from " + std::string(gateway) +
                     ": error code is not printable ASCII");
  }
  return transact([&](Txn& txn) -> Status {
    auto fresh = txn.table.insertReport(gateway, report, txn.now);
    if (!fresh) return fresh.error();
    if (!*fresh) return Status::success();  // the same report again
    auto row = txn.table.findByProvider(gateway, report.providerId);
    if (!row) return row.error();
    if (!*row) return Status::success();  // kept until the send that it reports on is recorded
    return applyReportTo(txn, **row, report);
  });
}

}  // namespace atoms::sms::mailbox
