#include "domain/pos/labor_vs_sales_store.h"

#include "domain/pos/work_spans.h"
#include "domain/site/site_repository.h"

namespace atoms::pos {
namespace {

namespace chr = std::chrono;

// The inputs over the local days [first, first + count) at `now`.
Result<LaborVsSalesInput> readInput(const LaborVsSalesSources& sources,
                                    const site::SiteModel& model, const site::TimeZone& zone,
                                    LocalDay first, int count, site::Instant now) {
  const site::Instant from = zone.startOfDay(first);
  const site::Instant to = zone.startOfDay(first + chr::days(count));

  auto rules = sources.rules(model);
  if (!rules) return makeError("the labor rules: " + rules.message());
  auto ctx = labor::LaborContext::build(model, *rules, sources.options);
  if (!ctx) return ctx.error();
  LaborVsSalesInput in;
  auto scheduled = scheduledSpans(*ctx, from, to);
  if (!scheduled) return scheduled.error();
  in.scheduled = std::move(*scheduled);
  in.actual = actualSpans(model, in.scheduled, from, to, now);
  // One read of the sales book: the expectation's history before the range and the range's own
  // sales up to now.
  const site::Instant lookFrom = zone.startOfDay(first - sources.expectation->lookBack());
  auto sales = salesIntervals(*sources.db, lookFrom, to);
  if (!sales) return sales.error();
  for (const SalesInterval& s : *sales) {
    if (s.start >= from && s.start < now) in.sales.push_back(s);
  }
  auto expected = sources.expectation->expected(*sales, zone, first, count);
  if (!expected) return expected.error();
  for (DayExpectation& day : *expected) {
    // A range names the source of its last day: the one the days ahead are projected from.
    in.expectationSource = day.source;
    in.expected.insert(in.expected.end(), day.intervals.begin(), day.intervals.end());
  }
  return in;
}

}  // namespace

Result<SiteDay> siteDay(Database& db, site::Instant now) {
  auto model = site::loadSite(db);
  if (!model) return model.error();
  auto zone = site::TimeZone::locate(model->site.timeZone);
  if (!zone) return zone.error();
  const LocalDay today = chr::floor<chr::days>(zone->toLocal(now));
  return SiteDay{std::move(*model), *zone, today};
}

Result<DayFigures> readLaborVsSalesDay(const LaborVsSalesSources& sources, const SiteDay& site,
                                       LocalDay day, site::Instant now) {
  auto in = readInput(sources, site.model, site.zone, day, 1, now);
  if (!in) return in.error();
  return laborVsSalesDay(*in, site.zone, day, now);
}

Result<WeekFigures> readLaborVsSalesWeek(const LaborVsSalesSources& sources, const SiteDay& site,
                                         LocalDay first, site::Instant now) {
  auto in = readInput(sources, site.model, site.zone, first, 7, now);
  if (!in) return in.error();
  return laborVsSalesWeek(*in, site.zone, first, now);
}

Result<DayFigures> readLaborVsSalesDay(const LaborVsSalesSources& sources, LocalDay day,
                                       site::Instant now) {
  auto site = siteDay(*sources.db, now);
  if (!site) return site.error();
  return readLaborVsSalesDay(sources, *site, day, now);
}

}  // namespace atoms::pos
