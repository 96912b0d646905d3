// Inbox: the inbound half of the mailbox and the SmsSink a gateway delivers into (DESIGN.md
// section 2, "store first, then act"). acceptInbound() returns only once the message is committed
// to table sms_inbox with its "sms.in" audit entry, so the driver acknowledges (webhook 2xx, modem
// delete) only what is durable; the conversation layer then reads unhandled rows and marks them
// handled, so a crash between the two re-handles instead of losing.
//
// - Dedup: one row per (gateway, provider id). A redelivery returns ok and stores nothing.
// - Bad input (body over 1,600 characters, invalid UTF-8, NUL bytes, a sender that is not a
//   printable address) is refused for good: a row without the body, an "sms.in.refused" entry
//   naming the problem, and ok to the driver so the peer stops redelivering. The row is in state
//   `refused`, except a text refused only for its length from a usable sender (possible through
//   the modem): that row is `new`, with its refusal and no body, so the conversation layer tells
//   the sender once that it was too long. A message without a provider id cannot be deduplicated:
//   error, audited, nothing stored. Emoji and every script are accepted as they are.
// - Delivery reports are passed to the Outbox (Outbox::applyReport).
//
// Group commit (docs/sms-mailbox.md, "How inbound is committed"): concurrent acceptInbound() calls
// are committed together (base/group_commit.h): one transaction, one signed checkpoint and one
// fsync for up to maxBatch messages, each caller answered with its own Status once the batch that
// holds its message has committed. A redelivery or a refused message in a batch does not fail the
// others; a store failure fails every message of its batch and stores none of them.
//
// Threading: thread-safe; every call runs through the StoreRunner. acceptInbound() must not be
// called from inside a store function (it would wait for a batch that waits for the store); on the
// writer thread itself it commits its message alone. The stored-listener is called after the
// commit on the calling (driver) thread, never under a lock; it must be quick (post an event to the
// engine). Errors: one line naming the message.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "base/group_commit.h"
#include "base/result.h"
#include "base/unix_time.h"
#include "drivers/sms/sms_gateway.h"
#include "sms/mailbox/outbox.h"
#include "store/audit_log.h"
#include "store/database.h"
#include "store/store_runner.h"

namespace atoms::sms::mailbox {

enum class InboxState { kNew, kHandled, kRefused };
std::string_view inboxStateName(InboxState state);  // "new", "handled", "refused"

struct InboxRow {
  std::int64_t id = 0;  // arrival order
  std::string gateway;
  std::string providerId;
  std::string from;
  std::string to;
  std::string body;  // empty when refused
  InboxState state = InboxState::kNew;
  // Why it was refused, one line. Also set on a `new` row whose text alone was refused for its
  // length: the row has no body and is there to be answered.
  std::string refusal;
  TimePoint receivedAt{};
  TimePoint storedAt{};
  std::optional<TimePoint> handledAt;
};

class Inbox final : public drivers::SmsSink {
 public:
  // The sink of the gateway called `gateway` (its name(): the dedup and report namespace).
  // `store` and `outbox` must outlive the Inbox. maxBatch bounds the messages committed together
  // (1 commits each message in its own transaction, as before group commit).
  Inbox(StoreRunner& store, Outbox& outbox, std::string gateway, NowFunction now,
        std::size_t maxBatch = kMaxGroupCommitItems);

  // Called with each newly stored row (new or refused; not for duplicates).
  void setOnStored(std::function<void(const InboxRow&)> listener);

  Status acceptInbound(const drivers::InboundSms& message) override;
  Status acceptReport(const drivers::DeliveryReport& report) override;

  const std::string& gateway() const { return gateway_; }

  // One inbound message's place in a batch: the message in, the row stored for it out.
  struct Arrival {
    const drivers::InboundSms* message = nullptr;
    std::optional<InboxRow> stored;  // set when a row was stored (not for a redelivery)
  };
  // Stores up to kMaxGroupCommitItems messages in one transaction with one signed checkpoint and
  // sets each one's result: ok for a stored, refused or already stored message; an error for a
  // message without a provider id (audited, nothing stored: the others are unaffected) and, when
  // the store fails, for every message (none stored). Does not call the listener. What
  // acceptInbound() runs for each batch; public for the benchmark and the tests.
  void commitBatch(std::span<Arrival* const> arrivals, std::span<Status> results);
  // acceptInbound() calls waiting for their batch or in the one committing (tests, metrics).
  std::size_t arrivalsInFlight() const { return arrivals_.queued(); }

  // --- The conversation layer's side (rows of every gateway) ---
  // State `new`, oldest first.
  Result<std::vector<InboxRow>> unhandled(std::size_t limit);
  Result<std::optional<InboxRow>> find(std::int64_t id);
  // new -> handled; handling twice is ok. Error for an unknown or refused id.
  Status markHandled(std::int64_t id);
  // handled -> new, for a message parked while writes were frozen (kill switch L2+) that is to be
  // handled again now (conversation/parking.h); new stays new. Error for an unknown or refused id.
  Status reopen(std::int64_t id);

 private:
  // Inserts one new message's row (kNew, or kRefused for bad input) and adds its audit entry.
  Result<InboxRow> storeInbound(Database& db, AuditLog::Batch& batch,
                                const drivers::InboundSms& message, TimePoint now,
                                const std::string& ts);

  StoreRunner& store_;
  Outbox& outbox_;
  std::string gateway_;
  NowFunction now_;
  std::mutex listenerMutex_;
  std::function<void(const InboxRow&)> onStored_;
  GroupCommit<Arrival> arrivals_;
};

}  // namespace atoms::sms::mailbox
