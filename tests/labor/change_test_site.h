// The site of the schedule-change and fair-workweek tests (test_schedule_change.cpp,
// test_fair_workweek.cpp): the engine tests' TestSite plus schedule versions and a
// ChangeEvaluator, built once the test has finished editing the model (the evaluator points into
// the model, which must not change afterwards). Header-only.
#pragma once

#include <boost/test/unit_test.hpp>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "domain/labor/fair_workweek.h"
#include "domain/labor/labor_engine.h"
#include "domain/labor/rule_table.h"
#include "domain/labor/schedule_change.h"
#include "domain/site/site_model.h"
#include "domain/site/time_zone.h"
#include "tests/labor/engine_test_site.h"
#include "tests/support/build_paths.h"

namespace atoms::labor::testing {

using site::Instant;

inline std::string name(VerdictKind k) { return std::string(verdictKindName(k)); }
inline std::string name(EvalResult r) { return std::string(evalResultName(r)); }

// The engine tests' site (engine_test_site.h) with several jurisdictions, an industry, schedule
// versions and a ChangeEvaluator.
class ChangeTestSite : public TestSite {
 public:
  // `jurisdictions`: the codes to compose ("us-ny-nyc"); the employer's size is left unknown, so
  // every threshold counts as met (labor_engine.h, EmployerSize).
  ChangeTestSite(const std::string& zone, const std::vector<std::string>& jurisdictions,
                 const std::string& industry = "retail")
      : TestSite(zone, jurisdictions.front()) {
    model.site.jurisdictions = jurisdictions;
    model.site.industry = industry;
    model.stations.push_back({"floor", "Floor", {}, std::nullopt});
    if (jurisdictions.size() > 1) {
      auto loaded = loadRuleBook(atoms::testing::sourceDir() + "/etc/labor", jurisdictions);
      BOOST_TEST_REQUIRE(loaded.ok(), loaded.message());
      rules.emplace(std::move(*loaded));
    }
  }
  ChangeTestSite(const ChangeTestSite&) = delete;
  ChangeTestSite& operator=(const ChangeTestSite&) = delete;

  Instant instant(LocalTime local) const { return stamp(local).utc; }

  site::Person& person(const std::string& id, std::int64_t rateCents = 2000,
                       std::optional<std::string> manager = std::string("manager-1")) {
    site::Person& p = TestSite::person(id, rateCents);
    p.managerOfRecord = std::move(manager);
    return p;
  }

  void publish(const std::string& versionId, Instant publishedAt,
               std::vector<std::string> shiftIds) {
    model.scheduleVersions.push_back(
        site::ScheduleVersion{versionId, publishedAt, std::move(shiftIds)});
  }

  // Builds the context and the evaluator on first use; edit the model before that.
  const ChangeEvaluator& evaluator() {
    if (!evaluator_) {
      auto ctx = LaborContext::build(model, *rules);
      BOOST_TEST_REQUIRE(ctx.ok(), ctx.message());
      context_.emplace(std::move(*ctx));
      auto ev = ChangeEvaluator::build(*context_);
      BOOST_TEST_REQUIRE(ev.ok(), ev.message());
      evaluator_.emplace(std::move(*ev));
    }
    return *evaluator_;
  }
  const FairWorkweek& fairWorkweek() { return evaluator().fairWorkweek(); }

  ChangeVerdict evaluate(const ScheduleChange& change, Instant now) {
    auto v = evaluator().evaluate(change, now);
    BOOST_TEST_REQUIRE(v.ok(), v.message());
    return std::move(*v);
  }
  // The error message of a change expected to be refused.
  std::string refusal(const ScheduleChange& change, Instant now) {
    auto v = evaluator().evaluate(change, now);
    BOOST_TEST(!v.ok(), "the change was accepted");
    return v.message();
  }

 private:
  std::optional<LaborContext> context_;
  std::optional<ChangeEvaluator> evaluator_;
};

// The one evaluation of `ruleId` in a person's verdict (fails the test if absent).
inline const RuleEvaluation& findingOf(const PersonVerdict& p, std::string_view ruleId) {
  const RuleEvaluation* e = p.verdict.find(ruleId);
  BOOST_TEST_REQUIRE(e != nullptr, "no evaluation of " << ruleId << " for " << p.personId);
  return *e;
}
inline const PersonVerdict& personOf(const ChangeVerdict& v, std::string_view personId) {
  const PersonVerdict* p = v.person(personId);
  BOOST_TEST_REQUIRE(p != nullptr, "no verdict for " << personId);
  return *p;
}

}  // namespace atoms::labor::testing
