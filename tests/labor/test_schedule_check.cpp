// checkSchedule (domain/labor/schedule_check.h): the whole-schedule check behind `atoms-edge
// check`. Each case builds a small site in code, with the rule tables shipped in etc/labor.
#include <algorithm>
#include <boost/test/unit_test.hpp>
#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "base/canonical_json.h"
#include "domain/labor/rule_table.h"
#include "domain/labor/schedule_check.h"
#include "domain/site/site_file.h"
#include "domain/site/site_model.h"
#include "domain/site/time_zone.h"
#include "tests/labor/engine_test_site.h"
#include "tests/support/build_paths.h"
#include "tests/support/synthetic_site.h"

namespace atoms::labor {
namespace {

namespace chr = std::chrono;
using site::LocalTime;

using testing::at;

RuleBook loadRules(const std::vector<std::string>& jurisdictions) {
  auto rules = loadRuleBook(atoms::testing::sourceDir() + "/etc/labor", jurisdictions);
  BOOST_TEST_REQUIRE(rules.ok(), rules.message());
  return std::move(*rules);
}

// A site with one station and people added by the test; shifts by local time.
struct Site {
  Site(const std::string& zone, std::vector<std::string> jurisdictions,
       const std::string& industry = "retail")
      : tz(*site::TimeZone::locate(zone)) {
    model.site = site::SiteInfo{"check-site", "Check site", zone, jurisdictions, industry};
    model.stations = {{"floor", "Floor", {}, std::nullopt}};
    model.people.push_back(person("m-1", std::nullopt));
  }
  static site::Person person(const std::string& id, std::optional<std::string> manager) {
    site::Person p;
    p.id = id;
    p.name = "Name " + id;
    p.phone = "+14155550100";
    p.roles = {"floor"};
    p.hourlyRateCents = 2000;
    p.managerOfRecord = std::move(manager);
    return p;
  }
  void add(const std::string& id) { model.people.push_back(person(id, "m-1")); }
  site::Stamp stamp(LocalTime t) const {
    auto utc = tz.toUtc(t);
    BOOST_TEST_REQUIRE(utc.ok(), utc.message());
    return site::Stamp{*utc, t};
  }
  void shift(const std::string& id, LocalTime start, LocalTime end,
             std::optional<std::string> assignee) {
    model.shifts.push_back(
        site::Shift{id, "floor", stamp(start), stamp(end), std::nullopt, std::move(assignee)});
  }
  ScheduleCheck check(const std::vector<std::string>& jurisdictions,
                      ScheduleCheckOptions options = {}) const {
    const RuleBook rules = loadRules(jurisdictions);
    auto result = checkSchedule(model, rules, options);
    BOOST_TEST_REQUIRE(result.ok(), result.message());
    return std::move(*result);
  }

