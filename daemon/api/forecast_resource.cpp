#include "daemon/api/forecast_resource.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <map>

#include "base/timestamp.h"
#include "daemon/api/approval_json.h"
#include "daemon/api/request_json.h"
#include "domain/forecast/forecast_explanation.h"
#include "domain/site/site_model.h"
#include "drivers/http/printable.h"

namespace atoms::api {
namespace {

const std::string kSpecialDaysPath = std::string(kForecastPath) + "/special-days";
const std::string kProposalsPath = std::string(kForecastPath) + "/proposals";
const std::string kProposalCheckPath = kProposalsPath + "/check";

json::Value freshnessJson(const std::optional<pos::PosFreshness>& f) {
  if (!f) {
    return json::Object{{"on", false},
                        {"fresh", false},
                        {"staleSince", json::Value()},
                        {"reason", "no POS is configured: the box has no sales to forecast from"}};
  }
  return json::Object{
      {"on", true},
      {"fresh", f->fresh},
      {"staleSince", f->staleSince ? json::Value(formatTimestamp(*f->staleSince)) : json::Value()},
      {"reason", f->reason}};
}

json::Value dayJson(const forecast::DayForecast& day) {
  using forecast::Measure;
  json::Array intervals;
  for (int slot = 0; slot < forecast::kIntervalsPerDay; ++slot) {
    const forecast::IntervalForecast& i = day.intervals[static_cast<std::size_t>(slot)];
    if (i.value(Measure::kNetSales) <= 0 && i.value(Measure::kCovers) <= 0 &&
        i.value(Measure::kTransactions) <= 0) {
      continue;  // nothing expected: left out
    }
    intervals.push_back(json::Object{
        {"start", site::formatTimeOfDay(slot * forecast::kIntervalMinutes)},
        {"netCents", static_cast<std::int64_t>(std::llround(i.value(Measure::kNetSales)))},
        {"transactionsTenths",
         static_cast<std::int64_t>(std::llround(10 * i.value(Measure::kTransactions)))},
        {"coversTenths", static_cast<std::int64_t>(std::llround(10 * i.value(Measure::kCovers)))},
        {"why", forecast::explainInterval(day, slot, Measure::kNetSales)}});
  }
  return json::Object{
      {"day", forecast::dayText(day.day)},
      {"open", day.open},
      {"note", day.note},
      {"netCents", static_cast<std::int64_t>(std::llround(day.total(Measure::kNetSales)))},
      {"intervals", std::move(intervals)}};
}

json::Value staffingJson(const std::vector<forecast::StationDay>& staffing) {
  json::Array out;
  for (const forecast::StationDay& s : staffing) {
    json::Array heads;
    for (int h : s.heads) heads.push_back(std::int64_t{h});
    out.push_back(json::Object{
        {"station", s.station}, {"day", forecast::dayText(s.day)}, {"heads", std::move(heads)}});
  }
  return out;
}

// "12:00" for a local wall-clock time (24:00 for the end of the day).
std::string wallClock(std::chrono::local_seconds t, std::chrono::local_days day) {
  return site::formatTimeOfDay(
      static_cast<int>(std::chrono::duration_cast<std::chrono::minutes>(t - day).count()));
}

json::Value proposalJson(const forecast::IntradayProposal& p) {
  json::Object out{{"id", p.id},
                   {"day", forecast::dayText(p.day)},
                   {"station", p.signal.station},
                   {"kind", std::string(forecast::intradayKindName(p.signal.kind))},
                   {"state", std::string(forecast::proposalStateName(p.state))},
                   {"measure", forecast::measureName(p.signal.measure)},
                   {"actual", p.signal.actual},
                   {"forecast", p.signal.forecast},
                   {"percentOff", std::int64_t{p.signal.percentOff()}},
                   {"windowStart", wallClock(p.signal.windowStart, p.day)},
                   {"windowEnd", wallClock(p.signal.windowEnd, p.day)},
                   {"summary", p.summary},
                   {"requestedAt", formatTimestamp(p.requestedAt)},
                   {"expiresAt", formatTimestamp(forecast::proposalExpiry(p))},
                   {"decidedBy", p.decidedBy},
                   {"remark", p.remark}};
  if (p.signal.kind == forecast::IntradayKind::kCut) {
    out["shift"] = p.shiftId;
    out["person"] = p.personId;
    out["premiumCents"] = p.premiumCents;
    out["cutTo"] = p.cutTo ? json::Value(formatTimestamp(*p.cutTo)) : json::Value();
  }
  return out;
}

}  // namespace

std::vector<std::string> ForecastResource::methods(std::string_view path) const {
  if (path == kForecastPath || path == kProposalsPath) return {"GET"};
  if (path == kSpecialDaysPath || path == kProposalCheckPath) return {"POST"};
  if (auto item = itemRoute(path, kProposalsPath, "decision");
      item && item->route == ItemRoute::kAction) {
    return {"POST"};
  }
  return {};
}

bool ForecastResource::takesQuery(std::string_view path) const {
  return path == kForecastPath || path == kProposalsPath;
}

ApiAnswer ForecastResource::handle(const ApiRequest& request) {
  auto found = rolesOrRefusal(access_.roles, request.person);
  if (auto* refused = std::get_if<ApiAnswer>(&found)) return *refused;
  const policy::PanelRoles& who = std::get<policy::PanelRoles>(found);
  if (!who.owner && !who.managerOfRecord) {
    return apiRefusal(403, "the forecast is for the owners and managers of the site",
                      "not an owner or manager");
  }
  if (request.path == kForecastPath) return forecast(request);
  if (request.path == kSpecialDaysPath) return markDay(request);
  if (request.path == kProposalsPath) return proposals(request);
  if (request.path == kProposalCheckPath) return check(request);
  const auto item = itemRoute(request.path, kProposalsPath, "decision");
  return decide(request, item->id);
}

ApiAnswer ForecastResource::forecast(const ApiRequest& request) {
  auto q = queryParameters(request.query, {"from", "days"});
  if (!q) return apiRefusal(400, q.message(), q.message());
  if (!q->count("from")) return apiRefusal(400, "from: missing", "from: missing");
  auto from = dayParameter("from", q->at("from"));
  if (!from) return apiRefusal(400, from.message(), from.message());
  int days = forecast::kMaxForecastDays;
  if (q->count("days")) {
    const std::string& text = q->at("days");
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), days);
    if (text.empty() || ec != std::errc() || end != text.data() + text.size() || days < 1 ||
        days > forecast::kMaxForecastDays) {
      return apiRefusal(400, "days: a whole number from 1 to 14", "days: out of range");
    }
  }
  const std::optional<pos::PosFreshness> freshness =
      access_.freshness ? access_.freshness() : std::nullopt;
  json::Object out{{"from", forecast::dayText(*from)}, {"days", std::int64_t{days}},
                   {"pos", freshnessJson(freshness)},  {"forecast", json::Value()},
                   {"staffing", json::Value()},        {"reason", json::Value()}};
  if (!freshness || !freshness->fresh) {
    out["reason"] = "nothing is forecast from stale sales: " +
                    (freshness ? freshness->reason : std::string("no POS is configured"));
    return apiOk(out);
  }
  auto result = access_.forecast(*from, days);
  if (!result) {
    if (result.error().kind != ErrorKind::kInvalid) {
      return apiStoreFailed("read the sales", result.error());
    }
    out["reason"] = result.message();
    return apiOk(out);
  }
  json::Array centers;
  for (const forecast::RevenueCenterForecast& c : result->centers) {
    json::Array dayList;
    for (const forecast::DayForecast& d : c.days) dayList.push_back(dayJson(d));
    centers.push_back(json::Object{{"revenueCenter", c.revenueCenter},
                                   {"historyDays", std::int64_t{c.historyDays}},
                                   {"days", std::move(dayList)}});
  }
  out["forecast"] = std::move(centers);
  out["staffing"] = staffingJson(result->staffing);
  return apiOk(out);
}

