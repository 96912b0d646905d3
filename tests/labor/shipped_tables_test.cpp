// The tables shipped in etc/labor/: every file loads, composition follows the parent chain, the
// values the engine will rely on read back typed, and every rule cites a public source.
#include <algorithm>
#include <boost/test/unit_test.hpp>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "domain/labor/rule_table.h"
#include "domain/site/station_tag.h"
#include "tests/support/build_paths.h"

namespace {

using atoms::labor::ChangeType;
using atoms::labor::Date;
using atoms::labor::loadRuleBook;
using atoms::labor::PayUnit;
using atoms::labor::Rule;
using atoms::labor::RuleKind;

const std::string kDir = atoms::testing::sourceDir() + "/etc/labor";

std::vector<std::string> shippedCodes() {
  std::vector<std::string> codes;
  for (const auto& e : std::filesystem::directory_iterator(kDir))
    if (e.path().extension() == ".json") codes.push_back(e.path().stem().string());
  std::sort(codes.begin(), codes.end());
  return codes;
}

std::set<std::string> idsOf(const std::vector<const Rule*>& rules) {
  std::set<std::string> ids;
  for (const Rule* r : rules) ids.insert(r->id);
  return ids;
}

const Rule& only(const atoms::labor::RuleBook& book, const std::string& id) {
  auto v = book.versionsOf(id);
  BOOST_TEST_REQUIRE(v.size() == 1u, id << " has " << v.size() << " versions");
  return *v.front();
}

}  // namespace

BOOST_AUTO_TEST_SUITE(shipped_tables)

BOOST_AUTO_TEST_CASE(everyShippedJurisdictionLoadsWithItsAncestors) {
  const auto codes = shippedCodes();
  BOOST_TEST_REQUIRE(codes.size() >= 12u);
  for (const std::string& code : codes) {
    auto book = loadRuleBook(kDir, {code});
    BOOST_TEST_REQUIRE(book.ok(), code << ": " << book.message());
    BOOST_TEST(book->jurisdictions().front().code == "us");
    BOOST_TEST(book->jurisdictions().back().code == code);
  }
}

BOOST_AUTO_TEST_CASE(everyRuleHasAStableIdAndAPublicSource) {
  std::vector<std::string> codes = shippedCodes();
  auto book = loadRuleBook(kDir, codes);
  BOOST_TEST_REQUIRE(book.ok(), book.message());
  BOOST_TEST(book->jurisdictions().size() == codes.size());
  BOOST_TEST_REQUIRE(!book->rules().empty());
  for (const Rule& r : book->rules()) {
    BOOST_TEST(atoms::labor::isStableRuleId(r.id), r.id);
    BOOST_TEST(r.source.url.rfind("http", 0) == 0u, r.id << " url " << r.source.url);
    BOOST_TEST(!r.source.title.empty(), r.id);
    BOOST_TEST(!r.source.section.empty(), r.id);
    BOOST_TEST(!r.summary.empty(), r.id);
  }
}

BOOST_AUTO_TEST_CASE(sanFranciscoComposesFederalStateAndCityRules) {
  auto book = loadRuleBook(kDir, {"us-ca-san-francisco"});
  BOOST_TEST_REQUIRE(book.ok(), book.message());
  std::vector<std::string> chain;
  for (const auto& j : book->jurisdictions()) chain.push_back(j.code);
  BOOST_TEST(chain == (std::vector<std::string>{"us", "us-ca", "us-ca-san-francisco"}),
             boost::test_tools::per_element());

  std::vector<const Rule*> all;
  for (const Rule& r : book->rules()) all.push_back(&r);
  const std::set<std::string> expected{"US-FLSA-OT-WEEKLY",
                                       "US-FLSA-MINOR-14-15-HOURS",
                                       "US-FLSA-HO10-MEAT-MACHINES",
                                       "US-FLSA-HO2-DRIVING",
                                       "CA-OT-DAILY-8",
                                       "CA-OT-WEEKLY-40",
                                       "CA-DT-DAILY-12",
                                       "CA-7TH-DAY-FIRST-8",
                                       "CA-7TH-DAY-OVER-8",
                                       "CA-MEAL-1",
                                       "CA-MEAL-2",
                                       "CA-REST-10-PER-4",
                                       "CA-MINOR-14-15-HOURS",
                                       "CA-MINOR-16-17-HOURS",
                                       "CA-ABC-ALCOHOL-SERVICE-18",
                                       "CA-ABC-BARTENDING-21",
                                       "CA-HSC-FOOD-HANDLER-CARD",
                                       "SF-FRERO-NOTICE-14D",
                                       "SF-FRERO-PREDICTABILITY-PAY"};
  BOOST_TEST(idsOf(all) == expected);

  // Both weekly overtime rules reach the engine, each tagged with where it comes from.
  auto weekly = book->rulesOfKind(RuleKind::kWeeklyOvertime);
  BOOST_TEST_REQUIRE(weekly.size() == 2u);
  BOOST_TEST(weekly[0]->jurisdiction == "us");
  BOOST_TEST(weekly[1]->jurisdiction == "us-ca");
  auto minors = book->rulesOfKind(RuleKind::kMinorHours);
  BOOST_TEST(idsOf(minors) ==
             (std::set<std::string>{"US-FLSA-MINOR-14-15-HOURS", "CA-MINOR-14-15-HOURS",
                                    "CA-MINOR-16-17-HOURS"}));
}

