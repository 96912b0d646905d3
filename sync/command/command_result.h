// The result of a cloud command, published by the box on atoms/v1/<site>/cmd/result (QoS 1, not
// retained; docs/sync-protocol.md "Commands"). One canonical JSON object:
//
//   {"at":"<box time>","code":"applied"|"<refusal code>","id":"<id>"|null,
//    "kind":"kill_switch.set"|null,"message":"<one line>","outcome":"applied"|"refused"|"failed",
//    "payload_sha256":"<hex of the payload received>","seq":<audit seq>|null,"site":"S","v":1}
//
// id and kind are null when the payload was not a command signed by the pinned key (an unverified
// id is never echoed as if it were the cloud's). Pure functions, thread-safe.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "base/result.h"

namespace atoms::sync::command {

struct CommandResult {
  std::string site;
  std::optional<std::string> id;
  std::optional<std::string> kind;
  std::string outcome;        // "applied", "refused", "failed" (nothing recorded: send it again)
  std::string code;           // refusalCodeName()
  std::string message;        // what changed, or why it was refused
  std::string at;             // when the box decided (audit-entry timestamp format)
  std::string payloadSha256;  // lowercase hex of SHA-256 of the payload as received
  std::optional<std::uint64_t> seq;  // the audit entry that records the decision

  friend bool operator==(const CommandResult&, const CommandResult&) = default;
};

// Precondition: the strings are valid UTF-8 (they come from checked input or the box itself).
std::string commandResultJson(const CommandResult& result);

// Strict: canonical JSON, exactly the fields above with their types, v 1. For the cloud side
// and tests.
Result<CommandResult> parseCommandResult(std::string_view payload);

}  // namespace atoms::sync::command
