// Internal to domain/labor: a person's workday as stretches of work, read from the schedule or
// from the time clock, for the meal and rest period checks (break_check.cpp).
//
// The workday is the one a shift starts in: the local day, or from the site's workday start to
// the same time the next day. On the schedule it is P's shifts starting that day, back-to-back
// shifts joined; from the time clock it is the clock periods (clock_in to clock_out) that start
// that day, cut by the punched breaks that are meal periods. The gaps between stretches are the
// off-duty periods that can serve as meal periods. Pure functions of an Evaluation (which they
// read, never change).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "domain/labor/evaluation.h"

namespace atoms::labor {

struct Stretch {
  site::Instant start;
  site::Instant end;
  site::Seconds length() const { return end - start; }
};

struct Workday {
  LocalDays day;
  bool punched = false;
  std::vector<Stretch> onDuty;      // in time order; paid rest breaks are inside them
  std::vector<Stretch> restBreaks;  // punched rest breaks (only when the clock records them)
  site::Seconds work{0};            // the sum of onDuty
  // Set when the day is not judged with this shift: why (unreadable punches), or which shift
  // judges it.
  std::string notJudged;
};

// A gap between two stretches of the day, and the work done before it.
struct Gap {
  Stretch span;
  site::Seconds workBefore;
};
std::vector<Gap> gapsOf(const Workday& day);

// The instant the day's work reaches `work` (the end of the day's work if it never does).
site::Instant whenWorkReaches(const Workday& day, site::Seconds work);

// S's workday on the schedule: S and P's counted shifts that start on S's local day.
Workday scheduledWorkday(const Evaluation& ev);

// S's workday from P's punches: the day on which the clock period that overlaps S the most
// starts; nullopt when no clock period overlaps S. Every punched break is a meal period, unless
// the clock records rest breaks (LaborOptions), in which case breaks shorter than
// `shortestMeal` are rest breaks. The day is judged with the first of P's shifts (by start, then
// id) that overlaps its clock periods; with another one, notJudged names it.
std::optional<Workday> punchedWorkday(const Evaluation& ev, site::Seconds shortestMeal);

}  // namespace atoms::labor
