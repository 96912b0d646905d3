// Shared by tests/schedule: the instances in tests/schedule/data and a small hand-written one
// whose objectives and violations are worked out by hand in test_roster_evaluator.cpp.
#pragma once

#include <boost/test/unit_test.hpp>
#include <string>

#include "base/file_io.h"
#include "domain/schedule/benchmark_format.h"
#include "tests/support/build_paths.h"

namespace atoms::schedule::test {

inline std::string scheduleDataPath(const std::string& name) {
  return atoms::testing::sourceDir() + "/tests/schedule/data/" + name;
}

inline RosterInstance loadScheduleData(const std::string& name) {
  auto text = readFileToString(scheduleDataPath(name));
  BOOST_REQUIRE_MESSAGE(text.ok(), text.message());
  auto instance = parseBenchmarkInstance(*text);
  BOOST_REQUIRE_MESSAGE(instance.ok(), instance.message());
  return std::move(*instance);
}

// Seven days from a Monday (Saturday is day 5, Sunday day 6). L may not be followed by E.
//   A: works E or L, 960 to 4000 minutes, runs of 2 to 3 working days, 2 days off at least,
//      one weekend;
//   B: E only, at most 2400 minutes, no weekend, day 3 off;
//   C: E at most twice, never L, runs of at least 3 working days;
//   D: at least 960 minutes.
inline constexpr const char* kSmallInstance =
    "# a hand-written instance\r\n"
    "SECTION_HORIZON\r\n7\r\n\r\n"
    "SECTION_SHIFTS\r\nE,480,\r\nL,600,E\r\n\r\n"
    "SECTION_STAFF\r\n"
    "A,E=7|L=7,4000,960,3,2,2,1\r\n"
    "B,E=7|L=0,2400,0,5,1,1,0\r\n"
    "C,E=2|L=0,4000,0,7,3,1,2\r\n"
    "D,E=7|L=7,4000,960,7,1,1,2\r\n\r\n"
    "SECTION_DAYS_OFF\r\nB,3\r\n\r\n"
    "SECTION_SHIFT_ON_REQUESTS\r\nA,0,E,2\r\nB,2,E,1\r\n\r\n"
    "SECTION_SHIFT_OFF_REQUESTS\r\nA,1,L,3\r\n\r\n"
    "SECTION_COVER\r\n0,E,1,100,1\r\n1,E,1,100,1\r\n2,E,2,100,1\r\n1,L,1,50,5\r\n";

inline RosterInstance smallInstance() {
  auto instance = parseBenchmarkInstance(kSmallInstance);
  BOOST_REQUIRE_MESSAGE(instance.ok(), instance.message());
  return std::move(*instance);
}

inline Roster rosterOf(const RosterInstance& instance, const std::string& text) {
  auto roster = parseBenchmarkRoster(instance, text);
  BOOST_REQUIRE_MESSAGE(roster.ok(), roster.message());
  return std::move(*roster);
}

}  // namespace atoms::schedule::test
