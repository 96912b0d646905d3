#include "domain/policy/kill_switch.h"

#include <algorithm>

#include "base/canonical_json.h"
#include "store/row_reader.h"

namespace atoms::policy {

std::string killSwitchLevelName(KillSwitchLevel level) {
  return "L" + std::to_string(static_cast<int>(level));
}

std::optional<KillSwitchLevel> killSwitchLevelFromInt(int level) {
  if (level < 0 || level > 3) return std::nullopt;
  return static_cast<KillSwitchLevel>(level);
}

std::string KillSwitchChange::describe() const {
  if (!changed) return "kill switch already at " + killSwitchLevelName(after.level);
  const bool raised = after.level > before.level;
  return std::string("kill switch ") + (raised ? "raised" : "lowered") + " from " +
         killSwitchLevelName(before.level) + " to " + killSwitchLevelName(after.level);
}

Result<KillSwitchState> KillSwitch::current() const {
  auto stmt = db_->cached("SELECT level, set_at, set_by, reason, automated FROM kill_switch");
  if (!stmt) return stmt.error();
  auto row = stmt->step();
  if (!row) return row.error();
  KillSwitchState state;
  if (!*row) return state;
  RowReader r(*stmt);
  auto level = killSwitchLevelFromInt(r.int32());
  if (!level) return makeError("kill_switch: stored level is out of range");
  state.level = *level;
  state.setAt = r.text();
  state.setBy = r.text();
  state.reason = r.text();
  state.automated = r.flag();
  return state;
}

Result<KillSwitchChange> KillSwitch::set(AuditLog::Batch& batch, std::string_view ts,
                                         KillSwitchLevel level, std::string_view reason,
                                         const KillSwitchSetter& who) {
  if (std::all_of(reason.begin(), reason.end(), [](char c) { return c == ' '; })) {
    return makeError("a kill-switch change needs a reason");
  }
  auto before = current();
  if (!before) return before.error();
  KillSwitchChange change;
  change.before = *before;
  if (who.automated && level < before->level) {
    return makeError("an automated process can only raise the kill switch (it is at " +
                     killSwitchLevelName(before->level) + ", " + killSwitchLevelName(level) +
                     " would lower it)");
  }
  if (level == before->level) {
    change.after = *before;
    return change;
  }
  change.after =
      KillSwitchState{level, std::string(ts), who.actor, std::string(reason), who.automated};
  auto stmt = db_->cached(
      "INSERT OR REPLACE INTO kill_switch(id, level, set_at, set_by, reason, automated)"
      " VALUES(1, ?, ?, ?, ?, ?)");
  if (!stmt) return stmt.error();
  stmt->bind(1, static_cast<std::int64_t>(level))
      .bind(2, ts)
      .bind(3, who.actor)
      .bind(4, reason)
      .bind(5, std::int64_t{who.automated ? 1 : 0});
  if (Status done = stmt->run(); !done) return done.error();
  json::Object body;
  body.emplace("from", killSwitchLevelName(before->level));
  body.emplace("level", killSwitchLevelName(level));
  body.emplace("reason", std::string(reason));
  body.emplace("automated", who.automated);
  auto seq = batch.add(ts, "killswitch.set", who.actor, json::Value(std::move(body)));
  if (!seq) return seq.error();
  change.changed = true;
  change.seq = *seq;
  return change;
}

Result<KillSwitchChange> KillSwitch::set(std::string_view ts, KillSwitchLevel level,
                                         std::string_view reason, const KillSwitchSetter& who) {
  auto batch = log_->begin();
  if (!batch) return batch.error();
  auto change = set(*batch, ts, level, reason, who);
  if (!change) return change;
  if (auto note = batch->commit(); !note) return note.error();
  return change;
}

}  // namespace atoms::policy
