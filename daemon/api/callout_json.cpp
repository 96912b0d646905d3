#include "daemon/api/callout_json.h"

#include "base/timestamp.h"

namespace atoms::api {
namespace {

json::Value timeOrNull(const std::optional<TimePoint>& t) {
  return t ? json::Value(formatTimestamp(*t)) : json::Value();
}

}  // namespace

Result<PeopleNames> peopleNames(Database& db) {
  auto stmt = db.cached("SELECT id, name FROM site_person");
  if (!stmt) return stmt.error();
  PeopleNames names;
  for (;;) {
    auto row = stmt->step();
    if (!row) return row.error();
    if (!*row) return names;
    names[stmt->columnText(0)] = stmt->columnText(1);
  }
}

json::Value personRef(const PeopleNames& names, const std::string& id) {
  if (id.empty()) return json::Value();
  const auto it = names.find(id);
  return json::Object{{"id", id}, {"name", it == names.end() ? std::string() : it->second}};
}

json::Value calloutJson(const callout::CalloutRow& c, const std::vector<callout::OfferRow>& offers,
                        const PeopleNames& names) {
  json::Array offered;
  for (const callout::OfferRow& o : offers) {
    offered.push_back(json::Object{{"id", o.id},
                                   {"person", personRef(names, o.personId)},
                                   {"wave", o.wave},
                                   {"rank", o.rank},
                                   {"state", std::string(callout::offerStateName(o.state))},
                                   {"offeredAt", formatTimestamp(o.offeredAt)},
                                   {"answeredAt", timeOrNull(o.answeredAt)},
                                   {"premiumCents", o.premiumCents}});
  }
  return json::Object{{"id", c.id},
                      {"shift", c.shiftId},
                      {"station", c.stationId},
                      {"absent", personRef(names, c.absentId)},
                      {"reporter", personRef(names, c.reporterId)},
                      {"origin", std::string(callout::calloutOriginName(c.origin))},
                      {"openedAt", formatTimestamp(c.openedAt)},
                      {"shiftStart", formatTimestamp(c.shiftStart)},
                      {"shiftEnd", formatTimestamp(c.shiftEnd)},
                      {"state", std::string(callout::calloutStateName(c.state))},
                      {"waves", c.waves},
                      {"nextWaveAt", timeOrNull(c.nextWaveAt)},
                      {"escalatedAt", timeOrNull(c.escalatedAt)},
                      {"coveredBy", personRef(names, c.coveredBy)},
                      {"closedAt", timeOrNull(c.closedAt)},
                      {"offers", std::move(offered)}};
}

}  // namespace atoms::api
