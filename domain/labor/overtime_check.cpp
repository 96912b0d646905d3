// Overtime: weekly_overtime, daily_overtime, double_time and seventh_day rules.
//
// Each jurisdiction's overtime rules form one pay system in which an hour is paid once, at the
// highest rate of the rules that claim it. Each workday's work (a local day, or from
// the site's workday start to the same time the next day) is laid end to end, and every
// position of it goes to the highest-rate rule that covers it (CA: over 8 h at 1.5x, over 12 h at
// 2x; on the seventh day of work in one workweek the first 8 h at 1.5x and over 8 h at 2x, Labor
// Code 510(a)). The weekly rules then count only the time no daily rule claimed: California does
// not count an hour paid as daily or seventh-day overtime again toward the 40; a jurisdiction
// with no daily rules (the FLSA) counts every hour.
//
// What S costs is, per rule, the time it claims in S's workweeks with S minus without S (so a
// shift that makes Saturday a seventh day is charged for Saturday's new rate too). Each
// jurisdiction's findings are one alternative of the premium group "overtime" and the verdict
// counts the costliest one: federal law credits the state's daily premiums toward its weekly
// overtime (29 U.S.C. 207(e)(5), 207(h)(2)), so the employee is owed the larger, not the sum.
#include <algorithm>
#include <array>

#include "domain/labor/evaluation.h"

namespace atoms::labor {

namespace {

namespace chr = std::chrono;
using site::Seconds;

constexpr std::string_view kOvertimeGroup = "overtime";
constexpr Seconds kUnbounded = Seconds::max();

// The work of one workweek, per workday, with and without S.
struct Week {
  LocalDays start;
  std::array<Seconds, 7> with{};
  std::array<Seconds, 7> without{};
};

// One rule of the pay system being evaluated and the time it claims.
struct Claim {
  const Rule* rule = nullptr;
  Decimal rate;
  // Positions it claims: in a day's work for the daily kinds, in the week's straight time for
  // weekly_overtime.
  Seconds from{0};
  Seconds to = kUnbounded;
  int consecutiveDay = 0;  // seventh_day only
  int tieRank = 0;         // among equal rates the lower rank wins: seventh day, double, daily
  Seconds with{0};         // claimed in S's workweeks with S
  Seconds without{0};      // ... and without S

