// Panel accounts in the store (table panel_account, migration 23 "panel_accounts"; docs/
// panel-accounts.md): one row per person who accepted an invite. The person's role is not stored:
// it is read from the site and the configuration at every sign-in and request (panel_roles.h), so
// removing someone from the site file or from policy.owners takes their access away at once.
//
// Columns: person_id, password_hash (crypto_pwhash_str), state ('active' or 'disabled'),
// created_at, updated_at, password_set_at (the instant of the last invite accepted: invites issued
// before it are spent), failed_count and next_try_at (the per-account throttle, throttle.h).
// Instants are Unix milliseconds (UTC).
//
// Threading: the caller's Database (the writer). Errors: the store's, as values.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "base/result.h"
#include "base/time_point.h"
#include "store/database.h"

namespace atoms::panel {

struct AccountRow {
  std::string personId;
  std::string passwordHash;
  bool disabled = false;
  TimePoint createdAt{};
  TimePoint updatedAt{};
  TimePoint passwordSetAt{};
  int failedCount = 0;
  TimePoint nextTryAt{};
};

Result<std::optional<AccountRow>> findAccount(Database& db, std::string_view personId);
// Inserts the row, or replaces the one of the same person (password, state and counters).
Status saveAccount(Database& db, const AccountRow& row);
// The throttle columns only.
Status saveFailures(Database& db, std::string_view personId, int failedCount, TimePoint nextTryAt,
                    TimePoint at);
// The password hash only (a rehash at sign-in).
Status savePasswordHash(Database& db, std::string_view personId, const std::string& hash,
                        TimePoint at);

}  // namespace atoms::panel
