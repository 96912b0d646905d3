#include "daemon/api/schedule_resource.h"

#include <chrono>

#include "daemon/api/approval_json.h"
#include "daemon/api/fill_json.h"
#include "daemon/api/schedule_json.h"
#include "drivers/http/printable.h"

namespace atoms::api {

namespace {

enum class Route {
  kWeek,
  kHistory,
  kEdits,
  kCopy,
  kApplyTemplate,
  kPublish,
  kTemplates,
  kFill,
  kBuild
};

struct ScheduleTarget {
  Route route = Route::kWeek;
  std::string week;  // as written; empty for templates
};

std::optional<ScheduleTarget> scheduleRoute(std::string_view path) {
  const std::string_view base = kSchedulePath;
  if (path.substr(0, base.size()) != base) return std::nullopt;
  std::string_view rest = path.substr(base.size());
  if (rest == "/templates") return ScheduleTarget{Route::kTemplates, ""};
  constexpr std::string_view kWeeks = "/weeks/";
  if (rest.substr(0, kWeeks.size()) != kWeeks) return std::nullopt;
  rest = rest.substr(kWeeks.size());
  const std::size_t slash = rest.find('/');
  const std::string week(rest.substr(0, slash));
  if (week.size() != 10) return std::nullopt;
  if (slash == std::string_view::npos) return ScheduleTarget{Route::kWeek, week};
  const std::string_view tail = rest.substr(slash);
  if (tail == "/history") return ScheduleTarget{Route::kHistory, week};
  if (tail == "/edits") return ScheduleTarget{Route::kEdits, week};
  if (tail == "/copy") return ScheduleTarget{Route::kCopy, week};
  if (tail == "/apply-template") return ScheduleTarget{Route::kApplyTemplate, week};
  if (tail == "/publish") return ScheduleTarget{Route::kPublish, week};
  if (tail == "/fill") return ScheduleTarget{Route::kFill, week};
  if (tail == "/build") return ScheduleTarget{Route::kBuild, week};
  return std::nullopt;
}

ApiAnswer deskFailed(const std::string& what, const Error& error) {
  switch (error.kind) {
    case ErrorKind::kInvalid:
      return apiRefusal(400, drivers::printable(error.message, 300),
                        drivers::printable(error.message, 200));
    case ErrorKind::kNotFound:
      return apiRefusal(404, drivers::printable(error.message, 300),
                        drivers::printable(error.message, 200));
    case ErrorKind::kUnavailable:
      return apiRefusal(503, drivers::printable(error.message, 300),
                        drivers::printable(error.message, 200));
    default:
      return apiStoreFailed(what, error);
  }
}

// 200 when done; 409 stale or conflict; 422 denied: the body is the outcome either way.
ApiAnswer outcomeAnswer(week::DeskStatus status, const std::string& message, json::Value body) {
  if (status == week::DeskStatus::kDone) return apiOk(body);
  body.asObject()["error"] = message;
  const int code = status == week::DeskStatus::kDenied ? 422 : 409;
  return ApiAnswer{
      code, json::canonical(body),
      std::string(week::deskStatusName(status)) + ": " + drivers::printable(message, 200), false};
}

// The engine's search time for a fill or build asked by the panel: 2 s unless the body says
// otherwise, at most 10 s (the request waits for it).
constexpr std::int64_t kDefaultFillSeconds = 2;
constexpr std::int64_t kMaxFillSeconds = 10;

Result<week::FillRequest> fillRequestOf(bool build, const api::VersionedBody& body) {
  week::FillRequest request;
  request.mode = build ? week::BuildMode::kBuild : week::BuildMode::kFillOpen;
  std::int64_t seconds = kDefaultFillSeconds;
  for (const auto& [key, value] : body.fields) {
    if (key == "timeLimitSeconds") {
      if (!value.isInt() || value.asInt() < 1 || value.asInt() > kMaxFillSeconds) {
        return makeError("timeLimitSeconds: a whole number from 1 to 10");
      }
      seconds = value.asInt();
    } else if (key == "requirements") {
      if (!build) return makeError("requirements: only a build takes requirements");
      auto requirements = parseRequirements(value);
      if (!requirements) return requirements.error();
      request.requirements = std::move(*requirements);
    }
  }
  // A compute budget, not the site's time: the steady clock of the box.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(seconds);
  request.limits.shouldStop = [deadline] { return std::chrono::steady_clock::now() >= deadline; };
  return request;
}

}  // namespace

std::vector<std::string> ScheduleResource::methods(std::string_view path) const {
  const auto target = scheduleRoute(path);
  if (!target) return {};
  switch (target->route) {
    case Route::kWeek:
    case Route::kHistory:
      return {"GET"};
    case Route::kTemplates:
      return {"GET", "POST"};
    default:
      return {"POST"};
  }
}

ApiAnswer ScheduleResource::handle(const ApiRequest& request) {
  const auto target = scheduleRoute(request.path);
  if (!target) return apiRefusal(404, "not found", "no such path");
  auto roles = rolesOrRefusal(access_.roles, request.person);
  if (auto* refused = std::get_if<ApiAnswer>(&roles)) return *refused;
  const policy::PanelRoles& who = std::get<policy::PanelRoles>(roles);
  week::WeekDesk* desk = access_.desk();
  if (desk == nullptr) {
    return apiRefusal(503, "the box cannot schedule now (no site, or no labor rules); try again",
                      "scheduling unavailable");
  }
  const bool reading = request.method == "GET";
  if (!reading && !who.owner && !who.managerOfRecord) {
    return apiRefusal(403, "only an owner or a manager of record changes the schedule",
                      "not an owner or manager of record");
  }
  const std::string actor = request.person;
  const TimePoint now = access_.now();

  if (target->route == Route::kTemplates) {
    if (reading) {
      auto names = desk->templateNames();
      if (!names) return deskFailed("read the templates", names.error());
      return apiOk(json::Object{{"templates", json::Array(names->begin(), names->end())}});
    }
    auto body = parseBodyObject(request.body);
    if (!body) return apiRefusal(400, body.message(), body.message());
    const json::Value* weekText = body->contains("week") ? &body->at("week") : nullptr;
    const json::Value* name = body->contains("name") ? &body->at("name") : nullptr;
    if (body->size() != 2 || weekText == nullptr || name == nullptr || !weekText->isString() ||
        !name->isString()) {
      return apiRefusal(400, "the body must be {\"week\":\"YYYY-MM-DD\",\"name\":\"...\"}",
                        "bad template body");
    }
    const auto week = week::parseWeek(weekText->asString());
    if (!week) return apiRefusal(400, "week: not a date YYYY-MM-DD", "bad week");
    auto saved = desk->saveTemplate(*week, name->asString(), actor, now);
    if (!saved) return deskFailed("save the template", saved.error());
    return apiOk(json::Object{{"template", saved->name},
                              {"shifts", static_cast<std::int64_t>(saved->shifts.size())}});
  }

  const auto week = week::parseWeek(target->week);
  if (!week) return apiRefusal(404, "no week " + drivers::printable(target->week), "bad week");

  switch (target->route) {
    case Route::kWeek: {
      auto view = desk->open(*week, actor, now);
      if (!view) return deskFailed("open the week", view.error());
      return apiOk(draftViewJson(*view));
    }
    case Route::kHistory: {
      auto edits = desk->history(*week, 50);
      if (!edits) return deskFailed("read the week's history", edits.error());
      json::Array out;
      for (const week::EditRecord& e : *edits) out.push_back(editRecordJson(e));
      return apiOk(json::Object{{"week", target->week}, {"edits", std::move(out)}});
    }
    case Route::kEdits:
    case Route::kCopy:
    case Route::kApplyTemplate: {
      const std::string_view field = target->route == Route::kEdits  ? "edit"
                                     : target->route == Route::kCopy ? "from"
                                                                     : "name";
      auto body = parseVersionedBody(request.body, {field});
      if (!body) return apiRefusal(400, body.message(), drivers::printable(body.message(), 200));
      auto it = body->fields.find(std::string(field));
      if (it == body->fields.end()) {
        return apiRefusal(400, std::string(field) + ": missing", "missing field");
      }
      Result<week::EditOutcome> outcome = makeError("");
      if (target->route == Route::kEdits) {
        auto edit = parseDraftEdit(it->second);
        if (!edit) return apiRefusal(400, edit.message(), drivers::printable(edit.message(), 200));
        outcome = desk->edit(*week, body->version, *edit, actor, now, body->overrideReason);
      } else if (target->route == Route::kCopy) {
        const auto from =
            it->second.isString() ? week::parseWeek(it->second.asString()) : std::nullopt;
        if (!from) return apiRefusal(400, "from: not a date YYYY-MM-DD", "bad from");
        outcome = desk->copyWeek(*week, body->version, *from, actor, now, body->overrideReason);
      } else {
        if (!it->second.isString()) return apiRefusal(400, "name: not a string", "bad name");
        outcome = desk->applyTemplate(*week, body->version, it->second.asString(), actor, now,
                                      body->overrideReason);
      }
      if (!outcome) return deskFailed("change the week", outcome.error());
      return outcomeAnswer(outcome->status, outcome->message, editOutcomeJson(*outcome));
    }
    case Route::kFill:
    case Route::kBuild: {
      auto body = parseVersionedBody(request.body, {"requirements", "timeLimitSeconds"});
      if (!body) return apiRefusal(400, body.message(), drivers::printable(body.message(), 200));
      auto fill = fillRequestOf(target->route == Route::kBuild, *body);
      if (!fill) return apiRefusal(400, fill.message(), drivers::printable(fill.message(), 200));
      auto outcome = desk->fill(*week, body->version, *fill, actor, now);
      if (!outcome) return deskFailed("plan the week", outcome.error());
      return outcomeAnswer(outcome->edit.status, outcome->edit.message, fillOutcomeJson(*outcome));
    }
    case Route::kPublish: {
      auto body = parseVersionedBody(request.body, {});
      if (!body) return apiRefusal(400, body.message(), drivers::printable(body.message(), 200));
      auto outcome = desk->publish(*week, body->version, actor, now, body->overrideReason);
      if (!outcome) return deskFailed("publish the week", outcome.error());
      if (outcome->status == week::DeskStatus::kDone && access_.published) access_.published();
      return outcomeAnswer(outcome->status, outcome->message, publishOutcomeJson(*outcome));
    }
    default:
      return apiRefusal(404, "not found", "no such path");
  }
}

}  // namespace atoms::api
