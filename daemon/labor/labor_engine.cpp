#include "daemon/labor/labor_engine.h"

#include <algorithm>
#include <chrono>
#include <utility>

namespace atoms::labor {

namespace chr = std::chrono;
using site::Instant;
using site::LocalTime;
using site::Seconds;
using LocalDays = chr::local_days;

namespace {

// A decimal string of the tables ("1.5", "2") as num/den; the loader validated the form.
struct Decimal {
  std::int64_t num = 1;
  std::int64_t den = 1;
};

Decimal parseDecimal(std::string_view text) {
  Decimal d{0, 1};
  bool fraction = false;
  for (char c : text) {
    if (c == '.') {
      fraction = true;
      continue;
    }
    if (c < '0' || c > '9') return Decimal{};
    d.num = d.num * 10 + (c - '0');
    if (fraction) d.den *= 10;
  }
  return d;
}

// The pay for `worked` at `factor` times the hourly rate, rounded half up to a cent.
std::int64_t payCents(Seconds worked, std::int64_t hourlyRateCents, Decimal factor) {
  const std::int64_t numerator = worked.count() * hourlyRateCents * factor.num;
  const std::int64_t denominator = 3600 * factor.den;
  return (numerator * 2 + denominator) / (denominator * 2);
}

std::int64_t minutesOf(Seconds s) { return s.count() / 60; }

Seconds overlap(Instant a0, Instant a1, Instant b0, Instant b1) {
  const Instant s = std::max(a0, b0);
  const Instant e = std::min(a1, b1);
  return e > s ? Seconds{e - s} : Seconds{0};
}

Date toDate(LocalDays d) {
  const chr::year_month_day ymd{d};
  return Date{static_cast<int>(ymd.year()), static_cast<int>(static_cast<unsigned>(ymd.month())),
              static_cast<int>(static_cast<unsigned>(ymd.day()))};
}

int ageOn(const site::Date& birth, LocalDays day) {
  const chr::year_month_day on{day};
  int age = static_cast<int>(on.year()) - static_cast<int>(birth.year());
  if (std::pair(static_cast<unsigned>(on.month()), static_cast<unsigned>(on.day())) <
      std::pair(static_cast<unsigned>(birth.month()), static_cast<unsigned>(birth.day()))) {
    --age;
  }
  return age;
}

// "HH:MM" -> minutes after midnight.
int clockMinutes(std::string_view hhmm) {
  if (hhmm.size() != 5) return 0;
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

std::string localText(LocalTime t) { return site::formatLocal(t); }

}  // namespace

// One evaluation of one assignment: the person's nearby shifts, gathered once, and the checks.
class Evaluation {
 public:
  Evaluation(const LaborContext& ctx, const site::Person& person, const site::Shift& shift,
             const LaborContext::PersonIndex* index, Scope scope)
      : ctx_(ctx), person_(person), shift_(shift) {
    start_ = shift.start.utc;
    end_ = shift.end.utc;
    localStart_ = ctx.zone_.toLocal(start_);
    localEnd_ = ctx.zone_.toLocal(end_);
    day_ = chr::floor<chr::days>(localStart_);
    ruleDate_ = toDate(day_);
    if (index == nullptr) return;
    // Eight days either side covers every week, day and rest period that S touches.
    const Instant from = start_ - chr::days{8};
    const Instant to = end_ + chr::days{8};
    auto it =
        std::lower_bound(index->shifts.begin(), index->shifts.end(), from - index->longestShift,
                         [](const LaborContext::Interval& i, Instant t) { return i.start < t; });
    for (; it != index->shifts.end() && it->start < to; ++it) {
      if (it->shiftId == shift.id || it->end <= from) continue;
      if (scope == Scope::kEarlierShifts &&
          std::pair(it->start, std::string_view(it->shiftId)) >=
              std::pair(start_, std::string_view(shift.id))) {
        continue;
      }
      work_.push_back(&*it);
    }
    for (const LaborContext::Interval& off : index->timeOff) {
      if (off.start < end_ && off.end > start_) timeOffHits_.push_back(&off);
    }
  }

