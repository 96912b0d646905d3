#include "daemon/panel/sessions.h"

#include <sodium.h>

#include <array>

#include "base/unix_time.h"

namespace atoms::panel {
namespace {

constexpr std::size_t kSessionIdBytes = 32;
constexpr std::string_view kSessionColumns = "id_hash, person_id, method, created_at, last_seen_at";

std::string cookieAttributes() { return "; Path=/; Secure; HttpOnly; SameSite=Strict"; }

SessionRow readSessionRow(Statement& stmt) {
  SessionRow row;
  const Bytes hash = stmt.columnBlob(0);
  if (hash.size() == row.idHash.size()) std::copy(hash.begin(), hash.end(), row.idHash.begin());
  row.personId = stmt.columnText(1);
  row.method = stmt.columnText(2);
  row.createdAt = fromUnixMillis(stmt.columnInt64(3));
  row.lastSeenAt = fromUnixMillis(stmt.columnInt64(4));
  return row;
}

Result<std::vector<SessionRow>> collectSessions(Statement& stmt) {
  std::vector<SessionRow> out;
  for (;;) {
    auto row = stmt.step();
    if (!row) return row.error();
    if (!*row) return out;
    out.push_back(readSessionRow(stmt));
  }
}

}  // namespace

std::string newSessionValue(const SecureRandom& random) {
  std::array<std::uint8_t, kSessionIdBytes> id{};
  random(id);
  std::string value = toBase64Url(id);
  sodium_memzero(id.data(), id.size());
  return value;
}

std::optional<Hash32> sessionIdHash(std::string_view cookieValue) {
  if (cookieValue.size() != 43) return std::nullopt;
  auto bytes = fromBase64Url(cookieValue);
  if (!bytes || bytes->size() != kSessionIdBytes) return std::nullopt;
  const Hash32 h = sha256(*bytes);
  sodium_memzero(bytes->data(), bytes->size());
  return h;
}

std::string sessionCookie(std::string_view cookieValue) {
  return std::string(kSessionCookieName) + "=" + std::string(cookieValue) + cookieAttributes();
}

std::string clearedSessionCookie() {
  return std::string(kSessionCookieName) + "=; Max-Age=0" + cookieAttributes();
}

std::string sessionValueFromCookieHeader(std::string_view header) {
  while (!header.empty()) {
    const std::size_t end = header.find(';');
    std::string_view pair = header.substr(0, end);
    header = end == std::string_view::npos ? std::string_view() : header.substr(end + 1);
    while (!pair.empty() && pair.front() == ' ') pair.remove_prefix(1);
    while (!pair.empty() && pair.back() == ' ') pair.remove_suffix(1);
    const std::size_t eq = pair.find('=');
    if (eq == std::string_view::npos) continue;
    if (pair.substr(0, eq) == kSessionCookieName) return std::string(pair.substr(eq + 1));
  }
  return {};
}

Status insertSession(Database& db, const SessionRow& row) {
  auto stmt = db.cached(
      "INSERT INTO panel_session(id_hash, person_id, method, created_at, last_seen_at)"
      " VALUES(?, ?, ?, ?, ?)");
  if (!stmt) return stmt.error();
  stmt->bindBlob(1, row.idHash)
      .bind(2, row.personId)
      .bind(3, row.method)
      .bindTime(4, row.createdAt)
      .bindTime(5, row.lastSeenAt);
  return stmt->run();
}

Result<std::optional<SessionRow>> findSession(Database& db, const Hash32& idHash) {
  auto stmt =
      db.cached("SELECT " + std::string(kSessionColumns) + " FROM panel_session WHERE id_hash = ?");
  if (!stmt) return stmt.error();
  stmt->bindBlob(1, idHash);
  auto row = stmt->step();
  if (!row) return row.error();
  if (!*row) return std::optional<SessionRow>();
  return std::optional<SessionRow>(readSessionRow(*stmt));
}

Status touchSession(Database& db, const Hash32& idHash, TimePoint at) {
  auto stmt = db.cached("UPDATE panel_session SET last_seen_at = ? WHERE id_hash = ?");
  if (!stmt) return stmt.error();
  stmt->bindTime(1, at).bindBlob(2, idHash);
  return stmt->run();
}

Result<bool> deleteSession(Database& db, const Hash32& idHash) {
  auto stmt = db.cached("DELETE FROM panel_session WHERE id_hash = ?");
  if (!stmt) return stmt.error();
  stmt->bindBlob(1, idHash);
  if (Status s = stmt->run(); !s) return s.error();
  return db.changes() > 0;
}

Result<std::vector<SessionRow>> expiredSessions(Database& db, TimePoint idleBefore,
                                                TimePoint createdBefore) {
  auto stmt = db.cached("SELECT " + std::string(kSessionColumns) +
                        " FROM panel_session WHERE last_seen_at <= ? OR created_at <= ?");
  if (!stmt) return stmt.error();
  stmt->bindTime(1, idleBefore).bindTime(2, createdBefore);
  return collectSessions(*stmt);
}

Result<std::vector<SessionRow>> sessionsOf(Database& db, std::string_view personId) {
  auto stmt = db.cached("SELECT " + std::string(kSessionColumns) +
                        " FROM panel_session WHERE person_id = ?");
  if (!stmt) return stmt.error();
  stmt->bind(1, personId);
  return collectSessions(*stmt);
}

}  // namespace atoms::panel
