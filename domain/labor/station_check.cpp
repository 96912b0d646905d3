// What the station asks of whoever works it, from two sources:
// - the site's own stations and shifts: a minimum age (R-SCH-STATION-AGE) and certifications
//   valid on every day of the shift (R-SCH-CERTIFICATION);
// - the jurisdictions' tables, through the station's tags (domain/site/station_tag.h): each
//   station_min_age rule (nobody younger than minAge works a station with stationTag) and each
//   station_certification rule (a station with stationTag needs the certification whose id is
//   the rule's `certification`, valid through the shift; a new hire may get graceDaysAfterHire).
// A rule whose tag the station does not carry is n/a. Every failure denies.
#include <algorithm>

#include "domain/labor/evaluation.h"

namespace atoms::labor {

namespace {

namespace chr = std::chrono;

bool carries(const site::Station* station, const std::string& tag) {
  return station != nullptr &&
         std::find(station->tags.begin(), station->tags.end(), tag) != station->tags.end();
}

// The certification `id` P holds, if any.
const site::HeldCertification* heldBy(const site::Person& p, std::string_view id) {
  const auto held =
      std::find_if(p.certifications.begin(), p.certifications.end(),
                   [&](const site::HeldCertification& h) { return h.certificationId == id; });
  return held == p.certifications.end() ? nullptr : &*held;
}

void checkStationAge(const Evaluation& ev, const site::Station* station, Findings& out) {
  RuleEvaluation& e = ev.addFinding(out, kRuleStationAge);
  if (station == nullptr || !station->minimumAge) {
    e.result = EvalResult::kNotApplicable;
    return;
  }
  const site::Person& p = ev.person();
  e.input.set("minimumAge", *station->minimumAge);
  const std::optional<int> age = ev.ageOn(ev.firstDay());
  if (!age) {
    e.result = EvalResult::kFail;
    e.effect = VerdictKind::kDenied;
    e.detail = "station " + station->id + " has a minimum age and " + p.id + " has no birth date";
  } else {
    e.input.set("age", *age);
    if (*age < *station->minimumAge) {
      e.result = EvalResult::kFail;
      e.effect = VerdictKind::kDenied;
      e.detail = p.id + " is " + std::to_string(*age) + ", under the minimum age " +
                 std::to_string(*station->minimumAge) + " of station " + station->id;
    }
  }
}

void checkCertifications(const Evaluation& ev, const site::Station* station, Findings& out) {
  RuleEvaluation& e = ev.addFinding(out, kRuleCertification);
  const std::optional<std::string>& forShift = ev.shift().requiredCertification;
  if ((station == nullptr || station->requiredCertifications.empty()) && !forShift) {
    e.result = EvalResult::kNotApplicable;
    return;
  }
  const site::Person& p = ev.person();
  // Valid on every day of the shift: the last local day decides.
  const site::Date last{ev.lastDay()};
  json::Array missing, expired, required;
  const auto require = [&](const std::string& id) {
    required.push_back(id);
    const site::HeldCertification* held = heldBy(p, id);
    if (held == nullptr) {
      missing.push_back(id);
    } else if (held->expires && *held->expires < last) {
      expired.push_back(id);
    }
  };
  if (station != nullptr) {
    for (const std::string& id : station->requiredCertifications) require(id);
  }
  if (forShift) require(*forShift);
  if (!missing.empty() || !expired.empty()) {
    e.result = EvalResult::kFail;
    e.effect = VerdictKind::kDenied;
    e.detail = p.id + (missing.empty() ? " holds an expired " : " lacks a ") +
               "required certification for shift " + ev.shift().id;
  }
  e.input.set("required", std::move(required));
  e.input.set("missing", std::move(missing));
  e.input.set("expired", std::move(expired));
}

// A finding of rule r about the station's tag; n/a (and false) when the station lacks the tag.
bool tagFinding(const Evaluation& ev, const site::Station* station, const Rule& r,
                RuleEvaluation& e) {
  const std::string& tag = r.text("stationTag");
  e.input.set("stationId", ev.shift().stationId);
  e.input.set("stationTag", tag);
  if (carries(station, tag)) return true;
  e.result = EvalResult::kNotApplicable;
  return false;
}

// "station deli (power_driven_meat_machine)"
std::string stationText(const Evaluation& ev, const std::string& tag) {
  return "station " + ev.shift().stationId + " (" + tag + ")";
}

void checkTagAge(const Evaluation& ev, const site::Station* station, const Rule& r, Findings& out) {
  RuleEvaluation& e = ev.addFinding(out, r.id);
  if (tagFinding(ev, station, r, e)) {
    const std::string& tag = r.text("stationTag");
    const std::int64_t minAge = r.integer("minAge");
    e.input.set("minAge", minAge);
    const site::Person& p = ev.person();
    const std::optional<int> age = ev.ageOn(ev.firstDay());
    if (!age) {
      e.result = EvalResult::kFail;
      e.effect = VerdictKind::kDenied;
      e.detail = stationText(ev, tag) + " needs someone " + std::to_string(minAge) +
                 " or older and " + p.id + " has no birth date on file; add it to schedule them";
    } else {
      e.input.set("age", *age);
      if (*age < minAge) {
        e.result = EvalResult::kFail;
        e.effect = VerdictKind::kDenied;
        e.detail = p.id + " is " + std::to_string(*age) + " on " +
                   site::formatLocalDay(ev.firstDay()) + "; " + stationText(ev, tag) +
                   " needs someone " + std::to_string(minAge) + " or older";
      }
    }
  }
}

void checkTagCertification(const Evaluation& ev, const site::Station* station, const Rule& r,
                           Findings& out) {
  RuleEvaluation& e = ev.addFinding(out, r.id);
  if (!tagFinding(ev, station, r, e)) return;
  const std::string& tag = r.text("stationTag");
  const std::string& cert = r.text("certification");
  const site::Person& p = ev.person();
  e.input.set("certification", cert);
  // Valid on every day of the shift: the last local day decides.
  const site::Date last{ev.lastDay()};
  const site::HeldCertification* held = heldBy(p, cert);
  if (held != nullptr && held->expires) e.input.set("expires", site::formatDate(*held->expires));
  if (held != nullptr && (!held->expires || !(*held->expires < last))) return;
  const std::string lacking =
      held == nullptr ? p.id + " holds no " + cert
                      : p.id + "'s " + cert + " expired on " + site::formatDate(*held->expires) +
                            ", before the shift ends on " + site::formatLocalDay(ev.lastDay());
  const std::string needs = stationText(ev, tag) + " needs a valid " + cert;
  e.detail = lacking + "; " + needs;
  bool withinGrace = false;
  if (r.has("graceDaysAfterHire")) {
    const std::int64_t grace = r.integer("graceDaysAfterHire");
    e.input.set("graceDaysAfterHire", grace);
    if (p.hireDate) {
      const LocalDays until = LocalDays{*p.hireDate} + chr::days{grace};
      e.input.set("hireDate", site::formatDate(*p.hireDate));
      e.input.set("graceUntil", site::formatLocalDay(until));
      // A new hire may work while obtaining it; the sentence carries the deadline.
      withinGrace = ev.lastDay() <= until;
      e.detail += withinGrace ? ", and as a new hire " + p.id + " has until " +
                                    site::formatLocalDay(until) + " to obtain it"
                              : " (the " + std::to_string(grace) + " days after hire ended on " +
                                    site::formatLocalDay(until) + ")";
    } else if (held == nullptr) {
      // Someone who never held one may be a new hire, who would have time to obtain it.
      e.detail += ". A new hire has " + std::to_string(grace) +
                  " days after hire to obtain it: add " + p.id + "'s hire date if that applies";
    }
  }
  if (!withinGrace) {
    e.result = EvalResult::kFail;
    e.effect = VerdictKind::kDenied;
  }
}

}  // namespace

void checkStation(const Evaluation& ev, Findings& out) {
  const site::Station* station = ev.index().station(ev.shift().stationId);
  checkStationAge(ev, station, out);
  checkCertifications(ev, station, out);
  ev.forEachRule(RuleKind::kStationMinAge,
                 [&](const Rule& r) { checkTagAge(ev, station, r, out); });
  ev.forEachRule(RuleKind::kStationCertification,
                 [&](const Rule& r) { checkTagCertification(ev, station, r, out); });
}

}  // namespace atoms::labor
