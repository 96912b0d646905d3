// Configuration overrides set by cloud commands (config.set), kept in the store (table
// config_override, migration 7) until the service reads them at its next start, layered over
// atoms-edge.conf. Which keys may be overridden and which values are valid is the daemon's
// whitelist (domain/policy/command_target.h); this file only stores them.
//
// Threading: the Database's (the owner thread). Errors: the database's, one line.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"
#include "store/database.h"

namespace atoms::sync::command {

struct ConfigOverride {
  std::string key;
  std::string value;
  std::string setAt;      // box time, audit-entry format
  std::string setBy;      // "cloud:<by>"
  std::string commandId;  // the command that set it
};

// Every stored override, ordered by key.
Result<std::vector<ConfigOverride>> loadConfigOverrides(Database& db);
// nullopt when the key has no override.
Result<std::optional<ConfigOverride>> findConfigOverride(Database& db, std::string_view key);
// Inserts or replaces the override of o.key.
Status saveConfigOverride(Database& db, const ConfigOverride& o);
// Removes the override of key (nothing when there is none).
Status removeConfigOverride(Database& db, std::string_view key);

}  // namespace atoms::sync::command