  bool weekly() const { return rule->kind == RuleKind::kWeeklyOvertime; }
};

Claim claimOf(const Rule& r) {
  Claim c;
  c.rule = &r;
  c.rate = parseDecimal(r.text("multiplier"));
  switch (r.kind) {
    case RuleKind::kSeventhDay:
      c.from = chr::minutes{r.integer("overMinutes")};
      if (r.has("upToMinutes")) c.to = chr::minutes{r.integer("upToMinutes")};
      c.consecutiveDay = static_cast<int>(r.integer("consecutiveDay"));
      c.tieRank = 0;
      break;
    case RuleKind::kDoubleTime:
      c.from = chr::minutes{r.integer("thresholdMinutes")};
      c.tieRank = 1;
      break;
    default:  // daily_overtime, weekly_overtime
      c.from = chr::minutes{r.integer("thresholdMinutes")};
      c.tieRank = 2;
      break;
  }
  return c;
}

// Day i (0-based in the week) is the Nth consecutive day of work of this workweek.
bool isConsecutiveDay(const std::array<Seconds, 7>& days, std::size_t i, int n) {
  if (n <= 0 || i + 1 < static_cast<std::size_t>(n)) return false;
  for (std::size_t d = i + 1 - static_cast<std::size_t>(n); d <= i; ++d) {
    if (days[d] <= Seconds{0}) return false;
  }
  return true;
}

// Lays `total` seconds of work end to end and gives each position to the highest-rate claim that
// `applies` and covers it, adding to claim.*slot. Returns the time no claim took (straight time).
// `cuts` is scratch space, reused to avoid an allocation per day.
template <class Applies>
Seconds partition(Seconds total, std::vector<Claim>& claims, Applies applies, Seconds Claim::*slot,
                  std::vector<Seconds>& cuts) {
  if (total <= Seconds{0}) return Seconds{0};
  // Most days and weeks stay under every threshold: when no claim starts before `total`, none
  // covers any of it, and it is all straight time.
  if (std::none_of(claims.begin(), claims.end(),
                   [&](const Claim& c) { return applies(c) && c.from < total; })) {
    return total;
  }
  cuts.assign({Seconds{0}, total});
  for (const Claim& c : claims) {
    if (!applies(c)) continue;
    for (Seconds b : {c.from, c.to}) {
      if (b > Seconds{0} && b < total) cuts.push_back(b);
    }
  }
  std::sort(cuts.begin(), cuts.end());
  cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());
  Seconds straight{0};
  for (std::size_t k = 0; k + 1 < cuts.size(); ++k) {
    const Seconds at = cuts[k];
    const Seconds length = cuts[k + 1] - at;
    Claim* best = nullptr;
    for (Claim& c : claims) {
      if (!applies(c) || at < c.from || at >= c.to) continue;
      if (best == nullptr || lowerRate(best->rate, c.rate) ||
          (!lowerRate(c.rate, best->rate) && c.tieRank < best->tieRank)) {
        best = &c;
      }
    }
    if (best != nullptr) {
      best->*slot += length;
    } else {
      straight += length;
    }
  }
  return straight;
}

// Classifies one workweek's days (with or without S). Returns the week's straight time.
Seconds classify(const std::array<Seconds, 7>& days, std::vector<Claim>& claims,
                 Seconds Claim::*slot, std::vector<Seconds>& cuts) {
  Seconds straight{0};
  for (std::size_t i = 0; i < days.size(); ++i) {
    const auto daily = [&](const Claim& c) {
      if (c.weekly()) return false;
      return c.rule->kind != RuleKind::kSeventhDay || isConsecutiveDay(days, i, c.consecutiveDay);
    };
    straight += partition(days[i], claims, daily, slot, cuts);
  }
  partition(
      straight, claims, [](const Claim& c) { return c.weekly(); }, slot, cuts);
  return straight;
}

std::vector<Week> weeksOf(const Evaluation& ev) {
  std::vector<Week> weeks;
  weeks.reserve(2);
  const unsigned weekStart = ev.model().site.workweekStart;
  const LocalDays last = Evaluation::weekStartOf(ev.lastWorkday(), weekStart);
  for (LocalDays w = Evaluation::weekStartOf(ev.firstWorkday(), weekStart); w <= last;
       w += chr::days{7}) {
    Week week{w, {}, {}};
    // Each workday ends where the next begins: eight boundaries for the seven days.
    site::Instant dayStart = ev.workdayStart(w);
    for (std::size_t i = 0; i < 7; ++i) {
      const site::Instant dayEnd = ev.workdayStart(w + chr::days{i + 1});
      const auto [before, mine] = ev.worked(dayStart, dayEnd);
      week.without[i] = before;
      week.with[i] = before + mine;
      dayStart = dayEnd;
    }
    weeks.push_back(week);
  }
  return weeks;
}

std::string rateText(const Rule& r) { return r.text("multiplier") + "x"; }

// The figures a finding reports besides the premium, from the weeks with S.
void describe(const Evaluation& ev, const Claim& c, const std::vector<Week>& weeks,
              const std::vector<Seconds>& straightWith, RuleEvaluation& e) {
  const Rule& r = *c.rule;
  e.input.set("multiplier", r.text("multiplier"));
  const Seconds added = c.with - c.without;
  // The sentence only says what S adds: a rule S leaves as it was (most of them) has none.
  const bool said = added != Seconds{0};
  std::string reached;
  if (c.weekly()) {
    Seconds total{0}, straight{0};
    for (std::size_t w = 0; w < weeks.size(); ++w) {
      Seconds sum{0};
      for (Seconds d : weeks[w].with) sum += d;
      if (sum >= total) {
        total = sum;
        straight = straightWith[w];
      }
    }
    e.input.set("thresholdMinutes", r.integer("thresholdMinutes"));
    e.input.set("weekMinutes", total.count() / 60);
    e.input.set("straightMinutes", straight.count() / 60);
    if (said) {
      reached = "the workweek reaches " + durationText(total);
      if (straight != total) {
        reached += " (" + durationText(straight) + " not paid as daily or seventh-day overtime)";
      }
      reached += ", over " + durationText(c.from);
    }
  } else if (r.kind == RuleKind::kSeventhDay) {
    e.input.set("consecutiveDay", c.consecutiveDay);
    e.input.set("overMinutes", r.integer("overMinutes"));
    if (r.has("upToMinutes")) e.input.set("upToMinutes", r.integer("upToMinutes"));
    std::int64_t daysWorked = 0;
    for (const Week& w : weeks) {
      std::int64_t n = 0;
      for (std::size_t i = 0; i < 7; ++i) {
        if (w.with[i] > Seconds{0}) ++n;
        if (isConsecutiveDay(w.with, i, c.consecutiveDay)) {
          const LocalDays day = w.start + chr::days{i};
          e.input.set("seventhDay", site::formatLocalDay(day));
          if (said) {
            reached = e.input["seventhDay"].asString() + " is day " +
                      std::to_string(c.consecutiveDay) + " of work in a row in its workweek";
          }
        }
      }
      daysWorked = std::max(daysWorked, n);
    }
    e.input.set("daysWorked", daysWorked);
  } else {
    Seconds day{0};
    for (const Week& w : weeks) {
      for (std::size_t i = 0; i < 7; ++i) {
        const LocalDays d = w.start + chr::days{i};
        if (d >= ev.firstWorkday() && d <= ev.lastWorkday()) day = std::max(day, w.with[i]);
      }
    }
    e.input.set("thresholdMinutes", r.integer("thresholdMinutes"));
    e.input.set("dayMinutes", day.count() / 60);
    if (said) {
      reached = "the workday reaches " + durationText(day) + ", over " + durationText(c.from);
    }
  }
  e.input.set("overtimeMinutes", added.count() / 60);
  if (added > Seconds{0}) {
    e.detail = "adds " + durationText(added) + " at " + rateText(r) + ": " + reached;
  } else if (added < Seconds{0}) {
    e.detail =
        durationText(-added) + " of this overtime is now paid under another rule: " + reached;
  }
}

}  // namespace

