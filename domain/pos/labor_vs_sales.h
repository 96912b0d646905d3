// Labor against sales (issue 19 item 3, docs/pos.md "Labor against sales"): for one site-local
// day, per 15-minute interval, the scheduled and the actual labor (heads, minutes, cost), the net
// sales, and a projection of the whole day: actual so far plus scheduled labor for the rest, and
// actual sales so far plus expected sales for the rest (sales_expectation.h says from where).
// Also a week of days, totals only.
//
// Contract: pure functions over their inputs (work_spans.h builds the spans from the site; the
// sales book and a SalesExpectation give the sales). Money is integer cents, time integer
// minutes, ratios integer basis points; nothing reads a clock (`now` is passed in). Thread-safe.
// - A day runs from its first instant to the next day's (site::TimeZone::startOfDay: local
//   midnight, or the end of the gap where a zone changes its clocks at 00:00): 92 or 100
//   intervals on a DST day.
// - A span's cost is its minutes at its hourly rate plus its premium (`extraCents`), spread over
//   its seconds; the split rounds so that the intervals add up to the span's cost exactly.
// - Labor % is none (nullopt) while there are no sales (never infinity); sales per labor hour is
//   none while no labor is counted.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "base/result.h"
#include "domain/pos/sales_book.h"
#include "domain/site/time_zone.h"

namespace atoms::pos {

using LocalDay = std::chrono::local_days;

// Paid work by one person over [start, end): a scheduled shift, or a stretch on the clock (an
// open one ends at `now`). extraCents is the premium above regular pay owed on it (overtime,
// hours worked inside a short rest...), counted over the span's seconds.
struct WorkSpan {
  std::string personId;
  site::Instant start;
  site::Instant end;
  std::int64_t hourlyRateCents = 0;
  std::int64_t extraCents = 0;
  friend bool operator==(const WorkSpan&, const WorkSpan&) = default;
};

// The expected net sales of one interval, from a SalesExpectation.
struct ExpectedSales {
  site::Instant start;
  std::int64_t netCents = 0;
  friend bool operator==(const ExpectedSales&, const ExpectedSales&) = default;
};

struct LaborVsSalesInput {
  std::vector<WorkSpan> scheduled;   // the published schedule's assigned shifts
  std::vector<WorkSpan> actual;      // from punches; open stretches end at `now`
  std::vector<SalesInterval> sales;  // actual, any revenue center (summed)
  std::vector<ExpectedSales> expected;
  std::string expectationSource;  // DayExpectation::source (a range: its last day's)
};

struct LaborFigures {
  std::int64_t heads = 0;  // distinct people working at some time of the interval (or day)
  std::int64_t minutes = 0;
  std::int64_t costCents = 0;
  friend bool operator==(const LaborFigures&, const LaborFigures&) = default;
};

struct IntervalFigures {
  site::Instant start;  // UTC; the interval is [start, start + 15 min)
  site::LocalTime localStart;
  LaborFigures scheduled;
  LaborFigures actual;             // up to now
  std::int64_t salesCents = 0;     // actual, up to now
  std::int64_t expectedCents = 0;  // the expectation for the whole interval
  // Actual labor up to now plus scheduled labor from now on; actual sales for an interval that
  // has ended, actual plus the expectation of what is left of it for the current one, the
  // expectation for one still to come.
  std::int64_t projectedCostCents = 0;
  std::int64_t projectedMinutes = 0;
  std::int64_t projectedSalesCents = 0;
  friend bool operator==(const IntervalFigures&, const IntervalFigures&) = default;
};

// Figures over a span of time and the ratios managers read.
struct LaborSalesTotals {
  std::int64_t laborMinutes = 0;
  std::int64_t laborCents = 0;
  std::int64_t salesCents = 0;
  // laborCents / salesCents in basis points (2750 = 27.50 %), rounded half up; none without sales.
  std::optional<std::int64_t> laborBasisPoints() const;
  // salesCents per labor hour, rounded half up; none without labor.
  std::optional<std::int64_t> salesPerLaborHourCents() const;
  friend bool operator==(const LaborSalesTotals&, const LaborSalesTotals&) = default;
};

struct DayFigures {
  LocalDay day;
  std::vector<IntervalFigures> intervals;
  LaborFigures scheduled;  // the whole day's schedule
  LaborSalesTotals soFar;  // actual labor and sales up to now
  LaborSalesTotals projected;
  std::string expectationSource;
  friend bool operator==(const DayFigures&, const DayFigures&) = default;
};

// The UTC bounds [first, second) of a site-local day (site::TimeZone::startOfDay of it and of
// the next).
std::pair<site::Instant, site::Instant> dayBounds(const site::TimeZone& zone, LocalDay day);

// The figures of `day` at `now` (now may be before, within or after the day).
Result<DayFigures> laborVsSalesDay(const LaborVsSalesInput& input, const site::TimeZone& zone,
                                   LocalDay day, site::Instant now);

struct WeekFigures {
  LocalDay first;
  std::vector<DayFigures> days;  // seven, without their intervals
  LaborFigures scheduled;
  LaborSalesTotals soFar;
  LaborSalesTotals projected;
};

// Seven days from `first`; each day as laborVsSalesDay, without intervals.
Result<WeekFigures> laborVsSalesWeek(const LaborVsSalesInput& input, const site::TimeZone& zone,
                                     LocalDay first, site::Instant now);

// What part of `span`'s cost falls in [from, to): minutes and cents (exact in sum over a
// partition of the span).
LaborFigures spanShare(const WorkSpan& span, site::Instant from, site::Instant to);

}  // namespace atoms::pos
