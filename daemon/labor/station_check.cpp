// What the station asks of whoever works it: a minimum age (R-SCH-STATION-AGE) and
// certifications valid on every day of the shift (R-SCH-CERTIFICATION), from the site model's
// stations and shifts. Both deny.
//
// The table kinds station_min_age and station_certification (a jurisdiction's requirement for
// stations with a tag) are not evaluated: the site model has no station tags to match them
// against, and matching station ids or names would bind a state's law to one site's naming
// (docs/labor-rules.md, "Engine").
#include <algorithm>

#include "daemon/labor/evaluation.h"

namespace atoms::labor {

namespace {

void checkStationAge(const Evaluation& ev, Findings& out) {
  RuleEvaluation e = ev.finding(kRuleStationAge);
  const site::Station* station = ev.index().station(ev.shift().stationId);
  if (station == nullptr || !station->minimumAge) {
    e.result = EvalResult::kNotApplicable;
    out.push_back(std::move(e));
    return;
  }
  const site::Person& p = ev.person();
  e.input["minimumAge"] = *station->minimumAge;
  const std::optional<int> age = ev.ageOn(ev.firstDay());
  if (!age) {
    e.result = EvalResult::kFail;
    e.effect = VerdictKind::kDenied;
    e.detail = "station " + station->id + " has a minimum age and " + p.id + " has no birth date";
  } else {
    e.input["age"] = *age;
    if (*age < *station->minimumAge) {
      e.result = EvalResult::kFail;
      e.effect = VerdictKind::kDenied;
      e.detail = p.id + " is " + std::to_string(*age) + ", under the minimum age " +
                 std::to_string(*station->minimumAge) + " of station " + station->id;
    }
  }
  out.push_back(std::move(e));
}

void checkCertifications(const Evaluation& ev, Findings& out) {
  RuleEvaluation e = ev.finding(kRuleCertification);
  const site::Station* station = ev.index().station(ev.shift().stationId);
  const std::optional<std::string>& forShift = ev.shift().requiredCertification;
  if ((station == nullptr || station->requiredCertifications.empty()) && !forShift) {
    e.result = EvalResult::kNotApplicable;
    out.push_back(std::move(e));
    return;
  }
  const site::Person& p = ev.person();
  // Valid on every day of the shift: the last local day decides.
  const site::Date last{ev.lastDay()};
  json::Array missing, expired, required;
  const auto require = [&](const std::string& id) {
    required.push_back(id);
    const auto held =
        std::find_if(p.certifications.begin(), p.certifications.end(),
                     [&](const site::HeldCertification& h) { return h.certificationId == id; });
    if (held == p.certifications.end()) {
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
  e.input["required"] = std::move(required);
  e.input["missing"] = std::move(missing);
  e.input["expired"] = std::move(expired);
  out.push_back(std::move(e));
}

}  // namespace

void checkStation(const Evaluation& ev, Findings& out) {
  checkStationAge(ev, out);
  checkCertifications(ev, out);
}

}  // namespace atoms::labor