void checkOvertime(const Evaluation& ev, Findings& out) {
  // Reserved once: a jurisdiction has a few overtime rules; S touches one or two workweeks.
  std::vector<Claim> claims;
  claims.reserve(8);
  std::vector<Seconds> cuts;
  cuts.reserve(16);
  std::vector<Seconds> straightWith;
  straightWith.reserve(2);
  std::vector<Week> weeks;
  for (const Jurisdiction& j : ev.jurisdictions()) {
    claims.clear();
    for (RuleKind kind : {RuleKind::kWeeklyOvertime, RuleKind::kDailyOvertime,
                          RuleKind::kDoubleTime, RuleKind::kSeventhDay}) {
      ev.forEachRule(kind, [&](const Rule& r) {
        if (r.jurisdiction == j.code) claims.push_back(claimOf(r));
      });
    }
    if (claims.empty()) continue;
    if (weeks.empty()) weeks = weeksOf(ev);
    straightWith.clear();
    for (const Week& w : weeks) {
      straightWith.push_back(classify(w.with, claims, &Claim::with, cuts));
      classify(w.without, claims, &Claim::without, cuts);
    }
    // Report in table order: the rules live in one vector of the RuleBook.
    std::sort(claims.begin(), claims.end(),
              [](const Claim& a, const Claim& b) { return std::less<>{}(a.rule, b.rule); });
    for (const Claim& c : claims) {
      RuleEvaluation& e = ev.addFinding(out, c.rule->id);
      e.overtimeKind = c.rule->kind;
      e.premiumGroup = kOvertimeGroup;
      e.premiumAlternative = j.code;
      describe(ev, c, weeks, straightWith, e);
      const Seconds added = c.with - c.without;
      if (added != Seconds{0}) {
        e.result = EvalResult::kThresholdExceeded;
        e.premiumMinutes = added.count() / 60;
        e.premiumCents = signedPayCents(added, ev.person().hourlyRateCents, c.rate);
        e.extraCents = signedPayCents(added, ev.person().hourlyRateCents, extraRate(c.rate));
        if (added > Seconds{0}) e.effect = VerdictKind::kAllowedWithPremium;
      }
    }
  }
}

}  // namespace atoms::labor
