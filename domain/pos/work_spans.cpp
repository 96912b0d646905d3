#include "domain/pos/work_spans.h"

#include <algorithm>
#include <map>
#include <optional>

namespace atoms::pos {
namespace {

// The premium of `person`'s scheduled spans that falls inside [start, end), pro rata.
std::int64_t premiumWithin(const std::vector<WorkSpan>& scheduled, const std::string& person,
                           site::Instant start, site::Instant end) {
  std::int64_t sum = 0;
  for (const WorkSpan& s : scheduled) {
    if (s.personId != person || s.extraCents == 0) continue;
    const auto overlap = std::min(end, s.end) - std::max(start, s.start);
    const auto length = s.end - s.start;
    if (overlap.count() <= 0 || length.count() <= 0) continue;
    sum += s.extraCents * overlap.count() / length.count();
  }
  return sum;
}

}  // namespace

Result<std::vector<WorkSpan>> scheduledSpans(const labor::LaborContext& ctx, site::Instant from,
                                             site::Instant to) {
  std::vector<WorkSpan> out;
  for (const site::Shift& s : ctx.model().shifts) {
    if (!s.assignee || s.end.utc <= from || s.start.utc >= to) continue;
    const site::Person* person = ctx.index().person(*s.assignee);
    if (person == nullptr) {
      return makeError("shift '" + s.id + "': unknown person '" + *s.assignee + "'");
    }
    auto verdict = ctx.evaluate(*s.assignee, s.id, labor::Scope::kEarlierShifts);
    if (!verdict) return makeError("shift '" + s.id + "': " + verdict.message());
    out.push_back(WorkSpan{*s.assignee, s.start.utc, s.end.utc, person->hourlyRateCents,
                           verdict->extraCents});
  }
  return out;
}

std::vector<WorkSpan> actualSpans(const site::SiteModel& model,
                                  const std::vector<WorkSpan>& scheduled, site::Instant from,
                                  site::Instant to, site::Instant now) {
  std::map<std::string, std::vector<const site::Punch*>> byPerson;
  for (const site::Punch& p : model.punches) byPerson[p.personId].push_back(&p);
  std::map<std::string, std::int64_t> rates;
  for (const site::Person& p : model.people) rates[p.id] = p.hourlyRateCents;

  std::vector<WorkSpan> out;
  const auto keep = [&](const std::string& person, site::Instant start, site::Instant end) {
    if (end <= start || end <= from || start >= to) return;
    out.push_back(
        WorkSpan{person, start, end, rates[person], premiumWithin(scheduled, person, start, end)});
  };
  for (auto& [person, punches] : byPerson) {
    std::stable_sort(punches.begin(), punches.end(),
                     [](const site::Punch* a, const site::Punch* b) { return a->at < b->at; });
    std::optional<site::Instant> open;
    for (const site::Punch* p : punches) {
      if (p->at > now) break;
      switch (p->kind) {
        case site::PunchKind::kClockIn:
        case site::PunchKind::kBreakEnd:
          if (!open) open = p->at;
          break;
        case site::PunchKind::kBreakStart:
        case site::PunchKind::kClockOut:
          if (open) keep(person, *open, p->at);
          open.reset();
          break;
      }
    }
    if (open) keep(person, *open, now);
  }
  return out;
}

}  // namespace atoms::pos
