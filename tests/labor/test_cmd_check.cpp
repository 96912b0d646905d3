// `atoms-edge check` end to end: the real binary as a child process (tests/daemon/helpers.h) on
// site files written to a fresh temporary directory, with the rule tables of this checkout.
#include <algorithm>
#include <boost/test/unit_test.hpp>
#include <chrono>
#include <string>

#include "base/canonical_json.h"
#include "domain/site/site_file.h"
#include "domain/site/site_model.h"
#include "domain/site/time_zone.h"
#include "tests/daemon/helpers.h"
#include "tests/support/build_paths.h"

namespace atoms {
namespace {

namespace chr = std::chrono;
using test::contains;
using test::runEdge;
using test::TempDir;

const std::string kLaborDir = atoms::testing::sourceDir() + "/etc/labor";
const std::string kDemoSite = atoms::testing::sourceDir() + "/etc/sites/demo-site.json";

// One person, one 6 h shift on a Monday in Chicago, federal rules only: nothing to find.
site::SiteModel cleanSite() {
  site::SiteModel m;
  m.site = site::SiteInfo{"clean-site", "Clean", "America/Chicago", {"us"}, "retail"};
  m.stations = {{"floor", "Floor", {}, std::nullopt}};
  site::Person p;
  p.id = "p-1";
  p.name = "Alex Doe";
  p.phone = "+13125550100";
  p.roles = {"floor"};
  p.hourlyRateCents = 2000;
  m.people.push_back(p);
  const auto zone = *site::TimeZone::locate("America/Chicago");
  const site::LocalTime start =
      site::LocalTime{chr::local_days{chr::year{2026} / 10 / 5}} + chr::hours{9};
  const site::LocalTime end = start + chr::hours{6};
  m.shifts.push_back(site::Shift{"s-1", "floor", site::Stamp{*zone.toUtc(start), start},
                                 site::Stamp{*zone.toUtc(end), end}, std::nullopt, "p-1"});
  return m;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(cmd_check)

BOOST_AUTO_TEST_CASE(a_clean_schedule_exits_zero_and_says_so) {
  TempDir dir;
  const std::string file = dir.write("clean.json", site::writeSiteFile(cleanSite()));
  const test::RunResult r = runEdge({"check", file, "--labor-dir", kLaborDir});
  BOOST_TEST(r.status == 0, r.err);
  BOOST_TEST(contains(r.out, "No findings"), r.out);
  BOOST_TEST(contains(r.out, "Premium pay in total: none"), r.out);
  BOOST_TEST(r.err.empty());
}

// The demo site schedules people whose certification lapsed, a shift in time off, a minor over
// the day's limit and at a meat slicer: exit 1, each finding under its person and rule, premiums
// in dollars.
BOOST_AUTO_TEST_CASE(a_schedule_with_a_hard_violation_exits_one_and_names_it) {
  const test::RunResult r = runEdge({"check", kDemoSite, "--labor-dir", kLaborDir});
  BOOST_TEST(r.status == 1, r.err);
  BOOST_TEST(contains(r.out, "Ana Souza (p-ana)"), r.out);
  BOOST_TEST(contains(r.out, "R-SCH-CERTIFICATION: not allowed as scheduled"), r.out);
  BOOST_TEST(contains(r.out, "CA-OT-DAILY-8 (us-ca)"), r.out);
  BOOST_TEST(contains(r.out, "Open shifts"), r.out);
  BOOST_TEST(contains(r.out, "Premium pay in total:"), r.out);
  BOOST_TEST(contains(r.out, "not about anyone's work"), r.out);
}

BOOST_AUTO_TEST_CASE(json_output_is_canonical_and_matches_the_exit_status) {
  const test::RunResult r = runEdge({"check", kDemoSite, "--labor-dir", kLaborDir, "--json"});
  BOOST_TEST(r.status == 1, r.err);
  BOOST_TEST_REQUIRE(!r.out.empty());
  BOOST_TEST(r.out.back() == '\n');
  auto doc = json::parseCanonical(r.out.substr(0, r.out.size() - 1));
  BOOST_TEST_REQUIRE(doc.ok(), doc.message());
  BOOST_TEST(doc->find("hardViolation")->asBool());
  BOOST_TEST(doc->find("site")->find("id")->asString() == "bistro-sf");
  std::int64_t cents = 0;
  const auto has = [&](const std::string& personId, const std::string& ruleId) {
    for (const json::Value& person : doc->find("people")->asArray()) {
      if (person.find("personId")->asString() != personId) continue;
      for (const json::Value& rule : person.find("rules")->asArray()) {
        if (rule.find("ruleId")->asString() == ruleId) return true;
      }
    }
    return false;
  };
  for (const json::Value& person : doc->find("people")->asArray()) {
    cents += person.find("premiumCents")->asInt();
  }
  // Through station tags: Ana's lapsed food handler card at the line (Health and Safety Code
  // 113948), 16-year-old Eli at the prep station's meat slicer (29 CFR 570.61), Will's missing
  // birth date on a floor that serves alcohol (B&P 25663); Jordan's lapsed RBS certificate is
  // the bar's own requirement.
  BOOST_TEST(has("p-ana", "CA-HSC-FOOD-HANDLER-CARD"));
  BOOST_TEST(has("p-eli", "US-FLSA-HO10-MEAT-MACHINES"));
  BOOST_TEST(has("p-will", "CA-ABC-ALCOHOL-SERVICE-18"));
  BOOST_TEST(has("p-jordan", "R-SCH-CERTIFICATION"));
  // Devon, hired 2026-02-23, is within the 30 days to obtain a card: not a finding.
  BOOST_TEST(!has("p-devon", "CA-HSC-FOOD-HANDLER-CARD"));
  BOOST_TEST(doc->find("totals")->find("premiumCents")->asInt() == cents);
  BOOST_TEST(doc->find("totals")->find("denied")->asInt() > 0);
}

BOOST_AUTO_TEST_CASE(a_bad_site_file_is_one_clear_line_and_exit_two) {
  TempDir dir;
  site::SiteModel bad = cleanSite();
  std::string text = site::writeSiteFile(bad);
  const std::string phone = "\"+13125550100\"";
  text.replace(text.find(phone), phone.size(), "\"555-0100\"");
  const std::string file = dir.write("bad.json", text);
  const test::RunResult r = runEdge({"check", file, "--labor-dir", kLaborDir});
  BOOST_TEST(r.status == 2);
  BOOST_TEST(r.out.empty(), r.out);
  BOOST_TEST(contains(r.err, "atoms-edge check: " + file + ": people[0] (id p-1): phone"), r.err);
  BOOST_TEST(std::count(r.err.begin(), r.err.end(), '\n') == 1);

  const test::RunResult missing =
      runEdge({"check", dir.file("nope.json"), "--labor-dir", kLaborDir});
  BOOST_TEST(missing.status == 2);
  BOOST_TEST(contains(missing.err, "nope.json: cannot open"), missing.err);

  const std::string notJson = dir.write("junk.json", "{\"version\": 1,");
  const test::RunResult junk = runEdge({"check", notJson, "--labor-dir", kLaborDir});
  BOOST_TEST(junk.status == 2);
  BOOST_TEST(contains(junk.err, "junk.json: site file: invalid JSON"), junk.err);
}

// A flat premium has no hours to show: Philadelphia's $40 for a short rest after the previous day's
// close (9-4604(2)) is "$40.00", never "0 min, $40.00".
BOOST_AUTO_TEST_CASE(a_flat_premium_is_shown_as_money_only) {
  TempDir dir;
  site::SiteModel m = cleanSite();
  m.site = site::SiteInfo{
      "phl-site", "Phl", "America/New_York", {"us", "us-pa", "us-pa-philadelphia"}, "retail"};
  const auto zone = *site::TimeZone::locate("America/New_York");
  const auto stamp = [&](unsigned day, int hour) {
    const site::LocalTime t =
        site::LocalTime{chr::local_days{chr::year{2026} / 10 / day}} + chr::hours{hour};
    return site::Stamp{*zone.toUtc(t), t};
  };
  m.shifts = {site::Shift{"close", "floor", stamp(5, 15), stamp(5, 23), std::nullopt, "p-1"},
              site::Shift{"open", "floor", stamp(6, 7), stamp(6, 12), std::nullopt, "p-1"}};
  const std::string file = dir.write("phl.json", site::writeSiteFile(m));
  const test::RunResult r = runEdge({"check", file, "--labor-dir", kLaborDir});
  BOOST_TEST(contains(r.out, "PHL-FWW-REST-9H (us-pa-philadelphia): needs the person's consent"),
             r.out);
  BOOST_TEST(contains(r.out, "Premium pay in total: $40.00 premium"), r.out);
  // The check judges one schedule; Philadelphia's rules for later changes are named as not
  // evaluated rather than passed over in silence.
  BOOST_TEST(contains(r.out,
                      "Not evaluated by this check: PHL-FWW-DECLINE-ADDED, "
                      "PHL-FWW-PREDICTABILITY-PAY"),
             r.out);
  BOOST_TEST(!contains(r.out, "0 min, $40.00"), r.out);
}

BOOST_AUTO_TEST_CASE(an_unknown_jurisdiction_names_the_site_file_field) {
  TempDir dir;
  site::SiteModel m = cleanSite();
  m.site.jurisdictions = {"us", "us-tx-austin"};
  const std::string file = dir.write("tx.json", site::writeSiteFile(m));
  const test::RunResult r = runEdge({"check", file, "--labor-dir", kLaborDir});
  BOOST_TEST(r.status == 2);
  BOOST_TEST(contains(r.err, "site.jurisdictions: unknown jurisdiction \"us-tx-austin\""), r.err);
}

BOOST_AUTO_TEST_CASE(missing_rule_tables_are_a_configuration_error) {
  TempDir dir;
  const std::string file = dir.write("clean.json", site::writeSiteFile(cleanSite()));
  const test::RunResult r = runEdge({"check", file, "--labor-dir", dir.file("no-tables")});
  BOOST_TEST(r.status == 78);
  BOOST_TEST(contains(r.err, "labor rule tables"), r.err);
}

BOOST_AUTO_TEST_CASE(bad_options_are_usage_errors) {
  TempDir dir;
  const std::string file = dir.write("clean.json", site::writeSiteFile(cleanSite()));
  const test::RunResult asOf =
      runEdge({"check", file, "--labor-dir", kLaborDir, "--as-of", "yesterday"});
  BOOST_TEST(asOf.status == 2);
  BOOST_TEST(contains(asOf.err, "--as-of 'yesterday' is not a time"), asOf.err);
  const test::RunResult week =
      runEdge({"check", file, "--labor-dir", kLaborDir, "--workweek-start", "monday"});
  BOOST_TEST(week.status == 2);
  BOOST_TEST(contains(week.err, "--workweek-start 'monday'"), week.err);
  const test::RunResult size =
      runEdge({"check", file, "--labor-dir", kLaborDir, "--employees", "-3"});
  BOOST_TEST(size.status == 2);
}

BOOST_AUTO_TEST_CASE(help_explains_the_exit_statuses) {
  const test::RunResult r = runEdge({"check", "--help"});
  BOOST_TEST(r.status == 0);
  BOOST_TEST(contains(r.out, "--labor-dir"), r.out);
  BOOST_TEST(contains(r.out, "Exit status"), r.out);
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace atoms
