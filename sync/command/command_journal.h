// CommandJournal: the replay guard of cloud commands, in the store (table sync_command,
// migration 7). Every command whose signature verified is decided exactly once, ever: its id,
// the outcome and the exact result payload that was published are recorded in the same
// transaction as its effects, so a redelivery (after a crash, a reconnect, or an attacker's
// replay) is recognised by id and answered with the stored result, never applied again. Ids are
// never pruned.
//
// Threading: the Database's (the owner thread). Errors: the database's, one line.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "base/result.h"
#include "store/database.h"

namespace atoms::sync::command {

struct DecidedCommand {
  std::string id;
  std::string kind;                       // "kill_switch.set", ...
  std::string outcome;                    // "applied" or "refused"
  std::string code;                       // refusalCodeName(): "applied", "expired", ...
  std::string decidedAt;                  // box time, audit-entry format
  std::optional<std::uint64_t> auditSeq;  // the command.applied / command.refused entry
  std::string result;                     // the result payload published on cmd/result
};

// nullopt when the id was never decided.
Result<std::optional<DecidedCommand>> findDecidedCommand(Database& db, std::string_view id);

// Records a decision. Call inside the transaction that carries the command's effects (the audit
// batch). Error when the id is already recorded (the caller checked; a second writer is a bug).
Status recordDecidedCommand(Database& db, const DecidedCommand& decided);

// How many commands were decided (for status and tests).
Result<std::uint64_t> countDecidedCommands(Database& db);

}  // namespace atoms::sync::command
