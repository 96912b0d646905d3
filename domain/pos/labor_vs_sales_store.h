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

// The stored site, its zone and its local day holding `now`: one read of the site, handed to the
// functions below so a request reads it once.
struct SiteDay {
  site::SiteModel model;
  site::TimeZone zone;
  LocalDay today;
};
Result<SiteDay> siteDay(Database& db, site::Instant now);

// One day, or the seven days from `first`, of `site` (read by siteDay at the same `now`): the
// sales book is read once for the range and the expectation's history before it.
Result<DayFigures> readLaborVsSalesDay(const LaborVsSalesSources& sources, const SiteDay& site,
                                       LocalDay day, site::Instant now);
Result<WeekFigures> readLaborVsSalesWeek(const LaborVsSalesSources& sources, const SiteDay& site,
                                         LocalDay first, site::Instant now);
// The same, reading the site first.
Result<DayFigures> readLaborVsSalesDay(const LaborVsSalesSources& sources, LocalDay day,
                                       site::Instant now);

}  // namespace atoms::pos
