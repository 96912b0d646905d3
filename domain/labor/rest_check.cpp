// Minimum rest between shifts (min_rest_between_shifts: the Fair Workweek "clopening" rules).
// A rest before or after S shorter than the minimum needs the person's consent when the rule
// says so (needs_consent), else it is allowed with its premium. Several jurisdictions' rules are
// alternatives for the same short rest: every one is reported, the costliest premium counts.
#include "domain/labor/evaluation.h"

namespace atoms::labor {

namespace {

using site::Seconds;

constexpr std::string_view kRestGroup = "min_rest_between_shifts";

void checkRestRule(const Evaluation& ev, const Rule& r, Findings& out) {
  RuleEvaluation e = ev.finding(r.id);
  const Seconds minRest = std::chrono::minutes{r.integer("minRestMinutes")};
  const WorkSpan* prev = nullptr;
  const WorkSpan* next = nullptr;
  for (const WorkSpan& w : ev.work()) {
    if (w.end <= ev.start() && (prev == nullptr || w.end > prev->end)) prev = &w;
    if (w.start >= ev.end() && (next == nullptr || w.start < next->start)) next = &w;
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
    affected += std::min(minRest - gap, Seconds{laterEnd - laterStart});
  };
  if (prev != nullptr) rest(prev->end, ev.start(), ev.end());
  if (next != nullptr) rest(ev.end(), next->start, next->end);
  e.input["minRestMinutes"] = r.integer("minRestMinutes");
  if (shortest != Seconds::max()) e.input["restMinutes"] = shortest.count() / 60;
  e.premiumGroup = kRestGroup;
  e.premiumAlternative = r.id;
  if (shortRests == 0) {
    out.push_back(std::move(e));
    return;
  }
  const bool consent = r.flag("consentRequired");
  e.result = EvalResult::kThresholdExceeded;
  e.effect = consent ? VerdictKind::kNeedsConsent : VerdictKind::kAllowedWithPremium;
  if (r.has("premium")) {
    const PremiumAmount owed =
        premiumFor(r.pay("premium"), shortRests, affected, ev.person().hourlyRateCents);
    e.premiumMinutes = owed.minutes;
    e.premiumCents = owed.cents;
  }
  e.input["consentRequired"] = consent;
  e.detail = "rest of " + durationText(shortest) + " between shifts, under " +
             durationText(minRest) + (consent ? "; needs the person's consent" : "");
  out.push_back(std::move(e));
}

}  // namespace

void checkRestBetweenShifts(const Evaluation& ev, Findings& out) {
  ev.forEachRule(RuleKind::kMinRestBetweenShifts,
                 [&](const Rule& r) { checkRestRule(ev, r, out); });
}

}  // namespace atoms::labor
