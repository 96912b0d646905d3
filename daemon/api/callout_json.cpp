#include "daemon/api/callout_json.h"

#include "base/timestamp.h"

namespace atoms::api {
namespace {

json::Value timeOrNull(const std::optional<TimePoint>& t) {
  return t ? json::Value(formatTimestamp(*t)) : json::Value();
}

}  // namespace

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

Result<json::Array> calloutsJson(callout::CalloutStore& rows,
                                 const std::vector<callout::CalloutRow>& callouts,
                                 const PeopleNames& names) {
  json::Array out;
  for (const callout::CalloutRow& c : callouts) {
    auto offers = rows.offers(c.id);
    if (!offers) return offers.error();
    out.push_back(calloutJson(c, *offers, names));
  }
  return out;
}

}  // namespace atoms::api
