#include "domain/policy/action_requests.h"

#include "base/unix_time.h"
#include "store/audit_entry.h"

namespace atoms::policy {

using atoms::toUnixMillis;

Result<int> ActionRequests::priorAdverse(const std::string& subject, TimePoint at) {
  if (subject.empty()) return 0;
  auto stmt = db_.cached(
      "SELECT COUNT(*) FROM action_request WHERE subject = ? AND adverse = 1 AND asked_at > ?");
  if (!stmt) return stmt.error();
  stmt->bind(1, subject).bind(2, toUnixMillis(at - std::chrono::days(kAdverseWindowDays)));
  auto row = stmt->step();
  if (!row) return row.error();
  return static_cast<int>(stmt->columnInt64(0));
}

Result<AskResult> ActionRequests::ask(TimePoint at, const ActionAsk& ask) {
  auto prior = priorAdverse(ask.subject, at);
  if (!prior) return prior.error();
  const std::string actor = "panel:" + ask.person;
  PolicyState state = state_ ? state_() : PolicyState{};
  state.priorAdverseAgainstSubject = *prior;
  AskResult out;
  out.decision =
      gate_.decide(ProposedAction{ask.kind, actor, false, ask.subject, std::nullopt}, state);
  auto row = gate_.table().find(ask.kind);
  const bool adverse = row && (*row)->adverse;

  auto batch = log_.begin();
  if (!batch) return batch.error();
  auto insert = db_.cached(
      "INSERT INTO action_request(kind, subject, asked_by, asked_at, adverse, reason, outcome)"
      " VALUES(?, ?, ?, ?, ?, ?, ?)");
  if (!insert) return insert.error();
  insert->bind(1, ask.kind)
      .bind(2, ask.subject)
      .bind(3, ask.person)
      .bind(4, toUnixMillis(at))
      .bind(5, std::int64_t{adverse ? 1 : 0})
      .bind(6, ask.reason)
      .bind(7, effectiveOutcomeName(out.decision.outcome));
  if (Status done = insert->run(); !done) return done.error();
  out.request = db_.lastInsertRowid();

  json::Object body{{"request", out.request},
                    {"kind", ask.kind},
                    {"subject", ask.subject.empty() ? json::Value() : json::Value(ask.subject)},
                    {"reason", ask.reason},
                    {"priorAdverse", *prior},
                    {"decision", out.decision.toJson()}};
  if (auto seq = batch->add(formatTimestamp(at), "request.decided", actor, json::Value(body));
      !seq) {
    return seq.error();
  }
  switch (out.decision.outcome) {
    case EffectiveOutcome::kHumanPacket: {
      const std::string about = ask.subject.empty() ? "" : " about " + ask.subject;
      const std::string summary = ask.person + " asked for " + ask.kind + about + ": " + ask.reason;
      json::Object evidence{{"request", out.request},
                            {"reason", ask.reason},
                            {"priorAdverse", *prior},
                            {"decision", out.decision.toJson()}};
      auto packet = PacketBook(log_, db_).open(*batch, at, out.decision, ask.subject, actor,
                                               summary, json::Value(std::move(evidence)));
      if (!packet) return packet.error();
      auto link = db_.cached("UPDATE action_request SET packet_id = ? WHERE id = ?");
      if (!link) return link.error();
      link->bind(1, packet->id).bind(2, out.request);
      if (Status done = link->run(); !done) return done.error();
      out.outcome = AskOutcome::kPacket;
      out.message = "this is for a person to decide, not the box: packet " +
                    std::to_string(packet->id) + " (" + out.decision.rule + ")";
      out.packet = std::move(*packet);
      break;
    }
    case EffectiveOutcome::kExecute:
    case EffectiveOutcome::kQueueForApproval:
      out.outcome = AskOutcome::kNotCarriedOut;
      out.message = "the box does not carry out " + ask.kind +
                    " from a request; nothing was done (the request is on record)";
      break;
    case EffectiveOutcome::kHold:
    case EffectiveOutcome::kRecordOnly:
    case EffectiveOutcome::kDeny:
      out.outcome = AskOutcome::kRefused;
      out.message = "refused by the policy gate: " + out.decision.describe();
      break;
  }
  if (auto committed = batch->commit(); !committed) return committed.error();
  return out;
}

}  // namespace atoms::policy
