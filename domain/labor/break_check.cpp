// Meal and rest periods (meal_break, rest_break; CA Labor Code 512(a) and 226.7(c), IWC Wage
// Orders sections 11 and 12), judged over S's workday (workday.h).
// - Scheduled (no clock period overlaps S): a meal period that is due and not already given by a
//   long enough gap between the day's shifts, and the rest periods that are due, are reported in
//   the finding's sentence ("a 30 min meal period is due before the end of the 5th hour of work
//   (by 14:00)"). The result is pass and the effect allowed: nothing is wrong with the shift yet;
//   the manager plans the break.
// - Punched: a meal period missed, late or short is a fail that owes the rule's premium (a meal
//   the law lets the parties waive, in a short day, is threshold_exceeded with no premium: lawful
//   only with a waiver on file). Rest periods likewise, when the time clock records them
//   (LaborOptions::punchesRecordRestBreaks); otherwise they are n/a.
// Premiums: one per kind per workday (226.7(c): an hour of pay for the meal periods, another for
// the rest periods), so each kind is a premium group whose rules are alternatives. States without
// a pay remedy (WA, OR, IL) have rules without a premium: a missed break is a fail that owes
// nothing here.
// States word the meal period differently, and the parameters follow the words:
// - when it is due: work of more than afterWorkMinutes (CA 512(a) "more than five hours"), or of at
//   least requiredFromWorkMinutes (820 ILCS 140/3 "7 1/2 continuous hours"; OAR 839-020-0050
//   "not less than six");
// - which workdays the rule is for: over forWorkOverMinutes and up to forWorkUpToMinutes of work,
//   where a state's meal window depends on the length of the day (OAR 839-020-0050(2)(d): "If the
//   work period is seven hours or less ... If the work period is more than seven hours");
// - when it may start: after earliestAfterWorkMinutes of work (WAC 296-126-092 "no less than two
//   hours"; OAR 839-020-0050(2)(d) "after the conclusion of the second hour worked") and with at
//   most afterWorkMinutes worked;
// - which meal of the day it is: mealNumber, where two rules describe the same meal for different
//   lengths of day (Oregon); otherwise the rules' order by afterWorkMinutes.
#include <algorithm>
#include <optional>

#include "domain/labor/evaluation.h"
#include "domain/labor/workday.h"

