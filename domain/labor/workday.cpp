#include "domain/labor/workday.h"

#include <algorithm>

namespace atoms::labor {

namespace {

namespace chr = std::chrono;
using site::Instant;
using site::PunchKind;
using site::Seconds;

// A clock period (clock_in to clock_out) with its breaks.
struct ClockPeriod {
  Stretch span;
  std::vector<Stretch> breaks;
  bool closed = false;  // false: no clock_out (yet); span.end is the clock_in
};

// Reads P's punches in [from, to) into the clock periods that start before `startsBefore`
// (punches of a period that started before `from` are skipped). Keeps reading past an
// irregularity and returns the first one ("clock_in at 09:02 has no clock_out"), or "".
std::string readPeriods(const Evaluation& ev, Instant from, Instant to, Instant startsBefore,
                        std::vector<ClockPeriod>& periods) {
  std::string problem;
  const auto note = [&](std::string text) {
    if (problem.empty()) problem = std::move(text);
  };
  std::optional<ClockPeriod> open;
  std::optional<Instant> breakStart;
  for (const site::Punch* p : ev.punches(from, to)) {
    if (!open && p->kind != PunchKind::kClockIn) continue;
    switch (p->kind) {
      case PunchKind::kClockIn:
        if (open) {
          note("clock_in at " + ev.clockText(open->span.start) + " has no clock_out");
          periods.push_back(std::move(*open));
          open.reset();
          breakStart.reset();
        }
        if (p->at >= startsBefore) return problem;
        open = ClockPeriod{{p->at, p->at}, {}, false};
        break;
      case PunchKind::kBreakStart:
        if (breakStart) note("break_start at " + ev.clockText(*breakStart) + " has no break_end");
        breakStart = p->at;
        break;
      case PunchKind::kBreakEnd:
        if (!breakStart) {
          note("break_end at " + ev.clockText(p->at) + " has no break_start");
          break;
        }
        open->breaks.push_back({*breakStart, p->at});
        breakStart.reset();
        break;
      case PunchKind::kClockOut:
        if (breakStart) note("break_start at " + ev.clockText(*breakStart) + " has no break_end");
        breakStart.reset();
        open->span.end = p->at;
        open->closed = true;
        periods.push_back(std::move(*open));
        open.reset();
        break;
    }
  }
  if (open) {
    note("clock_in at " + ev.clockText(open->span.start) + " has no clock_out yet");
    periods.push_back(std::move(*open));
  }
  return problem;
}

// Which breaks are unpaid meal periods: every punched break when the clock records only meals;
// otherwise those at least as long as the shortest meal period (shorter ones are rest breaks).
bool isMealBreak(const Evaluation& ev, const Stretch& b, Seconds shortestMeal) {
  return !ev.options().punchesRecordRestBreaks || b.length() >= shortestMeal;
}

// Whether clock period c covers part of [from, to) (an open one runs on).
bool overlaps(const ClockPeriod& c, Instant from, Instant to) {
  return c.span.start < to && (!c.closed || c.span.end > from);
}

}  // namespace

std::vector<Gap> gapsOf(const Workday& day) {
  std::vector<Gap> gaps;
  Seconds before{0};
  for (std::size_t i = 0; i < day.onDuty.size(); ++i) {
    before += day.onDuty[i].length();
    if (i + 1 < day.onDuty.size()) {
      gaps.push_back(Gap{{day.onDuty[i].end, day.onDuty[i + 1].start}, before});
    }
  }
  return gaps;
}

Instant whenWorkReaches(const Workday& day, Seconds work) {
  for (const Stretch& s : day.onDuty) {
    if (work <= s.length()) return s.start + work;
    work -= s.length();
  }
  return day.onDuty.empty() ? Instant{} : day.onDuty.back().end;
}

Workday scheduledWorkday(const Evaluation& ev) {
  Workday day;
  day.day = ev.firstWorkday();
  const Instant from = ev.workdayStart(day.day);
  const Instant to = ev.workdayStart(day.day + chr::days{1});
  std::vector<Stretch> shifts{{ev.start(), ev.end()}};
  for (const WorkSpan& w : ev.work()) {
    if (w.start >= from && w.start < to) shifts.push_back({w.start, w.end});
  }
  std::sort(shifts.begin(), shifts.end(),
            [](const Stretch& a, const Stretch& b) { return a.start < b.start; });
  for (const Stretch& s : shifts) {  // back-to-back (or overlapping) shifts are one stretch
    if (!day.onDuty.empty() && s.start <= day.onDuty.back().end) {
      day.onDuty.back().end = std::max(day.onDuty.back().end, s.end);
    } else {
      day.onDuty.push_back(s);
    }
  }
  for (const Stretch& s : day.onDuty) day.work += s.length();
  return day;
}

std::optional<Workday> punchedWorkday(const Evaluation& ev, Seconds shortestMeal) {
  const chr::hours reach{26};  // longer than any workday, DST included
  std::vector<ClockPeriod> near;
  // Irregular punches are reported by the read of the workday itself, below.
  (void)readPeriods(ev, ev.start() - reach, ev.end() + reach, ev.end(), near);
  const ClockPeriod* best = nullptr;
  Seconds bestOverlap{-1};
  for (const ClockPeriod& c : near) {
    if (!overlaps(c, ev.start(), ev.end())) continue;
    const Instant end = c.closed ? c.span.end : ev.end();
    const Seconds o = std::min(end, ev.end()) - std::max(c.span.start, ev.start());
    if (o > bestOverlap) {
      best = &c;
      bestOverlap = o;
    }
  }
  if (best == nullptr) return std::nullopt;
  Workday day;
  day.punched = true;
  day.day = ev.workdayOf(ev.toLocal(best->span.start));
  const Instant dayTo = ev.workdayStart(day.day + chr::days{1});
  std::vector<ClockPeriod> periods;
  const std::string problem =
      readPeriods(ev, ev.workdayStart(day.day), dayTo + reach, dayTo, periods);
  // Judged once, with the first of P's shifts that overlaps the day's clock periods.
  for (const WorkSpan& w : ev.work()) {
    if (std::pair(w.start, w.shiftId) >= std::pair(ev.start(), std::string_view(ev.shift().id))) {
      continue;
    }
    for (const ClockPeriod& c : periods) {
      if (overlaps(c, w.start, w.end)) {
        day.notJudged = "judged with shift " + std::string(w.shiftId) + " (same workday)";
        return day;
      }
    }
  }
  if (!problem.empty()) {
    day.notJudged = "the punches of that workday cannot be read: " + problem;
    return day;
  }
  for (const ClockPeriod& c : periods) {
    Instant at = c.span.start;
    for (const Stretch& b : c.breaks) {
      if (!isMealBreak(ev, b, shortestMeal)) {
        day.restBreaks.push_back(b);
        continue;
      }
      if (b.start > at) day.onDuty.push_back({at, b.start});
      at = std::max(at, b.end);
    }
    if (c.span.end > at) day.onDuty.push_back({at, c.span.end});
  }
  for (const Stretch& s : day.onDuty) day.work += s.length();
  return day;
}

}  // namespace atoms::labor
