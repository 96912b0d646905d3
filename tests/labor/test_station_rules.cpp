#include <boost/test/unit_test.hpp>
#include <optional>
#include <string>
#include <vector>

#include "tests/labor/engine_test_site.h"
#include "tests/support/temp_dir.h"

// The jurisdictions' station rules, applied through station tags (domain/labor/station_check.cpp):
// station_min_age (US-FLSA-HO10-MEAT-MACHINES, 29 CFR 570.61; US-FLSA-HO2-DRIVING, 29 CFR 570.52;
// CA-ABC-ALCOHOL-SERVICE-18 and CA-ABC-BARTENDING-21, Business and Professions Code 25663) and
// station_certification (CA-HSC-FOOD-HANDLER-CARD, Health and Safety Code 113948(a)), from the
// shipped tables, in America/Los_Angeles.

namespace atoms::labor::testing {

namespace {

// A station `id` with `tags` and nothing of its own (no minimum age, no certification).
void taggedStation(TestSite& s, const std::string& id, std::vector<std::string> tags) {
  site::Station st;
  st.id = id;
  st.name = id;
  st.tags = std::move(tags);
  s.model.stations.push_back(st);
}

struct AgeCase {
  const char* name;
  std::optional<site::Date> birth;
  LocalTime start, end;
  EvalResult result;
  const char* detailHas;  // in the detail when it fails
};

// P (born `birth`) takes one shift at a station tagged `tag`; rule `ruleId` must give `result`.
void checkAgeCases(const std::string& jurisdiction, const std::string& tag,
                   const std::string& ruleId, const std::vector<AgeCase>& cases) {
  for (const AgeCase& c : cases) {
    TestSite s("America/Los_Angeles", jurisdiction);
    taggedStation(s, "tagged", {tag});
    s.person("pat", 2000, c.birth);
    s.shift("s", c.start, c.end, std::nullopt, "tagged");
    const Verdict v = s.evaluate("pat", "s");
    const RuleEvaluation& e = finding(v, ruleId);
    BOOST_TEST(e.result == c.result, c.name << ": " << e.detail);
    BOOST_TEST(textInput(e, "stationTag") == tag, c.name);
    const VerdictKind expected =
        c.result == EvalResult::kFail ? VerdictKind::kDenied : VerdictKind::kAllowed;
    BOOST_TEST(e.effect == expected, c.name);
    BOOST_TEST(v.kind == expected, c.name << ": " << e.detail);
    if (c.result == EvalResult::kFail) {
      BOOST_TEST(e.detail.find(c.detailHas) != std::string::npos, c.name << ": " << e.detail);
    }
  }
}

}  // namespace

BOOST_AUTO_TEST_SUITE(station_rules)

// US-FLSA-HO10-MEAT-MACHINES (29 CFR 570.61, Hazardous Occupations Order No. 10): 18 on the local
// day the shift starts. Born 2008-03-10: 18 on Tuesday 2026-03-10, 17 the day before.
BOOST_AUTO_TEST_CASE(federal_meat_machine_age_is_eighteen_on_the_first_day) {
  checkAgeCases(
      "us", "power_driven_meat_machine", "US-FLSA-HO10-MEAT-MACHINES",
      {
          {"18th birthday is the shift day", date(2008, 3, 10), at(2026, 3, 10, 9),
           at(2026, 3, 10, 15), EvalResult::kPass, ""},
          {"the day before the 18th birthday", date(2008, 3, 10), at(2026, 3, 9, 9),
           at(2026, 3, 9, 15), EvalResult::kFail, "pat is 17 on 2026-03-09"},
          {"night shift into the 18th birthday counts its first day", date(2008, 3, 10),
           at(2026, 3, 9, 22), at(2026, 3, 10, 4), EvalResult::kFail, "needs someone 18 or older"},
          {"born on 2008-03-11, shift on 2026-03-10", date(2008, 3, 11), at(2026, 3, 10, 9),
           at(2026, 3, 10, 15), EvalResult::kFail, "pat is 17"},
          {"no birth date", std::nullopt, at(2026, 3, 10, 9), at(2026, 3, 10, 15),
           EvalResult::kFail, "has no birth date on file"},
          {"an adult", date(1990, 1, 1), at(2026, 3, 10, 9), at(2026, 3, 10, 15), EvalResult::kPass,
           ""},
      });
}

// US-FLSA-HO2-DRIVING (29 CFR 570.52(a), (b)): a station whose work is driving needs 18; the
// 17-year-olds' exemption is for occasional, incidental driving only.
BOOST_AUTO_TEST_CASE(federal_driving_station_needs_eighteen) {
  checkAgeCases("us", "motor_vehicle_driving", "US-FLSA-HO2-DRIVING",
                {
                    {"17 years old", date(2008, 6, 1), at(2026, 3, 10, 11), at(2026, 3, 10, 15),
                     EvalResult::kFail, "pat is 17"},
                    {"18 years old", date(2008, 3, 1), at(2026, 3, 10, 11), at(2026, 3, 10, 15),
                     EvalResult::kPass, ""},
                });
}

// CA-ABC-ALCOHOL-SERVICE-18 and CA-ABC-BARTENDING-21 (B&P 25663): a 19-year-old may serve wine
// in the dining room, not work the bar.
BOOST_AUTO_TEST_CASE(california_alcohol_service_eighteen_bartending_twenty_one) {
  checkAgeCases("us-ca", "alcohol_service", "CA-ABC-ALCOHOL-SERVICE-18",
                {
                    {"19 serves in the dining room", date(2007, 1, 1), at(2026, 3, 10, 17),
                     at(2026, 3, 10, 22), EvalResult::kPass, ""},
                    {"17 may not", date(2008, 12, 1), at(2026, 3, 10, 17), at(2026, 3, 10, 21),
                     EvalResult::kFail, "needs someone 18 or older"},
                });
  checkAgeCases("us-ca", "bartending", "CA-ABC-BARTENDING-21",
                {
                    {"19 at the bar", date(2007, 1, 1), at(2026, 3, 10, 17), at(2026, 3, 10, 22),
                     EvalResult::kFail, "needs someone 21 or older"},
                    {"21st birthday", date(2005, 3, 10), at(2026, 3, 10, 17), at(2026, 3, 10, 22),
                     EvalResult::kPass, ""},
                });
}

// A station without the rule's tag: every tag rule is n/a, nothing is denied, even for a
// 15-year-old with no station rules to meet.
BOOST_AUTO_TEST_CASE(a_station_without_the_tag_is_not_applicable) {
  TestSite s("America/Los_Angeles", "us-ca");
  taggedStation(s, "counter", {});
  s.person("pat", 2000, date(2010, 6, 1));
  s.shift("s", at(2026, 3, 14, 9), at(2026, 3, 14, 13), std::nullopt, "counter");
  const Verdict v = s.evaluate("pat", "s");
  for (const char* id :
       {"US-FLSA-HO10-MEAT-MACHINES", "US-FLSA-HO2-DRIVING", "CA-ABC-ALCOHOL-SERVICE-18",
        "CA-ABC-BARTENDING-21", "CA-HSC-FOOD-HANDLER-CARD"}) {
    BOOST_TEST(finding(v, id).result == EvalResult::kNotApplicable, id);
  }
  BOOST_TEST(v.kind == VerdictKind::kAllowed);
}

// Every rule of every tag the station carries is evaluated on its own; the strictest denies and
// the site's own minimum age is still checked beside them.
BOOST_AUTO_TEST_CASE(tag_rules_and_the_sites_own_age_are_each_reported) {
  TestSite s("America/Los_Angeles", "us-ca");
  taggedStation(s, "lounge", {"alcohol_service", "bartending"});
  s.model.stations.back().minimumAge = 20;
  s.person("pat", 2000, date(2006, 1, 1));  // 20 in March 2026
  s.shift("s", at(2026, 3, 10, 17), at(2026, 3, 10, 22), std::nullopt, "lounge");
  const Verdict v = s.evaluate("pat", "s");
  BOOST_TEST(finding(v, "CA-ABC-ALCOHOL-SERVICE-18").result == EvalResult::kPass);
  BOOST_TEST(finding(v, "CA-ABC-BARTENDING-21").result == EvalResult::kFail);
  BOOST_TEST(finding(v, std::string(kRuleStationAge)).result == EvalResult::kPass);
  BOOST_TEST(intInput(finding(v, "CA-ABC-BARTENDING-21"), "age") == 20);
  BOOST_TEST(v.kind == VerdictKind::kDenied);
}

struct CardCase {
  const char* name;
  std::optional<site::Date> expires;  // of the card; none with hasCard: does not expire
  bool hasCard;
  std::optional<site::Date> hireDate;
  EvalResult result;
  const char* detailHas;
};

// CA-HSC-FOOD-HANDLER-CARD (Health and Safety Code 113948(a)(1)-(2)): a card valid through the
// shift's last local day, or a new hire within 30 days after the date of hire. The shift runs
// overnight, Tuesday 2026-03-10 22:00 to Wednesday 03-11 02:00, so its last day is 03-11.
BOOST_AUTO_TEST_CASE(california_food_handler_card_through_the_last_day) {
  const std::vector<CardCase> cases{
      {"expires on the last day", date(2026, 3, 11), true, std::nullopt, EvalResult::kPass, ""},
      {"expires the day before the last day", date(2026, 3, 10), true, std::nullopt,
       EvalResult::kFail, "expired on 2026-03-10, before the shift ends on 2026-03-11"},
      {"does not expire", std::nullopt, true, std::nullopt, EvalResult::kPass, ""},
      {"no card and no hire date", std::nullopt, false, std::nullopt, EvalResult::kFail,
       "add pat's hire date"},
      {"no card, hired 30 days before the last day", std::nullopt, false, date(2026, 2, 9),
       EvalResult::kPass, "has until 2026-03-11"},
      {"no card, hired 31 days before the last day", std::nullopt, false, date(2026, 2, 8),
       EvalResult::kFail, "the 30 days after hire ended on 2026-03-10"},
      {"expired card, hired last week", date(2026, 1, 31), true, date(2026, 3, 3),
       EvalResult::kPass, "has until 2026-04-02"},
  };
  for (const CardCase& c : cases) {
    TestSite s("America/Los_Angeles", "us-ca");
    s.model.certifications.push_back({"ca_food_handler_card", "California Food Handler Card"});
    taggedStation(s, "line", {"food_handling"});
    site::Person& p = s.person("pat");
    if (c.hasCard) p.certifications.push_back({"ca_food_handler_card", c.expires});
    p.hireDate = c.hireDate;
    s.shift("s", at(2026, 3, 10, 22), at(2026, 3, 11, 2), std::nullopt, "line");
    const Verdict v = s.evaluate("pat", "s");
    const RuleEvaluation& e = finding(v, "CA-HSC-FOOD-HANDLER-CARD");
    BOOST_TEST(e.result == c.result, c.name << ": " << e.detail);
    BOOST_TEST(textInput(e, "certification") == "ca_food_handler_card", c.name);
    BOOST_TEST(e.detail.find(c.detailHas) != std::string::npos, c.name << ": " << e.detail);
    const VerdictKind expected =
        c.result == EvalResult::kFail ? VerdictKind::kDenied : VerdictKind::kAllowed;
    BOOST_TEST(v.kind == expected, c.name << ": " << e.detail);
  }
}

// The table names the certification by its conventional id; a site's card recorded under another
// id does not count (docs/site-file.md: the certification id must be ca_food_handler_card).
BOOST_AUTO_TEST_CASE(a_card_under_another_id_does_not_count) {
  TestSite s("America/Los_Angeles", "us-ca");
  taggedStation(s, "line", {"food_handling"});
  s.person("pat").certifications.push_back({"food-handler", date(2028, 1, 1)});
  s.shift("s", at(2026, 3, 10, 10), at(2026, 3, 10, 16), std::nullopt, "line");
  const Verdict v = s.evaluate("pat", "s");
  const RuleEvaluation& e = finding(v, "CA-HSC-FOOD-HANDLER-CARD");
  BOOST_TEST(e.result == EvalResult::kFail);
  BOOST_TEST(e.detail.find("pat holds no ca_food_handler_card") != std::string::npos, e.detail);
}

// A rule is evaluated from its effectiveFrom on (the shift's local start date decides); before
// that it is not in force and no finding cites it.
BOOST_AUTO_TEST_CASE(a_rule_not_yet_in_force_does_not_apply) {
  atoms::testing::TempDir dir;
  dir.write("us.json",
            R"({"code":"us","name":"US","parent":null,"rules":[{"id":"XX-STATION-AGE-21",)"
            R"("kind":"station_min_age","summary":"s","params":{"stationTag":"alcohol_service",)"
            R"("minAge":21},"effectiveFrom":"2026-03-11","source":{"title":"t",)"
            R"("url":"https://example.org/law","section":"1"}}]})");
  for (const auto& [day, applies] :
       std::vector<std::pair<unsigned, bool>>{{10, false}, {11, true}}) {
    TestSite s("America/Los_Angeles", "us", dir.path());
    taggedStation(s, "dining", {"alcohol_service"});
    s.person("pat", 2000, date(2006, 1, 1));  // 20
    // Starts at 23:00 local the day before the rule; ends after midnight on its first day.
    s.shift("s", at(2026, 3, day, 23), at(2026, 3, day + 1, 3), std::nullopt, "dining");
    const Verdict v = s.evaluate("pat", "s");
    const RuleEvaluation* e = v.find("XX-STATION-AGE-21");
    if (applies) {
      BOOST_TEST_REQUIRE(e != nullptr);
      BOOST_TEST(e->result == EvalResult::kFail);
      BOOST_TEST(v.kind == VerdictKind::kDenied);
    } else {
      BOOST_TEST(e == nullptr);
      BOOST_TEST(v.kind == VerdictKind::kAllowed);
    }
  }
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace atoms::labor::testing