BOOST_AUTO_TEST_CASE(siblingCitiesDoNotLeakIntoEachOther) {
  auto book = loadRuleBook(kDir, {"us-wa-seattle"});
  BOOST_TEST_REQUIRE(book.ok(), book.message());
  for (const Rule& r : book->rules())
    BOOST_TEST(
        (r.jurisdiction == "us" || r.jurisdiction == "us-wa" || r.jurisdiction == "us-wa-seattle"),
        r.id << " from " << r.jurisdiction);
  BOOST_TEST(book->rulesOfKind(RuleKind::kDailyOvertime).empty());
}

BOOST_AUTO_TEST_CASE(asOfPicksTheVersionInForce) {
  auto early = loadRuleBook(kDir, {"us-il-chicago"}, Date{2021, 1, 1});
  auto late = loadRuleBook(kDir, {"us-il-chicago"}, Date{2022, 7, 1});
  auto before = loadRuleBook(kDir, {"us-il-chicago"}, Date{2020, 6, 30});
  auto all = loadRuleBook(kDir, {"us-il-chicago"});
  BOOST_TEST_REQUIRE((early.ok() && late.ok() && before.ok() && all.ok()));
  BOOST_TEST(only(*early, "CHI-FWW-NOTICE").integer("days") == 10);
  BOOST_TEST(only(*late, "CHI-FWW-NOTICE").integer("days") == 14);
  BOOST_TEST(before->versionsOf("CHI-FWW-NOTICE").empty());
  BOOST_TEST(all->versionsOf("CHI-FWW-NOTICE").size() == 2u);
}

BOOST_AUTO_TEST_CASE(federalChildLaborParametersReadBackTyped) {
  auto book = loadRuleBook(kDir, {"us"});
  BOOST_TEST_REQUIRE(book.ok(), book.message());
  const Rule& r = only(*book, "US-FLSA-MINOR-14-15-HOURS");
  BOOST_TEST(r.integer("minAge") == 14);
  BOOST_TEST(r.integer("maxAge") == 15);
  BOOST_TEST(r.integer("schoolDayMaxMinutes") == 3 * 60);
  BOOST_TEST(r.integer("schoolWeekMaxMinutes") == 18 * 60);
  BOOST_TEST(r.integer("nonSchoolDayMaxMinutes") == 8 * 60);
  BOOST_TEST(r.integer("nonSchoolWeekMaxMinutes") == 40 * 60);
  BOOST_TEST(r.text("windowStart") == "07:00");
  BOOST_TEST(r.text("windowEnd") == "19:00");
  BOOST_TEST(r.text("summerWindowEnd") == "21:00");
  BOOST_TEST(r.text("summerFrom") == "06-01");
  BOOST_TEST(r.text("summerTo") == "labor_day");
}

// New York's minors' rules (Labor Law 142, 143) read back typed, with the limits added for them:
// days a week, a day before a school day, a later end in a week without school.
BOOST_AUTO_TEST_CASE(newYorkMinorsParametersReadBackTyped) {
  auto book = loadRuleBook(kDir, {"us-ny"}, Date{2027, 1, 4});
  BOOST_TEST_REQUIRE(book.ok(), book.message());
  const Rule& young = only(*book, "NY-MINOR-14-15-HOURS");
  BOOST_TEST(young.integer("schoolDayMaxMinutes") == 3 * 60);
  BOOST_TEST(young.integer("schoolWeekMaxMinutes") == 18 * 60);
  BOOST_TEST(young.integer("maxDaysPerWeek") == 6);
  BOOST_TEST(young.text("summerFrom") == "06-21");
  BOOST_TEST(young.flag("summerInNonSchoolWeeksOnly"));
  BOOST_TEST(young.flag("notDuringSchoolHours"));
  const Rule& old = only(*book, "NY-MINOR-16-17-HOURS");
  BOOST_TEST(old.integer("beforeSchoolDayMaxMinutes") == 4 * 60);
  BOOST_TEST(old.integer("schoolWeekMaxMinutes") == 28 * 60);
  BOOST_TEST(old.integer("maxDaysPerWeek") == 6);
  BOOST_TEST(old.text("windowEnd") == "22:00");
  BOOST_TEST(old.text("nonSchoolWeekWindowEnd") == "00:00");
}