ApiAnswer ForecastResource::markDay(const ApiRequest& request) {
  auto body = parseBodyObject(request.body);
  if (!body) return apiRefusal(400, body.message(), body.message());
  forecast::SpecialDay day;
  bool haveDay = false;
  bool unmark = false;
  for (const auto& [key, value] : *body) {
    const auto bad = [&field = key](const std::string& what) {
      const std::string line = field + ": " + what;
      return apiRefusal(400, line, line);
    };
    if (key == "day") {
      if (!value.isString()) return bad("not a string");
      auto parsed = dayParameter("day", value.asString());
      if (!parsed) return apiRefusal(400, parsed.message(), parsed.message());
      day.day = *parsed;
      haveDay = true;
    } else if (key == "closed" || key == "unmark") {
      if (!value.isBool()) return bad("not true or false");
      (key == "closed" ? day.closed : unmark) = value.asBool();
    } else if (key == "like") {
      if (!value.isString()) return bad("not a weekday name");
      for (unsigned w = 0; w < 7; ++w) {
        if (value.asString() == forecast::weekdayName(std::chrono::weekday(w))) {
          day.like = std::chrono::weekday(w);
        }
      }
      if (!day.like) return bad("not a weekday name (Monday ... Sunday)");
    } else if (key == "multiplier") {
      if (!value.isString()) return bad("a decimal string, e.g. \"1.5\"");
      char* end = nullptr;
      day.multiplier = std::strtod(value.asString().c_str(), &end);
      if (value.asString().empty() || *end != '\0') return bad("a decimal string, e.g. \"1.5\"");
    } else if (key == "note") {
      if (!value.isString()) return bad("not a string");
      if (auto problem = freeTextProblem("note", value.asString(), kMaxRemarkBytes)) {
        return apiRefusal(400, *problem, *problem);
      }
      day.note = value.asString();
    } else {
      const std::string line = "unknown field '" + drivers::printable(key) + "'";
      return apiRefusal(400, line, line);
    }
  }
  if (!haveDay) return apiRefusal(400, "day: missing", "day: missing");
  if (unmark) {
    auto removed = access_.unmark(day.day, request.person);
    if (!removed) return apiStoreFailed("unmark the day", removed.error());
    return apiOk(json::Object{{"day", forecast::dayText(day.day)}, {"unmarked", *removed}});
  }
  if (Status marked = access_.mark(day, request.person); !marked) {
    if (marked.error().kind == ErrorKind::kInvalid) {
      return apiRefusal(400, marked.message(), marked.message());
    }
    return apiStoreFailed("mark the day", marked.error());
  }
  return apiOk(json::Object{{"day", forecast::dayText(day.day)}, {"marked", true}});
}

