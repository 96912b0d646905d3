// Labor against sales as the JSON API shows it (docs/api.md "Sales and labor"):
//   totals   {"laborMinutes","laborCents","salesCents","laborPercent":"14.67" or null,
//             "salesPerLaborHourCents": integer or null}
//   labor    {"heads","minutes","costCents"}
//   interval {"start" (UTC),"local":"13:00","scheduled":labor,"actual":labor,"salesCents",
//             "expectedCents","projected":{"laborMinutes","laborCents","salesCents"}}
//   day      {"day":"2026-12-01","scheduled":labor,"soFar":totals,"projected":totals[,
//             "intervals":[interval...]]}
//   week     {"week":"2026-11-30","days":[day...],"scheduled":labor,"soFar":totals,
//             "projected":totals}
// Money is integer cents, time integer minutes; a percentage is a decimal string with two
// places, null when there are no sales (never infinity). Pure; thread-safe.
#pragma once

#include <optional>
#include <string>

#include "base/canonical_json.h"
#include "domain/pos/labor_vs_sales.h"

namespace atoms::api {

// "14.67" for 1467 basis points; null for none.
json::Value percentJson(std::optional<std::int64_t> basisPoints);
json::Value laborSalesTotalsJson(const pos::LaborSalesTotals& totals);
json::Value dayFiguresJson(const pos::DayFigures& day);
json::Value weekFiguresJson(const pos::WeekFigures& week);

}  // namespace atoms::api
