#include "daemon/api/fill_json.h"

#include <charconv>
#include <string>

#include "daemon/api/schedule_json.h"
#include "domain/site/site_file.h"
#include "drivers/http/printable.h"

namespace atoms::api {

namespace {

std::optional<int> clockMinute(const json::Value& v) {
  if (!v.isString()) return std::nullopt;
  const std::string& t = v.asString();
  if (t.size() != 5 || t[2] != ':') return std::nullopt;
  int h = 0, m = 0;
  if (std::from_chars(t.data(), t.data() + 2, h).ptr != t.data() + 2 ||
      std::from_chars(t.data() + 3, t.data() + 5, m).ptr != t.data() + 5 || h > 23 || m > 59) {
    return std::nullopt;
  }
  return h * 60 + m;
}

}  // namespace

Result<std::vector<week::Requirement>> parseRequirements(const json::Value& value) {
  if (!value.isArray()) return makeError("requirements: not a list");
  std::vector<week::Requirement> out;
  for (std::size_t i = 0; i < value.asArray().size(); ++i) {
    const std::string where = "requirements[" + std::to_string(i) + "]";
    const json::Value& item = value.asArray()[i];
    if (!item.isObject()) return makeError(where + ": not an object");
    week::Requirement r;
    bool start = false, end = false;
    int endMinute = 0;
    for (const auto& [key, v] : item.asObject()) {
      if (key == "station" || key == "certification") {
        if (!v.isString() || !site::isValidId(v.asString())) {
          return makeError(where + "." + key + ": not an id");
        }
        if (key == "station") {
          r.stationId = v.asString();
        } else {
          r.certificationId = v.asString();
        }
      } else if (key == "day" || key == "heads") {
        if (!v.isInt() || v.asInt() < 0 || v.asInt() > 1000) {
          return makeError(where + "." + key + ": not a whole number");
        }
        (key == "day" ? r.day : r.heads) = static_cast<int>(v.asInt());
      } else if (key == "start" || key == "end") {
        auto minute = clockMinute(v);
        if (!minute) return makeError(where + "." + key + ": not a time HH:MM");
        if (key == "start") {
          r.startMinute = *minute;
          start = true;
        } else {
          endMinute = *minute;
          end = true;
        }
      } else {
        return makeError(where + ": unknown field '" + drivers::printable(key, 40) + "'");
      }
    }
    if (r.stationId.empty()) return makeError(where + ".station: missing");
    if (!start || !end) return makeError(where + ": start and end are both needed");
    r.minutes =
        endMinute > r.startMinute ? endMinute - r.startMinute : endMinute + 1440 - r.startMinute;
    out.push_back(std::move(r));
  }
  if (Status s = week::checkRequirements(out); !s) return s.error();
  return out;
}

json::Value fillOutcomeJson(const week::FillOutcome& outcome) {
  json::Value out = editOutcomeJson(outcome.edit);
  out.asObject()["plan"] = week::weekPlanJson(outcome.plan);
  return out;
}

}  // namespace atoms::api