  std::vector<RuleEvaluation> run() {
    checkOverlap();
    checkTimeOff();
    checkStationAge();
    checkCertifications();
    for (const Rule* r : applicable(RuleKind::kWeeklyOvertime)) checkWeekly(*r);
    std::optional<std::int64_t> doubleFrom;
    for (const Rule* r : applicable(RuleKind::kDoubleTime)) {
      const std::int64_t t = r->integer("thresholdMinutes");
      doubleFrom = doubleFrom ? std::min(*doubleFrom, t) : t;
    }
    for (const Rule* r : applicable(RuleKind::kDailyOvertime)) checkDaily(*r, doubleFrom);
    for (const Rule* r : applicable(RuleKind::kDoubleTime)) checkDaily(*r, std::nullopt);
    for (const Rule* r : applicable(RuleKind::kMinRestBetweenShifts)) checkRest(*r);
    for (const Rule* r : applicable(RuleKind::kMinorHours)) checkMinor(*r);
    return std::move(out_);
  }

 private:
  Instant utcOf(LocalTime t) const {
    if (auto u = ctx_.zone_.toUtc(t); u.ok()) return *u;
    // Midnight inside a DST gap (a few zones): take the offset in force before the jump.
    const std::vector<Seconds> offsets = ctx_.zone_.offsetsFor(t);
    const Seconds off = offsets.empty() ? Seconds{0} : offsets.front();
    return Instant{t.time_since_epoch() - off};
  }
  Instant dayStart(LocalDays d) const { return utcOf(LocalTime{d}); }

  // Local days that S touches (its last second decides the last day).
  std::vector<LocalDays> daysOfShift() const {
    std::vector<LocalDays> days;
    const LocalDays last = chr::floor<chr::days>(localEnd_ - Seconds{1});
    for (LocalDays d = day_; d <= last; d += chr::days{1}) days.push_back(d);
    return days;
  }
  LocalDays weekStartOf(LocalDays d, unsigned weekStart) const {
    const unsigned wd = chr::weekday{d}.c_encoding();
    return d - chr::days{(wd + 7 - weekStart) % 7};
  }
  std::vector<LocalDays> weeksOfShift(unsigned weekStart) const {
    std::vector<LocalDays> weeks;
    for (LocalDays d : daysOfShift()) {
      const LocalDays w = weekStartOf(d, weekStart);
      if (weeks.empty() || weeks.back() != w) weeks.push_back(w);
    }
    return weeks;
  }
  // Seconds of existing work inside [from, to) and of S inside it.
  std::pair<Seconds, Seconds> worked(Instant from, Instant to) const {
    Seconds before{0};
    for (const LaborContext::Interval* i : work_) before += overlap(i->start, i->end, from, to);
    return {before, overlap(start_, end_, from, to)};
  }

  bool covered(const Rule& r) const {
    if (r.coverage.empty()) return true;
    const EmployerSize& e = ctx_.options_.employer;
    const auto meets = [](const std::optional<std::int64_t>& have,
                          const std::optional<std::int64_t>& need) {
      return !need || !have || *have >= *need;
    };
    for (const Coverage& c : r.coverage) {
      const bool industry =
          c.industries.empty() || std::find(c.industries.begin(), c.industries.end(),
                                            ctx_.model_->site.industry) != c.industries.end();
      if (industry && meets(e.employeesGlobal, c.minEmployeesGlobal) &&
          meets(e.locationsGlobal, c.minLocationsGlobal) &&
          meets(e.employeesInJurisdiction, c.minEmployeesInJurisdiction)) {
        return true;
      }
    }
    return false;
  }
  std::vector<const Rule*> applicable(RuleKind kind) const {
    std::vector<const Rule*> rules;
    for (const Rule* r : ctx_.rules_->rulesOfKind(kind)) {
      if (r->inForceOn(ruleDate_) && covered(*r)) rules.push_back(r);
    }
    return rules;
  }

  RuleEvaluation make(std::string_view id) const {
    RuleEvaluation e;
    e.ruleId = std::string(id);
    e.input["personId"] = person_.id;
    e.input["shiftId"] = shift_.id;
    e.result = EvalResult::kPass;
    return e;
  }

