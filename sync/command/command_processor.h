// CommandProcessor: decides each payload of atoms/v1/<site>/cmd (docs/sync-protocol.md
// "Commands") and returns the result to publish on cmd/result.
//
// - verifyCommand() (pinned key, strict text, site, validity window), then the replay guard
//   (sync/command/command_journal.h), then the CommandTarget.
// - Store first: the command's audit entry ("command.applied" or "command.refused"), the target's
//   rows and entries and the replay-guard row (with the exact result payload) commit in one batch
//   before the result is returned for publishing. A verified command is decided once, ever; a
//   redelivery gets the stored result again and changes nothing.
// - Every refusal is audited ("command.refused", actor "cloud", with code and reason). Refusals
//   that cost an attacker nothing (unverified payloads, replays) are audited at most
//   `maxRefusalAuditsPerMinute` times a minute; the next audited one counts those left out
//   ("refusals_not_audited"), so a flood cannot fill the log or stall the owner thread.
// - When the store cannot record the outcome nothing changed; the result says "failed" and the
//   cloud sends the same note again.
//
// Threading: owner thread only (the one that owns the AuditLog and Database); not thread-safe.
// Errors: never thrown; every payload gets a Decision.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "store/audit_budget.h"
#include "store/audit_log.h"
#include "store/database.h"
#include "store/signed_note.h"
#include "sync/command/command_journal.h"
#include "sync/command/command_result.h"
#include "sync/command/command_target.h"
#include "sync/command/command_verifier.h"

namespace atoms::sync::command {

struct ProcessorOptions {
  VerifyOptions verify;
  std::uint64_t maxRefusalAuditsPerMinute = 30;
};

struct Decision {
  std::string result;   // the payload for cmd/result (a replay gets the stored one)
  std::string outcome;  // "applied", "refused", "failed"
  RefusalCode code = RefusalCode::kNone;
  std::optional<std::string> id;  // only once the signature verified
  std::string message;            // what changed, or why not
};

struct ProcessorStats {
  std::uint64_t applied = 0, refused = 0, replays = 0, failed = 0;
  std::uint64_t refusalsNotAudited = 0;  // in total, by the rate limit
};

class CommandProcessor {
 public:
  struct Deps {
    AuditLog& log;
    Database& db;  // the log's database (sync_command)
    CommandTarget& target;
    std::optional<VerifierKey> cloudKey;  // nullopt: no key pinned, every command is refused
    std::function<TimePoint()> now;
  };

  explicit CommandProcessor(Deps deps, ProcessorOptions options = {});

  Decision handle(std::string_view payload);
  const ProcessorStats& stats() const { return stats_; }

 private:
  struct Received;
  Decision refuseUnverified(const Received& in, const Verdict& verdict);
  Decision replay(const Received& in, const Command& cmd, const DecidedCommand& earlier);
  Decision refuse(const Received& in, const Command& cmd, RefusalCode code,
                  const std::string& reason);
  Decision apply(const Received& in, const Command& cmd);
  // Records the decision (replay guard row with the result) in `batch`, whose entry `seq`
  // audits it, and commits. code kNone: applied.
  Decision decide(const Received& in, const Command& cmd, AuditLog::Batch& batch, RefusalCode code,
                  const std::string& message, std::uint64_t seq);
  Decision failed(const Received& in, const std::optional<Command>& cmd, const std::string& why);
  // Appends a command.refused entry on its own; nullopt when rate-limited or on error (logged in
  // the decision's message only: the refusal stands either way).
  std::optional<std::uint64_t> auditCheapRefusal(const Received& in, const Command* cmd,
                                                 RefusalCode code, const std::string& reason);

  AuditLog& log_;
  Database& db_;
  CommandTarget& target_;
  std::optional<VerifierKey> cloudKey_;
  std::function<TimePoint()> now_;
  ProcessorOptions options_;
  ProcessorStats stats_;
  AuditBudget auditBudget_;  // cheap refusals: at most maxRefusalAuditsPerMinute a minute
};

}  // namespace atoms::sync::command
