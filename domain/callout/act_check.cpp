#include "domain/callout/act_check.h"

#include <algorithm>
#include <map>
#include <string>

#include "domain/labor/labor_engine.h"

namespace atoms::callout {

namespace {

using site::Instant;
using site::LocalTime;
using site::Seconds;

std::optional<std::string> optText(const Statement& s, int column) {
  if (s.columnIsNull(column)) return std::nullopt;
  return s.columnText(column);
}

// The person's shifts and the shift given, by id, as stored.
Result<std::map<std::string, site::Shift>> storedShifts(Database& db, std::string_view personId,
                                                        std::string_view shiftId) {
  auto stmt = db.prepare(
      "SELECT id, station_id, start_utc, start_local, end_utc, end_local, certification_id,"
      " assignee_id FROM site_shift WHERE assignee_id = ? OR id = ?");
  if (!stmt) return stmt.error();
  stmt->bind(1, personId).bind(2, shiftId);
  std::map<std::string, site::Shift> out;
  for (;;) {
    auto row = stmt->step();
    if (!row) return row.error();
    if (!*row) break;
    site::Shift s{
        stmt->columnText(0),
        stmt->columnText(1),
        {Instant{Seconds{stmt->columnInt64(2)}}, LocalTime{Seconds{stmt->columnInt64(3)}}},
        {Instant{Seconds{stmt->columnInt64(4)}}, LocalTime{Seconds{stmt->columnInt64(5)}}},
        optText(*stmt, 6),
        optText(*stmt, 7)};
    out.emplace(s.id, std::move(s));
  }
  return out;
}

bool concerns(const site::Shift& s, std::string_view personId, std::string_view shiftId) {
  return s.id == shiftId || (s.assignee && *s.assignee == personId);
}

}  // namespace

Result<std::optional<labor::Verdict>> actCheck(Database& db, const SiteSnapshot& site,
                                               std::string_view personId,
                                               std::string_view shiftId) {
  auto stored = storedShifts(db, personId, shiftId);
  if (!stored) return stored.error();
  const std::vector<site::Shift>& shifts = site.model().shifts;
  std::size_t same = 0;
  bool differs = false;
  for (const site::Shift& s : shifts) {
    if (!concerns(s, personId, shiftId)) continue;
    auto it = stored->find(s.id);
    if (it == stored->end() || !(it->second == s)) {
      differs = true;
      break;
    }
    ++same;
  }
  if (!differs && same == stored->size()) return std::optional<labor::Verdict>();

  // The model as the store has it for this person: their shifts (and the one given) replaced by the
  // stored rows; everyone else's as the snapshot holds them.
  site::SiteModel model = site.model();
  std::erase_if(model.shifts, [&](const site::Shift& s) {
    return concerns(s, personId, shiftId) || stored->count(s.id) != 0;
  });
  for (auto& [id, s] : *stored) model.shifts.push_back(s);
  auto ctx = labor::LaborContext::build(model, site.labor().rules(), site.labor().options());
  if (!ctx) return ctx.error();
  auto verdict = ctx->evaluate(personId, shiftId);
  if (!verdict) return verdict.error();
  return std::optional<labor::Verdict>(std::move(*verdict));
}

}  // namespace atoms::callout
