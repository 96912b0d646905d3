#include "sms/mailbox/inbox.h"

#include "base/name_table.h"
#include "sms/mailbox/message_checks.h"
#include "store/audit_entry.h"
#include "store/row_reader.h"

namespace atoms::sms::mailbox {
namespace {

// Longest address kept: E.164 is at most 16 bytes, alphanumeric sender ids 11; leave room.
constexpr std::size_t kMaxAddressLength = 32;

constexpr std::string_view kInboxColumns =
    "id, gateway, provider_id, from_number, to_number, body, state, refusal, received_at,"
    " stored_at, handled_at";

constexpr NameTable<InboxState, 3> kInboxStateNames{{{InboxState::kNew, "new"},
                                                     {InboxState::kHandled, "handled"},
                                                     {InboxState::kRefused, "refused"}}};

Result<InboxRow> readInboxRow(RowReader& r) {
  InboxRow row;
  row.id = r.int64();
  row.gateway = r.text();
  row.providerId = r.text();
  row.from = r.text();
  row.to = r.text();
  row.body = r.text();
  auto state = r.named(kInboxStateNames);
  if (!state) return makeError("SMS inbox row " + std::to_string(row.id) + " has an unknown state");
  row.state = *state;
  row.refusal = r.text();
  row.receivedAt = r.time();
  row.storedAt = r.time();
  row.handledAt = r.optionalTime();
  return row;
}

Result<std::optional<InboxRow>> findRow(Database& db, std::int64_t id) {
  auto stmt = db.cached("SELECT " + std::string(kInboxColumns) + " FROM sms_inbox WHERE id = ?");
  if (!stmt) return stmt.error();
  stmt->bind(1, id);
  return readFirst(*stmt, readInboxRow);
}

Result<bool> exists(Database& db, std::string_view gateway, std::string_view providerId) {
  auto stmt = db.cached("SELECT 1 FROM sms_inbox WHERE gateway = ? AND provider_id = ?");
  if (!stmt) return stmt.error();
  stmt->bind(1, gateway).bind(2, providerId);
  return stmt->step();
}

// An address is kept only when it is a plain printable token (E.164, short code, sender id).
Status checkAddress(std::string_view address, std::string_view field) {
  if (!isToken(address, kMaxAddressLength)) {
    return makeError(std::string(field) + " is missing or not a phone number");
  }
  return Status::success();
}

Status checkInbound(const drivers::InboundSms& m) {
  if (auto s = checkAddress(m.from, "sender"); !s) return s;
  if (!m.to.empty()) {
    if (auto s = checkAddress(m.to, "recipient"); !s) return s;
  }
  return checkBody(m.body);
}

// Why a message without a usable provider id is refused (it cannot be deduplicated).
std::string unidentifiedReason(const drivers::InboundSms& m, const std::string& gateway) {
  return "inbound SMS from " + maskNumber(m.from) + " via " + gateway +
         ": provider id is missing or not printable ASCII";
}

}  // namespace

std::string_view inboxStateName(InboxState state) { return nameOf(kInboxStateNames, state); }

Inbox::Inbox(StoreRunner& store, Outbox& outbox, std::string gateway, NowFunction now,
             std::size_t maxBatch)
    : store_(store),
      outbox_(outbox),
      gateway_(std::move(gateway)),
      now_(std::move(now)),
      arrivals_(maxBatch, [this](std::span<Arrival* const> arrivals, std::span<Status> results) {
        commitBatch(arrivals, results);
      }) {}

void Inbox::setOnStored(std::function<void(const InboxRow&)> listener) {
  std::lock_guard<std::mutex> lock(listenerMutex_);
  onStored_ = std::move(listener);
}

Status Inbox::acceptInbound(const drivers::InboundSms& message) {
  Arrival arrival{&message, std::nullopt};
  Status status;
  if (store_.onWriterThread()) {
    // A follower here would wait for a leader that waits for this thread: commit alone.
    Arrival* one[] = {&arrival};
    Status result[1];
    commitBatch(one, result);
    status = std::move(result[0]);
  } else {
    status = arrivals_.submit(arrival);
  }
  if (!status) return status;
  if (arrival.stored) {
    std::function<void(const InboxRow&)> listener;
    {
      std::lock_guard<std::mutex> lock(listenerMutex_);
      listener = onStored_;
    }
    if (listener) listener(*arrival.stored);
  }
  return Status::success();
}

Result<InboxRow> Inbox::storeInbound(Database& db, AuditLog::Batch& batch,
                                     const drivers::InboundSms& message, TimePoint now,
                                     const std::string& ts) {
  InboxRow row;
  row.gateway = gateway_;
  row.providerId = message.providerId;
  row.receivedAt = message.receivedAt == TimePoint{} ? now : message.receivedAt;
  row.storedAt = now;
  Status valid = checkInbound(message);
  if (valid) {
    row.from = message.from;
    row.to = message.to;
    row.body = message.body;
    row.state = InboxState::kNew;
  } else {
    // Addresses are kept only if usable (a refusal may be answered); never the body.
    row.from = checkAddress(message.from, "sender") ? message.from : "";
    row.to = checkAddress(message.to, "recipient") ? message.to : "";
    // Too long from a usable sender (checkInbound checks the addresses first): the text is
    // refused, the row waits to be answered once ("too long, send a shorter one").
    row.state = valid.kind() == ErrorKind::kRefused ? InboxState::kNew : InboxState::kRefused;
    row.refusal = "inbound SMS " + message.providerId + " from " + maskNumber(message.from) + ": " +
                  valid.message();
  }

  auto insert = db.cached(
      "INSERT INTO sms_inbox(gateway, provider_id, from_number, to_number, body, state,"
      " refusal, received_at, stored_at) VALUES(?,?,?,?,?,?,?,?,?)");
  if (!insert) return insert.error();
  insert->bind(1, row.gateway).bind(2, row.providerId).bind(3, row.from).bind(4, row.to);
  if (valid) {
    insert->bind(5, row.body).bindNull(7);
  } else {
    insert->bindNull(5).bind(7, row.refusal);
  }
  insert->bind(6, inboxStateName(row.state)).bindTime(8, row.receivedAt).bindTime(9, row.storedAt);
  if (Status done = insert->run(); !done) return done.error();
  row.id = db.lastInsertRowid();

  json::Object body{{"id", row.id},
                    {"gateway", gateway_},
                    {"provider_id", row.providerId},
                    {"from", maskNumber(message.from)}};
  std::string_view kind = "sms.in";
  if (valid) {
    body["chars"] = static_cast<std::int64_t>(drivers::countCodePoints(row.body));
  } else {
    kind = "sms.in.refused";
    body["reason"] = valid.message();
  }
  if (auto seq = batch.add(ts, kind, "sms:" + gateway_, json::Value(std::move(body))); !seq) {
    return seq.error();
  }
  return row;
}

void Inbox::commitBatch(std::span<Arrival* const> arrivals, std::span<Status> results) {
  if (arrivals.size() > kMaxGroupCommitItems || results.size() != arrivals.size()) {
    const Error tooMany =
        makeError("SMS inbox: a batch holds 1 to " + std::to_string(kMaxGroupCommitItems) +
                  " messages, each with its result");
    std::fill(results.begin(), results.end(), Status(tooMany));
    return;
  }
  const std::string actor = "sms:" + gateway_;
  std::vector<std::optional<InboxRow>> rows(arrivals.size());  // per message, when stored
  Status status = store_.run([&](SiteStore& store) -> Status {
    const TimePoint now = now_();
    const std::string ts = formatTimestamp(now);
    Database& db = store.db();
    auto batch = store.log().begin();
    if (!batch) return batch.error();
    for (std::size_t i = 0; i < arrivals.size(); ++i) {
      const drivers::InboundSms& message = *arrivals[i]->message;
      rows[i].reset();
      if (!isToken(message.providerId)) {
        // Without its id a message cannot be deduplicated: refused so the peer retries, audited.
        json::Object body{{"gateway", gateway_},
                          {"from", maskNumber(message.from)},
                          {"reason", unidentifiedReason(message, gateway_)}};
        if (auto seq = batch->add(ts, "sms.in.refused", actor, std::move(body)); !seq) {
          return seq.error();
        }
        continue;
      }
      // Also true for a redelivery earlier in this batch: the transaction sees its own rows.
      auto duplicate = exists(db, gateway_, message.providerId);
      if (!duplicate) return duplicate.error();
      if (*duplicate) continue;  // already stored: the peer may ack again
      auto row = storeInbound(db, *batch, message, now, ts);
      if (!row) return row.error();
      rows[i] = std::move(*row);
    }
    auto committed = batch->commit();
    if (!committed) return committed.error();
    return Status::success();
  });
  for (std::size_t i = 0; i < arrivals.size(); ++i) {
    const drivers::InboundSms& message = *arrivals[i]->message;
    if (!isToken(message.providerId)) {
      const std::string reason = unidentifiedReason(message, gateway_);
      results[i] = makeError(
          status ? reason : reason + " (and auditing it failed: " + status.message() + ")");
    } else if (!status) {
      results[i] =
          makeError("inbound SMS " + message.providerId + " was not stored: " + status.message());
    } else {
      results[i] = Status::success();
      arrivals[i]->stored = std::move(rows[i]);
    }
  }
}

Status Inbox::acceptReport(const drivers::DeliveryReport& report) {
  Status status = outbox_.applyReport(gateway_, report);
  if (status || isToken(report.providerId)) return status;
  // A malformed report from outside: audited, nothing else stored.
  Status audited = store_.run([&](SiteStore& store) -> Status {
    auto seq =
        store.log().append(formatTimestamp(now_()), "sms.report.refused", "sms:" + gateway_,
                           json::Object{{"gateway", gateway_}, {"reason", status.message()}});
    if (!seq) return seq.error();
    return Status::success();
  });
  if (!audited)
    return makeError(status.message() + " (and auditing it failed: " + audited.message() + ")");
  return status;
}

Result<std::vector<InboxRow>> Inbox::unhandled(std::size_t limit) {
  std::vector<InboxRow> rows;
  Status status = store_.run([&](SiteStore& store) -> Status {
    auto stmt = store.db().cached("SELECT " + std::string(kInboxColumns) +
                                  " FROM sms_inbox WHERE state = 'new' ORDER BY id LIMIT ?");
    if (!stmt) return stmt.error();
    stmt->bind(1, static_cast<std::int64_t>(limit));
    auto read = readRows(*stmt, readInboxRow);
    if (!read) return read.error();
    rows = std::move(*read);
    return Status::success();
  });
  if (!status) return status.error();
  return rows;
}

Result<std::optional<InboxRow>> Inbox::find(std::int64_t id) {
  Result<std::optional<InboxRow>> result = std::optional<InboxRow>();
  Status status = store_.run([&](SiteStore& store) -> Status {
    result = findRow(store.db(), id);
    return Status::success();
  });
  if (!status) return status.error();
  return result;
}

Status Inbox::reopen(std::int64_t id) {
  return store_.run([&](SiteStore& store) -> Status {
    auto row = findRow(store.db(), id);
    if (!row) return row.error();
    if (!*row) return makeError("no inbound SMS with id " + std::to_string(id));
    if ((*row)->state == InboxState::kRefused) {
      return makeError("inbound SMS " + std::to_string(id) + " was refused; it cannot be reopened");
    }
    if ((*row)->state == InboxState::kNew) return Status::success();
    auto stmt =
        store.db().cached("UPDATE sms_inbox SET state = 'new', handled_at = NULL WHERE id = ?");
    if (!stmt) return stmt.error();
    stmt->bind(1, id);
    return stmt->run();
  });
}

Status Inbox::markHandled(std::int64_t id) {
  return store_.run([&](SiteStore& store) -> Status {
    auto row = findRow(store.db(), id);
    if (!row) return row.error();
    if (!*row) return makeError("no inbound SMS with id " + std::to_string(id));
    if ((*row)->state == InboxState::kRefused) {
      return makeError("inbound SMS " + std::to_string(id) +
                       " was refused; there is nothing to handle");
    }
    if ((*row)->state == InboxState::kHandled) return Status::success();
    auto stmt =
        store.db().cached("UPDATE sms_inbox SET state = 'handled', handled_at = ? WHERE id = ?");
    if (!stmt) return stmt.error();
    stmt->bind(1, toUnixMillis(now_())).bind(2, id);
    return stmt->run();
  });
}

}  // namespace atoms::sms::mailbox
