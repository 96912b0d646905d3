// Helpers of the signed-command tests (test_commands.cpp, test_commands_broker.cpp): a cloud
// signing key and signed command notes built the way a cloud implementation would build them
// (canonical JSON text + "\n", then a C2SP signed note).
#pragma once

#include <chrono>
#include <string>
#include <vector>

#include "base/canonical_json.h"
#include "store/audit_log.h"
#include "store/signed_note.h"
#include "sync/entry_time.h"

namespace atoms::test {

inline constexpr const char* kCloudKeyName = "atoms-cloud-commands";

// The command object with every field set (kind kill_switch.set to `level`).
json::Object killSwitchCommand(const std::string& site, const std::string& id,
                               const std::string& level, sync::TimePoint issuedAt,
                               std::chrono::seconds lifetime = std::chrono::minutes(10),
                               const std::string& by = "ops:ana");
json::Object configCommand(const std::string& site, const std::string& id, const std::string& key,
                           json::Value value, sync::TimePoint issuedAt,
                           std::chrono::seconds lifetime = std::chrono::minutes(10),
                           const std::string& by = "ops:ana");

// canonical(o) + "\n", signed by key.
std::string signCommand(const json::Object& o, const SigningKey& key);
// Signs raw text (any bytes the note format accepts) with key.
std::string signText(const std::string& text, const SigningKey& key);

// The entries of `log` whose kind is `kind`, parsed.
std::vector<json::Value> entryBodies(const AuditLog& log, const std::string& kind);
std::vector<std::string> entryActors(const AuditLog& log, const std::string& kind);

}  // namespace atoms::test
