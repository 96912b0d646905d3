#include "domain/forecast/special_day_store.h"

#include <cmath>
#include <optional>

#include "domain/forecast/demand_history.h"
#include "domain/site/site_model.h"

namespace atoms::forecast {
namespace {

json::Object specialDayBody(const SpecialDay& d) {
  json::Object body{{"day", dayText(d.day)}, {"closed", d.closed}, {"note", d.note}};
  body["like"] = d.like ? json::Value(std::string(weekdayName(*d.like))) : json::Value(nullptr);
  body["multiplier_milli"] = static_cast<std::int64_t>(std::llround(d.multiplier * 1000));
  return body;
}

}  // namespace

Result<SpecialDays> loadSpecialDays(Database& db) {
  auto s = db.cached(
      "SELECT day, closed, like_weekday, multiplier_milli, note FROM forecast_special_day"
      " ORDER BY day");
  if (!s) return s.error();
  std::vector<SpecialDay> days;
  for (;;) {
    auto row = s->step();
    if (!row) return row.error();
    if (!*row) break;
    const std::string text = s->columnText(0);
    const auto day = site::parseDate(text);
    if (!day) return makeError("stored special day '" + text + "' is not a date");
    SpecialDay d;
    d.day = std::chrono::local_days(*day);
    d.closed = s->columnInt64(1) != 0;
    const std::int64_t like = s->columnInt64(2);
    // Stored 0 = Monday; std::chrono::weekday counts 0 = Sunday.
    if (like >= 0 && like < 7) d.like = std::chrono::weekday(static_cast<unsigned>((like + 1) % 7));
    d.multiplier = static_cast<double>(s->columnInt64(3)) / 1000.0;
    d.note = s->columnText(4);
    days.push_back(std::move(d));
  }
  return SpecialDays::make(std::move(days));
}

Status markSpecialDay(SiteStore& store, const SpecialDay& day, const std::string& actor,
                      TimePoint now) {
  if (auto valid = SpecialDays::make({day}); !valid) return valid.error();
  auto audit = store.log().begin();
  if (!audit) return audit.error();
  auto s = store.db().cached(
      "INSERT OR REPLACE INTO forecast_special_day(day, closed, like_weekday, multiplier_milli,"
      " note, marked_by, marked_at) VALUES (?, ?, ?, ?, ?, ?, ?)");
  if (!s) return s.error();
  const std::int64_t like = day.like ? (day.like->c_encoding() + 6) % 7 : -1;
  s->bind(1, dayText(day.day))
      .bind(2, std::int64_t{day.closed ? 1 : 0})
      .bind(3, like)
      .bind(4, static_cast<std::int64_t>(std::llround(day.multiplier * 1000)))
      .bind(5, day.note)
      .bind(6, actor)
      .bindTime(7, now);
  if (Status done = s->run(); !done) return done.error();
  if (Status added = audit->record(now, "forecast.special_day", actor, specialDayBody(day));
      !added) {
    return added.error();
  }
  if (auto committed = audit->commit(); !committed) return committed.error();
  return Status::success();
}

Result<bool> unmarkSpecialDay(SiteStore& store, std::chrono::local_days day,
                              const std::string& actor, TimePoint now) {
  auto audit = store.log().begin();
  if (!audit) return audit.error();
  auto s = store.db().cached("DELETE FROM forecast_special_day WHERE day = ?");
  if (!s) return s.error();
  s->bind(1, dayText(day));
  if (Status done = s->run(); !done) return done.error();
  if (store.db().changes() == 0) return false;  // the batch rolls back: nothing to say
  json::Object body{{"day", dayText(day)}, {"unmarked", true}};
  if (Status added = audit->record(now, "forecast.special_day", actor, std::move(body)); !added) {
    return added.error();
  }
  if (auto committed = audit->commit(); !committed) return committed.error();
  return true;
}

}  // namespace atoms::forecast
