// Properties of the labor engine and the whole-schedule check over many generated sites
// (tests/support/synthetic_site.h), each seed a different realistic schedule:
//   - adding hours (extending a shift, or adding one) never lowers anyone's overtime;
//   - a schedule the engine calls clean stays clean when a shift is removed (no shipped rule is
//     a minimum, e.g. of hours or of notice for a cut, which removing a shift could break);
//   - the schedule's premium is the sum of the people's, and equals the engine's verdicts summed
//     shift by shift;
//   - evaluate() gives the same verdict for a person and shift whether or not other people's
//     shifts exist (it reads only that person's work: incremental).
#include <algorithm>
#include <boost/test/unit_test.hpp>
#include <chrono>
#include <cstdint>
#include <map>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "domain/labor/labor_engine.h"
#include "domain/labor/rule_table.h"
#include "domain/labor/schedule_check.h"
#include "domain/site/site_file.h"
#include "domain/site/site_model.h"
#include "domain/site/time_zone.h"
#include "tests/support/build_paths.h"
#include "tests/support/synthetic_site.h"

namespace atoms::labor {
namespace {

namespace chr = std::chrono;

// Jurisdiction sets with different rule mixes: federal only; California (daily overtime and
// double time, minors 16-17); Seattle (rest between shifts with consent and premium).
const std::vector<std::vector<std::string>> kJurisdictions{
    {"us"}, {"us", "us-ca", "us-ca-san-francisco"}, {"us", "us-wa", "us-wa-seattle"}};
constexpr std::uint64_t kSeeds = 12;

// A deterministic stream for the mutations (the generator has its own).
class Picker {
 public:
  explicit Picker(std::uint64_t seed) : state_(seed * 0x9e3779b97f4a7c15ULL + 1) {}
  std::size_t below(std::size_t n) {
    state_ ^= state_ << 13;
    state_ ^= state_ >> 7;
    state_ ^= state_ << 17;
    return static_cast<std::size_t>(state_ % n);
  }