  void checkOverlap() {
    RuleEvaluation e = make(kRuleOverlap);
    json::Array clashes;
    for (const LaborContext::Interval* i : work_) {
      if (i->start < end_ && i->end > start_) clashes.push_back(i->shiftId);
    }
    if (!clashes.empty()) {
      e.result = EvalResult::kFail;
      e.effect = VerdictKind::kDenied;
      e.detail = person_.id + " already works an overlapping shift";
    }
    e.input["overlapping"] = std::move(clashes);
    out_.push_back(std::move(e));
  }

  void checkTimeOff() {
    RuleEvaluation e = make(kRuleTimeOff);
    if (!timeOffHits_.empty()) {
      e.result = EvalResult::kFail;
      e.effect = VerdictKind::kDenied;
      e.detail = person_.id + " is on time off from " +
                 localText(ctx_.zone_.toLocal(timeOffHits_.front()->start));
    }
    e.input["timeOffPeriods"] = static_cast<std::int64_t>(timeOffHits_.size());
    out_.push_back(std::move(e));
  }

  void checkStationAge() {
    RuleEvaluation e = make(kRuleStationAge);
    const site::Station* station = ctx_.index_.station(shift_.stationId);
    if (station == nullptr || !station->minimumAge) {
      e.result = EvalResult::kNotApplicable;
      out_.push_back(std::move(e));
      return;
    }
    e.input["minimumAge"] = *station->minimumAge;
    if (!person_.birthDate) {
      e.result = EvalResult::kFail;
      e.effect = VerdictKind::kDenied;
      e.detail =
          "station " + station->id + " has a minimum age and " + person_.id + " has no birth date";
    } else {
      const int age = ageOn(*person_.birthDate, day_);
      e.input["age"] = age;
      if (age < *station->minimumAge) {
        e.result = EvalResult::kFail;
        e.effect = VerdictKind::kDenied;
        e.detail = person_.id + " is " + std::to_string(age) + ", under the minimum age " +
                   std::to_string(*station->minimumAge) + " of station " + station->id;
      }
    }
    out_.push_back(std::move(e));
  }

  void checkCertifications() {
    RuleEvaluation e = make(kRuleCertification);
    std::vector<std::string> required;
    if (const site::Station* station = ctx_.index_.station(shift_.stationId)) {
      required = station->requiredCertifications;
    }
    if (shift_.requiredCertification) required.push_back(*shift_.requiredCertification);
    if (required.empty()) {
      e.result = EvalResult::kNotApplicable;
      out_.push_back(std::move(e));
      return;
    }
    // Valid on every day of the shift: the last local day decides.
    const LocalDays lastDay = chr::floor<chr::days>(localEnd_ - Seconds{1});
    const site::Date last{lastDay};
    json::Array missing, expired, req;
    for (const std::string& id : required) {
      req.push_back(id);
      const auto held =
          std::find_if(person_.certifications.begin(), person_.certifications.end(),
                       [&](const site::HeldCertification& h) { return h.certificationId == id; });
      if (held == person_.certifications.end()) {
        missing.push_back(id);
      } else if (held->expires && *held->expires < last) {
        expired.push_back(id);
      }
    }
    if (!missing.empty() || !expired.empty()) {
      e.result = EvalResult::kFail;
      e.effect = VerdictKind::kDenied;
      e.detail = person_.id + (missing.empty() ? " holds an expired " : " lacks a ") +
                 "required certification for shift " + shift_.id;
    }
    e.input["required"] = std::move(req);
    e.input["missing"] = std::move(missing);
    e.input["expired"] = std::move(expired);
    out_.push_back(std::move(e));
  }

  void premiumOutcome(RuleEvaluation& e, Seconds paid, Decimal factor, RuleKind kind) {
    e.overtimeKind = kind;
    if (paid <= Seconds{0}) return;
    e.result = EvalResult::kThresholdExceeded;
    e.effect = VerdictKind::kAllowedWithPremium;
    e.premiumMinutes = minutesOf(paid);
    e.premiumCents = payCents(paid, person_.hourlyRateCents, factor);
  }

