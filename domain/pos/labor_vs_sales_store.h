// Labor against sales read from the store (docs/pos.md "Labor against sales"): the site model
// (its shifts are the published schedule, its punches the time clock's), the rule book for the
// engine's premiums, the sales book, and a SalesExpectation, put together into the inputs of
// labor_vs_sales.h for one day or one week.
//
// Contract: reads only (any connection; the API calls it on the writer). `now` is passed in.
// Errors are values: store reads, a rule book that cannot be had, an evaluation the engine
// refuses (naming the shift).
#pragma once

#include <functional>

#include "base/result.h"
#include "domain/labor/labor_engine.h"
#include "domain/labor/rule_table.h"
#include "domain/pos/labor_vs_sales.h"
#include "domain/pos/sales_expectation.h"
#include "domain/site/site_model.h"
#include "store/database.h"

namespace atoms::pos {

// The rule book for the site's jurisdictions (a cache in the daemon).
using RuleBookFor = std::function<Result<labor::RuleBook>(const site::SiteModel& site)>;

struct LaborVsSalesSources {
  Database* db = nullptr;
  RuleBookFor rules;
  SalesExpectation* expectation = nullptr;
  labor::LaborOptions options;
};

// The site's local day holding `now`, and its zone (from the stored site).
struct SiteDay {
  site::TimeZone zone;
  LocalDay today;
  unsigned workweekStart = 0;  // c_encoding, 0 = Sunday
};
Result<SiteDay> siteDay(Database& db, site::Instant now);

Result<DayFigures> readLaborVsSalesDay(const LaborVsSalesSources& sources, LocalDay day,
                                       site::Instant now);
// The seven days from `first`.
Result<WeekFigures> readLaborVsSalesWeek(const LaborVsSalesSources& sources, LocalDay first,
                                         site::Instant now);

}  // namespace atoms::pos
