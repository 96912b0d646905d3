// A call-out as the JSON API shows it (docs/api.md, "Call-outs"): the call-out, its offers in
// the order made, and the people named by id and name. Shared by /v1/today and /v1/callouts.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "base/canonical_json.h"
#include "base/result.h"
#include "daemon/api/site_json.h"
#include "domain/callout/callout_store.h"
#include "store/database.h"

namespace atoms::api {

// The call-out with its offers: {"id","shift","station","absent","reporter","origin","openedAt",
// "shiftStart","shiftEnd","state","waves","nextWaveAt","escalatedAt","coveredBy","closedAt",
// "offers":[{"id","person","wave","rank","state","offeredAt","answeredAt","premiumCents"}]}.
json::Value calloutJson(const callout::CalloutRow& c, const std::vector<callout::OfferRow>& offers,
                        const PeopleNames& names);

// Each of `callouts` as calloutJson, with its offers read from `rows`.
Result<json::Array> calloutsJson(callout::CalloutStore& rows,
                                 const std::vector<callout::CalloutRow>& callouts,
                                 const PeopleNames& names);

}  // namespace atoms::api