  void checkWeekly(const Rule& r) {
    RuleEvaluation e = make(r.id);
    const Seconds threshold = chr::minutes{r.integer("thresholdMinutes")};
    const Decimal factor = parseDecimal(r.text("multiplier"));
    Seconds added{0};
    Seconds weekTotal{0};
    for (LocalDays w : weeksOfShift(ctx_.options_.workweekStart)) {
      const auto [before, mine] = worked(dayStart(w), dayStart(w + chr::days{7}));
      added += std::max(Seconds{0}, before + mine - threshold) -
               std::max(Seconds{0}, before - threshold);
      weekTotal = std::max(weekTotal, before + mine);
    }
    e.input["weekMinutes"] = minutesOf(weekTotal);
    e.input["thresholdMinutes"] = r.integer("thresholdMinutes");
    e.input["multiplier"] = r.text("multiplier");
    e.input["overtimeMinutes"] = minutesOf(added);
    premiumOutcome(e, added, factor, RuleKind::kWeeklyOvertime);
    if (added > Seconds{0}) {
      e.detail = "workweek reaches " + std::to_string(minutesOf(weekTotal)) +
                 " min, over the threshold of " + std::to_string(r.integer("thresholdMinutes"));
    }
    out_.push_back(std::move(e));
  }

  // Daily overtime (capped at the double-time threshold, whose hours it does not count) or
  // double time (cap: none).
  void checkDaily(const Rule& r, std::optional<std::int64_t> capMinutes) {
    RuleEvaluation e = make(r.id);
    const Seconds threshold = chr::minutes{r.integer("thresholdMinutes")};
    const Decimal factor = parseDecimal(r.text("multiplier"));
    const auto over = [&](Seconds total) {
      if (capMinutes) total = std::min(total, Seconds{chr::minutes{*capMinutes}});
      return std::max(Seconds{0}, total - threshold);
    };
    Seconds added{0};
    Seconds dayTotal{0};
    for (LocalDays d : daysOfShift()) {
      const auto [before, mine] = worked(dayStart(d), dayStart(d + chr::days{1}));
      added += over(before + mine) - over(before);
      dayTotal = std::max(dayTotal, before + mine);
    }
    e.input["dayMinutes"] = minutesOf(dayTotal);
    e.input["thresholdMinutes"] = r.integer("thresholdMinutes");
    e.input["multiplier"] = r.text("multiplier");
    e.input["overtimeMinutes"] = minutesOf(added);
    premiumOutcome(e, added, factor, r.kind);
    if (added > Seconds{0}) {
      e.detail = "workday reaches " + std::to_string(minutesOf(dayTotal)) +
                 " min, over the threshold of " + std::to_string(r.integer("thresholdMinutes"));
    }
    out_.push_back(std::move(e));
  }

  void checkRest(const Rule& r) {
    RuleEvaluation e = make(r.id);
    const Seconds minRest = chr::minutes{r.integer("minRestMinutes")};
    const LaborContext::Interval* prev = nullptr;
    const LaborContext::Interval* next = nullptr;
    for (const LaborContext::Interval* i : work_) {
      if (i->end <= start_ && (prev == nullptr || i->end > prev->end)) prev = i;
      if (i->start >= end_ && (next == nullptr || i->start < next->start)) next = i;
    }
    // Each short rest: its length and the hours of the later shift that fall inside it.
    Seconds shortest = Seconds::max();
    Seconds affected{0};
    int shortRests = 0;
    if (prev != nullptr) {
      const Seconds gap = start_ - prev->end;
      shortest = std::min(shortest, gap);
      if (gap < minRest) {
        ++shortRests;
        affected += std::min(minRest - gap, Seconds{end_ - start_});
      }
    }
    if (next != nullptr) {
      const Seconds gap = next->start - end_;
      shortest = std::min(shortest, gap);
      if (gap < minRest) {
        ++shortRests;
        affected += std::min(minRest - gap, Seconds{next->end - next->start});
      }
    }
    e.input["minRestMinutes"] = r.integer("minRestMinutes");
    if (shortest != Seconds::max()) e.input["restMinutes"] = minutesOf(shortest);
    if (shortRests == 0) {
      out_.push_back(std::move(e));
      return;
    }
    e.result = EvalResult::kThresholdExceeded;
    e.effect =
        r.flag("consentRequired") ? VerdictKind::kNeedsConsent : VerdictKind::kAllowedWithPremium;
    if (r.has("premium")) {
      const Pay& pay = r.pay("premium");
      switch (pay.unit) {
        case PayUnit::kCents:
          e.premiumCents = pay.cents * shortRests;
          break;
        case PayUnit::kHoursOfPay:
          e.premiumCents = payCents(Seconds{3600} * shortRests, person_.hourlyRateCents,
                                    parseDecimal(pay.amount));
          break;
        case PayUnit::kRateOfAffectedHours:
          e.premiumMinutes = minutesOf(affected);
          e.premiumCents = payCents(affected, person_.hourlyRateCents, parseDecimal(pay.amount));
          break;
      }
    }
    e.input["consentRequired"] = r.flag("consentRequired");
    e.detail = "rest of " + std::to_string(minutesOf(shortest)) + " min between shifts, under " +
               std::to_string(r.integer("minRestMinutes")) +
               (r.flag("consentRequired") ? "; needs the person's consent" : "");
    out_.push_back(std::move(e));
  }