ApiAnswer ForecastResource::proposals(const ApiRequest& request) {
  auto q = queryParameters(request.query, {"day"});
  if (!q) return apiRefusal(400, q.message(), q.message());
  if (!q->count("day")) return apiRefusal(400, "day: missing", "day: missing");
  auto day = dayParameter("day", q->at("day"));
  if (!day) return apiRefusal(400, day.message(), day.message());
  auto rows = access_.proposals(*day);
  if (!rows) return apiStoreFailed("read the proposals", rows.error());
  json::Array out;
  for (const forecast::IntradayProposal& p : *rows) out.push_back(proposalJson(p));
  return apiOk(json::Object{{"day", forecast::dayText(*day)}, {"proposals", std::move(out)}});
}

ApiAnswer ForecastResource::decide(const ApiRequest& request, std::int64_t id) {
  auto body = parseRequestDecision(request.body);
  if (!body) return apiRefusal(400, body.message(), body.message());
  auto decided = access_.decide(id, body->approve, request.person, body->reason);
  if (!decided) {
    switch (decided.error().kind) {
      case ErrorKind::kNotFound:
        return apiRefusal(404, decided.message(), decided.message());
      case ErrorKind::kRefused:
        return apiRefusal(409, decided.message(), decided.message());
      case ErrorKind::kUnavailable:
        return apiRefusal(503, decided.message(), decided.message());
      default:
        return apiStoreFailed("decide the proposal", decided.error());
    }
  }
  json::Object out{{"proposal", proposalJson(decided->proposal)}, {"message", decided->message}};
  if (decided->calloutId) out["callout"] = *decided->calloutId;
  if (!decided->shiftId.empty()) out["shift"] = decided->shiftId;
  return apiOk(std::move(out));
}

ApiAnswer ForecastResource::check(const ApiRequest& request) {
  // No fields: an empty body or {}.
  auto body = parseBodyObject(request.body.empty() ? std::string_view("{}") : request.body);
  if (!body) return apiRefusal(400, body.message(), body.message());
  if (!body->empty()) {
    const std::string line = "unknown field '" + drivers::printable(body->begin()->first) + "'";
    return apiRefusal(400, line, line);
  }
  Result<std::optional<forecast::IntradayCheckRun>> ran{
      std::optional<forecast::IntradayCheckRun>()};
  if (access_.check) ran = access_.check();
  if (!ran) return apiStoreFailed("run the intraday check", ran.error());
  if (!*ran) {
    const std::string line =
        "the box runs no intraday check: it needs a POS, forecast.standards_file and "
        "intraday.check_minutes above 0";
    return apiRefusal(409, line, "no intraday check configured");
  }
  json::Array filed;
  for (const forecast::IntradayProposal& p : (*ran)->filed) filed.push_back(proposalJson(p));
  json::Value reason;
  if (!(*ran)->skipped.empty()) reason = (*ran)->skipped;
  return apiOk(json::Object{{"filed", std::move(filed)}, {"reason", std::move(reason)}});
}

}  // namespace atoms::api
