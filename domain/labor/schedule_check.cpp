#include "domain/labor/schedule_check.h"

#include <algorithm>
#include <chrono>
#include <map>
#include <string_view>
#include <tuple>
#include <utility>

#include "domain/labor/applicability.h"
#include "domain/labor/fair_workweek.h"
#include "domain/site/site_file.h"

namespace atoms::labor {
namespace {

namespace chr = std::chrono;

// What the engine's own checks are about; they have no row in the rule tables.
std::string engineSummary(std::string_view id) {
  if (id == kRuleOverlap) return "A person is scheduled for two shifts at the same time.";
  if (id == kRuleTimeOff) return "A shift falls inside approved time off.";
  if (id == kRuleStationAge) return "The station has a minimum age the assignment does not meet.";
  if (id == kRuleCertification) {
    return "The station or shift needs a certification that is missing or expires first.";
  }
  return {};
}

Date localDateOf(const site::Stamp& s) {
  const chr::year_month_day ymd{chr::floor<chr::days>(s.local)};
  return Date{static_cast<int>(ymd.year()), static_cast<int>(static_cast<unsigned>(ymd.month())),
              static_cast<int>(static_cast<unsigned>(ymd.day()))};
}

// The version of the rule in force on `on`, else the latest one; nullptr for an engine id.
const Rule* versionOn(const RuleBook& rules, std::string_view id, const Date& on) {
  const std::vector<const Rule*> versions = rules.versionsOf(id);
  if (versions.empty()) return nullptr;
  for (const Rule* r : versions) {
    if (r->inForceOn(on)) return r;
  }
  return versions.back();
}

RuleInfo ruleInfo(const RuleBook& rules, const std::string& id, const Date& on) {
  RuleInfo info;
  info.ruleId = id;
  if (const Rule* r = versionOn(rules, id, on)) {
    info.jurisdiction = r->jurisdiction;
    info.summary = r->summary;
    info.source = r->source;
  } else {
    info.summary = engineSummary(id);
  }
  return info;
}

bool isFinding(const RuleEvaluation& e) {
  return e.result == EvalResult::kFail || e.result == EvalResult::kThresholdExceeded;
}

// A person's assigned shifts in the engine's order: start, then id.
bool earlier(const site::Shift* a, const site::Shift* b) {
  return std::tie(a->start.utc, a->id) < std::tie(b->start.utc, b->id);
}

// The shift a short rest before shifts[i] follows: the earlier one that ends last, at or before
// shifts[i] starts (the engine's "previous shift").
const site::Shift* previousShift(const std::vector<const site::Shift*>& shifts, std::size_t i) {
  const site::Shift* prev = nullptr;
  for (std::size_t j = 0; j < i; ++j) {
    const site::Shift* s = shifts[j];
    if (s->end.utc <= shifts[i]->start.utc && (prev == nullptr || s->end.utc > prev->end.utc)) {
      prev = s;
    }
  }
  return prev;
}

std::vector<std::string> relatedShifts(const RuleEvaluation& e, const RuleBook& rules,
                                       const std::vector<const site::Shift*>& shifts,
                                       std::size_t i) {
  std::vector<std::string> related;
  if (const auto it = e.input.find("overlapping"); it != e.input.end() && it->second.isArray()) {
    for (const json::Value& v : it->second.asArray()) {
      if (v.isString()) related.push_back(v.asString());
    }
  }
  const std::vector<const Rule*> versions = rules.versionsOf(e.ruleId);
  if (!versions.empty() && versions.front()->kind == RuleKind::kMinRestBetweenShifts) {
    if (const site::Shift* prev = previousShift(shifts, i)) related.push_back(prev->id);
  }
  return related;
}

FindingOccurrence occurrenceOf(const RuleEvaluation& e, const site::Shift& shift,
                               std::vector<std::string> related) {
  FindingOccurrence o;
  o.shiftId = shift.id;
  o.stationId = shift.stationId;
  o.start = shift.start;
  o.end = shift.end;
  o.relatedShiftIds = std::move(related);
  o.result = e.result;
  o.effect = e.effect;
  o.premiumMinutes = e.premiumMinutes;
  o.premiumCents = e.premiumCents;
  o.extraCents = e.extraCents;
  o.detail = e.detail;
  o.input = e.input.toObject();
  return o;
}

// Adds one occurrence to the person's group of its rule.
void add(PersonFindings& person, const RuleBook& rules, const std::string& ruleId,
         FindingOccurrence occurrence) {
  auto group = std::find_if(person.rules.begin(), person.rules.end(),
                            [&](const RuleFindings& r) { return r.rule.ruleId == ruleId; });
  if (group == person.rules.end()) {
    RuleFindings created;
    created.rule = ruleInfo(rules, ruleId, localDateOf(occurrence.start));
    person.rules.push_back(std::move(created));
    group = person.rules.end() - 1;
  }
  group->worst = std::max(group->worst, occurrence.effect);
  group->premiumMinutes += occurrence.premiumMinutes;
  group->premiumCents += occurrence.premiumCents;
  group->extraCents += occurrence.extraCents;
  person.worst = std::max(person.worst, occurrence.effect);
  group->occurrences.push_back(std::move(occurrence));
}

std::string inputText(const RuleEvaluation& e, const std::string& key) {
  const auto it = e.input.find(key);
  return it != e.input.end() && it->second.isString() ? it->second.asString() : std::string();
}

// The advance-notice findings of every schedule version, each checked as published at its
// publishedAt (or, when that is after options.asOf, at asOf: "if it went out now"). They join
// the group of the person they are about; the premiums they carry (none so far) are added.
Status addNoticeFindings(const LaborContext& context, const site::SiteModel& model,
                         const RuleBook& rules, const ScheduleCheckOptions& options,
                         const site::SiteIndex& index, std::vector<PersonFindings>& people,
                         ScheduleCheck& check) {
  auto fairWorkweek = FairWorkweek::build(context);
  if (!fairWorkweek) return fairWorkweek.error();
  for (const site::ScheduleVersion& version : model.scheduleVersions) {
    const site::Instant at =
        options.asOf && version.publishedAt > *options.asOf ? *options.asOf : version.publishedAt;
    check.versions.push_back(VersionChecked{version.id, version.publishedAt, at});
    auto findings = fairWorkweek->publishFindings(version, at);
    if (!findings) return makeError("schedule version " + version.id + ": " + findings.message());
    // Shifts this version adds to days an earlier one published are changes after publication:
    // judged as additions made when the version went out (predictability pay, the right to
    // decline), as the change evaluation would judge them (schedule_change.h).
    std::vector<std::string> added;
    for (const RuleEvaluation& e : *findings) {
      const auto ids = e.input.find("addedShiftIds");
      if (ids == e.input.end() || !ids->second.isArray()) continue;
      for (const json::Value& id : ids->second.asArray()) {
        if (id.isString() && std::find(added.begin(), added.end(), id.asString()) == added.end())
          added.push_back(id.asString());
      }
    }
    for (const std::string& id : added) {
      const site::Shift* shift = index.shift(id);
      if (shift == nullptr || !shift->assignee) continue;
      const WorkChange change = workChange(*shift->assignee, id, shift->start.utc, shift->start.utc,
                                           shift->start.utc, shift->end.utc,
                                           /*employeeRequested=*/false);
      for (RuleEvaluation& e : fairWorkweek->changeFindings(change, at)) findings->push_back(e);
    }
    for (const RuleEvaluation& e : *findings) {
      if (!isFinding(e)) continue;
      const std::string personId = inputText(e, "personId");
      const site::Shift* shift = index.shift(inputText(e, "shiftId"));
      const auto person = std::find_if(people.begin(), people.end(), [&](const PersonFindings& p) {
        return p.personId == personId;
      });
      if (shift == nullptr || person == people.end()) {
        return makeError("schedule version " + version.id + ": finding " + e.ruleId +
                         " names no shift or person of the site");
      }
      std::vector<std::string> related;
      if (const auto late = e.input.find("lateShiftIds");
          late != e.input.end() && late->second.isArray()) {
        for (const json::Value& v : late->second.asArray()) {
          if (v.isString() && v.asString() != shift->id) related.push_back(v.asString());
        }
      }
      FindingOccurrence o = occurrenceOf(e, *shift, std::move(related));
      o.scheduleVersionId = version.id;
      person->premiumMinutes += o.premiumMinutes;
      person->premiumCents += o.premiumCents;
      person->extraCents += o.extraCents;
      add(*person, rules, e.ruleId, std::move(o));
    }
  }
  return Status::success();
}

json::Value optionalText(const std::optional<std::string>& s) {
  return s ? json::Value(*s) : json::Value();
}

json::Array textArray(const std::vector<std::string>& items) {
  json::Array a;
  for (const std::string& s : items) a.emplace_back(s);
  return a;
}

json::Value occurrenceJson(const FindingOccurrence& o) {
  return json::Object{
      {"shiftId", o.shiftId},
      {"stationId", o.stationId},
      {"start", site::formatStamp(o.start)},
      {"end", site::formatStamp(o.end)},
      {"date", formatDate(localDateOf(o.start))},
      {"relatedShiftIds", textArray(o.relatedShiftIds)},
      {"scheduleVersionId", optionalText(o.scheduleVersionId)},
      {"result", std::string(evalResultName(o.result))},
      {"effect", std::string(verdictKindName(o.effect))},
      {"premiumMinutes", o.premiumMinutes},
      {"premiumCents", o.premiumCents},
      {"extraCents", o.extraCents},
      {"detail", o.detail},
      {"input", o.input},
  };
}

json::Value ruleFindingsJson(const RuleFindings& r) {
  json::Array occurrences;
  for (const FindingOccurrence& o : r.occurrences) occurrences.push_back(occurrenceJson(o));
  const bool fromTables = !r.rule.jurisdiction.empty();
  return json::Object{
      {"ruleId", r.rule.ruleId},
      {"jurisdiction", fromTables ? json::Value(r.rule.jurisdiction) : json::Value()},
      {"summary", r.rule.summary},
      {"source", fromTables ? json::Value(json::Object{{"title", r.rule.source.title},
                                                       {"url", r.rule.source.url},
                                                       {"section", r.rule.source.section}})
                            : json::Value()},
      {"worst", std::string(verdictKindName(r.worst))},
      {"premiumMinutes", r.premiumMinutes},
      {"premiumCents", r.premiumCents},
      {"extraCents", r.extraCents},
      {"occurrences", std::move(occurrences)},
  };
}

json::Value personJson(const PersonFindings& p) {
  json::Array rules;
  for (const RuleFindings& r : p.rules) rules.push_back(ruleFindingsJson(r));
  return json::Object{
      {"personId", p.personId},
      {"name", p.name},
      {"managerOfRecord", optionalText(p.managerOfRecord)},
      {"shifts", static_cast<std::int64_t>(p.shifts)},
      {"scheduledMinutes", p.scheduledMinutes},
      {"worst", std::string(verdictKindName(p.worst))},
      {"premiumMinutes", p.premiumMinutes},
      {"premiumCents", p.premiumCents},
      {"extraCents", p.extraCents},
      {"rules", std::move(rules)},
  };
}

json::Value openShiftJson(const OpenShift& s) {
  return json::Object{
      {"shiftId", s.shiftId},
      {"stationId", s.stationId},
      {"start", site::formatStamp(s.start)},
      {"end", site::formatStamp(s.end)},
      {"date", formatDate(localDateOf(s.start))},
      {"requiredCertifications", textArray(s.requiredCertifications)},
  };
}

std::int64_t count(std::size_t n) { return static_cast<std::int64_t>(n); }

}  // namespace

Result<ScheduleCheck> checkSchedule(const site::SiteModel& model, const RuleBook& rules,
                                    const ScheduleCheckOptions& options) {
  auto context = LaborContext::build(model, rules, options.labor);
  if (!context) return context.error();
  const site::SiteIndex index(model);

  ScheduleCheck check;
  check.siteId = model.site.id;
  check.timeZone = model.site.timeZone;
  for (const Jurisdiction& j : rules.jurisdictions()) check.jurisdictions.push_back(j.code);
  check.shifts = model.shifts.size();
  check.scheduleVersions = model.scheduleVersions.size();
  for (const Rule& r : rules.rules()) {
    if ((r.kind == RuleKind::kChangePremium || r.kind == RuleKind::kRightToDeclineAddedHours) &&
        covers(r, model.site.industry, options.labor.employer)) {
      check.notEvaluated.push_back(r.id);  // once per version of the rule
    }
  }
  std::sort(check.notEvaluated.begin(), check.notEvaluated.end());
  check.notEvaluated.erase(std::unique(check.notEvaluated.begin(), check.notEvaluated.end()),
                           check.notEvaluated.end());

  std::map<std::string_view, std::vector<const site::Shift*>> byPerson;
  for (const site::Shift& s : model.shifts) {
    if (s.assignee) {
      byPerson[*s.assignee].push_back(&s);
      continue;
    }
    OpenShift open{s.id, s.stationId, s.start, s.end, {}};
    if (const site::Station* station = index.station(s.stationId)) {
      open.requiredCertifications = station->requiredCertifications;
    }
    if (s.requiredCertification) open.requiredCertifications.push_back(*s.requiredCertification);
    check.openShifts.push_back(std::move(open));
  }
  std::sort(check.openShifts.begin(), check.openShifts.end(),
            [](const OpenShift& a, const OpenShift& b) {
              return std::tie(a.start.utc, a.shiftId) < std::tie(b.start.utc, b.shiftId);
            });

  // Every person of the model in its order, findings or not, so notice findings can join them.
  std::vector<PersonFindings> people;
  for (const site::Person& person : model.people) {
    PersonFindings found;
    found.personId = person.id;
    found.name = person.name;
    found.managerOfRecord = person.managerOfRecord;
    const auto mine = byPerson.find(person.id);
    if (mine == byPerson.end()) {
      people.push_back(std::move(found));
      continue;
    }
    std::vector<const site::Shift*>& shifts = mine->second;
    std::sort(shifts.begin(), shifts.end(), earlier);
    ++check.peopleScheduled;
    std::map<std::string, std::vector<BreakToPlan>> toPlan;  // by workday: its last shift's
    for (std::size_t i = 0; i < shifts.size(); ++i) {
      const site::Shift& shift = *shifts[i];
      auto verdict = context->evaluate(person.id, shift.id, Scope::kEarlierShifts);
      if (!verdict) return makeError("shift " + shift.id + ": " + verdict.message());
      ++found.shifts;
      ++check.assignedShifts;
      found.scheduledMinutes +=
          chr::duration_cast<chr::minutes>(shift.end.utc - shift.start.utc).count();
      found.premiumMinutes += verdict->premiumMinutes;
      found.premiumCents += verdict->premiumCents;
      found.extraCents += verdict->extraCents;
      for (const RuleEvaluation& e : verdict->evaluations) {
        const auto workday = e.input.find("workday");
        if (workday != e.input.end() && workday->second.isString()) {
          std::vector<BreakToPlan>& day = toPlan[workday->second.asString()];
          if (!day.empty() && day.front().shiftId != shift.id) day.clear();
          if (e.toPlan) {
            day.push_back(
                BreakToPlan{person.id, workday->second.asString(), shift.id, e.ruleId, e.detail});
          }
        }
        if (!isFinding(e)) continue;
        add(found, rules, e.ruleId, occurrenceOf(e, shift, relatedShifts(e, rules, shifts, i)));
      }
    }
    for (auto& [day, breaks] : toPlan) {
      for (BreakToPlan& b : breaks) check.breaksToPlan.push_back(std::move(b));
    }
    people.push_back(std::move(found));
  }
  if (Status s = addNoticeFindings(*context, model, rules, options, index, people, check); !s) {
    return s.error();
  }

  std::map<std::string, RuleTotal> totals;
  for (PersonFindings& p : people) {
    if (p.rules.empty()) continue;
    // Strictest first, then by id; the occurrences are already in evaluation order.
    std::sort(p.rules.begin(), p.rules.end(), [](const RuleFindings& a, const RuleFindings& b) {
      return a.worst != b.worst ? a.worst > b.worst : a.rule.ruleId < b.rule.ruleId;
    });
    for (const RuleFindings& r : p.rules) {
      RuleTotal& t = totals[r.rule.ruleId];
      t.ruleId = r.rule.ruleId;
      ++t.people;
      t.occurrences += r.occurrences.size();
      t.premiumMinutes += r.premiumMinutes;
      t.premiumCents += r.premiumCents;
      t.extraCents += r.extraCents;
      for (const FindingOccurrence& o : r.occurrences) {
        ++check.findings;
        check.denied += o.effect == VerdictKind::kDenied ? 1 : 0;
        check.needsConsent += o.effect == VerdictKind::kNeedsConsent ? 1 : 0;
        check.withPremium += o.effect == VerdictKind::kAllowedWithPremium ? 1 : 0;
        check.noted += o.effect == VerdictKind::kAllowed ? 1 : 0;
      }
    }
    check.premiumMinutes += p.premiumMinutes;
    check.premiumCents += p.premiumCents;
    check.extraCents += p.extraCents;
    check.people.push_back(std::move(p));
  }
  for (auto& [id, total] : totals) check.rules.push_back(std::move(total));
  check.hardViolation = check.denied > 0;
  return check;
}

json::Value scheduleCheckJson(const ScheduleCheck& check) {
  json::Array people, open, rules, versions, breaks;
  for (const BreakToPlan& b : check.breaksToPlan) {
    breaks.emplace_back(json::Object{{"personId", b.personId},
                                     {"workday", b.workday},
                                     {"shiftId", b.shiftId},
                                     {"ruleId", b.ruleId},
                                     {"detail", b.detail}});
  }
  for (const VersionChecked& v : check.versions) {
    versions.emplace_back(json::Object{{"id", v.versionId},
                                       {"publishedAt", site::formatInstant(v.publishedAt)},
                                       {"checkedAt", site::formatInstant(v.checkedAt)}});
  }
  for (const PersonFindings& p : check.people) people.push_back(personJson(p));
  for (const OpenShift& s : check.openShifts) open.push_back(openShiftJson(s));
  for (const RuleTotal& r : check.rules) {
    rules.emplace_back(json::Object{{"ruleId", r.ruleId},
                                    {"occurrences", count(r.occurrences)},
                                    {"people", count(r.people)},
                                    {"premiumMinutes", r.premiumMinutes},
                                    {"premiumCents", r.premiumCents},
                                    {"extraCents", r.extraCents}});
  }
  return json::Object{
      {"version", 1},
      {"site", json::Object{{"id", check.siteId},
                            {"timeZone", check.timeZone},
                            {"jurisdictions", textArray(check.jurisdictions)}}},
      {"checked", json::Object{{"shifts", count(check.shifts)},
                               {"assignedShifts", count(check.assignedShifts)},
                               {"openShifts", count(check.openShifts.size())},
                               {"peopleScheduled", count(check.peopleScheduled)},
                               {"scheduleVersions", count(check.scheduleVersions)}}},
      {"scheduleVersions", std::move(versions)},
      {"people", std::move(people)},
      {"openShifts", std::move(open)},
      {"rules", std::move(rules)},
      {"breaksToPlan", std::move(breaks)},
      {"notEvaluated", textArray(check.notEvaluated)},
      {"totals", json::Object{{"premiumMinutes", check.premiumMinutes},
                              {"premiumCents", check.premiumCents},
                              {"extraCents", check.extraCents},
                              {"findings", count(check.findings)},
                              {"denied", count(check.denied)},
                              {"needsConsent", count(check.needsConsent)},
                              {"withPremium", count(check.withPremium)},
                              {"noted", count(check.noted)}}},
      {"hardViolation", check.hardViolation},
  };
}

}  // namespace atoms::labor
