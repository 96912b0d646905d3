#include "domain/labor/labor_engine.h"

#include <algorithm>
#include <functional>
#include <map>
#include <utility>

#include "domain/labor/applicability.h"
#include "domain/labor/evaluation.h"

namespace atoms::labor {

LaborContext::LaborContext(const site::SiteModel& model, const RuleBook& rules,
                           LaborOptions options, site::TimeZone zone)
    : model_(&model), rules_(&rules), options_(options), zone_(std::move(zone)), index_(model) {}

Result<LaborContext> LaborContext::build(const site::SiteModel& model, const RuleBook& rules,
                                         LaborOptions options) {
  auto zone = site::TimeZone::locate(model.site.timeZone);
  if (!zone.ok()) return Error{"site " + model.site.id + ": " + zone.message()};
  LaborContext ctx(model, rules, options, std::move(*zone));
  std::map<std::string, PersonIndex, std::less<>> byId;
  for (const site::Person& p : model.people) {
    PersonIndex& idx = byId[p.id];
    for (const site::TimeOff& off : p.timeOff) {
      idx.timeOff.push_back(Interval{off.start.utc, off.end.utc, {}});
    }
  }
  for (const site::Shift& s : model.shifts) {
    if (!s.assignee) continue;
    PersonIndex& idx = byId[*s.assignee];
    idx.shifts.push_back(Interval{s.start.utc, s.end.utc, s.id});
    idx.longestShift = std::max(idx.longestShift, site::Seconds{s.end.utc - s.start.utc});
  }
  for (const site::Punch& p : model.punches) byId[p.personId].punches.push_back(&p);
  const auto byStart = [](const Interval& a, const Interval& b) { return a.start < b.start; };
  for (auto& [id, idx] : byId) {
    std::sort(idx.shifts.begin(), idx.shifts.end(), byStart);
    std::sort(idx.timeOff.begin(), idx.timeOff.end(), byStart);
    // Stable: punches at the same second keep the order the time clock reported them in.
    std::stable_sort(idx.punches.begin(), idx.punches.end(),
                     [](const site::Punch* a, const site::Punch* b) { return a->at < b->at; });
  }
  // By position: the person the site index finds for an id owns its entries; another person of
  // the same id (an invalid site) shares them, as it did by id.
  ctx.people_.resize(model.people.size());
  for (std::size_t i = 0; i < model.people.size(); ++i) {
    const site::Person& p = model.people[i];
    if (ctx.index_.person(p.id) == &p) ctx.people_[i] = std::move(byId[p.id]);
  }
  for (std::size_t i = 0; i < model.people.size(); ++i) {
    const site::Person* owner = ctx.index_.person(model.people[i].id);
    if (owner != nullptr && owner != &model.people[i]) {
      ctx.people_[i] = ctx.people_[static_cast<std::size_t>(owner - model.people.data())];
    }
  }
  for (const site::Date& d : model.schoolCalendar.schoolDays) {
    ctx.schoolDays_.push_back(std::chrono::local_days{d});
  }
  std::sort(ctx.schoolDays_.begin(), ctx.schoolDays_.end());
  ctx.coveredRules_.resize(allKinds().size());
  for (const Rule& r : rules.rules()) {
    if (covers(r, model.site.industry, options.employer)) {
      ctx.coveredRules_[static_cast<std::size_t>(r.kind)].push_back(&r);
    }
  }
  return ctx;
}

const LaborContext::PersonIndex* LaborContext::personIndex(const site::Person& person) const {
  const std::vector<site::Person>& people = model_->people;
  const site::Person* inModel = &person;
  const bool ownedByModel = std::less_equal<>{}(people.data(), inModel) &&
                            std::less<>{}(inModel, people.data() + people.size());
  if (!ownedByModel) inModel = index_.person(person.id);  // a copy of a person of the site
  if (inModel == nullptr) return nullptr;
  return &people_[static_cast<std::size_t>(inModel - people.data())];
}

Result<Verdict> LaborContext::evaluate(std::string_view personId, std::string_view shiftId,
                                       Scope scope) const {
  const site::Shift* shift = index_.shift(shiftId);
  if (shift == nullptr) return Error{"unknown shift '" + std::string(shiftId) + "'"};
  return evaluate(personId, *shift, scope);
}

Result<Verdict> LaborContext::evaluate(std::string_view personId, const site::Shift& shift,
                                       Scope scope) const {
  const site::Person* person = index_.person(personId);
  if (person == nullptr) return Error{"unknown person '" + std::string(personId) + "'"};
  if (shift.end.utc <= shift.start.utc) {
    return Error{"shift '" + shift.id + "' does not end after it starts"};
  }
  const Evaluation evaluation(*this, *person, shift, scope);
  Findings findings;
  findings.reserve(24);
  checkConflicts(evaluation, findings);
  checkStation(evaluation, findings);
  checkOvertime(evaluation, findings);
  checkRestBetweenShifts(evaluation, findings);
  checkMinorHours(evaluation, findings);
  checkBreaks(evaluation, findings);
  return Verdict::combine(std::move(findings), person->managerOfRecord);
}

}  // namespace atoms::labor