 private:
  std::uint64_t state_;
};

// The rule books of kJurisdictions, loaded once per test case.
struct RuleBooks {
  RuleBooks() {
    for (const auto& codes : kJurisdictions) {
      auto loaded = loadRuleBook(atoms::testing::sourceDir() + "/etc/labor", codes);
      BOOST_TEST_REQUIRE(loaded.ok(), loaded.message());
      books.push_back(std::move(*loaded));
    }
  }
  const RuleBook& rulesFor(std::uint64_t seed) const { return books[seed % books.size()]; }
  std::vector<RuleBook> books;
};

atoms::testing::SyntheticSiteSpec specFor(std::uint64_t seed) {
  atoms::testing::SyntheticSiteSpec spec;
  spec.seed = seed;
  spec.people = 24;
  spec.weeks = 2;
  spec.jurisdictions = kJurisdictions[seed % kJurisdictions.size()];
  spec.industry = "retail";
  return spec;
}

ScheduleCheck check(const site::SiteModel& model, const RuleBook& rules) {
  auto c = checkSchedule(model, rules);
  BOOST_TEST_REQUIRE(c.ok(), c.message());
  return std::move(*c);
}

bool isOvertimeRule(const RuleBook& rules, const std::string& id) {
  const auto versions = rules.versionsOf(id);
  if (versions.empty()) return false;
  const RuleKind k = versions.front()->kind;
  return k == RuleKind::kWeeklyOvertime || k == RuleKind::kDailyOvertime ||
         k == RuleKind::kDoubleTime;
}

// Overtime minutes per (person, overtime rule) over the whole schedule.
std::map<std::pair<std::string, std::string>, std::int64_t> overtime(const ScheduleCheck& c,
                                                                     const RuleBook& rules) {
  std::map<std::pair<std::string, std::string>, std::int64_t> out;
  for (const PersonFindings& p : c.people) {
    for (const RuleFindings& r : p.rules) {
      if (isOvertimeRule(rules, r.rule.ruleId))
        out[{p.personId, r.rule.ruleId}] += r.premiumMinutes;
    }
  }
  return out;
}

std::vector<std::size_t> assigned(const site::SiteModel& m) {
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < m.shifts.size(); ++i) {
    if (m.shifts[i].assignee) out.push_back(i);
  }
  return out;
}

std::optional<site::Stamp> stampIn(const site::SiteModel& m, site::LocalTime t) {
  auto utc = site::TimeZone::locate(m.site.timeZone)->toUtc(t);
  if (!utc) return std::nullopt;
  return site::Stamp{*utc, t};
}

// Checks every (person, overtime rule) of `before` against `after`; returns how many had
// overtime, so a test can tell that it compared something.
std::size_t checkNoLessOvertime(const ScheduleCheck& before, const ScheduleCheck& after,
                                const RuleBook& rules, const std::string& what) {
  const auto was = overtime(before, rules);
  const auto now = overtime(after, rules);
  for (const auto& [key, minutes] : was) {
    const auto it = now.find(key);
    const std::int64_t later = it == now.end() ? 0 : it->second;
    BOOST_TEST(later >= minutes, what << ": " << key.first << " " << key.second << " went from "
                                      << minutes << " to " << later << " overtime minutes");
  }
  return was.size();
}

void removeShift(site::SiteModel& m, std::size_t index) {
  const std::string id = m.shifts[index].id;
  m.shifts.erase(m.shifts.begin() + static_cast<std::ptrdiff_t>(index));
  for (site::ScheduleVersion& v : m.scheduleVersions) {
    v.shiftIds.erase(std::remove(v.shiftIds.begin(), v.shiftIds.end(), id), v.shiftIds.end());
  }
}

void requireSameVerdict(const Verdict& a, const Verdict& b, const std::string& what) {
  BOOST_TEST_REQUIRE((a.kind == b.kind), what);
  BOOST_TEST_REQUIRE(a.premiumMinutes == b.premiumMinutes, what);
  BOOST_TEST_REQUIRE(a.premiumCents == b.premiumCents, what);
  BOOST_TEST_REQUIRE((a.approver == b.approver), what);
  BOOST_TEST_REQUIRE(a.evaluations.size() == b.evaluations.size(), what);
  for (std::size_t i = 0; i < a.evaluations.size(); ++i) {
    const RuleEvaluation& x = a.evaluations[i];
    const RuleEvaluation& y = b.evaluations[i];
    const std::string rule = what + " rule " + x.ruleId;
    BOOST_TEST_REQUIRE(x.ruleId == y.ruleId, rule);
    BOOST_TEST_REQUIRE((x.result == y.result), rule);
    BOOST_TEST_REQUIRE((x.effect == y.effect), rule);
    BOOST_TEST_REQUIRE(x.detail == y.detail, rule);
    BOOST_TEST_REQUIRE(x.premiumMinutes == y.premiumMinutes, rule);
    BOOST_TEST_REQUIRE(x.premiumCents == y.premiumCents, rule);
    BOOST_TEST_REQUIRE((x.overtimeKind == y.overtimeKind), rule);
    BOOST_TEST_REQUIRE((x.input == y.input), rule);
  }
}

}  // namespace

BOOST_FIXTURE_TEST_SUITE(labor_properties, RuleBooks)

BOOST_AUTO_TEST_CASE(extending_a_shift_never_lowers_overtime) {
  std::size_t compared = 0;
  for (std::uint64_t seed = 1; seed <= kSeeds; ++seed) {
    const atoms::testing::SyntheticSiteSpec spec = specFor(seed);
    const RuleBook& rules = rulesFor(seed);
    site::SiteModel model = atoms::testing::syntheticSite(spec);
    Picker pick(seed);
    ScheduleCheck before = check(model, rules);
    for (int round = 0; round < 6; ++round) {
      const std::vector<std::size_t> shifts = assigned(model);
      site::Shift& s = model.shifts[shifts[pick.below(shifts.size())]];
      const auto end = stampIn(model, s.end.local + chr::minutes{30 * (1 + pick.below(6))});
      if (!end || end->utc - s.start.utc > chr::hours{24}) continue;
      const std::string what = "seed " + std::to_string(seed) + ", " + s.id + " extended";
      s.end = *end;
      ScheduleCheck after = check(model, rules);
      compared += checkNoLessOvertime(before, after, rules, what);
      before = std::move(after);
    }
  }
  BOOST_TEST(compared > 0u);  // the generated schedules do have overtime
}