  bool schoolDay(LocalDays d) const {
    return std::binary_search(ctx_.schoolDays_.begin(), ctx_.schoolDays_.end(), d);
  }

  // The window of local day d for this rule: [start, end] as local times.
  std::pair<LocalTime, LocalTime> windowOf(const Rule& r, LocalDays d) const {
    const int startMin = clockMinutes(r.text("windowStart"));
    int endMin = clockMinutes(r.text("windowEnd"));
    if (r.has("summerWindowEnd") && r.has("summerFrom") && r.has("summerTo") &&
        monthDayIn(r.text("summerFrom"), d) <= d && d <= monthDayIn(r.text("summerTo"), d)) {
      endMin = clockMinutes(r.text("summerWindowEnd"));
    }
    if (r.has("beforeNonSchoolDayWindowEnd") && !schoolDay(d + chr::days{1})) {
      int later = clockMinutes(r.text("beforeNonSchoolDayWindowEnd"));
      if (later <= startMin) later += 1440;
      int current = endMin <= startMin ? endMin + 1440 : endMin;
      endMin = std::max(later, current);
    }
    if (endMin <= startMin) endMin += 1440;
    return {LocalTime{d} + chr::minutes{startMin}, LocalTime{d} + chr::minutes{endMin}};
  }

  void checkMinor(const Rule& r) {
    RuleEvaluation e = make(r.id);
    if (!person_.birthDate) {
      if (person_.minor) {
        e.result = EvalResult::kFail;
        e.effect = VerdictKind::kDenied;
        e.detail = person_.id + " is a minor with no birth date";
      } else {
        e.result = EvalResult::kNotApplicable;
      }
      out_.push_back(std::move(e));
      return;
    }
    const int age = ageOn(*person_.birthDate, day_);
    e.input["age"] = age;
    if (age < r.integer("minAge") || age > r.integer("maxAge")) {
      e.result = EvalResult::kNotApplicable;
      out_.push_back(std::move(e));
      return;
    }
    std::vector<std::string> problems;
    // Time window: S lies inside the window of its start day (or of the day before, for a
    // window that runs past midnight).
    bool inside = false;
    for (LocalDays d : {day_ - chr::days{1}, day_}) {
      const auto [from, to] = windowOf(r, d);
      if (localStart_ >= from && localEnd_ <= to) inside = true;
    }
    const auto [winFrom, winTo] = windowOf(r, day_);
    e.input["windowStart"] = localText(winFrom);
    e.input["windowEnd"] = localText(winTo);
    if (!inside) {
      problems.push_back("shift " + localText(localStart_) + ".." + localText(localEnd_) +
                         " is outside the window " + localText(winFrom) + ".." + localText(winTo));
    }
    for (LocalDays d : daysOfShift()) {
      const bool school = schoolDay(d);
      const std::string_view param = school ? "schoolDayMaxMinutes" : "nonSchoolDayMaxMinutes";
      if (!r.has(param)) continue;
      const auto [before, mine] = worked(dayStart(d), dayStart(d + chr::days{1}));
      const std::int64_t total = minutesOf(before + mine);
      e.input["dayMinutes"] = total;
      if (total > r.integer(param)) {
        problems.push_back(std::to_string(total) + " min on a " +
                           (school ? "school" : "non-school") + " day, over " +
                           std::to_string(r.integer(param)));
      }
    }
    const unsigned weekStart = ctx_.model_->schoolCalendar.weekStart;
    for (LocalDays w : weeksOfShift(weekStart)) {
      bool schoolWeek = false;
      for (int i = 0; i < 7; ++i) schoolWeek = schoolWeek || schoolDay(w + chr::days{i});
      const std::string_view param =
          schoolWeek ? "schoolWeekMaxMinutes" : "nonSchoolWeekMaxMinutes";
      if (!r.has(param)) continue;
      const auto [before, mine] = worked(dayStart(w), dayStart(w + chr::days{7}));
      const std::int64_t total = minutesOf(before + mine);
      e.input["weekMinutes"] = total;
      if (total > r.integer(param)) {
        problems.push_back(std::to_string(total) + " min in a " +
                           (schoolWeek ? "school" : "non-school") + " week, over " +
                           std::to_string(r.integer(param)));
      }
    }
    if (!problems.empty()) {
      e.result = EvalResult::kFail;
      e.effect = VerdictKind::kDenied;
      e.detail = person_.id + " (age " + std::to_string(age) + "): ";
      for (std::size_t i = 0; i < problems.size(); ++i) {
        e.detail += (i == 0 ? "" : "; ") + problems[i];
      }
    }
    out_.push_back(std::move(e));
  }

