// A call-out as the JSON API shows it (docs/api.md, "Call-outs"): the call-out, its offers in
// the order made, and the people named by id and name. Shared by /v1/today and /v1/callouts.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "base/canonical_json.h"
#include "base/result.h"
#include "domain/callout/callout_store.h"
#include "store/database.h"

namespace atoms::api {

// Person id -> name, for everyone of the site.
using PeopleNames = std::map<std::string, std::string>;
Result<PeopleNames> peopleNames(Database& db);

// {"id": id, "name": name}; null for an empty id. A person no longer on the site keeps the id
// with an empty name.
json::Value personRef(const PeopleNames& names, const std::string& id);

// The call-out with its offers: {"id","shift","station","absent","reporter","origin","openedAt",
// "shiftStart","shiftEnd","state","waves","nextWaveAt","escalatedAt","coveredBy","closedAt",
// "offers":[{"id","person","wave","rank","state","offeredAt","answeredAt","premiumCents"}]}.
json::Value calloutJson(const callout::CalloutRow& c, const std::vector<callout::OfferRow>& offers,
                        const PeopleNames& names);

}  // namespace atoms::api