BOOST_AUTO_TEST_CASE(adding_a_shift_never_lowers_overtime) {
  std::size_t compared = 0;
  for (std::uint64_t seed = 1; seed <= kSeeds; ++seed) {
    const atoms::testing::SyntheticSiteSpec spec = specFor(seed);
    const RuleBook& rules = rulesFor(seed);
    site::SiteModel model = atoms::testing::syntheticSite(spec);
    Picker pick(seed + 100);
    ScheduleCheck before = check(model, rules);
    for (int round = 0; round < 6; ++round) {
      const site::Person& person = model.people[pick.below(model.people.size())];
      if (person.roles.empty()) continue;
      const int day = static_cast<int>(pick.below(static_cast<std::size_t>(spec.weeks * 7)));
      const site::LocalTime start =
          site::LocalTime{chr::local_days{spec.firstDay} + chr::days{day}} +
          chr::hours{6 + static_cast<int>(pick.below(12))};
      const auto s = stampIn(model, start);
      const auto e = stampIn(model, start + chr::hours{2 + static_cast<int>(pick.below(9))});
      if (!s || !e) continue;
      const std::string id = "added-" + std::to_string(round);
      model.shifts.push_back(
          site::Shift{id, person.roles.front(), *s, *e, std::nullopt, person.id});
      ScheduleCheck after = check(model, rules);
      compared +=
          checkNoLessOvertime(before, after, rules, "seed " + std::to_string(seed) + ", " + id);
      before = std::move(after);
    }
  }
  BOOST_TEST(compared > 0u);  // the generated schedules do have overtime
}

BOOST_AUTO_TEST_CASE(a_clean_schedule_stays_clean_when_a_shift_is_removed) {
  for (std::uint64_t seed = 1; seed <= kSeeds; ++seed) {
    atoms::testing::SyntheticSiteSpec spec = specFor(seed);
    spec.noticeDays = 21;
    const RuleBook& rules = rulesFor(seed);
    site::SiteModel model = atoms::testing::syntheticSite(spec);
    // Make it clean: leave open every shift with a finding, until there are none.
    ScheduleCheck c = check(model, rules);
    for (int round = 0; round < 20 && c.findings > 0; ++round) {
      for (const PersonFindings& p : c.people) {
        for (const RuleFindings& r : p.rules) {
          for (const FindingOccurrence& o : r.occurrences) {
            for (site::Shift& s : model.shifts) {
              if (s.id == o.shiftId) s.assignee.reset();
            }
          }
        }
      }
      c = check(model, rules);
    }
    BOOST_TEST_REQUIRE(c.findings == 0u, "seed " << seed << " did not become clean");
    // Most of the schedule survives: the property is about a real schedule, not an empty one.
    BOOST_TEST_REQUIRE(c.assignedShifts * 2 > assigned(atoms::testing::syntheticSite(spec)).size());

    Picker pick(seed + 200);
    for (int round = 0; round < 8 && !model.shifts.empty(); ++round) {
      const std::size_t index = pick.below(model.shifts.size());
      const std::string id = model.shifts[index].id;
      removeShift(model, index);
      const ScheduleCheck after = check(model, rules);
      BOOST_TEST(after.findings == 0u, "seed " << seed << ": removing " << id << " gave "
                                               << after.findings << " findings");
    }
  }
}