namespace atoms::labor {

namespace {

namespace chr = std::chrono;
using site::Seconds;

// `dayText` is day.day formatted (once for all the day's findings).
void describeDay(const Workday& day, const std::string& dayText, RuleEvaluation& e) {
  e.input.set("workday", dayText);
  e.input.set("workMinutes", day.work.count() / 60);
  e.input.set("punched", day.punched);
}

std::string ordinal(std::int64_t n) {
  const std::int64_t tens = n % 100;
  const char* suffix = (tens >= 11 && tens <= 13) ? "th"
                       : n % 10 == 1              ? "st"
                       : n % 10 == 2              ? "nd"
                       : n % 10 == 3              ? "rd"
                                                  : "th";
  return std::to_string(n) + suffix;
}

// "the end of the 5th hour" or "4 h 30 min".
std::string workMarkText(Seconds mark) {
  const std::int64_t minutes = mark.count() / 60;
  return minutes % 60 == 0 ? "the end of the " + ordinal(minutes / 60) + " hour"
                           : durationText(mark);
}

// When a meal may start: "before the end of the 5th hour of work (by 14:00)", or with an
// earliest start "after the end of the 2nd hour and before the end of the 4th hour of work
// (between 11:00 and 13:00)".
// `by` is the clock time the work reaches `after`.
std::string deadlineText(const Evaluation& ev, const Workday& day, std::optional<Seconds> earliest,
                         Seconds after, const std::string& by) {
  if (!earliest) return "before " + workMarkText(after) + " of work (by " + by + ")";
  return "after " + workMarkText(*earliest) + " and before " + workMarkText(after) +
         " of work (between " + ev.clockText(whenWorkReaches(day, *earliest)) + " and " + by + ")";
}

std::optional<Seconds> minutesParam(const Rule& r, std::string_view name) {
  if (!r.has(name)) return std::nullopt;
  return Seconds{chr::minutes{r.integer(name)}};
}

// Whether `work` calls for r's meal period (see the top of this file).
bool mealDue(const Rule& r, Seconds work) {
  if (const auto from = minutesParam(r, "requiredFromWorkMinutes")) return work >= *from;
  return work > chr::minutes{r.integer("afterWorkMinutes")};
}

// A missed, late or short break: a fail that owes the rule's premium, if it has one (one per
// kind per workday: the verdict counts the costliest rule of the kind).
void owePremium(const Evaluation& ev, const Rule& r, RuleEvaluation& e) {
  e.result = EvalResult::kFail;
  if (!r.has("premium")) return;
  const PremiumAmount owed = premiumFor(r.pay("premium"), 1, {}, ev.person().hourlyRateCents);
  e.premiumMinutes = owed.minutes;
  e.premiumCents = owed.cents;
  e.extraCents = owed.extraCents;
  e.effect = VerdictKind::kAllowedWithPremium;
  e.detail += "; premium owed: " + formatCents(owed.cents);
  if (owed.minutes > 0) {
    e.detail += " (" + durationText(std::chrono::minutes{owed.minutes}) + " of pay)";
  }
}

// The nth meal period of the day: the nth gap between stretches of work. On a schedule only a
// gap long enough to be a meal period counts; from punches every break does (a short one is a
// short meal period).
const Gap* nthMeal(const Workday& day, const std::vector<Gap>& gaps, std::size_t nth,
                   Seconds length) {
  std::size_t seen = 0;
  for (const Gap& g : gaps) {
    if (!day.punched && g.span.length() < length) continue;
    if (++seen == nth) return &g;
  }
  return nullptr;
}

// The nth (1-based) meal rule of its jurisdiction, in order of afterWorkMinutes.
void judgeMeal(const Evaluation& ev, const Rule& r, std::size_t nth, const Workday& day,
               const std::string& dayText, const std::vector<Gap>& gaps, Findings& out) {
  RuleEvaluation& e = ev.addFinding(out, r.id);
  e.premiumGroup = "meal_break";
  e.premiumAlternative = r.id;
  const Seconds after = chr::minutes{r.integer("afterWorkMinutes")};
  const std::optional<Seconds> earliest = minutesParam(r, "earliestAfterWorkMinutes");
  const std::optional<Seconds> over = minutesParam(r, "forWorkOverMinutes");
  const std::optional<Seconds> upTo = minutesParam(r, "forWorkUpToMinutes");
  const Seconds length = chr::minutes{r.integer("breakMinutes")};
  describeDay(day, dayText, e);
  e.input.set("afterWorkMinutes", r.integer("afterWorkMinutes"));
  e.input.set("breakMinutes", r.integer("breakMinutes"));
  if (!day.notJudged.empty()) {
    e.result = EvalResult::kNotApplicable;
    e.detail = "meal periods: " + day.notJudged;
    return;
  }
  if ((upTo && day.work > *upTo) || (over && day.work <= *over)) {
    // Another rule of the jurisdiction covers a day of this length.
    e.result = EvalResult::kNotApplicable;
    e.detail = "this rule covers workdays of " +
               (upTo ? "at most " + durationText(*upTo) : "over " + durationText(*over)) +
               " of work; this one has " + durationText(day.work);
    return;
  }
  if (!mealDue(r, day.work)) {
    e.detail = "no meal period due for " + durationText(day.work) + " of work";
    return;
  }
  const bool waivable = r.has("waivableIfWorkAtMostMinutes") &&
                        day.work <= chr::minutes{r.integer("waivableIfWorkAtMostMinutes")};
  // The sentences below are built only on the branch that says them: most meals are on time.
  const std::string by = ev.clockText(whenWorkReaches(day, after));
  const auto deadline = [&] { return deadlineText(ev, day, earliest, after, by); };
  const auto waiver = [&]() -> std::string {
    if (!waivable) return "";
    return "; it may be waived by mutual consent, as the workday is at most " +
           durationText(chr::minutes{r.integer("waivableIfWorkAtMostMinutes")});
  };
  e.input.set("waivable", waivable);
  e.input.set("dueBy", by);
  const Gap* meal = nthMeal(day, gaps, nth, length);
  if (meal != nullptr) {
    e.input.set("mealStart", ev.clockText(meal->span.start));
    e.input.set("mealMinutes", meal->span.length().count() / 60);
  }
  const bool tooEarly = meal != nullptr && earliest && meal->workBefore < *earliest;
  const bool onTime = meal != nullptr && meal->workBefore <= after && !tooEarly;
  const bool longEnough = meal != nullptr && meal->span.length() >= length;
  if (onTime && longEnough) {
    e.detail = "meal period at " + ev.clockText(meal->span.start) + " (" +
               durationText(meal->span.length()) + ") after " + durationText(meal->workBefore) +
               " of work";
  } else if (!day.punched) {
    // Nothing is wrong with the shift: the manager plans the break. The sentence says when.
    e.detail = "a " + durationText(length) + " meal period is due " + deadline() + waiver();
    e.toPlan = true;
  } else if (waivable) {
    e.result = EvalResult::kThresholdExceeded;
    e.detail = "no full meal period in " + durationText(day.work) +
               " of work: lawful only with a mutual-consent waiver" + waiver();
  } else {
    if (meal == nullptr) {
      e.input.set("outcome", "missed");
      e.detail = "no meal period in " + durationText(day.work) + " of work; one of " +
                 durationText(length) + " was due " + deadline();
    } else {
      const char* when = tooEarly ? "early" : onTime ? "" : "late";
      e.input["outcome"] =
          longEnough ? std::string(when) : std::string("short") + (*when ? "_and_" : "") + when;
      e.detail = "the meal period at " + ev.clockText(meal->span.start);
      if (!longEnough) {
        e.detail +=
            " lasted " + durationText(meal->span.length()) + ", under " + durationText(length);
      }
      if (!onTime) {
        e.detail += std::string(longEnough ? "" : " and") + " started after " +
                    durationText(meal->workBefore) + " of work; it was due " + deadline();
      }
    }
    owePremium(ev, r, e);
  }
}

// Rest periods due for `work`: one per perWork or major fraction of it (IWC Wage Order 12(A), OAR
// 839-020-0050(2)(b) "two hours and one minute through four hours"), or per whole perWork where
// the rule says so (WAC 296-126-092(4) "for each four hours of working time"); at least one when
// the work is longer than a stretch the rule allows without one (092(4): "No employee shall be
// required to work more than three hours without a rest period"); none below the minimum.
std::int64_t restPeriodsDue(const Rule& r, Seconds work) {
  const std::int64_t minutes = work.count() / 60;
  if (r.has("notRequiredBelowMinutes") && minutes < r.integer("notRequiredBelowMinutes")) return 0;
  const std::int64_t per = r.integer("perWorkMinutes");
  if (per <= 0) return 0;
  const bool whole = r.has("fraction") && r.text("fraction") == "whole";
  std::int64_t due = minutes / per + (!whole && minutes % per > per / 2 ? 1 : 0);
  if (const auto stretch = minutesParam(r, "maxWorkWithoutRestMinutes");
      stretch && work > *stretch) {
    due = std::max<std::int64_t>(due, 1);
  }
  return due;
}

void judgeRest(const Evaluation& ev, const Rule& r, const Workday& day, const std::string& dayText,
               Findings& out) {
  RuleEvaluation& e = ev.addFinding(out, r.id);
  e.premiumGroup = "rest_break";
  e.premiumAlternative = r.id;
  const std::int64_t due = restPeriodsDue(r, day.work);
  const Seconds length = chr::minutes{r.integer("breakMinutes")};
  describeDay(day, dayText, e);
  e.input.set("due", due);
  // Said only where rest periods are due and judged (not for a day without any).
  const auto dueText = [&] {
    std::string text = std::to_string(due) + " paid " + durationText(length) + " rest period" +
                       (due == 1 ? " is" : "s are") + " due for " + durationText(day.work) +
                       " of work";
    if (const auto stretch = minutesParam(r, "maxWorkWithoutRestMinutes"); stretch && due > 0) {
      text += ", with no more than " + durationText(*stretch) + " of work without one";
    }
    return text;
  };
  if (!day.notJudged.empty()) {
    e.result = EvalResult::kNotApplicable;
    e.detail = "rest periods: " + day.notJudged;
  } else if (due == 0) {
    e.detail = "no rest period due for " + durationText(day.work) + " of work";
  } else if (!day.punched) {
    e.detail = dueText();  // the manager plans them; nothing is wrong with the shift
    e.toPlan = true;
  } else if (!ev.options().punchesRecordRestBreaks) {
    e.result = EvalResult::kNotApplicable;
    e.detail = dueText() + "; the time clock does not record rest breaks, so they are not checked";
  } else {
    std::int64_t taken = 0;
    for (const Stretch& b : day.restBreaks) taken += b.length() >= length ? 1 : 0;
    e.input.set("taken", taken);
    e.input.set("short", static_cast<std::int64_t>(day.restBreaks.size()) - taken);
    if (taken >= due) {
      e.detail = dueText() + ", " + std::to_string(taken) + " taken";
    } else {
      e.detail = dueText() + ", " + std::to_string(taken) + " taken in full";
      owePremium(ev, r, e);
    }
  }
}

}  // namespace

void checkBreaks(const Evaluation& ev, Findings& out) {
  std::vector<const Rule*> meals;
  std::vector<const Rule*> rests;
  ev.forEachRule(RuleKind::kMealBreak, [&](const Rule& r) { meals.push_back(&r); });
  ev.forEachRule(RuleKind::kRestBreak, [&](const Rule& r) { rests.push_back(&r); });
  if (meals.empty() && rests.empty()) return;
  Seconds shortestMeal = Seconds::max();
  for (const Rule* r : meals) {
    shortestMeal = std::min(shortestMeal, Seconds{chr::minutes{r->integer("breakMinutes")}});
  }
  std::optional<Workday> day = punchedWorkday(ev, shortestMeal);
  if (!day) day = scheduledWorkday(ev);
  const std::vector<Gap> gaps = gapsOf(*day);
  const std::string dayText = site::formatLocalDay(day->day);
  // The nth meal rule by the work it follows (first meal after 5 h, second after 10 h).
  std::vector<const Rule*> byOrder = meals;
  std::stable_sort(byOrder.begin(), byOrder.end(), [](const Rule* a, const Rule* b) {
    return a->integer("afterWorkMinutes") < b->integer("afterWorkMinutes");
  });
  for (const Rule* r : meals) {
    // Rules of one jurisdiction count their meals together; another jurisdiction's first meal
    // rule is again a first meal.
    std::size_t nth = 1;
    if (r->has("mealNumber")) {
      nth = static_cast<std::size_t>(std::max<std::int64_t>(1, r->integer("mealNumber")));
    } else {
      for (const Rule* o : byOrder) {
        if (o == r) break;
        if (o->jurisdiction == r->jurisdiction) ++nth;
      }
    }
    judgeMeal(ev, *r, nth, *day, dayText, gaps, out);
  }
  for (const Rule* r : rests) judgeRest(ev, *r, *day, dayText, out);
}

}  // namespace atoms::labor
