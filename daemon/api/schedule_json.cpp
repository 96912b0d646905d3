#include "daemon/api/schedule_json.h"

#include <algorithm>
#include <charconv>

#include "base/timestamp.h"
#include "daemon/api/approval_json.h"
#include "domain/site/site_file.h"
#include "drivers/http/printable.h"

namespace atoms::api {

namespace chr = std::chrono;

namespace {

using drivers::printable;

json::Value optionalText(const std::optional<std::string>& s) {
  return s ? json::Value(*s) : json::Value();
}

Result<std::string> idField(const json::Object& o, const std::string& name) {
  auto it = o.find(name);
  if (it == o.end()) return makeError("edit." + name + ": missing");
  if (!it->second.isString() || !site::isValidId(it->second.asString())) {
    return makeError("edit." + name + ": not an id");
  }
  return it->second.asString();
}

Result<std::optional<std::string>> optionalId(const json::Object& o, const std::string& name) {
  auto it = o.find(name);
  if (it == o.end() || it->second.isNull()) return std::optional<std::string>();
  auto id = idField(o, name);
  if (!id) return id.error();
  return std::optional(*id);
}

Result<site::LocalTime> timeField(const json::Object& o, const std::string& name) {
  auto it = o.find(name);
  if (it == o.end()) return makeError("edit." + name + ": missing");
  if (!it->second.isString()) return makeError("edit." + name + ": not a string");
  auto t = parseLocalMinute(it->second.asString());
  if (!t) return makeError("edit." + name + ": not a local time YYYY-MM-DDTHH:MM");
  return *t;
}

Status onlyFields(const json::Object& o, std::initializer_list<std::string_view> allowed) {
  for (const auto& [key, value] : o) {
    if (std::find(allowed.begin(), allowed.end(), key) == allowed.end()) {
      return makeError("edit: unknown field '" + printable(key) + "'");
    }
  }
  return Status::success();
}

std::string localText(site::LocalTime t) { return site::formatLocal(t); }

json::Value shiftJson(const site::Shift& s) {
  return json::Object{{"id", s.id},
                      {"station", s.stationId},
                      {"start", localText(s.start.local)},
                      {"end", localText(s.end.local)},
                      {"assignee", optionalText(s.assignee)},
                      {"certification", optionalText(s.requiredCertification)}};
}

json::Array findingsJson(const std::vector<week::WeekFinding>& findings) {
  json::Array out;
  for (const week::WeekFinding& f : findings) out.push_back(week::findingJson(f));
  return out;
}

json::Value newerJson(const std::optional<week::NewerVersion>& n) {
  if (!n) return json::Value();
  return json::Object{
      {"version", n->version}, {"by", n->by}, {"at", formatTimestamp(n->at)}, {"kind", n->kind}};
}

}  // namespace

std::optional<site::LocalTime> parseLocalMinute(std::string_view text) {
  if (text.size() != 16 && text.size() != 19) return std::nullopt;
  if (text[10] != 'T' || text[13] != ':') return std::nullopt;
  const auto date = site::parseDate(text.substr(0, 10));
  if (!date) return std::nullopt;
  auto number = [&](std::size_t at) -> std::optional<int> {
    int v = 0;
    const char* b = text.data() + at;
    if (b[0] < '0' || b[0] > '9' || b[1] < '0' || b[1] > '9') return std::nullopt;
    std::from_chars(b, b + 2, v);
    return v;
  };
  const auto hh = number(11), mm = number(14);
  std::optional<int> ss = 0;
  if (text.size() == 19) ss = text[16] == ':' ? number(17) : std::nullopt;
  if (!hh || !mm || !ss || *hh > 23 || *mm > 59 || *ss > 59) return std::nullopt;
  return site::LocalTime(chr::local_days(chr::sys_days(*date).time_since_epoch())) +
         chr::hours(*hh) + chr::minutes(*mm) + chr::seconds(*ss);
}

Result<VersionedBody> parseVersionedBody(std::string_view body,
                                         std::initializer_list<std::string_view> allowed) {
  auto object = parseBodyObject(body);
  if (!object) return object.error();
  VersionedBody out;
  bool version = false;
  for (auto& [key, value] : *object) {
    if (key == "version") {
      if (!value.isInt() || value.asInt() < 1) return makeError("version: not a draft version");
      out.version = value.asInt();
      version = true;
    } else if (key == "overrideReason") {
      if (value.isNull()) continue;
      if (!value.isString() || value.asString().empty()) {
        return makeError("overrideReason: give the reason in words");
      }
      if (auto problem = freeTextProblem("overrideReason", value.asString(), kMaxFreeTextBytes)) {
        return makeError(*problem);
      }
      out.overrideReason = value.asString();
    } else if (std::find(allowed.begin(), allowed.end(), key) != allowed.end()) {
      out.fields.emplace(key, value);
    } else {
      return makeError("unknown field '" + printable(key) + "'");
    }
  }
  if (!version) return makeError("version: missing (the draft version the change was made on)");
  return out;
}

Result<week::DraftEdit> parseDraftEdit(const json::Value& edit) {
  if (!edit.isObject()) return makeError("edit: not an object");
  const json::Object& o = edit.asObject();
  auto kindIt = o.find("kind");
  if (kindIt == o.end() || !kindIt->second.isString()) return makeError("edit.kind: missing");
  const std::string& kind = kindIt->second.asString();
  if (kind == "add") {
    if (Status s = onlyFields(o, {"kind", "station", "start", "end", "assignee", "certification"});
        !s)
      return s.error();
    auto station = idField(o, "station");
    auto start = timeField(o, "start");
    auto end = timeField(o, "end");
    auto assignee = optionalId(o, "assignee");
    auto cert = optionalId(o, "certification");
    if (!station) return station.error();
    if (!start) return start.error();
    if (!end) return end.error();
    if (!assignee) return assignee.error();
    if (!cert) return cert.error();
    return week::DraftEdit(week::AddShiftEdit{*station, *start, *end, *cert, *assignee});
  }
  if (kind == "move" || kind == "extend" || kind == "cut") {
    if (Status s = onlyFields(o, {"kind", "shift", "start", "end", "station"}); !s)
      return s.error();
    auto shift = idField(o, "shift");
    auto start = timeField(o, "start");
    auto end = timeField(o, "end");
    if (!shift) return shift.error();
    if (!start) return start.error();
    if (!end) return end.error();
    if (kind == "move") {
      auto station = optionalId(o, "station");
      if (!station) return station.error();
      return week::DraftEdit(week::MoveShiftEdit{*shift, *start, *end, *station});
    }
    if (o.contains("station")) return makeError("edit.station: only a move changes the station");
    if (kind == "extend") return week::DraftEdit(week::ExtendShiftEdit{*shift, *start, *end});
    return week::DraftEdit(week::CutShiftEdit{*shift, *start, *end});
  }
  if (kind == "swap") {
    if (Status s = onlyFields(o, {"kind", "shift", "other"}); !s) return s.error();
    auto shift = idField(o, "shift");
    auto other = idField(o, "other");
    if (!shift) return shift.error();
    if (!other) return other.error();
    return week::DraftEdit(week::SwapShiftsEdit{*shift, *other});
  }
  if (kind == "assign") {
    if (Status s = onlyFields(o, {"kind", "shift", "person"}); !s) return s.error();
    auto shift = idField(o, "shift");
    auto person = idField(o, "person");
    if (!shift) return shift.error();
    if (!person) return person.error();
    return week::DraftEdit(week::AssignEdit{*shift, *person});
  }
  if (kind == "delete" || kind == "unassign") {
    if (Status s = onlyFields(o, {"kind", "shift"}); !s) return s.error();
    auto shift = idField(o, "shift");
    if (!shift) return shift.error();
    if (kind == "delete") return week::DraftEdit(week::DeleteShiftEdit{*shift});
    return week::DraftEdit(week::UnassignEdit{*shift});
  }
  return makeError("edit.kind: '" + printable(kind) +
                   "' is not one of add, move, extend, cut, swap, delete, assign, unassign");
}

json::Value draftViewJson(const week::DraftView& view) {
  const week::WeekDraft& d = view.draft;
  json::Array shifts;
  for (const site::Shift& s : d.shifts) shifts.push_back(shiftJson(s));
  json::Array overrides;
  for (const week::DraftOverride& o : view.overrides) {
    overrides.push_back(json::Object{{"ruleId", o.ruleId},
                                     {"shift", o.shiftId},
                                     {"person", o.personId},
                                     {"reason", o.reason},
                                     {"by", o.actor},
                                     {"at", formatTimestamp(o.at)},
                                     {"version", o.version}});
  }
  return json::Object{
      {"week", week::formatWeek(d.week)},
      {"version", d.version},
      {"updatedBy", d.updatedBy},
      {"updatedAt", formatTimestamp(d.updatedAt)},
      {"publishedVersion", optionalText(d.publishedVersion)},
      {"publishedAt", d.publishedAt ? json::Value(formatTimestamp(*d.publishedAt)) : json::Value()},
      {"shifts", std::move(shifts)},
      {"findings", findingsJson(view.check.findings)},
      {"denied", static_cast<std::int64_t>(view.check.denied)},
      {"needsConsent", static_cast<std::int64_t>(view.check.needsConsent)},
      {"labor", week::weekLaborJson(view.check.labor)},
      {"overrides", std::move(overrides)}};
}

json::Value editOutcomeJson(const week::EditOutcome& o) {
  return json::Object{{"outcome", week::deskStatusName(o.status)},
                      {"message", o.message},
                      {"summary", o.applied.summary},
                      {"findings", findingsJson(o.findings)},
                      {"newDenials", findingsJson(o.newDenials)},
                      {"newer", newerJson(o.newer)},
                      {"draft", draftViewJson(o.view)}};
}

json::Value publishOutcomeJson(const week::PublishOutcome& o) {
  json::Array notice;
  for (const labor::RuleEvaluation& e : o.notice) {
    notice.push_back(json::Object{{"ruleId", e.ruleId},
                                  {"result", labor::evalResultName(e.result)},
                                  {"effect", labor::verdictKindName(e.effect)},
                                  {"detail", e.detail}});
  }
  json::Array changes;
  for (const labor::ChangeVerdict& c : o.changes) {
    json::Array people;
    for (const labor::PersonVerdict& p : c.people) people.push_back(p.personId);
    changes.push_back(json::Object{{"change", labor::changeKindName(c.change)},
                                   {"effect", labor::verdictKindName(c.kind)},
                                   {"people", std::move(people)},
                                   {"premiumCents", c.premiumCents}});
  }
  json::Array notices;
  for (const week::PersonNotice& n : o.notices) {
    notices.push_back(
        json::Object{{"person", n.personId},
                     {"shifts", json::Array(n.shiftIds.begin(), n.shiftIds.end())},
                     {"removed", json::Array(n.removedIds.begin(), n.removedIds.end())},
                     {"outcome", n.outcome},
                     {"reason", n.reason}});
  }
  return json::Object{
      {"outcome", week::deskStatusName(o.status)},
      {"message", o.message},
      {"scheduleVersion", o.versionId.empty() ? json::Value() : json::Value(o.versionId)},
      {"receiptSeq",
       o.receiptSeq ? json::Value(static_cast<std::int64_t>(*o.receiptSeq)) : json::Value()},
      {"denials", findingsJson(o.denials)},
      {"notice", std::move(notice)},
      {"changes", std::move(changes)},
      {"premiumCents", o.premiumCents},
      {"consentFrom", json::Array(o.consentFrom.begin(), o.consentFrom.end())},
      {"texts", std::move(notices)},
      {"conflicts", json::Array(o.conflicts.begin(), o.conflicts.end())},
      {"newer", newerJson(o.newer)},
      {"gaps", json::Array(o.gaps.begin(), o.gaps.end())},
      {"draft", draftViewJson(o.view)}};
}

json::Value editRecordJson(const week::EditRecord& e) {
  return json::Object{{"version", e.version},
                      {"kind", e.kind},
                      {"by", e.actor},
                      {"at", formatTimestamp(e.at)},
                      {"detail", e.detail}};
}

}  // namespace atoms::api