BOOST_AUTO_TEST_CASE(the_schedule_premium_is_the_sum_of_the_people_and_of_the_verdicts) {
  for (std::uint64_t seed = 1; seed <= kSeeds; ++seed) {
    const RuleBook& rules = rulesFor(seed);
    site::SiteModel model = atoms::testing::syntheticSite(specFor(seed));
    model.scheduleVersions.clear();  // the engine's verdicts alone, below
    const ScheduleCheck c = check(model, rules);
    std::int64_t people = 0;
    for (const PersonFindings& p : c.people) people += p.premiumCents;
    BOOST_TEST(c.premiumCents == people, "seed " << seed);

    // Independently: every assigned shift against its person's earlier shifts.
    auto ctx = LaborContext::build(model, rules);
    BOOST_TEST_REQUIRE(ctx.ok(), ctx.message());
    std::int64_t verdicts = 0;
    for (const site::Shift& s : model.shifts) {
      if (!s.assignee) continue;
      auto v = ctx->evaluate(*s.assignee, s.id, Scope::kEarlierShifts);
      BOOST_TEST_REQUIRE(v.ok(), v.message());
      verdicts += v->premiumCents;
    }
    BOOST_TEST(c.premiumCents == verdicts, "seed " << seed);
  }
}

BOOST_AUTO_TEST_CASE(an_evaluation_does_not_depend_on_other_peoples_shifts) {
  for (std::uint64_t seed = 1; seed <= kSeeds; ++seed) {
    const RuleBook& rules = rulesFor(seed);
    const site::SiteModel full = atoms::testing::syntheticSite(specFor(seed));
    auto fullCtx = LaborContext::build(full, rules);
    BOOST_TEST_REQUIRE(fullCtx.ok(), fullCtx.message());
    Picker pick(seed + 300);
    for (int round = 0; round < 5; ++round) {
      const site::Person& person = full.people[pick.below(full.people.size())];
      // The same site with only this person's shifts.
      site::SiteModel alone = full;
      alone.shifts.erase(
          std::remove_if(alone.shifts.begin(), alone.shifts.end(),
                         [&](const site::Shift& s) { return s.assignee != person.id; }),
          alone.shifts.end());
      alone.scheduleVersions.clear();
      auto aloneCtx = LaborContext::build(alone, rules);
      BOOST_TEST_REQUIRE(aloneCtx.ok(), aloneCtx.message());
      // Candidates: the person's own shifts and a few of anyone's, in both scopes.
      std::vector<const site::Shift*> candidates;
      for (const site::Shift& s : full.shifts) {
        if (s.assignee == person.id) candidates.push_back(&s);
      }
      for (int k = 0; k < 6; ++k)
        candidates.push_back(&full.shifts[pick.below(full.shifts.size())]);
      for (const site::Shift* s : candidates) {
        for (Scope scope : {Scope::kAllShifts, Scope::kEarlierShifts}) {
          auto a = fullCtx->evaluate(person.id, *s, scope);
          auto b = aloneCtx->evaluate(person.id, *s, scope);
          BOOST_TEST_REQUIRE(a.ok(), a.message());
          BOOST_TEST_REQUIRE(b.ok(), b.message());
          requireSameVerdict(*a, *b,
                             "seed " + std::to_string(seed) + " " + person.id + " takes " + s->id);
        }
      }
    }
  }
}

BOOST_AUTO_TEST_CASE(the_generator_is_deterministic_and_its_sites_are_valid) {
  for (std::uint64_t seed = 1; seed <= 4; ++seed) {
    const site::SiteModel a = atoms::testing::syntheticSite(specFor(seed));
    BOOST_TEST((a == atoms::testing::syntheticSite(specFor(seed))));
    BOOST_TEST(site::validateSiteModel(a).ok(), site::validateSiteModel(a).message());
    BOOST_TEST(!(a == atoms::testing::syntheticSite(specFor(seed + 1))));
    std::size_t minors = 0;
    for (const site::Person& p : a.people) minors += p.minor ? 1 : 0;
    BOOST_TEST(minors >= 1u);
    BOOST_TEST(a.scheduleVersions.size() == 2u);
  }
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace atoms::labor