  site::TimeZone tz;
  site::SiteModel model;
};

const PersonFindings* personOf(const ScheduleCheck& c, const std::string& id) {
  for (const PersonFindings& p : c.people) {
    if (p.personId == id) return &p;
  }
  return nullptr;
}

const RuleFindings* ruleOf(const PersonFindings& p, const std::string& ruleId) {
  for (const RuleFindings& r : p.rules) {
    if (r.rule.ruleId == ruleId) return &r;
  }
  return nullptr;
}

std::vector<std::string> shiftIdsOf(const RuleFindings& r) {
  std::vector<std::string> ids;
  for (const FindingOccurrence& o : r.occurrences) ids.push_back(o.shiftId);
  return ids;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(schedule_check)

// A shift that a later version adds to days an earlier version published is a change after
// publication (SMC 14.22, Seattle): one hour of predictability pay and the right to decline,
// judged as if made when the later version went out. A schedule check of the two versions says
// so instead of leaving it to the change evaluation.
BOOST_AUTO_TEST_CASE(a_shift_a_later_version_adds_owes_predictability_pay) {
  Site s("America/Los_Angeles", {"us", "us-wa", "us-wa-seattle"});
  s.add("p-1");
  s.shift("mon", at(2026, 10, 19, 9), at(2026, 10, 19, 17), "p-1");
  s.shift("fri", at(2026, 10, 23, 9), at(2026, 10, 23, 17), "p-1");
  s.shift("wed", at(2026, 10, 21, 9), at(2026, 10, 21, 13), "p-1");  // added by v2
  s.model.scheduleVersions = {
      site::ScheduleVersion{"v1", s.stamp(at(2026, 10, 1, 12)).utc, {"mon", "fri"}},
      site::ScheduleVersion{"v2", s.stamp(at(2026, 10, 18, 9)).utc, {"mon", "fri", "wed"}}};
  const ScheduleCheck c = s.check({"us", "us-wa", "us-wa-seattle"});
  const PersonFindings* p = personOf(c, "p-1");
  BOOST_TEST_REQUIRE(p != nullptr);
  const RuleFindings* pay = ruleOf(*p, "SEA-SSO-PREDICTABILITY-PAY");
  BOOST_TEST_REQUIRE(pay != nullptr);
  BOOST_TEST(shiftIdsOf(*pay) == std::vector<std::string>{"wed"}, boost::test_tools::per_element());
  BOOST_TEST(pay->premiumCents == 2000);  // one hour at $20.00
  BOOST_TEST((pay->occurrences.front().scheduleVersionId == std::optional<std::string>("v2")));
  const RuleFindings* decline = ruleOf(*p, "SEA-SSO-DECLINE-ADDED");
  BOOST_TEST_REQUIRE(decline != nullptr);
  BOOST_TEST((decline->worst == VerdictKind::kNeedsConsent));
  BOOST_TEST(c.premiumCents >= 2000);
}

// The breaks a workday needs and the schedule does not give are listed for the manager to plan
// (CA-MEAL-1: a 30 min meal before the end of the 5th hour; CA-REST-10-PER-4: 10 min per 4 h),
// once per workday, as its last shift sees the day: a lunch and a dinner shift with a 2 h gap
// between them already give the meal period, so only the rest periods are left to plan.
BOOST_AUTO_TEST_CASE(breaks_to_plan_are_listed_once_per_workday) {
  Site s("America/Los_Angeles", {"us", "us-ca"});
  s.add("p-1");
  s.shift("long", at(2026, 10, 5, 9), at(2026, 10, 5, 17), "p-1");     // 8 h in one piece
  s.shift("lunch", at(2026, 10, 6, 10), at(2026, 10, 6, 14), "p-1");   // 4 h,
  s.shift("dinner", at(2026, 10, 6, 16), at(2026, 10, 6, 20), "p-1");  // a 2 h gap, then 4 h
  const ScheduleCheck c = s.check({"us", "us-ca"});
  std::vector<std::string> seen;
  for (const BreakToPlan& b : c.breaksToPlan) {
    BOOST_TEST(b.personId == "p-1");
    seen.push_back(b.workday + " " + b.shiftId + " " + b.ruleId);
  }
  const std::vector<std::string> expected{"2026-10-05 long CA-MEAL-1",
                                          "2026-10-05 long CA-REST-10-PER-4",
                                          "2026-10-06 dinner CA-REST-10-PER-4"};
  BOOST_TEST(seen == expected, boost::test_tools::per_element());
  BOOST_TEST_REQUIRE(!c.breaksToPlan.empty());
  BOOST_TEST(c.breaksToPlan.front().detail ==
             "a 30 min meal period is due before the end of the 5th hour of work (by 14:00)");
  // They are not findings: nothing is wrong with the schedule yet.
  BOOST_TEST(c.findings == 0u);
}

// Seattle (SEA-SSO-REST-10H: 10 h rest, consent, 1.5 x per hour inside the rest): three closes
// each followed by an open 6 h later. Checked shift by shift against earlier shifts only, each
// short rest is one finding, on the later shift, naming the earlier one.
BOOST_AUTO_TEST_CASE(each_short_rest_is_reported_once_on_the_later_shift) {
  Site s("America/Los_Angeles", {"us", "us-wa", "us-wa-seattle"});
  s.add("p-1");
  s.shift("close-1", at(2026, 10, 5, 16), at(2026, 10, 6, 0), "p-1");
  s.shift("open-1", at(2026, 10, 6, 6), at(2026, 10, 6, 12), "p-1");
  s.shift("close-2", at(2026, 10, 7, 16), at(2026, 10, 8, 0), "p-1");
  s.shift("open-2", at(2026, 10, 8, 6), at(2026, 10, 8, 12), "p-1");
  const ScheduleCheck c = s.check(s.model.site.jurisdictions);

  const PersonFindings* p = personOf(c, "p-1");
  BOOST_TEST_REQUIRE(p != nullptr);
  const RuleFindings* rest = ruleOf(*p, "SEA-SSO-REST-10H");
  BOOST_TEST_REQUIRE(rest != nullptr);
  BOOST_TEST(shiftIdsOf(*rest) == (std::vector<std::string>{"open-1", "open-2"}),
             boost::test_tools::per_element());
  BOOST_TEST(rest->occurrences[0].relatedShiftIds == std::vector<std::string>{"close-1"},
             boost::test_tools::per_element());
  BOOST_TEST(rest->occurrences[1].relatedShiftIds == std::vector<std::string>{"close-2"},
             boost::test_tools::per_element());
  BOOST_TEST((rest->worst == VerdictKind::kNeedsConsent));
  BOOST_TEST(rest->rule.jurisdiction == "us-wa-seattle");
  BOOST_TEST(!rest->rule.source.url.empty());
  // 4 h of each open fall inside the 10 h rest: 4 h x 1.5 x $20.00 = $120.00 per rest.
  BOOST_TEST(rest->premiumMinutes == 2 * 240);
  BOOST_TEST(rest->premiumCents == 2 * 12000);
  BOOST_TEST(c.needsConsent == 2u);
  BOOST_TEST(!c.hardViolation);
}

// Two shifts that overlap: one R-SCH-OVERLAP finding, on the one that starts later, naming the
// other; the check reports a hard violation.
BOOST_AUTO_TEST_CASE(an_overlap_is_reported_once_and_is_a_hard_violation) {
  Site s("America/Chicago", {"us"});
  s.add("p-1");
  s.shift("b-late", at(2026, 10, 5, 12), at(2026, 10, 5, 18), "p-1");
  s.shift("a-early", at(2026, 10, 5, 9), at(2026, 10, 5, 14), "p-1");
  const ScheduleCheck c = s.check({"us"});

  const PersonFindings* p = personOf(c, "p-1");
  BOOST_TEST_REQUIRE(p != nullptr);
  const RuleFindings* overlap = ruleOf(*p, std::string(kRuleOverlap));
  BOOST_TEST_REQUIRE(overlap != nullptr);
  BOOST_TEST(shiftIdsOf(*overlap) == std::vector<std::string>{"b-late"},
             boost::test_tools::per_element());
  BOOST_TEST(overlap->occurrences[0].relatedShiftIds == std::vector<std::string>{"a-early"},
             boost::test_tools::per_element());
  BOOST_TEST(overlap->rule.jurisdiction.empty());
  BOOST_TEST(!overlap->rule.summary.empty());
  BOOST_TEST(c.denied == 1u);
  BOOST_TEST(c.hardViolation);
}

// US-FLSA-OT-WEEKLY over six 8 h days: the 8 hours past 40 are one finding on the sixth shift,
// not a finding on every shift that touches the week.
BOOST_AUTO_TEST_CASE(weekly_overtime_hours_are_counted_once_across_the_week) {
  Site s("America/Chicago", {"us"});
  s.add("p-1");
  for (unsigned d = 0; d < 6; ++d) {
    s.shift("day-" + std::to_string(d), at(2026, 10, 5 + d, 8), at(2026, 10, 5 + d, 16), "p-1");
  }
  const ScheduleCheck c = s.check({"us"});

  const PersonFindings* p = personOf(c, "p-1");
  BOOST_TEST_REQUIRE(p != nullptr);
  const RuleFindings* weekly = ruleOf(*p, "US-FLSA-OT-WEEKLY");
  BOOST_TEST_REQUIRE(weekly != nullptr);
  BOOST_TEST(shiftIdsOf(*weekly) == std::vector<std::string>{"day-5"},
             boost::test_tools::per_element());
  const std::int64_t rate = s.model.people.back().hourlyRateCents;
  BOOST_TEST(weekly->premiumMinutes == 8 * 60);
  BOOST_TEST(weekly->premiumCents == 8 * rate * 3 / 2);
  BOOST_TEST(p->premiumCents == weekly->premiumCents);
  BOOST_TEST(p->shifts == 6u);
  BOOST_TEST(p->scheduledMinutes == 6 * 8 * 60);
  BOOST_TEST(c.premiumCents == p->premiumCents);
  BOOST_TEST(c.withPremium == 1u);
  BOOST_TEST(!c.hardViolation);
}

// People in the model's order, only those with findings; each person's rules strictest first,
// then by id; occurrences in start order.
BOOST_AUTO_TEST_CASE(findings_are_grouped_by_person_then_rule_in_a_stable_order) {
  Site s("America/Los_Angeles", {"us", "us-ca"});
  s.add("p-b");
  s.add("p-clean");
  s.add("p-a");
  // p-b: two 10 h days (CA daily overtime, twice) and an overlap (denied).
  s.shift("b-2", at(2026, 10, 6, 8), at(2026, 10, 6, 18), "p-b");
  s.shift("b-1", at(2026, 10, 5, 8), at(2026, 10, 5, 18), "p-b");
  s.shift("b-3", at(2026, 10, 6, 17), at(2026, 10, 6, 20), "p-b");
  s.shift("clean-1", at(2026, 10, 5, 9), at(2026, 10, 5, 15), "p-clean");
  // p-a: one 9 h day.
  s.shift("a-1", at(2026, 10, 7, 8), at(2026, 10, 7, 17), "p-a");
  const ScheduleCheck c = s.check({"us", "us-ca"});

  std::vector<std::string> people;
  for (const PersonFindings& p : c.people) people.push_back(p.personId);
  BOOST_TEST(people == (std::vector<std::string>{"p-b", "p-a"}), boost::test_tools::per_element());
  BOOST_TEST(c.peopleScheduled == 3u);
  BOOST_TEST(c.assignedShifts == 5u);

  const PersonFindings& b = c.people[0];
  BOOST_TEST((b.worst == VerdictKind::kDenied));
  BOOST_TEST_REQUIRE(!b.rules.empty());
  BOOST_TEST(b.rules.front().rule.ruleId == std::string(kRuleOverlap));
  for (std::size_t i = 1; i < b.rules.size(); ++i) {
    const RuleFindings& prev = b.rules[i - 1];
    const RuleFindings& cur = b.rules[i];
    BOOST_TEST((prev.worst > cur.worst ||
                (prev.worst == cur.worst && prev.rule.ruleId < cur.rule.ruleId)));
  }
  const RuleFindings* daily = ruleOf(b, "CA-OT-DAILY-8");
  BOOST_TEST_REQUIRE(daily != nullptr);
  BOOST_TEST(shiftIdsOf(*daily) == (std::vector<std::string>{"b-1", "b-2", "b-3"}),
             boost::test_tools::per_element());
  BOOST_TEST((b.managerOfRecord == std::optional<std::string>("m-1")));
}

// The totals add up: the schedule's premium is the sum of the people's; every finding is counted
// by its effect; the per-rule totals count every occurrence once.
BOOST_AUTO_TEST_CASE(totals_add_up_over_people_rules_and_effects) {
  atoms::testing::SyntheticSiteSpec spec;
  spec.seed = 7;
  spec.people = 60;
  spec.weeks = 2;
  spec.jurisdictions = {"us", "us-wa", "us-wa-seattle"};
  spec.industry = "retail";
  const site::SiteModel model = atoms::testing::syntheticSite(spec);
  const RuleBook rules = loadRules(spec.jurisdictions);
  auto c = checkSchedule(model, rules);
  BOOST_TEST_REQUIRE(c.ok(), c.message());

  std::int64_t cents = 0, minutes = 0;
  std::size_t occurrences = 0, denied = 0, consent = 0, premium = 0, noted = 0;
  for (const PersonFindings& p : c->people) {
    cents += p.premiumCents;
    minutes += p.premiumMinutes;
    for (const RuleFindings& r : p.rules) {
      std::int64_t ruleCents = 0;
      for (const FindingOccurrence& o : r.occurrences) {
        ++occurrences;
        ruleCents += o.premiumCents;
        denied += o.effect == VerdictKind::kDenied;
        consent += o.effect == VerdictKind::kNeedsConsent;
        premium += o.effect == VerdictKind::kAllowedWithPremium;
        noted += o.effect == VerdictKind::kAllowed;
      }
      BOOST_TEST(r.premiumCents == ruleCents);
    }
  }
  std::size_t ruleOccurrences = 0;
  for (const RuleTotal& t : c->rules) ruleOccurrences += t.occurrences;
  BOOST_TEST(c->premiumCents == cents);
  BOOST_TEST(c->premiumMinutes == minutes);
  BOOST_TEST(c->findings == occurrences);
  BOOST_TEST(ruleOccurrences == occurrences);
  BOOST_TEST(c->denied == denied);
  BOOST_TEST(c->needsConsent == consent);
  BOOST_TEST(c->withPremium == premium);
  BOOST_TEST(c->noted == noted);
  BOOST_TEST(c->findings == denied + consent + premium + noted);
  BOOST_TEST(c->hardViolation == (denied > 0));
  // The generated site is realistic: it has findings of several kinds and some premium.
  BOOST_TEST(occurrences > 0u);
  BOOST_TEST(cents > 0);
}

// Open shifts are listed (by start), with the certifications they need, and are not findings.
BOOST_AUTO_TEST_CASE(open_shifts_are_noted_not_found) {
  Site s("America/Chicago", {"us"});
  s.model.certifications = {{"rbs", "Responsible beverage service"}};
  s.model.stations.push_back({"bar", "Bar", {"rbs"}, 21});
  s.shift("open-later", at(2026, 10, 6, 9), at(2026, 10, 6, 17), std::nullopt);
  s.shift("open-first", at(2026, 10, 5, 9), at(2026, 10, 5, 17), std::nullopt);
  s.model.shifts.back().stationId = "bar";
  const ScheduleCheck c = s.check({"us"});

  BOOST_TEST_REQUIRE(c.openShifts.size() == 2u);
  BOOST_TEST(c.openShifts[0].shiftId == "open-first");
  BOOST_TEST(c.openShifts[0].requiredCertifications == std::vector<std::string>{"rbs"},
             boost::test_tools::per_element());
  BOOST_TEST(c.openShifts[1].shiftId == "open-later");
  BOOST_TEST(c.findings == 0u);
  BOOST_TEST(c.people.empty());
  BOOST_TEST(!c.hardViolation);
}

// The same schedule, whatever order its shifts are listed in, gives the same JSON, byte for byte.
BOOST_AUTO_TEST_CASE(the_result_does_not_depend_on_the_order_of_shifts_in_the_file) {
  atoms::testing::SyntheticSiteSpec spec;
  spec.seed = 11;
  spec.people = 40;
  site::SiteModel model = atoms::testing::syntheticSite(spec);
  const RuleBook rules = loadRules(spec.jurisdictions);
  auto first = checkSchedule(model, rules);
  BOOST_TEST_REQUIRE(first.ok(), first.message());
  std::reverse(model.shifts.begin(), model.shifts.end());
  auto reversed = checkSchedule(model, rules);
  BOOST_TEST_REQUIRE(reversed.ok(), reversed.message());
  const std::string a = json::canonical(scheduleCheckJson(*first));
  BOOST_TEST(a == json::canonical(scheduleCheckJson(*reversed)));
  BOOST_TEST(json::parseCanonical(a).ok());
}

// San Francisco formula retail (SF-FRERO-NOTICE-14D): a version published 10 days ahead is
// late for each person it schedules; with --as-of, a version not yet out is checked as if
// published then.
BOOST_AUTO_TEST_CASE(schedule_versions_are_checked_for_advance_notice) {
  Site s("America/Los_Angeles", {"us", "us-ca", "us-ca-san-francisco"});
  s.add("p-1");
  s.shift("w-1", at(2026, 10, 12, 9), at(2026, 10, 12, 15), "p-1");
  const site::Instant publishedAt = s.stamp(at(2026, 10, 2, 9)).utc;  // 10 days before
  s.model.scheduleVersions.push_back(site::ScheduleVersion{"v-1", publishedAt, {"w-1"}});

  const ScheduleCheck late = s.check(s.model.site.jurisdictions);
  BOOST_TEST_REQUIRE(late.versions.size() == 1u);
  BOOST_TEST((late.versions[0].checkedAt == publishedAt));
  const PersonFindings* p = personOf(late, "p-1");
  BOOST_TEST_REQUIRE(p != nullptr);
  const RuleFindings* notice = ruleOf(*p, "SF-FRERO-NOTICE-14D");
  BOOST_TEST_REQUIRE(notice != nullptr);
  BOOST_TEST_REQUIRE(notice->occurrences.size() == 1u);
  BOOST_TEST(notice->occurrences[0].shiftId == "w-1");
  BOOST_TEST((notice->occurrences[0].scheduleVersionId == std::optional<std::string>("v-1")));

  // Not out yet as of 16 days before the shift: checked as if published then, it is in time.
  ScheduleCheckOptions options;
  options.asOf = s.stamp(at(2026, 9, 26, 9)).utc;
  const ScheduleCheck early = s.check(s.model.site.jurisdictions, options);
  BOOST_TEST((early.versions[0].checkedAt == *options.asOf));
  BOOST_TEST(personOf(early, "p-1") == nullptr);
}

BOOST_AUTO_TEST_CASE(an_unknown_time_zone_is_an_error_not_a_crash) {
  Site s("America/Chicago", {"us"});
  s.model.site.timeZone = "Mars/Olympus";
  const RuleBook rules = loadRules({"us"});
  auto c = checkSchedule(s.model, rules);
  BOOST_TEST(!c.ok());
  BOOST_TEST(c.message().find("Mars/Olympus") != std::string::npos);
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace atoms::labor
