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
// the rest periods), so each kind is a premium group whose rules are alternatives.
#include <algorithm>

#include "domain/labor/evaluation.h"
#include "domain/labor/workday.h"

namespace atoms::labor {

namespace {

namespace chr = std::chrono;
using site::Seconds;

void describeDay(const Workday& day, RuleEvaluation& e) {
  e.input["workday"] = site::formatLocal(site::LocalTime{day.day}).substr(0, 10);
  e.input["workMinutes"] = day.work.count() / 60;
  e.input["punched"] = day.punched;
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

// "before the end of the 5th hour of work (by 14:00)".
std::string deadlineText(const Evaluation& ev, const Workday& day, Seconds after) {
  const std::int64_t minutes = after.count() / 60;
  std::string text = minutes % 60 == 0
                         ? "before the end of the " + ordinal(minutes / 60) + " hour of work"
                         : "before " + durationText(after) + " of work";
  return text + " (by " + ev.clockText(whenWorkReaches(day, after)) + ")";
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
               const std::vector<Gap>& gaps, Findings& out) {
  RuleEvaluation e = ev.finding(r.id);
  e.premiumGroup = "meal_break";
  e.premiumAlternative = r.id;
  const Seconds after = chr::minutes{r.integer("afterWorkMinutes")};
  const Seconds length = chr::minutes{r.integer("breakMinutes")};
  describeDay(day, e);
  e.input["afterWorkMinutes"] = r.integer("afterWorkMinutes");
  e.input["breakMinutes"] = r.integer("breakMinutes");
  if (!day.notJudged.empty()) {
    e.result = EvalResult::kNotApplicable;
    e.detail = "meal periods: " + day.notJudged;
    out.push_back(std::move(e));
    return;
  }
  if (day.work <= after) {
    e.detail = "no meal period due for " + durationText(day.work) + " of work";
    out.push_back(std::move(e));
    return;
  }
  const bool waivable = r.has("waivableIfWorkAtMostMinutes") &&
                        day.work <= chr::minutes{r.integer("waivableIfWorkAtMostMinutes")};
  const std::string deadline = deadlineText(ev, day, after);
  const std::string waiver =
      waivable ? "; it may be waived by mutual consent, as the workday is at most " +
                     durationText(chr::minutes{r.integer("waivableIfWorkAtMostMinutes")})
               : "";
  e.input["waivable"] = waivable;
  e.input["dueBy"] = ev.clockText(whenWorkReaches(day, after));
  const Gap* meal = nthMeal(day, gaps, nth, length);
  if (meal != nullptr) {
    e.input["mealStart"] = ev.clockText(meal->span.start);
    e.input["mealMinutes"] = meal->span.length().count() / 60;
  }
  const bool onTime = meal != nullptr && meal->workBefore <= after;
  const bool longEnough = meal != nullptr && meal->span.length() >= length;
  if (onTime && longEnough) {
    e.detail = "meal period at " + ev.clockText(meal->span.start) + " (" +
               durationText(meal->span.length()) + ") after " + durationText(meal->workBefore) +
               " of work";
  } else if (!day.punched) {
    // Nothing is wrong with the shift: the manager plans the break. The sentence says when.
    e.detail = "a " + durationText(length) + " meal period is due " + deadline + waiver;
    e.toPlan = true;
  } else if (waivable) {
    e.result = EvalResult::kThresholdExceeded;
    e.detail = "no full meal period in " + durationText(day.work) +
               " of work: lawful only with a mutual-consent waiver" + waiver;
  } else {
    if (meal == nullptr) {
      e.input["outcome"] = "missed";
      e.detail = "no meal period in " + durationText(day.work) + " of work; one of " +
                 durationText(length) + " was due " + deadline;
    } else {
      e.input["outcome"] = !longEnough ? (onTime ? "short" : "short_and_late") : "late";
      e.detail = "the meal period at " + ev.clockText(meal->span.start);
      if (!longEnough) {
        e.detail +=
            " lasted " + durationText(meal->span.length()) + ", under " + durationText(length);
      }
      if (!onTime) {
        e.detail += std::string(longEnough ? "" : " and") + " started after " +
                    durationText(meal->workBefore) + " of work; it was due " + deadline;
      }
    }
    owePremium(ev, r, e);
  }
  out.push_back(std::move(e));
}

// Rest periods due for `work`: one per perWork or major fraction of it, none below the minimum.
std::int64_t restPeriodsDue(const Rule& r, Seconds work) {
  const std::int64_t minutes = work.count() / 60;
  if (r.has("notRequiredBelowMinutes") && minutes < r.integer("notRequiredBelowMinutes")) return 0;
  const std::int64_t per = r.integer("perWorkMinutes");
  if (per <= 0) return 0;
  return minutes / per + (minutes % per > per / 2 ? 1 : 0);
}

void judgeRest(const Evaluation& ev, const Rule& r, const Workday& day, Findings& out) {
  RuleEvaluation e = ev.finding(r.id);
  e.premiumGroup = "rest_break";
  e.premiumAlternative = r.id;
  const std::int64_t due = restPeriodsDue(r, day.work);
  const Seconds length = chr::minutes{r.integer("breakMinutes")};
  describeDay(day, e);
  e.input["due"] = due;
  const std::string dueText = std::to_string(due) + " paid " + durationText(length) +
                              " rest period" + (due == 1 ? " is" : "s are") + " due for " +
                              durationText(day.work) + " of work";
  if (!day.notJudged.empty()) {
    e.result = EvalResult::kNotApplicable;
    e.detail = "rest periods: " + day.notJudged;
  } else if (due == 0) {
    e.detail = "no rest period due for " + durationText(day.work) + " of work";
  } else if (!day.punched) {
    e.detail = dueText;  // the manager plans them; nothing is wrong with the shift
    e.toPlan = true;
  } else if (!ev.options().punchesRecordRestBreaks) {
    e.result = EvalResult::kNotApplicable;
    e.detail = dueText + "; the time clock does not record rest breaks, so they are not checked";
  } else {
    std::int64_t taken = 0;
    for (const Stretch& b : day.restBreaks) taken += b.length() >= length ? 1 : 0;
    e.input["taken"] = taken;
    e.input["short"] = static_cast<std::int64_t>(day.restBreaks.size()) - taken;
    if (taken >= due) {
      e.detail = dueText + ", " + std::to_string(taken) + " taken";
    } else {
      e.detail = dueText + ", " + std::to_string(taken) + " taken in full";
      owePremium(ev, r, e);
    }
  }
  out.push_back(std::move(e));
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
  // The nth meal rule by the work it follows (first meal after 5 h, second after 10 h).
  std::vector<const Rule*> byOrder = meals;
  std::stable_sort(byOrder.begin(), byOrder.end(), [](const Rule* a, const Rule* b) {
    return a->integer("afterWorkMinutes") < b->integer("afterWorkMinutes");
  });
  for (const Rule* r : meals) {
    // Rules of one jurisdiction count their meals together; another jurisdiction's first meal
    // rule is again a first meal.
    std::size_t nth = 1;
    for (const Rule* o : byOrder) {
      if (o == r) break;
      if (o->jurisdiction == r->jurisdiction) ++nth;
    }
    judgeMeal(ev, *r, nth, *day, gaps, out);
  }
  for (const Rule* r : rests) judgeRest(ev, *r, *day, out);
}

}  // namespace atoms::labor
