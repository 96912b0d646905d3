// A deterministic generator of realistic site models for tests and benchmarks: N people with
// roles, certifications (a few expired) and pay rates, M stations (some needing a certification,
// the bar a minimum age), K weeks of shifts (opening, mid, closing, the odd double and clopening),
// a few minors on short shifts, approved time off (occasionally scheduled over, as happens),
// open shifts, one published schedule version per week and a school calendar.
//
// Contract: the same spec gives the same model on every platform (its own PRNG, no
// std::uniform_int_distribution). The model passes site::validateSiteModel(). Pure; no I/O
// beyond the time zone database.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "domain/site/site_model.h"

namespace atoms::testing {

struct SyntheticSiteSpec {
  std::uint64_t seed = 1;
  int people = 40;
  int stations = 6;  // 1..10
  int weeks = 2;
  // The first day of the first week (weeks run 7 days from here). The default, a Sunday, puts
  // the US spring-forward night (2026-03-08) in the second week.
  std::chrono::year_month_day firstDay{std::chrono::year{2026} / 3 / 1};
  std::string timeZone = "America/Los_Angeles";
  std::vector<std::string> jurisdictions{"us", "us-ca", "us-ca-san-francisco"};
  std::string industry = "food_service";
  int minorsPercent = 5;   // of the people (at least one when there are 10 or more)
  int timeOffPercent = 8;  // people with one approved time-off period
  int openShiftsPerDay = 2;
  int noticeDays = 14;  // schedule versions are published this many days before their week
};

site::SiteModel syntheticSite(const SyntheticSiteSpec& spec);

}  // namespace atoms::testing
