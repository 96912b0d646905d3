#include "sms/conversation/offers_pause.h"

namespace atoms::sms::conversation {

Result<bool> OffersPause::pause(std::string_view phone, atoms::TimePoint at,
                                std::string_view words) {
  auto stmt = db_.cached(
      "INSERT OR IGNORE INTO sms_offers_paused(phone, paused_at, words) VALUES(?, ?, ?)");
  if (!stmt) return stmt.error();
  stmt->bind(1, phone).bind(2, atoms::toUnixMillis(at)).bind(3, words);
  auto done = stmt->step();
  if (!done) return done.error();
  return db_.changes() > 0;
}

Result<std::optional<atoms::TimePoint>> OffersPause::pausedSince(std::string_view phone) {
  auto stmt = db_.cached("SELECT paused_at FROM sms_offers_paused WHERE phone = ?");
  if (!stmt) return stmt.error();
  stmt->bind(1, phone);
  auto row = stmt->step();
  if (!row) return row.error();
  if (!*row) return std::optional<atoms::TimePoint>();
  return std::optional<atoms::TimePoint>(atoms::fromUnixMillis(stmt->columnInt64(0)));
}

Result<bool> OffersPause::resume(std::string_view phone) {
  auto stmt = db_.cached("DELETE FROM sms_offers_paused WHERE phone = ?");
  if (!stmt) return stmt.error();
  stmt->bind(1, phone);
  auto done = stmt->step();
  if (!done) return done.error();
  return db_.changes() > 0;
}

}  // namespace atoms::sms::conversation
