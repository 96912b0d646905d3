#include "daemon/panel/sign_in_code.h"

#include "base/unix_time.h"

namespace atoms::panel {

std::string newSignInCode(const SecureRandom& random) {
  std::string code = std::to_string(uniformBelow(random, 1'000'000));
  return std::string(kCodeDigits - code.size(), '0') + code;
}

bool looksLikeSignInCode(std::string_view text) {
  if (text.size() != kCodeDigits) return false;
  for (char c : text) {
    if (c < '0' || c > '9') return false;
  }
  return true;
}

Hash32 signInCodeHash(const SecretBytes& key, std::string_view personId, std::string_view code) {
  const std::string message = std::string(personId) + '\n' + std::string(code);
  return keyedHash(key.view(), "atoms-edge panel sign-in code v1", asBytes(message));
}

std::string signInCodeText(std::string_view siteName, std::string_view code) {
  return "Your sign-in code for the " + std::string(siteName) + " panel is " + std::string(code) +
         ". It works for 10 minutes. If you did not ask for it, do not share it, and tell your "
         "manager or the site owner in person or by phone.";
}

Result<std::optional<CodeRow>> findSignInCode(Database& db, std::string_view personId) {
  auto stmt = db.cached(
      "SELECT code_hash, created_at, expires_at, attempts FROM panel_sign_in_code"
      " WHERE person_id = ?");
  if (!stmt) return stmt.error();
  stmt->bind(1, personId);
  auto row = stmt->step();
  if (!row) return row.error();
  if (!*row) return std::optional<CodeRow>();
  CodeRow c;
  c.personId = std::string(personId);
  const Bytes hash = stmt->columnBlob(0);
  if (hash.size() == c.codeHash.size()) std::copy(hash.begin(), hash.end(), c.codeHash.begin());
  c.createdAt = fromUnixMillis(stmt->columnInt64(1));
  c.expiresAt = fromUnixMillis(stmt->columnInt64(2));
  c.attempts = static_cast<int>(stmt->columnInt64(3));
  return std::optional<CodeRow>(std::move(c));
}

Status saveSignInCode(Database& db, const CodeRow& row) {
  auto stmt = db.cached(
      "INSERT OR REPLACE INTO panel_sign_in_code(person_id, code_hash, created_at, expires_at,"
      " attempts) VALUES(?, ?, ?, ?, ?)");
  if (!stmt) return stmt.error();
  stmt->bind(1, row.personId)
      .bindBlob(2, row.codeHash)
      .bindTime(3, row.createdAt)
      .bindTime(4, row.expiresAt)
      .bind(5, std::int64_t{row.attempts});
  return stmt->run();
}

Status countCodeAttempt(Database& db, std::string_view personId, int attempts) {
  auto stmt = db.cached("UPDATE panel_sign_in_code SET attempts = ? WHERE person_id = ?");
  if (!stmt) return stmt.error();
  stmt->bind(1, std::int64_t{attempts}).bind(2, personId);
  return stmt->run();
}

Status deleteSignInCode(Database& db, std::string_view personId) {
  auto stmt = db.cached("DELETE FROM panel_sign_in_code WHERE person_id = ?");
  if (!stmt) return stmt.error();
  stmt->bind(1, personId);
  return stmt->run();
}

}  // namespace atoms::panel
