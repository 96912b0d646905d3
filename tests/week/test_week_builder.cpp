// "Fill open shifts" and "build the week" (domain/week/week_builder.h, WeekDesk::fill): the plan
// made by the roster engine over the small San Francisco restaurant of week_fixture.h, with the
// real labor tables. Every test pins an exact outcome; the engine runs on one thread with a seed
// and a move budget, so each plan is the same every time.
#include <algorithm>
#include <boost/test/unit_test.hpp>

#include "domain/labor/rule_table.h"
#include "domain/week/week_builder.h"
#include "tests/support/build_paths.h"
#include "tests/week/week_fixture.h"

namespace atoms::week::testing {

namespace {

BuildLimits budget() {
  BuildLimits limits;
  limits.maxIterations = 100000;
  return limits;
}

// The restaurant of week_fixture.h with a bar that needs an alcohol permit (only Ana holds one)
// and a draft of kWeek2 to plan.
class Planner {
 public:
  Planner() : site(weekRestaurant()) {
    site.certifications.push_back({"alcohol", "Alcohol server permit"});
    site.stations.push_back({"bar", "bar", {"alcohol"}, std::nullopt, {}});
    for (site::Person& p : site.people) p.roles.push_back("bar");
    site.people[0].certifications.push_back({"alcohol", std::nullopt});
    auto rulebook =
        labor::loadRuleBook(atoms::testing::sourceDir() + "/etc/labor", site.site.jurisdictions);
    BOOST_TEST_REQUIRE(rulebook.ok(), rulebook.message());
    rules = std::move(*rulebook);
    auto z = site::TimeZone::locate(site.site.timeZone);
    BOOST_TEST_REQUIRE(z.ok());
    zone = *z;
    draft.week = kWeek2;
    draft.nextShift = 100;
  }

  void add(std::string id, std::string station, int day, int from, int to,
           std::optional<std::string> who = std::nullopt) {
    site::Shift s;
    s.id = std::move(id);
    s.stationId = std::move(station);
    s.start = stamp(day, from);
    s.end = stamp(day, to);
    s.assignee = std::move(who);
    draft.shifts.push_back(std::move(s));
  }

  WeekPlan run(BuildMode mode, std::vector<Requirement> requirements = {}) {
    BuildInput in;
    in.live = &site;
    in.rules = &*rules;
    in.zone = &*zone;
    in.draft = &draft;
    in.now = site::toInstant(WeekFixture::at(kToday, 0, 10));
    in.mode = mode;
    in.requirements = std::move(requirements);
    in.limits = budget();
    auto plan = buildWeek(in);
    BOOST_TEST_REQUIRE(plan.ok(), plan.message());
    return std::move(*plan);
  }

  // The labor check of a plan: nothing in it may be denied.
  WeekCheck check(const WeekPlan& plan) {
    auto c = checkWeek(site, *rules, {}, kWeek2, plan.shifts);
    BOOST_TEST_REQUIRE(c.ok(), c.message());
    return std::move(*c);
  }

  site::SiteModel site;
  std::optional<labor::RuleBook> rules;
  std::optional<site::TimeZone> zone;
  WeekDraft draft;

