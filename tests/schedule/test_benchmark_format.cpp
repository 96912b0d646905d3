// The benchmark's instance format into the roster model, its errors naming the line, and the
// roster format both ways.
#include <boost/test/unit_test.hpp>
#include <string>

#include "domain/schedule/benchmark_format.h"
#include "tests/schedule/schedule_test_util.h"

namespace atoms::schedule {
namespace {

using test::kSmallInstance;

std::string parseError(const std::string& text) {
  auto r = parseBenchmarkInstance(text);
  BOOST_REQUIRE(!r.ok());
  BOOST_TEST((r.kind() == ErrorKind::kInvalid));
  return r.message();
}

}  // namespace

BOOST_AUTO_TEST_SUITE(benchmark_format)

BOOST_AUTO_TEST_CASE(reads_a_public_instance_with_crlf_lines) {
  const RosterInstance in = test::loadScheduleData("Instance1.txt");
  BOOST_TEST(in.days == 14);
  BOOST_TEST(in.personCount() == 8);
  BOOST_TEST(in.typeCount() == 1);
  BOOST_TEST(in.types[0].id == "D");
  BOOST_TEST(in.types[0].minutes == 480);
  BOOST_TEST(in.people[0].id == "A");
  BOOST_TEST(in.people[0].maxPerType[0] == 14);
  BOOST_TEST(in.people[0].maxMinutes == 4320);
  BOOST_TEST(in.people[0].minMinutes == 3360);
  BOOST_TEST(in.people[0].maxConsecutive == 5);
  BOOST_TEST(in.people[0].minConsecutive == 2);
  BOOST_TEST(in.people[0].minDaysOff == 2);
  BOOST_TEST(in.people[0].maxWeekends == 1);
  BOOST_TEST(in.people[0].dayOff[0]);
  BOOST_TEST(!in.people[0].dayOff[1]);
  BOOST_TEST(in.onRequests.size() == 21u);
  BOOST_TEST(in.offRequests.size() == 5u);
  BOOST_TEST(in.cover[0][0].requirement == 5);
  BOOST_TEST(in.cover[0][0].underWeight == 100);
  BOOST_TEST(in.cover[0][0].overWeight == 1);
  BOOST_TEST((in.weekendSaturdays() == std::vector<int>{5, 12}));
}

BOOST_AUTO_TEST_CASE(reads_successions_limits_days_off_and_requests) {
  const RosterInstance in = test::smallInstance();
  BOOST_TEST(in.typeCount() == 2);
  BOOST_TEST(in.types[1].cannotFollow[0]);   // E may not follow L
  BOOST_TEST(!in.types[0].cannotFollow[1]);  // L may follow E
  BOOST_TEST(in.people[1].maxPerType[1] == 0);
  BOOST_TEST(in.people[1].dayOff[3]);
  BOOST_TEST(in.offRequests.at(0).weight == 3);
  BOOST_TEST(in.cover[1][1].underWeight == 50);
  BOOST_TEST(in.cover[3][0].requirement == 0);  // not listed: nobody needed, nothing paid
}

BOOST_AUTO_TEST_CASE(a_malformed_file_names_the_line_and_the_field) {
  const RosterInstance unused = test::smallInstance();
  (void)unused;
  auto text = readFileToString(test::scheduleDataPath("malformed.txt"));
  BOOST_REQUIRE(text.ok());
  const std::string message = parseError(*text);
  BOOST_TEST(
      message ==
      "line 10: SECTION_STAFF: MinTotalMinutes 'three' is not a whole number from 0 to 1000000");
}

BOOST_AUTO_TEST_CASE(unknown_names_days_outside_the_horizon_and_missing_sections_are_errors) {
  std::string text = kSmallInstance;
  BOOST_TEST(parseError(text + "9,E,1,100,1\r\n") ==
             "line 30: SECTION_COVER: day 9 is outside the horizon of 7 days");
  BOOST_TEST(parseError(text + "0,X,1,100,1\r\n") == "line 30: SECTION_COVER: unknown shift 'X'");
  std::string badOff = text;
  badOff.replace(badOff.find("B,3"), 3, "Z,3");
  BOOST_TEST(parseError(badOff) == "line 16: SECTION_DAYS_OFF: unknown employee 'Z'");
  BOOST_TEST(parseError("SECTION_HORIZON\n7\nSECTION_SHIFTS\nE,480,\n") ==
             "missing section SECTION_STAFF");
  BOOST_TEST(parseError("14\n") == "line 1: (none): data before any section");
  BOOST_TEST(parseError("SECTION_HORIZON\n7\nSECTION_SHIFTS\nE,480,Q\nSECTION_STAFF\n"
                        "A,E=7,1,0,1,1,1,1\n") ==
             "line 4: SECTION_SHIFTS: unknown shift 'Q' in the successions");
}

BOOST_AUTO_TEST_CASE(ids_the_roster_format_cannot_carry_are_refused) {
  // A tab would split a roster line; '-' is a day off; a control byte would reach the error.
  const std::string head = "SECTION_HORIZON\n7\nSECTION_SHIFTS\n";
  const std::string staff = "\nSECTION_STAFF\n";
  const std::string limits = ",E=7,1,0,1,1,1,1\n";
  BOOST_TEST(parseError(head + "E,480," + staff + "A\tB" + limits) ==
             "line 6: SECTION_STAFF: employee ID 'A\\x09B' is not 1-64 printable ASCII characters "
             "(not '-', no tab)");
  BOOST_TEST(parseError(head + "E,480," + staff + "\xff\xfe" + limits) ==
             "line 6: SECTION_STAFF: employee ID '\xff\xfe' is not 1-64 printable ASCII characters "
             "(not '-', no tab)");
  BOOST_TEST(parseError(head + "-,480," + staff + "A" + limits) ==
             "line 4: SECTION_SHIFTS: shift ID '-' is not 1-64 printable ASCII characters "
             "(not '-', no tab)");
  BOOST_TEST(parseError(head + "E,480," + staff + "A" + limits + "A" + limits) ==
             "line 7: SECTION_STAFF: employee ID 'A' repeated");
  BOOST_TEST(parseError(head + "E,480,\nE,480," + staff + "A" + limits) ==
             "line 5: SECTION_SHIFTS: shift ID 'E' given twice");
}

BOOST_AUTO_TEST_CASE(a_roster_is_written_and_read_back_unchanged) {
  const RosterInstance in = test::smallInstance();
  const Roster roster = test::rosterOf(in,
                                       "A\tE\tL\t-\t-\tE\tE\t-\n"
                                       "B\t-\t-\tE\t-\t-\t-\t-\n"
                                       "C\t-\t-\t-\t-\t-\t-\t-\n"
                                       "D\t-\t-\t-\t-\t-\tE\tE\n");
  BOOST_TEST(roster.cells[0][1] == 1);
  BOOST_TEST(roster.cells[1][0] == kOff);
  const std::string written = formatBenchmarkRoster(in, roster);
  BOOST_TEST(written.substr(0, 15) == "A\tE\tL\t-\t-\tE\tE\t-");
  BOOST_TEST((test::rosterOf(in, written).cells == roster.cells));
}

BOOST_AUTO_TEST_CASE(a_bad_roster_names_its_line) {
  const RosterInstance in = test::smallInstance();
  auto shortLine = parseBenchmarkRoster(in, "A\tE\tL\n");
  BOOST_TEST(shortLine.message() == "line 1: roster: expected 7 days, got 2");
  auto unknown = parseBenchmarkRoster(in, "A\t-\t-\t-\t-\t-\t-\tN\n");
  BOOST_TEST(unknown.message() == "line 1: roster: day 6: unknown shift 'N'");
  auto missing = parseBenchmarkRoster(in, "A\t-\t-\t-\t-\t-\t-\t-\n");
  BOOST_TEST(missing.message() == "roster: no line for employee 'B'");
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace atoms::schedule
