#include "daemon/api/sales_labor_resource.h"

#include "base/timestamp.h"
#include "daemon/api/labor_vs_sales_json.h"
#include "drivers/http/printable.h"

namespace atoms::api {
namespace {

namespace chr = std::chrono;

struct SalesQuery {
  bool week = false;
  std::optional<pos::LocalDay> day;  // none: today
};

// "", "day=YYYY-MM-DD" or "week=YYYY-MM-DD"; nullopt for anything else.
std::optional<SalesQuery> parseSalesQuery(std::string_view query) {
  SalesQuery q;
  if (query.empty()) return q;
  std::string_view value;
  if (query.starts_with("day=")) {
    value = query.substr(4);
  } else if (query.starts_with("week=")) {
    q.week = true;
    value = query.substr(5);
  } else {
    return std::nullopt;
  }
  const std::optional<site::Date> date = site::parseDate(value);
  if (!date) return std::nullopt;
  q.day = pos::LocalDay(chr::sys_days(*date).time_since_epoch());
  return q;
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
  const std::optional<SalesQuery> query = parseSalesQuery(request.query);
  if (!query) {
    const std::string error = "query: expected day=YYYY-MM-DD or week=YYYY-MM-DD (a real date)";
    return apiRefusal(400, error, error + " (got '" + drivers::printable(request.query, 60) + "')");
  }
  const TimePoint nowPoint = access_.now();
  const site::Instant now = site::toInstant(nowPoint);
  auto site = pos::siteDay(access_.db(), now);
  if (!site) return apiStoreFailed("read the site", site.error());
  const pos::LocalDay day = query->day.value_or(site->today);
  json::Object out{{"now", formatTimestamp(nowPoint)},
                   {"timeZone", site->zone.name()},
                   {"pos", posJson(access_)}};
  if (query->week) {
    const unsigned weekday = chr::weekday(day).c_encoding();
    const pos::LocalDay first = day - chr::days((weekday + 7 - site->workweekStart) % 7);
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
