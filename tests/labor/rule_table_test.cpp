// The loader's checks on bad tables: each failure is an error value naming what is wrong, where.
#include "domain/labor/rule_table.h"

#include <boost/test/unit_test.hpp>
#include <string>
#include <vector>

#include "tests/support/temp_dir.h"
#include "tests/support/text_checks.h"

namespace {

using atoms::labor::Date;
using atoms::labor::loadRuleBook;
using atoms::labor::parseDate;
using atoms::testing::TempDir;

const std::string kWeekly =
    R"({"id":"US-OT-WEEKLY","kind":"weekly_overtime","summary":"over 40 h",)"
    R"("params":{"thresholdMinutes":2400,"multiplier":"1.5"},"effectiveFrom":"2000-01-01",)"
    R"("source":{"title":"FLSA","url":"https://www.dol.gov/x","section":"207"}})";

std::string file(const std::string& code, const std::string& parent, const std::string& rules) {
  return R"({"code":")" + code + R"(","name":")" + code + R"(","parent":)" + parent +
         R"(,"rules":[)" + rules + "]}";
}

// A rule of `kind` with `params`, otherwise valid.
std::string rule(const std::string& id, const std::string& kind, const std::string& params,
                 const std::string& from = "2020-01-01", const std::string& to = "") {
  std::string r = R"({"id":")" + id + R"(","kind":")" + kind + R"(","summary":"s","params":)" +
                  params + R"(,"effectiveFrom":")" + from + "\"";
  if (!to.empty()) r += R"(,"effectiveTo":")" + to + "\"";
  return r + R"(,"source":{"title":"t","url":"https://example.org/law","section":"1"}})";
}

using atoms::testing::contains;

}  // namespace

BOOST_AUTO_TEST_SUITE(rule_table)

BOOST_AUTO_TEST_CASE(validMinimalTablesCompose) {
  TempDir dir;
  dir.write("us.json", file("us", "null", kWeekly));
  dir.write("us-xx.json", file("us-xx", "\"us\"",
                               rule("XX-NOTICE-14D", "advance_notice",
                                    R"({"days":14,"measuredTo":"first_day_of_schedule"})")));
  auto book = loadRuleBook(dir.path(), {"us-xx"});
  BOOST_TEST_REQUIRE(book.ok(), book.message());
  BOOST_TEST(book->rules().size() == 2u);
  BOOST_TEST(book->rulesOfKind(atoms::labor::RuleKind::kAdvanceNotice).front()->integer("days") ==
             14);
}

// A station rule must name a tag a site file can carry (domain/site/station_tag.h), or it would
// never apply; the grace period is a count of days.
BOOST_AUTO_TEST_CASE(stationRulesNeedAKnownTag) {
  struct Case {
    std::string kind, params, error;
  };
  const std::vector<Case> cases{
      {"station_min_age", R"({"stationTag":"alchohol_service","minAge":21})",
       "us.json: rule XX-STATION: parameter \"params.stationTag\" must be a known station tag "
       "(alcohol_service, bartending"},
      {"station_min_age", R"({"stationTag":"Alcohol Service","minAge":21})",
       "must be a known station tag"},
      {"station_min_age", R"({"stationTag":"alcohol_service"})",
       "missing parameter \"params.minAge\""},
      {"station_certification",
       R"({"stationTag":"food_handling","certification":"x","graceDaysAfterHire":-1})",
       "parameter \"params.graceDaysAfterHire\" must be a non-negative integer"},
      {"station_certification", R"({"stationTag":"food_handling"})",
       "missing parameter \"params.certification\""},
  };
  for (const Case& c : cases) {
    TempDir dir;
    dir.write("us.json", file("us", "null", rule("XX-STATION", c.kind, c.params)));
    auto book = loadRuleBook(dir.path(), {"us"});
    BOOST_TEST_REQUIRE(!book.ok(), c.params);
    BOOST_TEST(contains(book.message(), c.error), book.message());
  }
  TempDir dir;
  dir.write(
      "us.json",
      file("us", "null",
           rule("XX-STATION", "station_certification",
                R"({"stationTag":"food_handling","certification":"x","graceDaysAfterHire":30})")));
  auto book = loadRuleBook(dir.path(), {"us"});
  BOOST_TEST_REQUIRE(book.ok(), book.message());
  BOOST_TEST(book->rules().front().integer("graceDaysAfterHire") == 30);
}

