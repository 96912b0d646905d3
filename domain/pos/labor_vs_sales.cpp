#include "domain/pos/labor_vs_sales.h"

#include <algorithm>
#include <set>

namespace atoms::pos {
namespace {

namespace chr = std::chrono;

constexpr std::int64_t kSecondsPerInterval = chr::seconds(kIntervalLength).count();

// a / b rounded half up, for a >= 0 and b > 0.
std::int64_t roundedQuotient(std::int64_t a, std::int64_t b) { return (2 * a + b) / (2 * b); }

// The cost of the first `elapsed` seconds of `span`: regular pay rounded to a cent plus the
// premium's pro-rata part. Monotonic in `elapsed`, and the whole cost at the span's length, so
// the differences over a partition add up exactly.
std::int64_t costUpTo(const WorkSpan& span, std::int64_t elapsed) {
  const std::int64_t length = (span.end - span.start).count();
  const std::int64_t pay = roundedQuotient(elapsed * span.hourlyRateCents, 3600);
  const std::int64_t premium = length > 0 ? span.extraCents * elapsed / length : 0;
  return pay + premium;
}

// The figures of `spans` over [from, to): minutes, cost, and distinct people.
LaborFigures laborOver(const std::vector<WorkSpan>& spans, site::Instant from, site::Instant to) {
  LaborFigures out;
  std::set<std::string> people;
  for (const WorkSpan& s : spans) {
    if (s.end <= from || s.start >= to) continue;
    const LaborFigures share = spanShare(s, from, to);
    out.minutes += share.minutes;
    out.costCents += share.costCents;
    people.insert(s.personId);
  }
  out.heads = static_cast<std::int64_t>(people.size());
  return out;
}

// The spans that started before `now` (a punch a few minutes ahead of the box's clock waits).
std::vector<WorkSpan> startedBefore(const std::vector<WorkSpan>& spans, site::Instant now) {
  std::vector<WorkSpan> out;
  for (const WorkSpan& s : spans) {
    if (s.start >= now) continue;
    out.push_back(s);
  }
  return out;
}

std::int64_t salesOver(const std::vector<SalesInterval>& sales, site::Instant from,
                       site::Instant to) {
  std::int64_t sum = 0;
  for (const SalesInterval& s : sales) {
    if (s.start >= from && s.start < to) sum += s.netCents;
  }
  return sum;
}

std::int64_t expectedAt(const std::vector<ExpectedSales>& expected, site::Instant start) {
  std::int64_t sum = 0;
  for (const ExpectedSales& e : expected) {
    if (e.start == start) sum += e.netCents;
  }
  return sum;
}

void addTotals(LaborSalesTotals& into, const LaborSalesTotals& more) {
  into.laborMinutes += more.laborMinutes;
  into.laborCents += more.laborCents;
  into.salesCents += more.salesCents;
}

}  // namespace

std::optional<std::int64_t> LaborSalesTotals::laborBasisPoints() const {
  if (salesCents <= 0) return std::nullopt;
  return roundedQuotient(laborCents * 10000, salesCents);
}

std::optional<std::int64_t> LaborSalesTotals::salesPerLaborHourCents() const {
  if (laborMinutes <= 0) return std::nullopt;
  const std::int64_t perHour = salesCents * 60;
  // Half up away from zero: a day of refunds may be negative.
  return perHour >= 0 ? roundedQuotient(perHour, laborMinutes)
                      : -roundedQuotient(-perHour, laborMinutes);
}

LaborFigures spanShare(const WorkSpan& span, site::Instant from, site::Instant to) {
  const site::Instant a = std::max(from, span.start);
  const site::Instant b = std::min(to, span.end);
  if (b <= a) return {};
  const std::int64_t ea = (a - span.start).count();
  const std::int64_t eb = (b - span.start).count();
  LaborFigures out;
  out.heads = 1;
  out.minutes = eb / 60 - ea / 60;
  out.costCents = costUpTo(span, eb) - costUpTo(span, ea);
  return out;
}

std::pair<site::Instant, site::Instant> dayBounds(const site::TimeZone& zone, LocalDay day) {
  return {zone.startOfDay(day), zone.startOfDay(day + chr::days(1))};
}

Result<DayFigures> laborVsSalesDay(const LaborVsSalesInput& input, const site::TimeZone& zone,
                                   LocalDay day, site::Instant now) {
  const auto [dayStart, dayEnd] = dayBounds(zone, day);
  const std::vector<WorkSpan> worked = startedBefore(input.actual, now);

  DayFigures out;
  out.day = day;
  out.expectationSource = input.expectationSource;
  for (site::Instant t = dayStart; t < dayEnd; t += kIntervalLength) {
    const site::Instant end = t + kIntervalLength;
    IntervalFigures i;
    i.start = t;
    i.localStart = zone.toLocal(t);
    i.scheduled = laborOver(input.scheduled, t, end);
    i.actual = laborOver(worked, t, std::min(end, std::max(now, t)));
    i.salesCents = t < now ? salesOver(input.sales, t, end) : 0;
    i.expectedCents = expectedAt(input.expected, t);
    // From now on, the schedule: its part of [max(t, now), end).
    const site::Instant rest = std::clamp(now, t, end);
    const LaborFigures ahead = laborOver(input.scheduled, rest, end);
    i.projectedCostCents = i.actual.costCents + ahead.costCents;
    i.projectedMinutes = i.actual.minutes + ahead.minutes;
    const std::int64_t left = (end - rest).count();
    const std::int64_t expectedLeft =
        i.expectedCents >= 0 ? roundedQuotient(i.expectedCents * left, kSecondsPerInterval)
                             : -roundedQuotient(-i.expectedCents * left, kSecondsPerInterval);
    i.projectedSalesCents = i.salesCents + expectedLeft;
    out.intervals.push_back(i);

    out.soFar.laborMinutes += i.actual.minutes;
    out.soFar.laborCents += i.actual.costCents;
    out.soFar.salesCents += i.salesCents;
    out.projected.laborMinutes += i.projectedMinutes;
    out.projected.laborCents += i.projectedCostCents;
    out.projected.salesCents += i.projectedSalesCents;
  }
  out.scheduled = laborOver(input.scheduled, dayStart, dayEnd);
  return out;
}

Result<WeekFigures> laborVsSalesWeek(const LaborVsSalesInput& input, const site::TimeZone& zone,
                                     LocalDay first, site::Instant now) {
  WeekFigures out;
  out.first = first;
  for (int d = 0; d < 7; ++d) {
    auto day = laborVsSalesDay(input, zone, first + chr::days(d), now);
    if (!day) return day.error();
    day->intervals.clear();
    out.scheduled.minutes += day->scheduled.minutes;
    out.scheduled.costCents += day->scheduled.costCents;
    addTotals(out.soFar, day->soFar);
    addTotals(out.projected, day->projected);
    out.days.push_back(std::move(*day));
  }
  out.scheduled.heads =
      laborOver(input.scheduled, zone.startOfDay(first), zone.startOfDay(first + chr::days(7)))
          .heads;
  return out;
}

}  // namespace atoms::pos
