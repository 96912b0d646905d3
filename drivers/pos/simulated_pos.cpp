#include "drivers/pos/simulated_pos.h"

#include <algorithm>
#include <array>
#include <charconv>

namespace atoms::drivers::pos {
namespace {

using namespace std::chrono;

constexpr std::int64_t kQuarterMillis = 15 * 60 * 1000;
constexpr hours kMaxLate{72};

// Orders per quarter hour, in percent of the peak, by local hour.
constexpr std::array<int, 24> kDailyCurve{0,   0,  0,  0,  0,  0,  0,  10,  20, 25, 30, 60,
                                          100, 90, 45, 25, 30, 65, 95, 100, 80, 50, 25, 0};
// Monday first.
constexpr std::array<int, 7> kWeekday{80, 85, 90, 100, 130, 135, 110};

std::uint64_t simMix(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

std::uint64_t simDraw(std::uint64_t seed, std::int64_t quarter, std::uint64_t index,
                      std::uint64_t what) {
  return simMix(simMix(simMix(seed ^ static_cast<std::uint64_t>(quarter)) + index) + what);
}

}  // namespace

SimulatedPos::SimulatedPos(SimulatedPosOptions options) : options_(std::move(options)) {
  if (options_.revenueCenters.empty()) options_.revenueCenters.emplace_back(kDefaultRevenueCenter);
  if (options_.pageSize == 0) options_.pageSize = 1;
}

void SimulatedPos::failNext(FeedError error, int times) {
  for (int i = 0; i < times; ++i) failures_.push_back(error);
}

void SimulatedPos::ordersOfQuarter(std::int64_t quarter, std::vector<PosOrder>& out) const {
  const std::int64_t startMillis = quarter * kQuarterMillis;
  const PosTime start{milliseconds(startMillis)};
  const auto local = start + options_.utcOffset;
  const auto day = floor<days>(local);
  const auto hour = duration_cast<hours>(local - day).count();
  const unsigned weekday = std::chrono::weekday(sys_days(day.time_since_epoch())).iso_encoding();
  const std::uint64_t seed = options_.seed;
  const int percent = kDailyCurve[static_cast<std::size_t>(hour)] * kWeekday[weekday - 1];
  const auto expected = static_cast<std::uint64_t>(options_.peakOrdersPerQuarter) *
                        static_cast<std::uint64_t>(percent);  // in 1/10000 of an order
  std::uint64_t count = expected / 10000;
  if (simDraw(seed, quarter, 0, 1) % 10000 < expected % 10000) ++count;
  for (std::uint64_t i = 0; i < count; ++i) {
    const std::uint64_t r = simDraw(seed, quarter, i + 1, 2);
    PosOrder o;
    o.id = options_.source + "-" + std::to_string(quarter) + "-" + std::to_string(i);
    o.at = start + milliseconds(static_cast<std::int64_t>(r % kQuarterMillis));
    o.revenueCenter = options_.revenueCenters[(r >> 20) % options_.revenueCenters.size()];
    // A ticket between 40% and 160% of the average, in whole cents.
    o.netCents =
        options_.averageTicketCents * static_cast<std::int64_t>(40 + (r >> 28) % 121) / 100;
    o.covers = 1 + static_cast<std::int64_t>((r >> 36) % 4);
    o.updatedAt = o.at + seconds(2 + static_cast<std::int64_t>((r >> 40) % 30));
    const std::uint64_t special = simDraw(seed, quarter, i + 1, 3);
    if (options_.lateEvery > 0 && special % static_cast<std::uint64_t>(options_.lateEvery) == 0) {
      o.updatedAt = o.at + hours(1 + static_cast<std::int64_t>((special >> 16) % 71));
    }
    out.push_back(o);
    if (options_.voidEvery > 0 &&
        (special >> 8) % static_cast<std::uint64_t>(options_.voidEvery) == 0) {
      PosOrder voided = o;
      voided.version = 2;
      voided.state = OrderState::kCanceled;
      voided.updatedAt = o.updatedAt + minutes(3);
      out.push_back(voided);
    } else if (options_.returnEvery > 0 &&
               (special >> 24) % static_cast<std::uint64_t>(options_.returnEvery) == 0) {
      PosOrder ret;
      ret.id = o.id + "-r";
      ret.revenueCenter = o.revenueCenter;
      ret.at = o.updatedAt + minutes(60 + static_cast<std::int64_t>((special >> 32) % 60));
      ret.updatedAt = ret.at + seconds(5);
      ret.covers = 0;
      ret.returnOf = o.id;
      ret.returnedCents = std::max<std::int64_t>(1, o.netCents / 3);
      out.push_back(ret);
    }
  }
}

std::vector<PosOrder> SimulatedPos::ordersUpdated(PosTime from, PosTime to) const {
  std::vector<PosOrder> out;
  if (to <= from) return out;
  // An order is updated at most 72 h (and a return's few hours) after its quarter began.
  const std::int64_t first =
      (from - kMaxLate - hours(3)).time_since_epoch().count() / kQuarterMillis;
  const std::int64_t last = (to.time_since_epoch().count() - 1) / kQuarterMillis;
  std::vector<PosOrder> all;
  for (std::int64_t q = std::max<std::int64_t>(first, 0); q <= last; ++q) ordersOfQuarter(q, all);
  for (PosOrder& o : all) {
    if (o.updatedAt >= from && o.updatedAt < to) out.push_back(std::move(o));
  }
  std::stable_sort(out.begin(), out.end(), [](const PosOrder& a, const PosOrder& b) {
    return a.updatedAt != b.updatedAt ? a.updatedAt < b.updatedAt : a.id < b.id;
  });
  return out;
}

std::variant<FeedPage, FeedError> SimulatedPos::fetch(const FeedQuery& query) {
  ++fetches_;
  if (!failures_.empty()) {
    FeedError e = failures_.front();
    failures_.pop_front();
    return e;
  }
  std::size_t offset = 0;
  if (!query.page.empty()) {
    const auto [end, ec] =
        std::from_chars(query.page.data(), query.page.data() + query.page.size(), offset);
    if (ec != std::errc() || end != query.page.data() + query.page.size()) {
      return FeedError{
          FeedError::Kind::kInvalid, "simulated POS: unknown page '" + query.page + "'", {}};
    }
  }
  std::vector<PosOrder> all = ordersUpdated(query.from, query.to);
  FeedPage page;
  const std::size_t end = std::min(all.size(), offset + options_.pageSize);
  for (std::size_t i = std::min(offset, all.size()); i < end; ++i) {
    page.orders.push_back(std::move(all[i]));
  }
  if (end < all.size()) page.next = std::to_string(end);
  return page;
}

}  // namespace atoms::drivers::pos
