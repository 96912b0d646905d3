// The rest between shifts ("clopening") as each ordinance counts it (decision 0014): from the
// previous calendar day's shift (a split shift within one day is not covered) or from whatever
// shift came last; and the rate premium on the hours inside the rest or on the whole later shift.
#include <boost/test/unit_test.hpp>
#include <cstdint>
#include <iterator>
#include <string>
#include <vector>

#include "tests/labor/engine_test_site.h"

namespace atoms::labor::testing {

namespace {

struct City {
  const char* zone;
  const char* jurisdiction;
  const char* industry;
  const char* ruleId;
  int restHours;
  const char* restFrom;
  const char* text;  // what the ordinance says about the earlier shift
};

// The cities that count the rest from the previous calendar day's shift.
const City kPreviousDayCities[] = {
    {"America/New_York", "us-ny-nyc", "fast_food", "NYC-FWW-CLOPENING-11H", 11,
     "previous_calendar_day",
     "NYC Admin. Code 20-1231: the first shift closes and the second opens 'the next day'"},
    {"America/Los_Angeles", "us-wa-seattle", "retail", "SEA-SSO-REST-10H", 10,
     "previous_calendar_day", "SMC 14.22 (OLS): 'hours worked between closing and opening shifts'"},
    {"America/Chicago", "us-il-chicago", "retail", "CHI-FWW-REST-10H", 10, "previous_calendar_day",
     "MCC 6-110 (OLS FAQ): 'less than 10 hours following the end of the previous day's shift'"},
    {"America/Los_Angeles", "us-or", "retail", "OR-PS-REST-10H", 10, "previous_calendar_day",
     "OAR 839-026-0040(1)(a), (5): 'the previous calendar day's work shift'; split shifts within "
     "one calendar day are not covered"},
    {"America/New_York", "us-pa-philadelphia", "retail", "PHL-FWW-REST-9H", 9,
     "previous_calendar_day",
     "Phila. Code 9-4604(1)(a): 'less than 9 hours after the end of the previous day's shift'"},
};

// The cities that count it from the last shift, whatever day it was on.
const City kLastShiftCities[] = {
    {"America/Los_Angeles", "us-ca-los-angeles", "retail", "LA-FWW-REST-10H", 10, "last_shift",
     "LAMC 185.08: 'a Shift that starts less than ten hours from the Employee's last Shift'"},
    {"America/Los_Angeles", "us-ca-berkeley", "retail", "BRK-FWW-REST-11H", 11, "last_shift",
     "BMC 13.102.080(a): 'less than 11 hours after the end of the previous shift'"},
};

std::vector<City> everyCity() {
  std::vector<City> all(std::begin(kPreviousDayCities), std::end(kPreviousDayCities));
  all.insert(all.end(), std::begin(kLastShiftCities), std::end(kLastShiftCities));
  return all;
}

TestSite siteIn(const City& c) {
  TestSite s(c.zone, c.jurisdiction);
  s.model.site.industry = c.industry;
  s.person("ren", 2000);
  return s;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(rest_between_shifts)

// A lunch and a dinner shift on the same day, one hour apart: not a rest between shifts where the
// ordinance counts from the previous day's shift; a short rest where it counts from the last one.
BOOST_AUTO_TEST_CASE(a_split_shift_within_a_day_is_short_of_rest_only_from_the_last_shift) {
  for (const City& c : everyCity()) {
    BOOST_TEST_CONTEXT(c.text) {
      const bool previousDay = c.restFrom == std::string("previous_calendar_day");
      TestSite s = siteIn(c);
      s.shift("lunch", at(2026, 10, 7, 10), at(2026, 10, 7, 14), "ren");
      s.shift("dinner", at(2026, 10, 7, 15), at(2026, 10, 7, 21));
      const Verdict v = s.evaluate("ren", "dinner");
      const RuleEvaluation& e = finding(v, c.ruleId);
      BOOST_TEST(textInput(e, "restFrom") == c.restFrom);
      BOOST_TEST((e.result == (previousDay ? EvalResult::kPass : EvalResult::kThresholdExceeded)));
      if (!previousDay) BOOST_TEST(intInput(e, "restMinutes") == 60);
      // Nor, from the previous day, is the lunch shift short of rest before a dinner already on
      // the schedule.
      s.model.shifts.back().assignee = "ren";
      s.model.shifts.front().assignee.reset();
      const Verdict before = s.evaluate("ren", "lunch");
      BOOST_TEST((finding(before, c.ruleId).result ==
                  (previousDay ? EvalResult::kPass : EvalResult::kThresholdExceeded)));
    }
  }
}

// The previous day's closing shift, and one spanning midnight, at the boundary: the minimum rest
// exactly passes, one minute less is a short rest, in every city.
BOOST_AUTO_TEST_CASE(the_previous_days_shift_and_one_spanning_midnight_count_everywhere) {
  struct Earlier {
    int startDay, startHour, endDay, endHour;
  };
  const Earlier earlier[] = {{6, 14, 6, 22}, {6, 18, 7, 1}};  // a close; a shift into the 7th
  {
    for (const City& c : everyCity()) {
      for (const Earlier& w : earlier) {
        for (const int shortBy : {0, 1}) {
          BOOST_TEST_CONTEXT(c.text << "; earlier shift ends on the " << w.endDay << " at "
                                    << w.endHour << ":00; rest short by " << shortBy << " min") {
            TestSite s = siteIn(c);
            s.shift("earlier", at(2026, 10, w.startDay, w.startHour),
                    at(2026, 10, w.endDay, w.endHour), "ren");
            const LocalTime open = at(2026, 10, w.endDay, w.endHour) +
                                   std::chrono::hours{c.restHours} - std::chrono::minutes{shortBy};
            s.shift("open", open, open + std::chrono::hours{4});
            const Verdict v = s.evaluate("ren", "open");
            const RuleEvaluation& e = finding(v, c.ruleId);
            BOOST_TEST(
                (e.result == (shortBy == 0 ? EvalResult::kPass : EvalResult::kThresholdExceeded)));
            BOOST_TEST(intInput(e, "restMinutes") == c.restHours * 60 - shortBy);
          }
        }
      }
    }
  }
}

// LAMC 185.08 pays "time and a half for each Shift not separated by at least ten hours": all
// eight hours of the opening shift, not the two inside the rest. Berkeley (13.102.080(b): "for
// any hours worked less than 11 hours following the end of a previous shift") and Seattle pay on
// the hours inside the rest only.
BOOST_AUTO_TEST_CASE(los_angeles_pays_the_whole_shift_the_others_the_hours_inside_the_rest) {
  struct Case {
    City city;
    int restHours;                // the rest the schedule leaves
    std::int64_t premiumMinutes;  // the hours the premium is counted on
    std::int64_t cents;           // their pay at 1.5 x $20.00/h
    std::int64_t extraCents;      // the 0.5 x above the pay they earn anyway
  };
  const Case cases[] = {
      {kLastShiftCities[0], 8, 8 * 60, 24000, 8000},   // LA: 8 h x $30.00, $10.00 of it extra
      {kLastShiftCities[1], 8, 3 * 60, 9000, 3000},    // Berkeley: 11 h - 8 h = 3 h x $30.00
      {kPreviousDayCities[1], 8, 2 * 60, 6000, 2000},  // Seattle: 10 h - 8 h = 2 h x $30.00
  };
  for (const Case& c : cases) {
    BOOST_TEST_CONTEXT(c.city.text) {
      TestSite s = siteIn(c.city);
      s.shift("close", at(2026, 10, 6, 14), at(2026, 10, 6, 22), "ren");
      s.shift("open", at(2026, 10, 6, 22) + std::chrono::hours{c.restHours},
              at(2026, 10, 6, 22) + std::chrono::hours{c.restHours + 8});
      const Verdict v = s.evaluate("ren", "open");
      const RuleEvaluation& e = finding(v, c.city.ruleId);
      BOOST_TEST((e.result == EvalResult::kThresholdExceeded));
      BOOST_TEST(e.premiumMinutes == c.premiumMinutes);
      BOOST_TEST(e.premiumCents == c.cents);
      BOOST_TEST(e.extraCents == c.extraCents);
    }
  }
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace atoms::labor::testing
