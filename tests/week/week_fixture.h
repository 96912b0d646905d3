// A state directory holding a small San Francisco restaurant (Fair Workweek rules, the real
// labor tables of etc/labor) and a WeekDesk over it, with a texter that records what it was asked
// to send. The clock is the test's: Sunday 2026-03-01 10:00 local unless the test moves it.
//   p-ana   cook, 22.00/h          p-ben  cook, time off all of Tuesday 2026-03-17
//   p-tom   cook, 15 years old     p-kwame the general manager, everyone's manager of record
// Published now: kWeek1 (Sun 2026-03-08) with Ana Monday and Wednesday 09:00-17:00 (version
// "site-v1", published a month ago).
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "domain/site/site_model.h"
#include "domain/week/week_desk.h"
#include "store/site_store.h"
#include "tests/support/temp_dir.h"

namespace atoms {
// Boost.Test prints these by ADL.
inline std::ostream& boost_test_print_type(std::ostream& os, ErrorKind kind) {
  return os << static_cast<int>(kind);
}
namespace week {
inline std::ostream& boost_test_print_type(std::ostream& os, DeskStatus status) {
  return os << deskStatusName(status);
}
}  // namespace week
}  // namespace atoms

namespace atoms::week::testing {

inline constexpr std::chrono::local_days kToday{std::chrono::year{2026} / 3 / 1};  // a Sunday
inline constexpr Week kWeek1{std::chrono::year{2026} / 3 / 8};   // a week's notice from today
inline constexpr Week kWeek2{std::chrono::year{2026} / 3 / 15};  // two weeks'

site::SiteModel weekRestaurant();

class WeekFixture {
 public:
  WeekFixture();

  // Local wall time `offsetDays` after `day` at hour:minute, and its instant.
  static site::LocalTime local(Week day, int offsetDays, int hour, int minute = 0);
  static TimePoint at(Week day, int offsetDays, int hour, int minute = 0);

  std::vector<site::Shift> storedShifts();
  std::int64_t count(const std::string& sql);
  // The audit entries of `kind`, bodies only.
  std::vector<json::Value> audits(std::string_view kind);

  atoms::testing::TempDir tmp;
  std::string stateDir;
  std::unique_ptr<SiteStore> store;
  std::unique_ptr<WeekDesk> desk;
  std::vector<sms::conversation::OutreachRequest> texts;
  TimePoint now;
};

}  // namespace atoms::week::testing
