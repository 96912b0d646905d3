#include "domain/callout/act_check.h"

#include <algorithm>
#include <map>
#include <string>

#include "domain/labor/labor_engine.h"
#include "domain/site/site_repository.h"
#include "store/row_reader.h"

namespace atoms::callout {

namespace {

// The person's shifts and the shift given, by id, as stored.
Result<std::map<std::string, site::Shift>> storedShifts(Database& db, std::string_view personId,
                                                        std::string_view shiftId) {
  auto stmt = db.cached("SELECT " + std::string(site::kShiftColumns) +
                        " FROM site_shift WHERE assignee_id = ? OR id = ?");
  if (!stmt) return stmt.error();
  stmt->bind(1, personId).bind(2, shiftId);
  auto shifts = readRows(*stmt, site::readShift);
  if (!shifts) return shifts.error();
  std::map<std::string, site::Shift> out;
  for (site::Shift& s : *shifts) out.emplace(s.id, std::move(s));
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
