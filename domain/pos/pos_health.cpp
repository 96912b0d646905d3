#include "domain/pos/pos_health.h"

#include "base/name_table.h"

namespace atoms::pos {
namespace {
constexpr NameTable<SourceState, 4> kSourceStateNames{{{SourceState::kFresh, "fresh"},
                                                       {SourceState::kStale, "stale"},
                                                       {SourceState::kFailing, "failing"},
                                                       {SourceState::kHalted, "halted"}}};
}  // namespace

std::string_view sourceStateName(SourceState state) { return nameOf(kSourceStateNames, state); }

void PosHealth::watch(const std::string& source, std::chrono::seconds staleAfter,
                      std::optional<HealthTime> lastOk, HealthTime now) {
  std::lock_guard lock(mutex_);
  Entry& e = entries_[source];
  e.staleAfter = staleAfter;
  e.watchedAt = now;
  if (lastOk && (!e.lastOk || *lastOk > *e.lastOk)) e.lastOk = lastOk;
}

bool PosHealth::record(const drivers::pos::SourceStatus& status, HealthTime now) {
  using Kind = drivers::pos::SourceStatus::Kind;
  std::lock_guard lock(mutex_);
  auto [it, added] = entries_.try_emplace(status.source);
  Entry& e = it->second;
  if (added) e.watchedAt = now;
  const SourceState before = describe(status.source, e, now).state;
  switch (status.kind) {
    case Kind::kOk:
      e.lastOk = now;
      e.failingSince.reset();
      e.halted = false;
      e.detail.clear();
      break;
    case Kind::kFailing:
      if (!e.failingSince) e.failingSince = now;
      e.detail = status.detail;
      break;
    case Kind::kAuthFailed:
      if (!e.failingSince) e.failingSince = now;
      e.halted = true;
      e.detail = status.detail;
      break;
  }
  return describe(status.source, e, now).state != before;
}

SourceHealth PosHealth::describe(const std::string& source, const Entry& e, HealthTime now) {
  SourceHealth h{source, SourceState::kFresh, std::nullopt, e.lastOk, e.detail};
  if (e.halted) {
    h.state = SourceState::kHalted;
    h.since = e.failingSince;
  } else if (e.failingSince) {
    h.state = SourceState::kFailing;
    h.since = e.failingSince;
  } else if (e.staleAfter.count() > 0) {
    const HealthTime last = e.lastOk.value_or(e.watchedAt);
    if (now - last > e.staleAfter) {
      h.state = SourceState::kStale;
      h.since = last;
      const auto minutes = std::chrono::duration_cast<std::chrono::minutes>(now - last).count();
      h.detail = "no data for " + std::to_string(minutes) + " minutes";
    }
  }
  return h;
}

std::vector<SourceHealth> PosHealth::sources(HealthTime now) const {
  std::lock_guard lock(mutex_);
  std::vector<SourceHealth> out;
  for (const auto& [source, e] : entries_) out.push_back(describe(source, e, now));
  return out;
}

PosFreshness PosHealth::freshness(HealthTime now) const {
  const std::vector<SourceHealth> all = sources(now);
  if (all.empty()) return PosFreshness{false, std::nullopt, "no POS is connected"};
  PosFreshness out{true, std::nullopt, ""};
  for (const SourceHealth& h : all) {
    if (h.state == SourceState::kFresh) continue;
    if (!out.fresh && out.staleSince && h.since && *h.since >= *out.staleSince) continue;
    out.fresh = false;
    out.staleSince = h.since;
    out.reason = "POS " + h.source + " is " + std::string(sourceStateName(h.state)) +
                 (h.detail.empty() ? "" : ": " + h.detail);
  }
  return out;
}

}  // namespace atoms::pos