BOOST_AUTO_TEST_CASE(unknownJurisdictionIsNamedWithTheKnownOnes) {
  TempDir dir;
  dir.write("us.json", file("us", "null", kWeekly));
  dir.write("us-ca.json", file("us-ca", "\"us\"", ""));
  auto book = loadRuleBook(dir.path(), {"us-tx"});
  BOOST_TEST_REQUIRE(!book.ok());
  BOOST_TEST(contains(book.message(), "unknown jurisdiction \"us-tx\""), book.message());
  BOOST_TEST(contains(book.message(), "known: us, us-ca"), book.message());
}

BOOST_AUTO_TEST_CASE(overlappingVersionsNameTheIdAndBothRanges) {
  TempDir dir;
  const std::string v1 =
      rule("XX-NOTICE", "advance_notice", R"({"days":7,"measuredTo":"first_day_of_schedule"})",
           "2018-07-01", "2020-07-01");
  const std::string v2 = rule("XX-NOTICE", "advance_notice",
                              R"({"days":14,"measuredTo":"first_day_of_schedule"})", "2020-07-01");
  dir.write("us.json", file("us", "null", v1 + "," + v2));
  auto book = loadRuleBook(dir.path(), {"us"});
  BOOST_TEST_REQUIRE(!book.ok());
  BOOST_TEST(contains(book.message(), "us.json: rule XX-NOTICE"), book.message());
  BOOST_TEST(contains(book.message(), "2018-07-01..2020-07-01"), book.message());
  BOOST_TEST(contains(book.message(), "2020-07-01..open"), book.message());
}

BOOST_AUTO_TEST_CASE(adjacentVersionsDoNotOverlap) {
  TempDir dir;
  const std::string v1 =
      rule("XX-NOTICE", "advance_notice", R"({"days":7,"measuredTo":"first_day_of_schedule"})",
           "2018-07-01", "2020-06-30");
  const std::string v2 = rule("XX-NOTICE", "advance_notice",
                              R"({"days":14,"measuredTo":"first_day_of_schedule"})", "2020-07-01");
  dir.write("us.json", file("us", "null", v1 + "," + v2));
  auto book = loadRuleBook(dir.path(), {"us"}, Date{2020, 6, 30});
  BOOST_TEST_REQUIRE(book.ok(), book.message());
  BOOST_TEST_REQUIRE(book->rules().size() == 1u);
  BOOST_TEST(book->rules().front().integer("days") == 7);
}

BOOST_AUTO_TEST_CASE(unknownKindIsNamed) {
  TempDir dir;
  dir.write("us.json", file("us", "null", rule("XX-BONUS", "holiday_bonus", "{}")));
  auto book = loadRuleBook(dir.path(), {"us"});
  BOOST_TEST_REQUIRE(!book.ok());
  BOOST_TEST(contains(book.message(), "us.json: rule XX-BONUS: unknown kind \"holiday_bonus\""),
             book.message());
}

BOOST_AUTO_TEST_CASE(missingParameterNamesFileRuleAndField) {
  TempDir dir;
  dir.write("us.json",
            file("us", "null", rule("XX-OT-DAILY", "daily_overtime", R"({"multiplier":"1.5"})")));
  auto book = loadRuleBook(dir.path(), {"us"});
  BOOST_TEST_REQUIRE(!book.ok());
  BOOST_TEST(contains(book.message(),
                      "us.json: rule XX-OT-DAILY: missing parameter \"params.thresholdMinutes\""),
             book.message());
}

