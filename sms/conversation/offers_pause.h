// OffersPause: the people whose shift offers (and notices) are paused because they sent a stop-like
// reply that is not a clear opt-out (seed 001 EC-RISK-005, RISK-02; sms/text/stop_like.h): "treated
// as stop for that action type until the person or MoR clears it". Kept by phone number, like
// the opt-out (table sms_offers_paused, migration 18). Outreach reads it with the recipient's
// other facts and refuses every offer and notice to a paused person, also one held before the
// pause ("outreach.offers_paused", sms/outreach/outreach_policy.h); thread replies, safety alerts
// and escalations still reach them. The call-out desk does not offer them shifts at all
// (domain/callout/candidates.h, reason "offers_paused"). The conversation layer pauses (asking
// once, in-thread) and resumes on OFFERS ON or START; a manager of record may clear it with
// resume() (audited by the caller, "sms.offers_resumed").
//
// Threading: like the Database it wraps (inside StoreRunner::run). Errors: SQL errors as the
// Database reports them.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "base/result.h"
#include "base/unix_time.h"
#include "store/database.h"

namespace atoms::sms::conversation {

class OffersPause {
 public:
  explicit OffersPause(Database& db) : db_(db) {}

  // Pauses offers to the number; false when they were paused already (nothing changes).
  // `words`: the stop-like words that paused them (folded), kept for the record.
  Result<bool> pause(std::string_view phone, atoms::TimePoint at, std::string_view words);
  // Since when offers to the number are paused, if they are.
  Result<std::optional<atoms::TimePoint>> pausedSince(std::string_view phone);
  // Ends the pause; false when there was none.
  Result<bool> resume(std::string_view phone);

 private:
  Database& db_;
};

}  // namespace atoms::sms::conversation
