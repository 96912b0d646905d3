// ParkedMessages: inbound texts parked while the kill switch freezes writes (L2 and above, seed
// 001 section 7: "every new inbox item" is frozen; decisions wait). A parked text was answered
// ("paused; here is your human") and marked handled, and its inbox id is kept here (table
// sms_parked, migration 16) until the freeze lifts: then it is handled again from scratch, so
// everything is checked at that moment (who may approve, the labor rules, expiry, the gate),
// unless it waited longer than the frozen-hold limit (ConversationSettings::frozenHoldLimit, seed
// 001 section 7: 48 h by default): then it is withdrawn (audited), like held outreach.
//
// Threading: like the Database it wraps (inside StoreRunner::run). Errors: SQL errors as the
// Database reports them.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "base/result.h"
#include "base/unix_time.h"
#include "store/database.h"

namespace atoms::sms::conversation {

struct ParkedMessage {
  std::int64_t inboxId = 0;
  atoms::TimePoint parkedAt;
};

// The id of the "paused; here is your human" answer to a parked message: "parked:inbox-<id>" (not
// the id its real handling takes later).
std::string parkedReplyId(std::int64_t inboxId);

class ParkedMessages {
 public:
  explicit ParkedMessages(Database& db) : db_(db) {}

  // Parks the inbox message (parking it again changes nothing).
  Status park(std::int64_t inboxId, atoms::TimePoint at);
  // Every parked message, oldest first.
  Result<std::vector<ParkedMessage>> all();
  Status remove(std::int64_t inboxId);
  // Whether the inbox message was parked before: its parked answer is in the outreach ledger (so
  // also after it was released, and across a restart).
  Result<bool> wasParked(std::int64_t inboxId);

 private:
  Database& db_;
};

}  // namespace atoms::sms::conversation
