#include "daemon/api/labor_vs_sales_json.h"

#include <cstdio>

#include "base/timestamp.h"
#include "domain/site/site_model.h"

namespace atoms::api {
namespace {

json::Value laborFiguresJson(const pos::LaborFigures& f) {
  return json::Object{{"heads", f.heads}, {"minutes", f.minutes}, {"costCents", f.costCents}};
}

json::Value intervalJson(const pos::IntervalFigures& i) {
  const auto minutes = std::chrono::duration_cast<std::chrono::minutes>(
      i.localStart - std::chrono::floor<std::chrono::days>(i.localStart));
  return json::Object{{"start", formatTimestamp(i.start)},
                      {"local", site::formatTimeOfDay(static_cast<int>(minutes.count()))},
                      {"scheduled", laborFiguresJson(i.scheduled)},
                      {"actual", laborFiguresJson(i.actual)},
                      {"salesCents", i.salesCents},
                      {"expectedCents", i.expectedCents},
                      {"projected", json::Object{{"laborMinutes", i.projectedMinutes},
                                                 {"laborCents", i.projectedCostCents},
                                                 {"salesCents", i.projectedSalesCents}}}};
}

json::Object dayObject(const pos::DayFigures& day) {
  return json::Object{{"day", site::formatLocalDay(day.day)},
                      {"scheduled", laborFiguresJson(day.scheduled)},
                      {"soFar", laborSalesTotalsJson(day.soFar)},
                      {"projected", laborSalesTotalsJson(day.projected)}};
}

}  // namespace

json::Value percentJson(std::optional<std::int64_t> basisPoints) {
  if (!basisPoints) return json::Value();
  const std::int64_t bp = *basisPoints;
  const std::int64_t whole = (bp < 0 ? -bp : bp) / 100;
  const std::int64_t cents = (bp < 0 ? -bp : bp) % 100;
  char text[32];
  std::snprintf(text, sizeof text, "%s%lld.%02lld", bp < 0 ? "-" : "",
                static_cast<long long>(whole), static_cast<long long>(cents));
  return json::Value(std::string(text));
}

json::Value laborSalesTotalsJson(const pos::LaborSalesTotals& t) {
  const std::optional<std::int64_t> splh = t.salesPerLaborHourCents();
  return json::Object{{"laborMinutes", t.laborMinutes},
                      {"laborCents", t.laborCents},
                      {"salesCents", t.salesCents},
                      {"laborPercent", percentJson(t.laborBasisPoints())},
                      {"salesPerLaborHourCents", splh ? json::Value(*splh) : json::Value()}};
}

json::Value dayFiguresJson(const pos::DayFigures& day) {
  json::Object out = dayObject(day);
  json::Array intervals;
  for (const pos::IntervalFigures& i : day.intervals) intervals.push_back(intervalJson(i));
  out.emplace("intervals", std::move(intervals));
  return out;
}

json::Value weekFiguresJson(const pos::WeekFigures& week) {
  json::Array days;
  for (const pos::DayFigures& d : week.days) days.push_back(dayObject(d));
  return json::Object{{"week", site::formatLocalDay(week.first)},
                      {"days", std::move(days)},
                      {"scheduled", laborFiguresJson(week.scheduled)},
                      {"soFar", laborSalesTotalsJson(week.soFar)},
                      {"projected", laborSalesTotalsJson(week.projected)}};
}

}  // namespace atoms::api