// Station rules: ages and certifications per station tag, every tag one a site file can carry.
// 29 CFR 570.61 (HO 10) and 570.52 (HO 2); B&P 25663; Health and Safety Code 113948(a).
BOOST_AUTO_TEST_CASE(stationRulesNameKnownTagsAndReadBackTyped) {
  auto book = loadRuleBook(kDir, {"us-ca"}, Date{2026, 3, 9});
  BOOST_TEST_REQUIRE(book.ok(), book.message());
  struct Age {
    const char* id;
    const char* tag;
    std::int64_t minAge;
  };
  for (const Age& a : {Age{"US-FLSA-HO10-MEAT-MACHINES", "power_driven_meat_machine", 18},
                       Age{"US-FLSA-HO2-DRIVING", "motor_vehicle_driving", 18},
                       Age{"CA-ABC-ALCOHOL-SERVICE-18", "alcohol_service", 18},
                       Age{"CA-ABC-BARTENDING-21", "bartending", 21}}) {
    const Rule& r = only(*book, a.id);
    BOOST_TEST((r.kind == RuleKind::kStationMinAge), a.id);
    BOOST_TEST(r.text("stationTag") == a.tag, a.id);
    BOOST_TEST(r.integer("minAge") == a.minAge, a.id);
  }
  const Rule& card = only(*book, "CA-HSC-FOOD-HANDLER-CARD");
  BOOST_TEST((card.kind == RuleKind::kStationCertification));
  BOOST_TEST(card.text("stationTag") == "food_handling");
  BOOST_TEST(card.text("certification") == "ca_food_handler_card");
  BOOST_TEST(card.integer("graceDaysAfterHire") == 30);
  for (RuleKind k : {RuleKind::kStationMinAge, RuleKind::kStationCertification}) {
    for (const Rule* r : book->rulesOfKind(k)) {
      BOOST_TEST(atoms::site::isKnownStationTag(r->text("stationTag")), r->id);
    }
  }
}

BOOST_AUTO_TEST_CASE(nycPremiumTableReadsBackInCents) {
  auto book = loadRuleBook(kDir, {"us-ny-nyc"}, Date{2025, 1, 1});
  BOOST_TEST_REQUIRE(book.ok(), book.message());
  const auto& cases = only(*book, "NYC-FWW-CHANGE-PREMIUM").cases("cases");
  auto find = [&](ChangeType t, std::int64_t lessThan) {
    auto it = std::find_if(cases.begin(), cases.end(), [&](const auto& c) {
      return c.change == t && c.noticeLessThanHours == lessThan;
    });
    BOOST_TEST_REQUIRE((it != cases.end()));
    return *it;
  };
  const auto lastMinuteCancel = find(ChangeType::kCancelledShift, 24);
  BOOST_TEST((lastMinuteCancel.pay.unit == PayUnit::kCents));
  BOOST_TEST(lastMinuteCancel.pay.cents == 7500);
  const auto earlyAdd = find(ChangeType::kAddedHours, 14 * 24);
  BOOST_TEST(earlyAdd.pay.cents == 1000);
  BOOST_TEST(earlyAdd.noticeAtLeastHours.value_or(0) == 7 * 24);

  const Rule& clopening = only(*book, "NYC-FWW-CLOPENING-11H");
  BOOST_TEST(clopening.integer("minRestMinutes") == 11 * 60);
  BOOST_TEST(clopening.flag("consentRequired"));
  BOOST_TEST(clopening.pay("premium").cents == 10000);
  BOOST_TEST_REQUIRE(!clopening.coverage.empty());
  BOOST_TEST(clopening.coverage.front().industries == std::vector<std::string>{"fast_food"},
             boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(restPremiumsCarryTheirMultipliers) {
  auto book = loadRuleBook(kDir, {"us-il-chicago", "us-wa-seattle"}, Date{2025, 1, 1});
  BOOST_TEST_REQUIRE(book.ok(), book.message());
  const auto& chi = only(*book, "CHI-FWW-REST-10H").pay("premium");
  BOOST_TEST((chi.unit == PayUnit::kRateOfAffectedHours));
  BOOST_TEST(chi.amount == "1.25");
  BOOST_TEST(only(*book, "SEA-SSO-REST-10H").pay("premium").amount == "1.5");
  // Two requested cities share the federal root once, before both.
  BOOST_TEST(book->jurisdictions().front().code == "us");
  BOOST_TEST(book->versionsOf("US-FLSA-OT-WEEKLY").size() == 1u);
}

BOOST_AUTO_TEST_SUITE_END()