 private:
  site::Stamp stamp(int day, int hour) {
    const site::LocalTime local = WeekFixture::local(kWeek2, day, hour);
    auto utc = site::TimeZone::locate(site.site.timeZone)->toUtc(local);
    BOOST_TEST_REQUIRE(utc.ok());
    return {*utc, local};
  }
};

const site::Shift& shiftOf(const WeekPlan& plan, const std::string& id) {
  auto it = std::find_if(plan.shifts.begin(), plan.shifts.end(),
                         [&](const site::Shift& s) { return s.id == id; });
  BOOST_TEST_REQUIRE((it != plan.shifts.end()), "no shift " << id);
  return *it;
}

const PlanChoice& choiceOf(const WeekPlan& plan, const std::string& id) {
  auto it = std::find_if(plan.choices.begin(), plan.choices.end(),
                         [&](const PlanChoice& c) { return c.shiftId == id; });
  BOOST_TEST_REQUIRE((it != plan.choices.end()), "no choice for " << id);
  return *it;
}

const PassedOver& passedOver(const PlanChoice& c, const std::string& person) {
  auto it = std::find_if(c.others.begin(), c.others.end(),
                         [&](const PassedOver& o) { return o.personId == person; });
  BOOST_TEST_REQUIRE((it != c.others.end()), "no reason for " << person);
  return *it;
}

bool has(const std::vector<std::string>& v, std::string_view s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

}  // namespace

BOOST_AUTO_TEST_SUITE(week_builder)

BOOST_AUTO_TEST_CASE(theOnlyCertifiedPersonGetsTheStation) {
  Planner t;
  t.add("bar-mon", "bar", 1, 16, 22);
  const WeekPlan plan = t.run(BuildMode::kFillOpen);
  BOOST_TEST(shiftOf(plan, "bar-mon").assignee.value_or("open") == "p-ana");
  BOOST_TEST(plan.score.shortfallShifts == 0);
  BOOST_TEST(t.check(plan).denied == 0u);
  const PlanChoice& c = choiceOf(plan, "bar-mon");
  BOOST_TEST(c.why.find("no premium") == 0u, c.why);
  const PassedOver& ben = passedOver(c, "p-ben");
  BOOST_TEST(ben.reason == "denied");
  BOOST_TEST(has(ben.rules, "R-SCH-CERTIFICATION"));
}

BOOST_AUTO_TEST_CASE(aMinorIsNeverPlacedPastTheMinorRule) {
  Planner t;
  for (site::Person& p : t.site.people) {
    if (p.id != "p-tom") p.roles.clear();
  }
  t.add("late", "line", 3, 16, 23);   // past 19:00 for a 15-year-old
  t.add("early", "line", 6, 11, 17);  // Saturday, inside the window
  const WeekPlan plan = t.run(BuildMode::kFillOpen);
  BOOST_TEST(shiftOf(plan, "early").assignee.value_or("open") == "p-tom");
  BOOST_TEST(!shiftOf(plan, "late").assignee.has_value());
  BOOST_TEST(plan.score.shortfallShifts == 1);
  BOOST_TEST(plan.score.shortfallMinutes == 7 * 60);
  BOOST_TEST(t.check(plan).denied == 0u);
  const PlanChoice& late = choiceOf(plan, "late");
  BOOST_TEST(!late.personId.has_value());
  BOOST_TEST(late.why.find("left open") == 0u, late.why);
  const PassedOver& tom = passedOver(late, "p-tom");
  BOOST_TEST(tom.reason == "denied");
  BOOST_TEST_REQUIRE(!tom.rules.empty());
  BOOST_TEST(std::any_of(tom.rules.begin(), tom.rules.end(), [](const std::string& id) {
    return id.find("MINOR-14-15") != std::string::npos;
  }));
}

BOOST_AUTO_TEST_CASE(approvedTimeOffIsRespected) {
  Planner t;
  t.site.people[0].roles = {"bar"};  // Ana does not cook this week
  t.site.people[2].roles = {"bar"};  // nor does Tom
  t.site.people[3].roles = {"bar"};  // nor Kwame: Ben alone works the line, off on Tuesday
  t.add("tue", "line", 2, 9, 17);
  t.add("wed", "line", 3, 9, 17);
  const WeekPlan plan = t.run(BuildMode::kFillOpen);
  BOOST_TEST(!shiftOf(plan, "tue").assignee.has_value());
  BOOST_TEST(shiftOf(plan, "wed").assignee.value_or("open") == "p-ben");
  const PassedOver& ben = passedOver(choiceOf(plan, "tue"), "p-ben");
  BOOST_TEST(ben.reason == "denied");
  BOOST_TEST(has(ben.rules, "R-SCH-TIME-OFF"));
  BOOST_TEST(t.check(plan).denied == 0u);
}

BOOST_AUTO_TEST_CASE(fillNeverMovesAnAssignedShift) {
  Planner t;
  t.add("mon-ana", "line", 1, 9, 17, "p-ana");
  t.add("tue-kwame", "line", 2, 9, 17, "p-kwame");
  t.add("mon-open", "line", 1, 9, 17);
  t.add("tue-open", "line", 2, 12, 20);
  t.add("thu-open", "bar", 4, 16, 22);
  const WeekPlan plan = t.run(BuildMode::kFillOpen);
  BOOST_TEST((shiftOf(plan, "mon-ana") == t.draft.shifts[0]));
  BOOST_TEST((shiftOf(plan, "tue-kwame") == t.draft.shifts[1]));
  BOOST_TEST(plan.score.changes == 3);
  BOOST_TEST(plan.score.shortfallShifts == 0);
  BOOST_TEST(shiftOf(plan, "thu-open").assignee.value_or("open") == "p-ana");
  // One shift a day: Ana and Kwame already work Monday and Tuesday.
  BOOST_TEST(shiftOf(plan, "mon-open").assignee.value_or("open") != "p-ana");
  BOOST_TEST(shiftOf(plan, "tue-open").assignee.value_or("open") != "p-kwame");
  BOOST_TEST(plan.choices.size() == 3u);
  BOOST_TEST(t.check(plan).denied == 0u);
}

BOOST_AUTO_TEST_CASE(infeasibleCoverIsShortfallNotAnIllegalShift) {
  Planner t;
  const WeekPlan plan = t.run(BuildMode::kBuild, {{"bar", 1, 17 * 60, 5 * 60, 3, std::nullopt}});
  BOOST_TEST(plan.added == 3);
  BOOST_TEST(plan.score.shortfallShifts == 2);
  BOOST_TEST(plan.score.shortfallMinutes == 2 * 5 * 60);
  std::int64_t ana = 0;
  for (const site::Shift& s : plan.shifts) ana += s.assignee == std::optional<std::string>("p-ana");
  BOOST_TEST(ana == 1);
  BOOST_TEST(t.check(plan).denied == 0u);
  BOOST_TEST(plan.nextShift == 103);
}

BOOST_AUTO_TEST_CASE(buildIsStableOnItsOwnResult) {
  Planner t;
  const std::vector<Requirement> needs = {{"line", 1, 9 * 60, 8 * 60, 2, std::nullopt},
                                          {"line", 2, 9 * 60, 8 * 60, 2, std::nullopt},
                                          {"line", 3, 12 * 60, 6 * 60, 1, std::nullopt},
                                          {"bar", 5, 17 * 60, 5 * 60, 1, std::nullopt}};
  const WeekPlan first = t.run(BuildMode::kBuild, needs);
  BOOST_TEST(first.added == 6);
  BOOST_TEST(!first.keptDraft);
  BOOST_TEST(first.score.shortfallShifts == 0);
  BOOST_TEST(t.check(first).denied == 0u);
  t.draft.shifts = first.shifts;
  t.draft.nextShift = first.nextShift;
  const WeekPlan second = t.run(BuildMode::kBuild, needs);
  BOOST_TEST(second.added == 0);
  BOOST_TEST(second.keptDraft);
  BOOST_TEST((second.shifts == first.shifts));
  BOOST_TEST(second.score.changes == 0);
}

BOOST_AUTO_TEST_CASE(aBadRequirementIsRefusedByName) {
  Planner t;
  BuildInput in;
  in.live = &t.site;
  in.rules = &*t.rules;
  in.zone = &*t.zone;
  in.draft = &t.draft;
  in.mode = BuildMode::kBuild;
  in.limits = budget();
  in.requirements = {{"line", 1, 540, 480, 1, std::nullopt},
                     {"line", 9, 540, 480, 1, std::nullopt}};
  auto bad = buildWeek(in);
  BOOST_TEST_REQUIRE(!bad.ok());
  BOOST_TEST(bad.error().kind == ErrorKind::kInvalid);
  BOOST_TEST(bad.message() == "requirements[1]: day must be 0..6");
  in.requirements = {{"grill", 1, 540, 480, 1, std::nullopt}};
  auto unknown = buildWeek(in);
  BOOST_TEST_REQUIRE(!unknown.ok());
  BOOST_TEST(unknown.error().kind == ErrorKind::kNotFound);
}

BOOST_AUTO_TEST_CASE(theDeskSavesAPlanAsOneVersionAndRefusesAStaleOne) {
  WeekFixture f;
  auto opened = f.desk->open(kWeek2, "p-kwame", f.now);
  BOOST_TEST_REQUIRE(opened.ok(), opened.message());
  AddShiftEdit add{"line", WeekFixture::local(kWeek2, 3, 9), WeekFixture::local(kWeek2, 3, 17),
                   std::nullopt, std::nullopt};
  auto added = f.desk->edit(kWeek2, 1, add, "p-kwame", f.now);
  BOOST_TEST_REQUIRE(added.ok(), added.message());
  BOOST_TEST_REQUIRE(added->status == DeskStatus::kDone);
  FillRequest request;
  request.limits = budget();
  auto stale = f.desk->fill(kWeek2, 1, request, "p-kwame", f.now);
  BOOST_TEST_REQUIRE(stale.ok(), stale.message());
  BOOST_TEST(stale->edit.status == DeskStatus::kStale);
  BOOST_TEST(stale->edit.view.draft.version == 2);

  auto filled = f.desk->fill(kWeek2, 2, request, "p-kwame", f.now);
  BOOST_TEST_REQUIRE(filled.ok(), filled.message());
  BOOST_TEST(filled->edit.status == DeskStatus::kDone);
  BOOST_TEST(filled->edit.view.draft.version == 3);
  BOOST_TEST(filled->plan.score.shortfallShifts == 0);
  BOOST_TEST(filled->edit.view.draft.shifts.at(0).assignee.has_value());
  BOOST_TEST(filled->edit.view.check.denied == 0u);
  auto history = f.desk->history(kWeek2, 1);
  BOOST_TEST_REQUIRE(history.ok());
  BOOST_TEST(history->front().kind == "plan");

  auto again = f.desk->fill(kWeek2, 3, request, "p-kwame", f.now);
  BOOST_TEST_REQUIRE(again.ok(), again.message());
  BOOST_TEST(again->edit.status == DeskStatus::kDone);
  BOOST_TEST(again->edit.view.draft.version == 3);
  BOOST_TEST(again->edit.message.find("Nothing changed") == 0u, again->edit.message);
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace atoms::week::testing
