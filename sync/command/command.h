// A cloud command (DESIGN.md section 6; wire format: docs/sync-protocol.md "Commands"): the text
// of a C2SP signed note is exactly one line of canonical JSON followed by "\n":
//
//   {"args":{...},"by":"ops:ana","expiresAt":"2026-12-01T10:05:00.000Z","id":"c-0001",
//    "issuedAt":"2026-12-01T10:00:00.000Z","kind":"kill_switch.set","site":"store-12","v":1}
//
// parseCommandText() is the strict parser of that text (the signature is the verifier's job,
// sync/command/command_verifier.h): exactly these fields, the right types, known kinds with
// exactly their arguments, bounded lengths. Pure functions, thread-safe; errors are one line that
// names the field, e.g. `command: field "args.level" must be one of L0, L1, L2, L3`.
#pragma once

#include <chrono>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

#include "base/canonical_json.h"
#include "base/result.h"
#include "sync/entry_time.h"

namespace atoms::sync::command {

// Largest payload accepted on the cmd topic (the whole signed note).
inline constexpr std::size_t kMaxCommandBytes = 16 * 1024;
// Longest validity window (expiresAt - issuedAt) a command may ask for.
inline constexpr std::chrono::hours kMaxCommandLifetime{7 * 24};
inline constexpr std::size_t kMaxIdLength = 128;
inline constexpr std::size_t kMaxByLength = 128;
inline constexpr std::size_t kMaxReasonLength = 500;
inline constexpr std::size_t kMaxConfigValueLength = 1024;
// Kill-switch levels L0..L3 (seed 001 section 7).
inline constexpr int kMaxKillSwitchLevel = 3;

enum class CommandKind { kKillSwitchSet, kConfigSet };
// "kill_switch.set", "config.set".
std::string_view commandKindName(CommandKind kind);

// kill_switch.set: {"level":"L0".."L3","reason":"<1-500 chars>"}.
struct KillSwitchArgs {
  int level = 0;  // 0..kMaxKillSwitchLevel
  std::string reason;
};

// config.set: {"key":"<config key>","value":"<text>"|null}; null removes the override. Which
// keys and values are acceptable is the CommandTarget's decision (the daemon's whitelist).
struct ConfigArgs {
  std::string key;
  std::optional<std::string> value;
};

struct Command {
  std::string id;    // 1-128 of [A-Za-z0-9._:-]; unique per command, forever
  std::string site;  // the target site id
  std::string by;    // who issued it at the cloud: "person:<x>", "ops:<x>" or "auto:<process>"
  TimePoint issuedAt{}, expiresAt{};
  std::string issuedAtText, expiresAtText;  // as written (audit-entry timestamp format)
  CommandKind kind = CommandKind::kKillSwitchSet;
  std::variant<KillSwitchArgs, ConfigArgs> args;
  json::Value argsJson;  // the "args" object as received, for the audit entry
  std::string text;      // the signed text (one line + "\n")

  // An "auto:" issuer is an automated process: it may only raise the kill switch (seed 001 §7).
  bool automated() const { return by.starts_with("auto:"); }
};

// Strict parse of a signed note's text. Errors start with "command: ".
Result<Command> parseCommandText(std::string_view text);

// "L2" for 2.
std::string killSwitchLevelName(int level);

}  // namespace atoms::sync::command
