// Minimum rest between shifts (min_rest_between_shifts: the Fair Workweek "clopening" rules).
// A rest before or after S shorter than the minimum needs the person's consent when the rule
// says so (needs_consent), else it is allowed with its premium. Several jurisdictions' rules are
// alternatives for the same short rest: every one is reported, the costliest premium counts.
//
// Each rule says which earlier shift the rest is counted from (restFrom, decision 0014):
// "previous_calendar_day" (NYC, Seattle, Chicago, Oregon, Philadelphia: the rest after the
// previous day's shift or one spanning two days, so a split shift within one calendar day is not
// a short rest) or "last_shift" (Los Angeles, Berkeley: whatever shift came last). A rate premium
// is paid on the hours of the later shift inside the rest window, or on the whole later shift
// where the ordinance pays "for each shift" (premiumOn "whole_shift": Los Angeles).
#include "domain/labor/evaluation.h"

namespace atoms::labor {

namespace {

using site::Seconds;

constexpr std::string_view kRestGroup = "min_rest_between_shifts";

void checkRestRule(const Evaluation& ev, const Rule& r, Findings& out) {
  RuleEvaluation& e = ev.addFinding(out, r.id);
  const Seconds minRest = std::chrono::minutes{r.integer("minRestMinutes")};
  const bool previousDayOnly = r.text("restFrom") == "previous_calendar_day";
  const bool wholeShift = r.has("premiumOn") && r.text("premiumOn") == "whole_shift";
  // Under previous_calendar_day, an earlier shift counts only when it started on an earlier local
  // date than the later one (S starts on ev.firstDay()): a same-day split is not a rest between
  // shifts.
  const auto startDay = [&](site::Instant t) {
    return std::chrono::floor<std::chrono::days>(ev.toLocal(t));
  };
  const WorkSpan* prev = nullptr;
  const WorkSpan* next = nullptr;
  for (const WorkSpan& w : ev.work()) {
    if (w.end <= ev.start() && (prev == nullptr || w.end > prev->end) &&
        (!previousDayOnly || startDay(w.start) < ev.firstDay()))
      prev = &w;
    if (w.start >= ev.end() && (next == nullptr || w.start < next->start) &&
        (!previousDayOnly || ev.firstDay() < startDay(w.start)))
      next = &w;
  }
  // Each short rest: its length and the time of the later shift that falls inside it.
  Seconds shortest = Seconds::max();
  Seconds affected{0};
  int shortRests = 0;
  const auto rest = [&](site::Instant restStart, site::Instant laterStart, site::Instant laterEnd) {
    const Seconds gap = laterStart - restStart;
    shortest = std::min(shortest, gap);
    if (gap >= minRest) return;
    ++shortRests;
    const Seconds later{laterEnd - laterStart};
    affected += wholeShift ? later : std::min(minRest - gap, later);
  };
  if (prev != nullptr) rest(prev->end, ev.start(), ev.end());
  if (next != nullptr) rest(ev.end(), next->start, next->end);
  e.input.set("minRestMinutes", r.integer("minRestMinutes"));
  e.input.set("restFrom", r.text("restFrom"));
  if (shortest != Seconds::max()) e.input.set("restMinutes", shortest.count() / 60);
  e.premiumGroup = kRestGroup;
  e.premiumAlternative = r.id;
  if (shortRests == 0) return;
  const bool consent = r.flag("consentRequired");
  e.result = EvalResult::kThresholdExceeded;
  e.effect = consent ? VerdictKind::kNeedsConsent : VerdictKind::kAllowedWithPremium;
  if (r.has("premium")) {
    const PremiumAmount owed = premiumFor(r.pay("premium"), shortRests, affected,
                                          ev.person().hourlyRateCents, AffectedHours::kWorked);
    e.premiumMinutes = owed.minutes;
    e.premiumCents = owed.cents;
    e.extraCents = owed.extraCents;
  }
  e.input.set("consentRequired", consent);
  e.detail = "rest of " + durationText(shortest) + " between shifts, under " +
             durationText(minRest) + (consent ? "; needs the person's consent" : "");
}

}  // namespace

void checkRestBetweenShifts(const Evaluation& ev, Findings& out) {
  ev.forEachRule(RuleKind::kMinRestBetweenShifts,
                 [&](const Rule& r) { checkRestRule(ev, r, out); });
}

}  // namespace atoms::labor
