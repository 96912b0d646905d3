#include "daemon/api/sales_labor_resource.h"

#include "base/timestamp.h"
#include "daemon/api/labor_vs_sales_json.h"
#include "domain/week/week_draft.h"

namespace atoms::api {
namespace {

namespace chr = std::chrono;

struct SalesQuery {
  bool week = false;
  std::optional<pos::LocalDay> day;  // none: today
};

constexpr char kExpectedQuery[] = "expected day=YYYY-MM-DD or week=YYYY-MM-DD (a real date)";

// "", "day=YYYY-MM-DD" or "week=YYYY-MM-DD"; otherwise the line naming the parameter.
Result<SalesQuery> parseSalesQuery(std::string_view query) {
  auto q = queryParameters(query, {"day", "week"});
  if (!q) return makeError(std::string("query: ") + kExpectedQuery + "; " + q.message());
  if (q->size() > 1) return makeError(std::string("query: ") + kExpectedQuery + ", not both");
  SalesQuery out;
  if (q->empty()) return out;
  const auto& [name, value] = *q->begin();
  auto day = dayParameter(name, value);
  if (!day) return makeError(day.message() + ": " + kExpectedQuery);
  out.week = name == "week";
  out.day = *day;
  return out;
}

json::Value posJson(const SalesLaborAccess& access) {
  return access.posHealth ? access.posHealth() : json::Value(json::Object{{"on", false}});
}

pos::LaborVsSalesSources sourcesOf(const SalesLaborAccess& access) {
  pos::LaborVsSalesSources s;
  s.db = &access.db();
  s.rules = access.rules;
  s.expectation = access.expectation.get();
  return s;
}

}  // namespace

Result<json::Value> todaySalesJson(const SalesLaborAccess& access) {
  const site::Instant now = site::toInstant(access.now());
  auto today = pos::siteDay(access.db(), now);
  if (!today) return today.error();
  auto figures = pos::readLaborVsSalesDay(sourcesOf(access), *today, today->today, now);
  if (!figures) return figures.error();
  return json::Value(json::Object{{"day", site::formatLocalDay(figures->day)},
                                  {"soFar", laborSalesTotalsJson(figures->soFar)},
                                  {"projected", laborSalesTotalsJson(figures->projected)},
                                  {"projectionSource", figures->expectationSource},
                                  {"pos", posJson(access)}});
}

std::vector<std::string> SalesLaborResource::methods(std::string_view path) const {
  if (path == kSalesLaborPath) return {"GET"};
  return {};
}

ApiAnswer SalesLaborResource::handle(const ApiRequest& request) {
  auto found = rolesOrRefusal(access_.roles, request.person);
  if (auto* refused = std::get_if<ApiAnswer>(&found)) return *refused;
  const Result<SalesQuery> query = parseSalesQuery(request.query);
  if (!query) return apiRefusal(400, query.message(), query.message());
  const TimePoint nowPoint = access_.now();
  const site::Instant now = site::toInstant(nowPoint);
  auto site = pos::siteDay(access_.db(), now);
  if (!site) return apiStoreFailed("read the site", site.error());
  const pos::LocalDay day = query->day.value_or(site->today);
  json::Object out{{"now", formatTimestamp(nowPoint)},
                   {"timeZone", site->zone.name()},
                   {"pos", posJson(access_)}};
  if (query->week) {
    // The workweek holding the calendar day (its workday starts at the site's workday start).
    const site::SiteInfo& info = site->model.site;
    const pos::LocalDay first =
        week::weekOf(info, site::LocalTime(day) + chr::minutes(info.workdayStartMinute));
    auto week = pos::readLaborVsSalesWeek(sourcesOf(access_), *site, first, now);
    if (!week) return apiStoreFailed("work out labor against sales", week.error());
    out.emplace("projectionSource", week->days.back().expectationSource);
    out.emplace("week", weekFiguresJson(*week));
  } else {
    auto figures = pos::readLaborVsSalesDay(sourcesOf(access_), *site, day, now);
    if (!figures) return apiStoreFailed("work out labor against sales", figures.error());
    out.emplace("projectionSource", figures->expectationSource);
    out.emplace("day", dayFiguresJson(*figures));
  }
  return apiOk(out);
}

}  // namespace atoms::api
