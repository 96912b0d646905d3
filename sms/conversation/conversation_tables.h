// ConversationTables: the SQL of the conversation layer's tables (migration 6 "sms_conversation",
// store/migrations.cpp) over one Database. No policy here: Outreach and Conversation decide, this
// only reads and writes rows.
//
// - sms_contact_state: per phone number (so it covers numbers not on the roster too): the opt-out
//   and whether it was confirmed, the latest inbound message (the thread window), the local day
//   an unknown number last got its one reply.
// - sms_outreach: every outgoing message the Outreach entry point decided on, with its state
//   (queued = handed to the outbox, held = waiting here for its hold to end, refused, withdrawn),
//   the request as asked (so a release can decide again), the local day it was queued on (caps)
//   and the audit seq of its latest receipt (WHY).
//
// Threading: like the Database it wraps (used only inside StoreRunner::run). Errors: SQL errors as
// the Database reports them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"
#include "base/unix_time.h"
#include "sms/outreach/outreach_policy.h"
#include "store/database.h"

namespace atoms::sms::conversation {

using atoms::TimePoint;

struct ContactState {
  std::string phone;
  bool optedOut = false;
  std::optional<TimePoint> optedOutAt;
  std::string optOutKeyword;     // the words that opted out ("STOP", "ALTO")
  bool optOutConfirmed = false;  // the one confirmation was queued since the latest opt-out
  std::optional<TimePoint> lastInboundAt;
  std::string unknownReplyDay;  // "YYYY-MM-DD" (site time) of the last reply to an unknown number
};

enum class LedgerState { kQueued, kHeld, kRefused, kWithdrawn };
// "queued", "held", "refused", "withdrawn"; and back.
std::string_view ledgerStateName(LedgerState state);
std::optional<LedgerState> parseLedgerState(std::string_view name);

struct LedgerRow {
  std::int64_t seq = 0;
  std::string id;  // the outbox id when queued
  std::string phone;
  std::string personId;  // empty for a number not on the roster
  MessageClass kind = MessageClass::kNotice;
  bool urgent = false;
  std::string body;
  std::string ref;
  std::optional<std::int64_t> inReplyTo;  // sms_inbox id
  std::string sources;                    // the caller's receipt sources, canonical JSON array
  std::string actor;
  std::optional<TimePoint> notAfter;
  bool whyReply = false;  // an answer to WHY (never itself the subject of a later WHY)
  LedgerState state = LedgerState::kQueued;
  std::string reason;                  // the latest decision's reason code
  std::optional<TimePoint> holdUntil;  // held: decide again then; nullopt: until released
  bool countsCap = false;
  std::string localDay;  // "YYYY-MM-DD" of the latest decision
  std::optional<std::int64_t> receiptSeq;
  int decisions = 0;
  TimePoint createdAt{};
  TimePoint updatedAt{};
};

class ConversationTables {
 public:
  explicit ConversationTables(Database& db) : db_(db) {}

  // The stored state, or a fresh one (not opted out, no inbound) for a number never seen.
  Result<ContactState> contactState(std::string_view phone);
  Status saveContactState(const ContactState& state);
  // Numbers not opted out whose latest message to the box is at or after `since`, oldest first.
  Result<std::vector<std::string>> activeSince(TimePoint since);

  Result<std::optional<LedgerRow>> findMessage(std::string_view id);
  Result<std::int64_t> insertMessage(const LedgerRow& row);
  Status updateMessage(const LedgerRow& row);  // every mutable column of row.seq
  // Queued messages to `phone` decided on local day `day`: all of `kind` when given, else those
  // that count toward the cap.
  Result<int> countQueued(std::string_view phone, std::string_view day,
                          std::optional<MessageClass> kind);
  // Held rows due at `now` (hold_until <= now), and the freeze-held ones (no hold_until) when
  // `withFrozen`; oldest first, at most `limit`.
  Result<std::vector<LedgerRow>> dueHeld(TimePoint now, bool withFrozen, std::size_t limit);
  // The earliest hold_until of a held row.
  Result<std::optional<TimePoint>> earliestHoldEnd();
  // The newest queued message to `phone` that has a receipt and is not a WHY reply.
  Result<std::optional<LedgerRow>> lastExplainable(std::string_view phone);
  // Rows to `phone` (every phone when empty), newest first.
  Result<std::vector<LedgerRow>> list(std::string_view phone, std::size_t limit);

 private:
  Database& db_;
};

}  // namespace atoms::sms::conversation
