// Minors' hours (minor_hours): for a person whose age on S's start day is within the rule's
// minAge..maxAge, S must lie inside the rule's time window, and the day and week totals must stay
// within its school / non-school limits (the site's school calendar decides which days are school
// days; a school week is a week, from the calendar's weekStart, with at least one school day).
// A rule with notDuringSchoolHours also bars S from the calendar's school hours on a school day;
// when the calendar gives no hours the finding says that limit was not evaluated. Optional limits
// for New York's text: a day before a school day (Sundays excepted), days worked in a week, a
// later window end in weeks without school, a summer window only in weeks without school.
// Every rule is checked on its own, so where federal and state law both limit an age, each
// failing limit is reported under its own rule id and the verdict is denied.
#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "domain/labor/evaluation.h"

namespace atoms::labor {

namespace {

namespace chr = std::chrono;
using site::LocalTime;
using site::Seconds;

// "HH:MM" -> minutes after midnight (the loader validated the form).
int clockMinutes(std::string_view hhmm) {
  return ((hhmm[0] - '0') * 10 + (hhmm[1] - '0')) * 60 + (hhmm[3] - '0') * 10 + (hhmm[4] - '0');
}

// "MM-DD" or "labor_day" (first Monday of September) in the year of `day`.
LocalDays monthDayIn(std::string_view text, LocalDays day) {
  const chr::year y = chr::year_month_day{day}.year();
  if (text == "labor_day") {
    return LocalDays{chr::year_month_weekday{y / chr::September / chr::Monday[1]}};
  }
  const unsigned m = static_cast<unsigned>((text[0] - '0') * 10 + (text[1] - '0'));
  const unsigned d = static_cast<unsigned>((text[3] - '0') * 10 + (text[4] - '0'));
  return LocalDays{y / chr::month{m} / chr::day{d}};
}

std::string timeText(LocalTime t) { return site::formatLocal(t).substr(11, 5); }

// Whether the week of d (from the calendar's weekStart) has a school day: school is in session.
bool inSchoolWeek(const Evaluation& ev, LocalDays d) {
  const LocalDays w = Evaluation::weekStartOf(d, ev.model().schoolCalendar.weekStart);
  for (int i = 0; i < 7; ++i) {
    if (ev.schoolDay(w + chr::days{i})) return true;
  }
  return false;
}

// The window of local day d under rule r, as local times [start, end]; an end past midnight
// belongs to d + 1. The later ends (summer, before a non-school day, a week without school) only
// ever extend the window.
std::pair<LocalTime, LocalTime> windowOf(const Evaluation& ev, const Rule& r, LocalDays d) {
  const int startMin = clockMinutes(r.text("windowStart"));
  int endMin = clockMinutes(r.text("windowEnd"));
  const bool summerApplies = !(r.has("summerInNonSchoolWeeksOnly") &&
                               r.flag("summerInNonSchoolWeeksOnly") && inSchoolWeek(ev, d));
  if (r.has("summerWindowEnd") && r.has("summerFrom") && r.has("summerTo") && summerApplies &&
      monthDayIn(r.text("summerFrom"), d) <= d && d <= monthDayIn(r.text("summerTo"), d)) {
    endMin = clockMinutes(r.text("summerWindowEnd"));
  }
  if (endMin <= startMin) endMin += 1440;
  const auto extend = [&](std::string_view param) {
    int later = clockMinutes(r.text(param));
    if (later <= startMin) later += 1440;
    endMin = std::max(endMin, later);
  };
  if (r.has("beforeNonSchoolDayWindowEnd") && !ev.schoolDay(d + chr::days{1})) {
    extend("beforeNonSchoolDayWindowEnd");
  }
  if (r.has("nonSchoolWeekWindowEnd") && !inSchoolWeek(ev, d)) extend("nonSchoolWeekWindowEnd");
  return {LocalTime{d} + chr::minutes{startMin}, LocalTime{d} + chr::minutes{endMin}};
}

// The limits a rule's check found exceeded: codes for input.exceeded, and sentences; and the
// limits it could not evaluate, as sentences.
struct Breaches {
  json::Array codes;
  std::vector<std::string> sentences;
  std::vector<std::string> notEvaluated;
};

// A limit on the work of one period (a day or a week), by whether school is in session.
struct PeriodLimit {
  std::string_view param;    // the rule's parameter
  std::string_view code;     // in input.exceeded
  std::string_view total;    // the input that reports the period's work
  std::string_view allowed;  // the end of the sentence
};
constexpr PeriodLimit kSchoolDay{"schoolDayMaxMinutes", "schoolDay", "dayMinutes",
                                 "allowed on a school day"};
constexpr PeriodLimit kNonSchoolDay{"nonSchoolDayMaxMinutes", "nonSchoolDay", "dayMinutes",
                                    "allowed in a day"};
constexpr PeriodLimit kSchoolWeek{"schoolWeekMaxMinutes", "schoolWeek", "weekMinutes",
                                  "allowed in a school week"};
constexpr PeriodLimit kNonSchoolWeek{"nonSchoolWeekMaxMinutes", "nonSchoolWeek", "weekMinutes",
                                     "allowed in a week"};
constexpr PeriodLimit kBeforeSchoolDay{"beforeSchoolDayMaxMinutes", "beforeSchoolDay", "dayMinutes",
                                       "allowed on a day before a school day"};

// P's work (S included) in the `length` days from `from` against the rule's limit, if it has one.
void checkPeriod(const Evaluation& ev, const Rule& r, const PeriodLimit& limit, LocalDays from,
                 chr::days length, const std::string& where, RuleEvaluation& e,
                 Breaches& breaches) {
  if (!r.has(limit.param)) return;
  const auto [before, mine] = ev.worked(ev.dayStart(from), ev.dayStart(from + length));
  const Seconds total = before + mine;
  const Seconds max = chr::minutes{r.integer(limit.param)};
  e.input[limit.total] = total.count() / 60;
  if (total <= max) return;
  breaches.codes.push_back(limit.code);
  breaches.sentences.push_back(durationText(total) + " " + where + ", over the " +
                               durationText(max) + " " + std::string(limit.allowed));
}

// maxDaysPerWeek (NY Labor Law 142(1)(d), 142(2)(b), 143(1)(d): "More than six days a week"):
// the local days of week w on which P works, S included. A day counts when any work falls in it,
// so a shift past midnight counts for both days.
void checkDaysPerWeek(const Evaluation& ev, const Rule& r, LocalDays w, RuleEvaluation& e,
                      Breaches& breaches) {
  if (!r.has("maxDaysPerWeek")) return;
  std::int64_t days = 0;
  for (int i = 0; i < 7; ++i) {
    const LocalDays d = w + chr::days{i};
    const auto [before, mine] = ev.worked(ev.dayStart(d), ev.dayStart(d + chr::days{1}));
    if (before + mine > Seconds::zero()) ++days;
  }
  const std::int64_t max = r.integer("maxDaysPerWeek");
  e.input.set("daysWorkedInWeek", days);
  if (days <= max) return;
  breaches.codes.push_back("daysPerWeek");
  breaches.sentences.push_back(std::to_string(days) + " days of work in the week of " +
                               site::formatLocalDay(w) + ", over the " + std::to_string(max) +
                               " allowed");
}

// notDuringSchoolHours (29 CFR 570.35(a)(1) "outside of school hours"; Labor Code 1391(a)(2)
// "nor during school hours"): on each school day S touches, S must not overlap the calendar's
// school hours (wall-clock time; the end is exclusive, so work may end as school starts).
void checkSchoolHours(const Evaluation& ev, const Rule& r, RuleEvaluation& e, Breaches& breaches) {
  if (!r.has("notDuringSchoolHours") || !r.flag("notDuringSchoolHours")) return;
  const std::optional<site::SchoolHours>& hours = ev.model().schoolCalendar.schoolHours;
  for (LocalDays d = ev.firstDay(); d <= ev.lastDay(); d += chr::days{1}) {
    if (!ev.schoolDay(d)) continue;
    if (!hours) {
      e.input.set("schoolHours", "unknown");
      breaches.notEvaluated.push_back("not evaluated for school hours: " + site::formatLocalDay(d) +
                                      " is a school day and the school calendar gives no hours");
      continue;
    }
    const std::string span =
        site::formatTimeOfDay(hours->startMinute) + "-" + site::formatTimeOfDay(hours->endMinute);
    e.input.set("schoolHours", span);
    const LocalTime from = LocalTime{d} + chr::minutes{hours->startMinute};
    const LocalTime to = LocalTime{d} + chr::minutes{hours->endMinute};
    if (ev.localStart() >= to || ev.localEnd() <= from) continue;
    breaches.codes.push_back("schoolHours");
    breaches.sentences.push_back(
        "the shift " + timeText(ev.localStart()) + "-" + timeText(ev.localEnd()) +
        " falls in school hours on a school day, " + span + " (" + site::formatLocalDay(d) + ")");
  }
}

void checkMinorRule(const Evaluation& ev, const Rule& r, Findings& out) {
  RuleEvaluation& e = ev.addFinding(out, r.id);
  const site::Person& p = ev.person();
  const std::optional<int> age = ev.ageOn(ev.firstDay());
  if (!age) {
    if (p.minor) {
      e.result = EvalResult::kFail;
      e.effect = VerdictKind::kDenied;
      e.detail = p.id + " is a minor with no birth date; add it before scheduling";
    } else {
      e.result = EvalResult::kNotApplicable;
    }
    return;
  }
  e.input.set("age", *age);
  if (*age < r.integer("minAge") || *age > r.integer("maxAge")) {
    e.result = EvalResult::kNotApplicable;
    return;
  }
  Breaches breaches;

  // Time window: S lies inside the window of its start day, or of the day before for a window
  // that runs past midnight.
  bool inside = false;
  for (LocalDays d : {ev.firstDay() - chr::days{1}, ev.firstDay()}) {
    const auto [from, to] = windowOf(ev, r, d);
    if (ev.localStart() >= from && ev.localEnd() <= to) inside = true;
  }
  const auto [winFrom, winTo] = windowOf(ev, r, ev.firstDay());
  e.input.set("windowStart", site::formatLocal(winFrom));
  e.input.set("windowEnd", site::formatLocal(winTo));
  if (!inside) {
    breaches.codes.push_back("window");
    breaches.sentences.push_back("the shift " + timeText(ev.localStart()) + "-" +
                                 timeText(ev.localEnd()) + " is outside the hours " +
                                 timeText(winFrom) + "-" + timeText(winTo));
  }

  // Day limits, for each local day S touches; week limits, for each week of the school calendar.
  for (LocalDays d = ev.firstDay(); d <= ev.lastDay(); d += chr::days{1}) {
    const bool school = ev.schoolDay(d);
    checkPeriod(ev, r, school ? kSchoolDay : kNonSchoolDay, d, chr::days{1},
                std::string(school ? "on school day " : "on ") + site::formatLocalDay(d), e,
                breaches);
    // "other than on a Sunday or holiday" (NY 143(1)(a)(i)): the calendar knows no holidays, so a
    // weekday holiday before a school day is held to this limit too.
    if (ev.schoolDay(d + chr::days{1}) && chr::weekday{d} != chr::Sunday) {
      checkPeriod(ev, r, kBeforeSchoolDay, d, chr::days{1}, "on " + site::formatLocalDay(d), e,
                  breaches);
    }
  }
  const unsigned weekStart = ev.model().schoolCalendar.weekStart;
  const LocalDays lastWeek = Evaluation::weekStartOf(ev.lastDay(), weekStart);
  for (LocalDays w = Evaluation::weekStartOf(ev.firstDay(), weekStart); w <= lastWeek;
       w += chr::days{7}) {
    const bool school = inSchoolWeek(ev, w);
    checkPeriod(ev, r, school ? kSchoolWeek : kNonSchoolWeek, w, chr::days{7},
                "in the week of " + site::formatLocalDay(w), e, breaches);
    checkDaysPerWeek(ev, r, w, e, breaches);
  }
  checkSchoolHours(ev, r, e, breaches);

  if (ev.model().schoolCalendar.schoolDays.empty()) e.input.set("schoolCalendar", false);
  const bool failed = !breaches.sentences.empty();
  e.input.set("exceeded", std::move(breaches.codes));
  if (failed) {
    e.result = EvalResult::kFail;
    e.effect = VerdictKind::kDenied;
    e.detail = p.id + " is " + std::to_string(*age) + ": ";
    for (std::size_t i = 0; i < breaches.sentences.size(); ++i) {
      e.detail += (i == 0 ? "" : "; ") + breaches.sentences[i];
    }
    if (ev.model().schoolCalendar.schoolDays.empty()) {
      e.detail += " (the site has no school calendar, so every day counts as a non-school day)";
    }
  }
  // What could not be checked is said whether or not the rest passed: a pass is not a clearance.
  for (const std::string& note : breaches.notEvaluated) {
    e.detail += (e.detail.empty() ? p.id + " is " + std::to_string(*age) + ": " : "; ") + note;
  }
}

}  // namespace

void checkMinorHours(const Evaluation& ev, Findings& out) {
  ev.forEachRule(RuleKind::kMinorHours, [&](const Rule& r) { checkMinorRule(ev, r, out); });
}

}  // namespace atoms::labor
