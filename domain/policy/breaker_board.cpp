#include "domain/policy/breaker_board.h"

#include <utility>

#include "domain/policy/state_reader.h"
#include "store/audit_entry.h"

namespace atoms::policy {

namespace {

Result<BreakerBoard::Events> eventsOf(BreakerBoard::Events events) { return events; }

json::Value changedBody(const BreakerEvent& e) {
  json::Object body{{"breaker", e.breaker},
                    {"from", breakerStateName(e.from)},
                    {"to", breakerStateName(e.to)},
                    {"reason", e.reason}};
  if (!e.by.empty()) body.emplace("by", e.by);
  return body;
}

}  // namespace

json::Value BreakerView::toJson() const {
  return json::Object{
      {"id", id},
      {"state", breakerStateName(state)},
      {"since", formatTimestamp(since)},
      {"reason", reason},
      {"probes",
       json::Object{{"started", probesStarted}, {"clean", cleanProbes}, {"of", probeDecisions}}},
      {"awaitingAck", awaitingAck}};
}

Result<std::unique_ptr<BreakerBoard>> BreakerBoard::open(AuditLog& log, Database& db,
                                                         std::vector<BreakerConfig> configs,
                                                         TimePoint now) {
  std::unique_ptr<BreakerBoard> board(new BreakerBoard(log, db));
  for (BreakerConfig& config : configs) {
    const std::string id = config.id;
    if (board->has(id)) return makeError("breaker " + id + " is configured twice");
    auto stmt = db.cached("SELECT reason, state_json FROM breaker WHERE id = ?");
    if (!stmt) return stmt.error();
    stmt->bind(1, id);
    auto row = stmt->step();
    if (!row) return row.error();
    std::string reason;
    Result<Breaker> breaker = makeError("unset");
    if (*row) {
      reason = stmt->columnText(0);
      auto state = json::parseCanonical(stmt->columnText(1));
      if (!state) return makeError("breaker row " + id + ": " + state.message());
      breaker = Breaker::fromJson(std::move(config), *state);
    } else {
      breaker = Breaker::create(std::move(config), now);
    }
    if (!breaker) return breaker.error();
    board->breakers_.emplace(id, Entry{std::move(*breaker), std::move(reason)});
  }
  return board;
}

std::set<std::string> BreakerBoard::openBreakers() const {
  std::set<std::string> out;
  for (const auto& [id, entry] : breakers_) {
    if (entry.breaker.state() != BreakerState::kClosed) out.insert(id);
  }
  return out;
}

bool BreakerBoard::isOpen(std::string_view id) const {
  auto it = breakers_.find(std::string(id));
  return it != breakers_.end() && it->second.breaker.state() != BreakerState::kClosed;
}

std::optional<BreakerState> BreakerBoard::stateOf(std::string_view id) const {
  auto it = breakers_.find(std::string(id));
  if (it == breakers_.end()) return std::nullopt;
  return it->second.breaker.state();
}

std::vector<BreakerView> BreakerBoard::list(TimePoint at) const {
  std::vector<BreakerView> out;
  for (const auto& [id, entry] : breakers_) {
    const Breaker& b = entry.breaker;
    out.push_back(BreakerView{id, b.state(), b.since(), entry.reason, b.probesStarted(),
                              b.cleanProbes(), b.config().probeDecisions, b.awaitingAck(at)});
  }
  return out;
}

Status BreakerBoard::reconfigure(BreakerConfig config) {
  auto it = breakers_.find(config.id);
  if (it == breakers_.end()) return makeError("no breaker " + config.id + " on this site");
  auto moved = Breaker::fromJson(std::move(config), it->second.breaker.toJson());
  if (!moved) return moved.error();
  it->second.breaker = std::move(*moved);
  return Status::success();
}

Status BreakerBoard::store(AuditLog::Batch& batch, const std::string& id, const Entry& entry,
                           TimePoint at, std::string_view actor, const Events& events) {
  const Breaker& b = entry.breaker;
  auto row = db_->cached(
      "INSERT OR REPLACE INTO breaker(id, state, since, reason, updated_at, state_json)"
      " VALUES(?, ?, ?, ?, ?, ?)");
  if (!row) return row.error();
  row->bind(1, id)
      .bind(2, breakerStateName(b.state()))
      .bind(3, millis(b.since()))
      .bind(4, entry.reason)
      .bind(5, millis(at))
      .bind(6, json::canonical(b.toJson()));
  if (Status done = row->run(); !done) return done;
  for (const BreakerEvent& e : events) {
    auto seq = batch.add(formatTimestamp(e.at), "breaker.changed", actor, changedBody(e));
    if (!seq) return seq.error();
    if (e.to == BreakerState::kOpen && onTrip_) {
      if (Status s = onTrip_(batch, e); !s) return s;
    }
  }
  return Status::success();
}

void BreakerBoard::announce(const Events& events) {
  if (!onChange_) return;
  for (const BreakerEvent& e : events) onChange_(e);
}

Result<BreakerBoard::Events> BreakerBoard::apply(std::string_view id, TimePoint at,
                                                 std::string_view actor, const Step& step) {
  auto it = breakers_.find(std::string(id));
  if (it == breakers_.end()) return makeError("no breaker " + std::string(id) + " on this site");
  Entry next = it->second;
  auto events = step(next.breaker);
  if (!events) return events;
  if (!events->empty()) next.reason = events->back().reason;
  auto batch = log_->begin();
  if (!batch) return batch.error();
  if (Status s = store(*batch, it->first, next, at, actor, *events); !s) return s.error();
  if (auto note = batch->commit(); !note) return note.error();
  it->second = std::move(next);
  announce(*events);
  return events;
}

Result<BreakerBoard::Events> BreakerBoard::recordSuccess(std::string_view id, TimePoint at,
                                                         std::string_view actor) {
  return apply(id, at, actor, [at](Breaker& b) { return eventsOf(b.recordSuccess(at)); });
}

Result<BreakerBoard::Events> BreakerBoard::recordFailure(std::string_view id, TimePoint at,
                                                         std::string_view actor,
                                                         std::string_view what) {
  return apply(id, at, actor,
               [at, what](Breaker& b) { return eventsOf(b.recordFailure(at, what)); });
}

Result<BreakerBoard::Events> BreakerBoard::recordHeartbeat(std::string_view id, TimePoint at,
                                                           std::string_view actor) {
  return apply(id, at, actor, [at](Breaker& b) { return eventsOf(b.recordHeartbeat(at)); });
}

Result<BreakerBoard::Events> BreakerBoard::recordSignal(std::string_view id, TimePoint at,
                                                        std::string_view actor,
                                                        std::string_view signal) {
  return apply(id, at, actor, [at, signal](Breaker& b) { return b.recordSignal(at, signal); });
}

Result<BreakerBoard::Events> BreakerBoard::trip(std::string_view id, TimePoint at,
                                                std::string_view actor, std::string_view reason) {
  return apply(id, at, actor, [at, reason](Breaker& b) { return eventsOf(b.trip(at, reason)); });
}

Result<BreakerBoard::Events> BreakerBoard::tick(TimePoint at) {
  std::map<std::string, Entry> moved;
  Events all;
  for (const auto& [id, entry] : breakers_) {
    Entry next = entry;
    Events events = next.breaker.tick(at);
    if (events.empty()) continue;
    next.reason = events.back().reason;
    all.insert(all.end(), events.begin(), events.end());
    moved.emplace(id, std::move(next));
  }
  if (moved.empty()) return all;
  auto batch = log_->begin();
  if (!batch) return batch.error();
  for (const auto& [id, entry] : moved) {
    Events mine;
    for (const BreakerEvent& e : all) {
      if (e.breaker == id) mine.push_back(e);
    }
    if (Status s = store(*batch, id, entry, at, "engine", mine); !s) return s.error();
  }
  if (auto note = batch->commit(); !note) return note.error();
  for (auto& [id, entry] : moved) breakers_.at(id) = std::move(entry);
  announce(all);
  return all;
}

Result<std::vector<std::string>> BreakerBoard::restartProbes(TimePoint at, std::string_view actor,
                                                             std::string_view reason) {
  std::map<std::string, Entry> restarted;
  for (const auto& [id, entry] : breakers_) {
    Entry next = entry;
    if (next.breaker.restartProbe(at)) restarted.emplace(id, std::move(next));
  }
  std::vector<std::string> ids;
  if (restarted.empty()) return ids;
  auto batch = log_->begin();
  if (!batch) return batch.error();
  for (const auto& [id, entry] : restarted) {
    if (Status s = store(*batch, id, entry, at, actor, {}); !s) return s.error();
    auto seq = batch->add(formatTimestamp(at), "breaker.probe_restarted", actor,
                          json::Object{{"breaker", id}, {"reason", std::string(reason)}});
    if (!seq) return seq.error();
  }
  if (auto note = batch->commit(); !note) return note.error();
  for (auto& [id, entry] : restarted) {
    breakers_.at(id) = std::move(entry);
    ids.push_back(id);
  }
  return ids;
}

Result<BreakerEvent> BreakerBoard::acknowledge(std::string_view id, TimePoint at,
                                               const BreakerAcker& who) {
  auto it = breakers_.find(std::string(id));
  if (it == breakers_.end()) return makeError("no breaker " + std::string(id) + " on this site");
  if (!json::isValidUtf8(who.actor)) return makeError("the acknowledging person is not valid text");
  Entry next = it->second;
  auto closed = next.breaker.acknowledge(at, who);
  const std::string actor = who.actor.empty() ? std::string("unknown") : who.actor;
  auto batch = log_->begin();
  if (!batch) return batch.error();
  if (!closed) {
    json::Object body{{"breaker", it->first},
                      {"by", actor},
                      {"automated", who.automated},
                      {"reason", closed.message()}};
    if (auto seq = batch->add(formatTimestamp(at), "breaker.ack_refused", actor, std::move(body));
        !seq) {
      return seq.error();
    }
    if (auto note = batch->commit(); !note) return note.error();
    return closed;
  }
  next.reason = closed->reason;
  if (Status s = store(*batch, it->first, next, at, actor, {*closed}); !s) return s.error();
  if (auto note = batch->commit(); !note) return note.error();
  it->second = std::move(next);
  announce({*closed});
  return closed;
}

}  // namespace atoms::policy
