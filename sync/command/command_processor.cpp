#include "sync/command/command_processor.h"

#include <utility>

#include "base/bytes.h"
#include "base/canonical_json.h"
#include "store/audit_entry.h"
#include "sync/command/command_journal.h"

namespace atoms::sync::command {
namespace {

constexpr std::string_view kActor = "cloud";

void describeCommand(json::Object& body, const Command& cmd) {
  body.emplace("id", cmd.id);
  body.emplace("kind", std::string(commandKindName(cmd.kind)));
  body.emplace("by", cmd.by);
  body.emplace("issuedAt", cmd.issuedAtText);
  body.emplace("expiresAt", cmd.expiresAtText);
}

}  // namespace

struct CommandProcessor::Received {
  std::string_view payload;
  TimePoint now;
  std::string ts;
  std::string sha256Hex;

  CommandResult result(const std::string& site) const {
    CommandResult r;
    r.site = site;
    r.at = ts;
    r.payloadSha256 = sha256Hex;
    return r;
  }
  json::Object refusalBody(RefusalCode code, const std::string& reason) const {
    json::Object body;
    body.emplace("code", std::string(refusalCodeName(code)));
    body.emplace("reason", reason);
    body.emplace("payload_bytes", static_cast<std::int64_t>(payload.size()));
    body.emplace("payload_sha256", sha256Hex);
    return body;
  }
};

CommandProcessor::CommandProcessor(Deps deps, ProcessorOptions options)
    : log_(deps.log),
      db_(deps.db),
      target_(deps.target),
      cloudKey_(std::move(deps.cloudKey)),
      now_(std::move(deps.now)),
      options_(options),
      auditBudget_(options.maxRefusalAuditsPerMinute) {}

Decision CommandProcessor::handle(std::string_view payload) {
  Received in;
  in.payload = payload;
  in.now = now_();
  in.ts = formatTimestamp(in.now);
  in.sha256Hex = toHex(sha256(asBytes(payload)));

  Verdict verdict = verifyCommand(payload, cloudKey_ ? &*cloudKey_ : nullptr, log_.siteId(), in.now,
                                  options_.verify);
  if (!verdict.command) return refuseUnverified(in, verdict);
  const Command& cmd = *verdict.command;
  auto earlier = findDecidedCommand(db_, cmd.id);
  if (!earlier) return failed(in, cmd, "cannot read the replay guard: " + earlier.message());
  if (*earlier) return replay(in, cmd, **earlier);
  if (!verdict.accepted()) return refuse(in, cmd, verdict.code, verdict.reason);
  return apply(in, cmd);
}

std::optional<std::uint64_t> CommandProcessor::auditCheapRefusal(const Received& in,
                                                                 const Command* cmd,
                                                                 RefusalCode code,
                                                                 const std::string& reason) {
  if (!auditBudget_.admit(in.now)) {
    ++stats_.refusalsNotAudited;
    return std::nullopt;
  }
  json::Object body = in.refusalBody(code, reason);
  if (cmd != nullptr) describeCommand(body, *cmd);
  body.emplace("refusals_not_audited", static_cast<std::int64_t>(auditBudget_.leftOut()));
  auto seq = log_.append(in.ts, "command.refused", kActor, json::Value(std::move(body)));
  if (!seq) return std::nullopt;
  auditBudget_.written();
  return *seq;
}

Decision CommandProcessor::refuseUnverified(const Received& in, const Verdict& verdict) {
  ++stats_.refused;
  CommandResult r = in.result(log_.siteId());
  r.outcome = "refused";
  r.code = std::string(refusalCodeName(verdict.code));
  r.message = verdict.reason;
  r.seq = auditCheapRefusal(in, nullptr, verdict.code, verdict.reason);
  return Decision{commandResultJson(r), r.outcome, verdict.code, std::nullopt, r.message};
}

Decision CommandProcessor::replay(const Received& in, const Command& cmd,
                                  const DecidedCommand& earlier) {
  ++stats_.replays;
  const std::string reason = "command " + cmd.id + " was already decided (" + earlier.code +
                             ") at " + earlier.decidedAt + "; its result is sent again";
  (void)auditCheapRefusal(in, &cmd, RefusalCode::kReplay, reason);
  return Decision{earlier.result, "refused", RefusalCode::kReplay, cmd.id, reason};
}

Decision CommandProcessor::refuse(const Received& in, const Command& cmd, RefusalCode code,
                                  const std::string& reason) {
  auto batch = log_.begin();
  if (!batch) return failed(in, cmd, batch.message());
  json::Object body = in.refusalBody(code, reason);
  describeCommand(body, cmd);
  body.emplace("refusals_not_audited", std::int64_t{0});
  auto seq = batch->add(in.ts, "command.refused", kActor, json::Value(std::move(body)));
  if (!seq) return failed(in, cmd, seq.message());

  return decide(in, cmd, *batch, code, reason, *seq);
}

Decision CommandProcessor::decide(const Received& in, const Command& cmd, AuditLog::Batch& batch,
                                  RefusalCode code, const std::string& message, std::uint64_t seq) {
  CommandResult r = in.result(log_.siteId());
  r.id = cmd.id;
  r.kind = std::string(commandKindName(cmd.kind));
  r.outcome = code == RefusalCode::kNone ? "applied" : "refused";
  r.code = std::string(refusalCodeName(code));
  r.message = message;
  r.seq = seq;
  const std::string result = commandResultJson(r);
  if (Status s = recordDecidedCommand(
          db_, DecidedCommand{cmd.id, *r.kind, r.outcome, r.code, in.ts, seq, result});
      !s) {
    return failed(in, cmd, s.message());
  }
  if (auto note = batch.commit(); !note) return failed(in, cmd, note.message());
  ++(code == RefusalCode::kNone ? stats_.applied : stats_.refused);
  return Decision{result, r.outcome, code, cmd.id, message};
}

Decision CommandProcessor::apply(const Received& in, const Command& cmd) {
  std::string rejection;
  {
    auto batch = log_.begin();
    if (!batch) return failed(in, cmd, batch.message());
    json::Object body;
    describeCommand(body, cmd);
    body.emplace("args", cmd.argsJson);
    body.emplace("note", std::string(in.payload));
    body.emplace("payload_sha256", in.sha256Hex);
    auto seq = batch->add(in.ts, "command.applied", kActor, json::Value(std::move(body)));
    if (!seq) return failed(in, cmd, seq.message());

    const CommandContext ctx{cmd, in.ts};
    Result<std::string> done =
        cmd.kind == CommandKind::kKillSwitchSet
            ? target_.setKillSwitchLevel(*batch, ctx, std::get<KillSwitchArgs>(cmd.args).level,
                                         std::get<KillSwitchArgs>(cmd.args).reason)
            : target_.setConfig(*batch, ctx, std::get<ConfigArgs>(cmd.args).key,
                                std::get<ConfigArgs>(cmd.args).value);
    if (done) {
      Decision decision = decide(in, cmd, *batch, RefusalCode::kNone, *done, *seq);
      if (decision.code == RefusalCode::kNone) target_.applied(cmd);
      return decision;
    }
    // The batch rolls back here: nothing the target wrote stays.
    rejection = done.message();
  }
  return refuse(in, cmd, RefusalCode::kRejected, rejection);
}

Decision CommandProcessor::failed(const Received& in, const std::optional<Command>& cmd,
                                  const std::string& why) {
  ++stats_.failed;
  CommandResult r = in.result(log_.siteId());
  if (cmd) {
    r.id = cmd->id;
    r.kind = std::string(commandKindName(cmd->kind));
  }
  r.outcome = "failed";
  r.code = std::string(refusalCodeName(RefusalCode::kError));
  r.message = "the box could not record the command (" + why +
              "); nothing changed, send the same note again";
  return Decision{commandResultJson(r), r.outcome, RefusalCode::kError, r.id, r.message};
}

}  // namespace atoms::sync::command