BOOST_AUTO_TEST_CASE(badlyTypedParametersAreRejected) {
  struct Case {
    std::string kind, params, field;
  };
  const Case cases[] = {
      {"daily_overtime", R"({"thresholdMinutes":"480","multiplier":"1.5"})",
       "\"params.thresholdMinutes\" must be a non-negative integer"},
      {"daily_overtime", R"({"thresholdMinutes":480,"multiplier":"1,5"})",
       "\"params.multiplier\" must be a decimal string"},
      {"min_rest_between_shifts",
       R"({"minRestMinutes":600,"consentRequired":"yes","restFrom":"last_shift"})",
       "\"params.consentRequired\" must be a boolean"},
      {"min_rest_between_shifts", R"({"minRestMinutes":600,"consentRequired":true})",
       "missing parameter \"params.restFrom\""},
      {"min_rest_between_shifts",
       R"({"minRestMinutes":600,"consentRequired":true,"restFrom":"previous_shift"})",
       "\"params.restFrom\" must be one of \"previous_calendar_day\", \"last_shift\""},
      {"min_rest_between_shifts",
       R"({"minRestMinutes":600,"consentRequired":true,"restFrom":"last_shift","premiumOn":"all"})",
       "\"params.premiumOn\" must be one of \"hours_inside_rest\", \"whole_shift\""},
      {"minor_hours", R"({"minAge":14,"maxAge":15,"windowStart":"7:00","windowEnd":"19:00"})",
       "\"params.windowStart\" must be a time"},
      {"minor_hours",
       R"({"minAge":14,"maxAge":15,"windowStart":"07:00","windowEnd":"19:00",)"
       R"("notDuringSchoolHours":"yes"})",
       "\"params.notDuringSchoolHours\" must be a boolean"},
      {"minor_hours",
       R"({"minAge":14,"maxAge":15,"windowStart":"07:00","windowEnd":"19:00",)"
       R"("maxDaysPerWeek":"6"})",
       "\"params.maxDaysPerWeek\" must be a non-negative integer"},
      {"minor_hours",
       R"({"minAge":16,"maxAge":17,"windowStart":"06:00","windowEnd":"22:00",)"
       R"("nonSchoolWeekWindowEnd":"24:00"})",
       "\"params.nonSchoolWeekWindowEnd\" must be a time"},
      {"min_rest_between_shifts",
       R"({"minRestMinutes":600,"consentRequired":true,"restFrom":"last_shift",)"
       R"("premium":{"unit":"cents","amount":"100"}})",
       "\"params.premium.amount\" must be a positive integer (cents)"},
      {"change_premium",
       R"({"cases":[{"change":"swapped","noticeLessThanHours":24,"pay":{"unit":"cents","amount":1}}]})",
       "\"params.cases[0].change\" has unknown value \"swapped\""},
      {"change_premium",
       R"({"cases":[{"change":"added_hours","pay":{"unit":"hours_of_pay","amount":"1"}}]})",
       "missing field \"params.cases[0].noticeLessThanHours\""},
      {"advance_notice", R"({"days":14,"measuredTo":"each_shift","hours":3})",
       "unknown parameter \"params.hours\""},
      {"advance_notice", R"({"days":14})", "missing parameter \"params.measuredTo\""},
  };
  for (const Case& c : cases) {
    TempDir dir;
    dir.write("us.json", file("us", "null", rule("XX-RULE", c.kind, c.params)));
    auto book = loadRuleBook(dir.path(), {"us"});
    BOOST_TEST_REQUIRE(!book.ok(), c.params);
    BOOST_TEST(contains(book.message(), "us.json: rule XX-RULE: "), book.message());
    BOOST_TEST(contains(book.message(), c.field), book.message());
  }
}

BOOST_AUTO_TEST_CASE(parentCycleIsNamed) {
  TempDir dir;
  dir.write("us.json", file("us", "null", ""));
  dir.write("aa.json", file("aa", "\"bb\"", ""));
  dir.write("bb.json", file("bb", "\"aa\"", ""));
  auto book = loadRuleBook(dir.path(), {"us"});
  BOOST_TEST_REQUIRE(!book.ok());
  BOOST_TEST(contains(book.message(), "jurisdiction parent cycle: aa -> bb -> aa"), book.message());
}

BOOST_AUTO_TEST_CASE(unknownParentIsNamed) {
  TempDir dir;
  dir.write("us-ca-x.json", file("us-ca-x", "\"us-ca\"", ""));
  auto book = loadRuleBook(dir.path(), {"us-ca-x"});
  BOOST_TEST_REQUIRE(!book.ok());
  BOOST_TEST(contains(book.message(), "us-ca-x.json: unknown parent jurisdiction \"us-ca\""),
             book.message());
}

