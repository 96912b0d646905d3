// A small site built in code for the assignment-engine tests (test_labor_engine.cpp,
// test_breaks_and_seventh_day.cpp, test_minors.cpp): stations, people, shifts and punches by local
// wall-clock time, the shipped rule tables (or a test's own), and evaluate() of one assignment.
// Header-only.
#pragma once

#include <boost/test/unit_test.hpp>
#include <chrono>
#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "domain/labor/labor_engine.h"
#include "domain/labor/rule_table.h"
#include "domain/site/site_model.h"
#include "domain/site/time_zone.h"
#include "tests/support/build_paths.h"

namespace atoms::labor {

// Boost.Test prints the names when a comparison fails.
inline std::ostream& operator<<(std::ostream& os, EvalResult r) { return os << evalResultName(r); }
inline std::ostream& operator<<(std::ostream& os, VerdictKind k) {
  return os << verdictKindName(k);
}

namespace testing {

namespace chr = std::chrono;
using site::LocalTime;

inline LocalTime at(int y, unsigned m, unsigned d, int h, int min = 0) {
  return LocalTime{chr::local_days{chr::year{y} / chr::month{m} / chr::day{d}}} + chr::hours{h} +
         chr::minutes{min};
}
inline site::Date date(int y, unsigned m, unsigned d) {
  return site::Date{chr::year{y} / chr::month{m} / chr::day{d}};
}

struct TestSite {
  // The shipped tables of `jurisdiction` and its ancestors, or those of `ruleDir`.
  TestSite(const std::string& zone, const std::string& jurisdiction,
           const std::string& ruleDir = atoms::testing::sourceDir() + "/etc/labor") {
    model.site = site::SiteInfo{"test-site", "Test", zone, {jurisdiction}, "retail"};
    model.certifications = {{"food-handler", "Food handler card"},
                            {"alcohol", "Alcohol server permit"}};
    model.stations = {{"grill", "Grill", {}, std::nullopt},
                      {"bar", "Bar", {"alcohol"}, 21},
                      {"prep", "Prep", {"food-handler"}, std::nullopt}};
    auto loaded = loadRuleBook(ruleDir, {jurisdiction});
    BOOST_TEST_REQUIRE(loaded.ok(), loaded.message());
    rules.emplace(std::move(*loaded));
    auto located = site::TimeZone::locate(zone);
    BOOST_TEST_REQUIRE(located.ok(), located.message());
    tz.emplace(std::move(*located));
  }

  // A wall-clock time of the site; in the fall-back hour, `later` picks the second occurrence.
  site::Stamp stamp(LocalTime local, bool later = false) const {
    const std::vector<site::Seconds> offsets = tz->offsetsFor(local);
    BOOST_TEST_REQUIRE(!offsets.empty());
    if (offsets.size() == 2 && later) {
      return site::Stamp{site::Instant{local.time_since_epoch() - offsets.back()}, local};
    }
    auto utc = tz->toUtc(local);
    if (!utc.ok() && offsets.size() == 2) {
      return site::Stamp{site::Instant{local.time_since_epoch() - offsets.front()}, local};
    }
    BOOST_TEST_REQUIRE(utc.ok(), utc.message());
    return site::Stamp{*utc, local};
  }

  site::Person& person(const std::string& id, std::int64_t rateCents = 2000,
                       std::optional<site::Date> birth = date(1990, 1, 1)) {
    site::Person p;
    p.id = id;
    p.name = id;
    p.roles = {"grill", "bar", "prep"};
    p.birthDate = birth;
    p.managerOfRecord = "manager-1";
    p.hourlyRateCents = rateCents;
    model.people.push_back(p);
    return model.people.back();
  }

  site::Shift& shift(const std::string& id, LocalTime start, LocalTime end,
                     std::optional<std::string> assignee = std::nullopt,
                     const std::string& station = "grill") {
    model.shifts.push_back(
        site::Shift{id, station, stamp(start), stamp(end), std::nullopt, std::move(assignee)});
    return model.shifts.back();
  }

  void punch(const std::string& personId, site::PunchKind kind, LocalTime local) {
    model.punches.push_back(site::Punch{personId, kind, stamp(local).utc});
  }

  // Builds the context over the current state and evaluates `personId` taking `shiftId`.
  Verdict evaluate(const std::string& personId, const std::string& shiftId,
                   Scope scope = Scope::kAllShifts, LaborOptions options = {}) const {
    auto ctx = LaborContext::build(model, *rules, options);
    BOOST_TEST_REQUIRE(ctx.ok(), ctx.message());
    auto verdict = ctx->evaluate(personId, shiftId, scope);
    BOOST_TEST_REQUIRE(verdict.ok(), verdict.message());
    return std::move(*verdict);
  }

  site::SiteModel model;
  std::optional<RuleBook> rules;
  std::optional<site::TimeZone> tz;
};

inline const RuleEvaluation& finding(const Verdict& v, std::string_view ruleId) {
  const RuleEvaluation* e = v.find(ruleId);
  BOOST_TEST_REQUIRE(e != nullptr, "no evaluation of " << ruleId);
  return *e;
}

inline std::int64_t intInput(const RuleEvaluation& e, const std::string& key) {
  const auto it = e.input.find(key);
  BOOST_TEST_REQUIRE((it != e.input.end()), "no input " << key << " in " << e.ruleId);
  return it->second.asInt();
}

inline std::string textInput(const RuleEvaluation& e, const std::string& key) {
  const auto it = e.input.find(key);
  BOOST_TEST_REQUIRE((it != e.input.end()), "no input " << key << " in " << e.ruleId);
  return it->second.asString();
}

}  // namespace testing
}  // namespace atoms::labor
