// The roster model: people x days x shift types, the rules a roster must keep (hard) and the wishes
// it should meet (soft). Generic on purpose: the public shift scheduling benchmark's format is read
// into it by an adapter (benchmark_format.h), and the site's week will be later; the evaluator
// (roster_evaluator.h) and the solver (roster_solver.h) only know this model.
//
// Plain values, no I/O, no threads: copy freely, share read-only between threads.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace atoms::schedule {

// A day's assignment of one person: the index of a shift type, or kOff.
inline constexpr int kOff = -1;

struct ShiftType {
  std::string id;                  // "D", "E", ...: as the input names it
  int minutes = 0;                 // paid length
  std::vector<bool> cannotFollow;  // [other type]: true when `other` may not be worked the next day
};

struct Person {
  std::string id;
  std::vector<int> maxPerType;  // [type]: most shifts of that type in the horizon; 0 = never
  std::int64_t minMinutes = 0;  // total paid minutes in the horizon, within [min, max]
  std::int64_t maxMinutes = 0;
  int maxConsecutive = 0;    // longest run of working days (a day off assumed on both sides)
  int minConsecutive = 1;    // shortest run of working days that starts and ends in the horizon
  int minDaysOff = 1;        // shortest run of days off that starts and ends in the horizon
  int maxWeekends = 0;       // weekends (Saturday and Sunday both in the horizon) with any work
  std::vector<bool> dayOff;  // [day]: may not work at all (hard)
};

// Soft: the person asks to work that shift (on) or not to (off); the weight is paid when the roster
// does not do as asked.
struct ShiftRequest {
  int person = 0;
  int day = 0;
  int type = 0;
  int weight = 0;
};

// Soft: how many should work a type on a day; each one short costs underWeight, each one over
// costs overWeight.
struct Cover {
  int requirement = 0;
  int underWeight = 0;
  int overWeight = 0;
};

struct RosterInstance {
  int days = 0;
  // The weekday of day 0, 0 = Monday ... 6 = Sunday (the benchmark's day 0 is a Monday).
  int firstWeekday = 0;
  std::vector<ShiftType> types;
  std::vector<Person> people;
  std::vector<ShiftRequest> onRequests;
  std::vector<ShiftRequest> offRequests;
  std::vector<std::vector<Cover>> cover;  // [day][type]; requirement 0 and weights 0 when not given

  int personCount() const { return static_cast<int>(people.size()); }
  int typeCount() const { return static_cast<int>(types.size()); }
  // The weekends inside the horizon, as the day index of their Saturday (Sunday is the next day).
  std::vector<int> weekendSaturdays() const;
};

// One line per person, one cell per day: a type index or kOff. cells[person][day].
struct Roster {
  std::vector<std::vector<int>> cells;

  static Roster allOff(const RosterInstance& instance);
};

}  // namespace atoms::schedule