BOOST_AUTO_TEST_CASE(duplicateIdAcrossFilesNamesBothFiles) {
  TempDir dir;
  dir.write("us.json", file("us", "null", kWeekly));
  dir.write("us-ca.json", file("us-ca", "\"us\"", kWeekly));
  auto book = loadRuleBook(dir.path(), {"us-ca"});
  BOOST_TEST_REQUIRE(!book.ok());
  BOOST_TEST(contains(book.message(), "rule id US-OT-WEEKLY is defined in both"), book.message());
  BOOST_TEST(contains(book.message(), "us-ca.json"), book.message());
  BOOST_TEST(contains(book.message(), "us.json"), book.message());
}

BOOST_AUTO_TEST_CASE(fileStructureErrorsAreNamed) {
  struct Case {
    std::string name, text, message;
  };
  const Case cases[] = {
      {"us.json", file("us-ny", "null", ""), "us.json: code \"us-ny\" does not match"},
      {"us.json", "{\"code\":\"us\"", "us.json: invalid JSON"},
      {"us.json",
       file("us", "null",
            rule("lower-case", "advance_notice", R"({"days":1,"measuredTo":"each_shift"})")),
       "rule lower-case: id is not of the stable form"},
      {"us.json",
       file(
           "us", "null",
           rule("XX-N", "advance_notice", R"({"days":1,"measuredTo":"each_shift"})", "2021-02-30")),
       "rule XX-N: field \"effectiveFrom\" must be a date"},
      {"us.json",
       file("us", "null",
            rule("XX-N", "advance_notice", R"({"days":1,"measuredTo":"each_shift"})", "2021-02-01",
                 "2021-01-01")),
       "rule XX-N: field \"effectiveTo\" is before \"effectiveFrom\""},
      {"us.json",
       file(
           "us", "null",
           R"({"id":"XX-N","kind":"advance_notice","summary":"s","params":{"days":1,"measuredTo":"each_shift"},)"
           R"("effectiveFrom":"2020-01-01","source":{"title":"t","section":"1"}})"),
       "rule XX-N: missing field \"source.url\""},
  };
  for (const Case& c : cases) {
    TempDir dir;
    dir.write(c.name, c.text);
    auto book = loadRuleBook(dir.path(), {"us"});
    BOOST_TEST_REQUIRE(!book.ok(), c.text);
    BOOST_TEST(contains(book.message(), c.message), book.message());
  }
}

BOOST_AUTO_TEST_CASE(missingDirectoryIsAnError) {
  TempDir dir;
  auto book = loadRuleBook(dir.file("absent"), {"us"});
  BOOST_TEST_REQUIRE(!book.ok());
  BOOST_TEST(contains(book.message(), "labor rule directory"), book.message());
}

BOOST_AUTO_TEST_CASE(datesAreCalendarDates) {
  BOOST_TEST(parseDate("2024-02-29").has_value());
  BOOST_TEST(!parseDate("2023-02-29").has_value());
  BOOST_TEST(!parseDate("2023-13-01").has_value());
  BOOST_TEST(!parseDate("2023-1-01").has_value());
  BOOST_TEST((parseDate("2023-06-01") < parseDate("2023-06-02")));
}

BOOST_AUTO_TEST_CASE(stableIdsAreUpperCaseDashedWords) {
  BOOST_TEST(atoms::labor::isStableRuleId("CA-OT-DAILY-8"));
  BOOST_TEST(atoms::labor::isStableRuleId("NYC-FWW-NOTICE-14D"));
  BOOST_TEST(!atoms::labor::isStableRuleId("CAOT"));
  BOOST_TEST(!atoms::labor::isStableRuleId("ca-ot"));
  BOOST_TEST(!atoms::labor::isStableRuleId("CA--OT"));
  BOOST_TEST(!atoms::labor::isStableRuleId("CA-OT-"));
  BOOST_TEST(!atoms::labor::isStableRuleId("7-ELEVEN"));
}

BOOST_AUTO_TEST_SUITE_END()