  const LaborContext& ctx_;
  const site::Person& person_;
  const site::Shift& shift_;
  Instant start_, end_;
  LocalTime localStart_, localEnd_;
  LocalDays day_;
  Date ruleDate_;
  std::vector<const LaborContext::Interval*> work_;
  std::vector<const LaborContext::Interval*> timeOffHits_;
  std::vector<RuleEvaluation> out_;
};

LaborContext::LaborContext(const site::SiteModel& model, const RuleBook& rules,
                           LaborOptions options, site::TimeZone zone)
    : model_(&model), rules_(&rules), options_(options), zone_(std::move(zone)), index_(model) {}

Result<LaborContext> LaborContext::build(const site::SiteModel& model, const RuleBook& rules,
                                         LaborOptions options) {
  auto zone = site::TimeZone::locate(model.site.timeZone);
  if (!zone.ok()) return Error{"site " + model.site.id + ": " + zone.message()};
  LaborContext ctx(model, rules, options, std::move(*zone));
  for (const site::Person& p : model.people) {
    PersonIndex& idx = ctx.people_[p.id];
    for (const site::TimeOff& off : p.timeOff) {
      idx.timeOff.push_back(Interval{off.start.utc, off.end.utc, {}});
    }
  }
  for (const site::Shift& s : model.shifts) {
    if (!s.assignee) continue;
    PersonIndex& idx = ctx.people_[*s.assignee];
    idx.shifts.push_back(Interval{s.start.utc, s.end.utc, s.id});
    idx.longestShift = std::max(idx.longestShift, Seconds{s.end.utc - s.start.utc});
  }
  const auto byStart = [](const Interval& a, const Interval& b) { return a.start < b.start; };
  for (auto& [id, idx] : ctx.people_) {
    std::sort(idx.shifts.begin(), idx.shifts.end(), byStart);
    std::sort(idx.timeOff.begin(), idx.timeOff.end(), byStart);
  }
  for (const site::Date& d : model.schoolCalendar.schoolDays) {
    ctx.schoolDays_.push_back(LocalDays{d});
  }
  std::sort(ctx.schoolDays_.begin(), ctx.schoolDays_.end());
  return ctx;
}

Result<Verdict> LaborContext::evaluate(std::string_view personId, std::string_view shiftId,
                                       Scope scope) const {
  const site::Shift* shift = index_.shift(shiftId);
  if (shift == nullptr) return Error{"unknown shift '" + std::string(shiftId) + "'"};
  return evaluate(personId, *shift, scope);
}

Result<Verdict> LaborContext::evaluate(std::string_view personId, const site::Shift& shift,
                                       Scope scope) const {
  const site::Person* person = index_.person(personId);
  if (person == nullptr) return Error{"unknown person '" + std::string(personId) + "'"};
  if (shift.end.utc <= shift.start.utc) {
    return Error{"shift '" + shift.id + "' does not end after it starts"};
  }
  const auto found = people_.find(personId);
  Evaluation evaluation(*this, *person, shift, found == people_.end() ? nullptr : &found->second,
                        scope);
  return Verdict::combine(evaluation.run(), person->managerOfRecord);
}

}  // namespace atoms::labor
