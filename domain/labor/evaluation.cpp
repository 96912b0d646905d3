#include "domain/labor/evaluation.h"

#include <algorithm>
#include <charconv>
#include <iterator>

#include "base/digits.h"

namespace atoms::labor {

namespace chr = std::chrono;
using site::Instant;
using site::LocalTime;
using site::Seconds;

namespace {

// Eight days either side of S cover every workweek, day and rest period that S touches.
constexpr chr::days kReach{8};

Date toDate(LocalDays d) {
  const chr::year_month_day ymd{d};
  return Date{static_cast<int>(ymd.year()), static_cast<int>(static_cast<unsigned>(ymd.month())),
              static_cast<int>(static_cast<unsigned>(ymd.day()))};
}

Seconds overlap(Instant a0, Instant a1, Instant b0, Instant b1) {
  const Instant s = std::max(a0, b0);
  const Instant e = std::min(a1, b1);
  return e > s ? Seconds{e - s} : Seconds{0};
}

}  // namespace

Evaluation::Evaluation(const LaborContext& ctx, const site::Person& person,
                       const site::Shift& shift, Scope scope)
    : ctx_(ctx),
      personIndex_(nullptr),
      person_(person),
      shift_(shift),
      personIdValue_(person.id),
      shiftIdValue_(shift.id),
      start_(shift.start.utc),
      end_(shift.end.utc),
      offset_(ctx.zone_.offsetPeriodAt(start_)),
      localStart_(toLocal(start_)),
      localEnd_(toLocal(end_)),
      firstDay_(chr::floor<chr::days>(localStart_)),
      lastDay_(chr::floor<chr::days>(localEnd_ - Seconds{1})),
      ruleDate_(toDate(firstDay_)) {
  personIndex_ = ctx.personIndex(person);
  if (personIndex_ == nullptr) return;
  const Instant from = start_ - kReach;
  const Instant to = end_ + kReach;
  const auto& shifts = personIndex_->shifts;
  auto it =
      std::lower_bound(shifts.begin(), shifts.end(), from - personIndex_->longestShift,
                       [](const LaborContext::Interval& i, Instant t) { return i.start < t; });
  // One allocation: at most the shifts that start before `to`.
  const auto stop = std::lower_bound(
      it, shifts.end(), to, [](const LaborContext::Interval& i, Instant t) { return i.start < t; });
  work_.reserve(static_cast<std::size_t>(stop - it));
  for (; it != stop; ++it) {
    if (it->shiftId == shift.id || it->end <= from) continue;
    if (scope == Scope::kEarlierShifts && std::pair(it->start, std::string_view(it->shiftId)) >=
                                              std::pair(start_, std::string_view(shift.id))) {
      continue;
    }
    work_.push_back(WorkSpan{it->start, it->end, it->shiftId});
  }
  for (const LaborContext::Interval& off : personIndex_->timeOff) {
    if (off.start < end_ && off.end > start_) timeOff_.push_back(WorkSpan{off.start, off.end, {}});
  }
}

std::span<const site::Punch* const> Evaluation::punches(Instant from, Instant to) const {
  if (personIndex_ == nullptr) return {};
  const auto& all = personIndex_->punches;
  const auto byTime = [](const site::Punch* p, Instant t) { return p->at < t; };
  const auto first = std::lower_bound(all.begin(), all.end(), from, byTime);
  const auto last = std::lower_bound(first, all.end(), to, byTime);
  return {first, last};
}

namespace {

// A local time as UTC; one inside a DST gap takes the offset in force before the jump, one in
// the repeated hour its first occurrence.
Instant toInstant(const site::TimeZone& zone, LocalTime local) {
  if (auto u = zone.toUtc(local); u.ok()) return *u;
  const std::vector<Seconds> offsets = zone.offsetsFor(local);
  const Seconds off = offsets.empty() ? Seconds{0} : offsets.front();
  return Instant{local.time_since_epoch() - off};
}

}  // namespace

LocalTime Evaluation::toLocal(Instant t) const {
  if (t >= offset_.begin && t < offset_.end)
    return LocalTime{(t + offset_.offset).time_since_epoch()};
  return ctx_.zone_.toLocal(t);
}

Instant Evaluation::toUtc(LocalTime local) const {
  // Away from the ends of the offset period by more than any offset differs from another (at
  // most 26 h), the local time exists exactly once, at this offset.
  constexpr chr::days kMargin{2};
  const Instant utc{local.time_since_epoch() - offset_.offset};
  if (utc >= offset_.begin + kMargin && utc < offset_.end - kMargin) return utc;
  return toInstant(ctx_.zone_, local);
}

Instant Evaluation::dayStart(LocalDays d) const { return toUtc(LocalTime{d}); }

LocalDays Evaluation::workdayOf(LocalTime t) const {
  return chr::floor<chr::days>(t - chr::minutes{ctx_.model_->site.workdayStartMinute});
}

Instant Evaluation::workdayStart(LocalDays d) const {
  return toUtc(LocalTime{d} + chr::minutes{ctx_.model_->site.workdayStartMinute});
}

LocalDays Evaluation::weekStartOf(LocalDays d, unsigned weekStart) {
  const unsigned wd = chr::weekday{d}.c_encoding();
  return d - chr::days{(wd + 7 - weekStart) % 7};
}

std::pair<Seconds, Seconds> Evaluation::worked(Instant from, Instant to) const {
  Seconds before{0};
  for (const WorkSpan& w : work_) before += overlap(w.start, w.end, from, to);
  return {before, overlap(start_, end_, from, to)};
}

bool Evaluation::schoolDay(LocalDays d) const {
  return std::binary_search(ctx_.schoolDays_.begin(), ctx_.schoolDays_.end(), d);
}

std::optional<int> Evaluation::ageOn(LocalDays d) const {
  if (!person_.birthDate) return std::nullopt;
  const site::Date& birth = *person_.birthDate;
  const chr::year_month_day on{d};
  int age = static_cast<int>(on.year()) - static_cast<int>(birth.year());
  if (std::pair(static_cast<unsigned>(on.month()), static_cast<unsigned>(on.day())) <
      std::pair(static_cast<unsigned>(birth.month()), static_cast<unsigned>(birth.day()))) {
    --age;
  }
  return age;
}

std::string Evaluation::clockText(Instant t) const {
  const LocalTime local = toLocal(t);
  const LocalDays day = chr::floor<chr::days>(local);
  const int year = static_cast<int>(chr::year_month_day{day}.year());
  // Outside formatLocal's four-digit years, its layout decides: "YYYY-MM-DDTHH:MM:SS" -> "HH:MM".
  if (year < 0 || year > 9999) return site::formatLocal(local).substr(11, 5);
  // Findings say a few clock times each: written in place, without the date around them.
  const chr::hh_mm_ss<Seconds> tod{local - day};
  std::string text(5, ':');
  writeDigits(text.data(), static_cast<int>(tod.hours().count()), 2);
  writeDigits(text.data() + 3, static_cast<int>(tod.minutes().count()), 2);
  return text;
}

RuleEvaluation& Evaluation::addFinding(Findings& out, std::string_view ruleId) const {
  RuleEvaluation& e = out.emplace_back();
  e.ruleId = ruleId;
  e.input.set("personId", personIdValue_);
  e.input.set("shiftId", shiftIdValue_);
  e.result = EvalResult::kPass;
  return e;
}

std::string durationText(Seconds time) {
  // Appended in place (findings say a few durations each, passes included): "8 h 30 min" stays
  // within the string's own buffer.
  std::string text;
  const auto append = [&text](std::int64_t n, std::string_view unit) {
    char digits[20];
    char* end = std::to_chars(std::begin(digits), std::end(digits), n).ptr;
    text.append(std::begin(digits), end).append(unit);
  };
  const bool negative = time.count() < 0;
  const std::int64_t minutes = (negative ? -time.count() : time.count()) / 60;
  if (negative) text += '-';
  if (minutes >= 60) append(minutes / 60, " h");
  if (minutes % 60 != 0 || minutes == 0) {
    if (minutes >= 60) text += ' ';
    append(minutes % 60, " min");
  }
  return text;
}

bool lowerRate(Decimal a, Decimal b) { return a.num * b.den < b.num * a.den; }

std::int64_t signedPayCents(Seconds time, std::int64_t hourlyRateCents, Decimal rate) {
  return time < Seconds{0} ? -payCents(-time, hourlyRateCents, rate)
                           : payCents(time, hourlyRateCents, rate);
}

}  // namespace atoms::labor
