#include "domain/pos/site_local_time.h"

namespace atoms::pos {
namespace {

std::optional<int> localDigits(std::string_view s, std::size_t pos, std::size_t n) {
  if (pos + n > s.size()) return std::nullopt;
  int v = 0;
  for (std::size_t i = pos; i < pos + n; ++i) {
    if (s[i] < '0' || s[i] > '9') return std::nullopt;
    v = v * 10 + (s[i] - '0');
  }
  return v;
}

}  // namespace

std::optional<drivers::pos::PosTime> parseSiteLocalTime(std::string_view s,
                                                        const site::TimeZone& zone) {
  using namespace std::chrono;
  if ((s.size() != 16 && s.size() != 19) || s[4] != '-' || s[7] != '-' ||
      (s[10] != ' ' && s[10] != 'T') || s[13] != ':' || (s.size() == 19 && s[16] != ':')) {
    return std::nullopt;
  }
  const auto y = localDigits(s, 0, 4), mo = localDigits(s, 5, 2), d = localDigits(s, 8, 2);
  const auto h = localDigits(s, 11, 2), mi = localDigits(s, 14, 2);
  const auto sec = s.size() == 19 ? localDigits(s, 17, 2) : std::optional<int>(0);
  if (!y || !mo || !d || !h || !mi || !sec || *h > 23 || *mi > 59 || *sec > 59) return std::nullopt;
  const year_month_day ymd{year(*y), month(static_cast<unsigned>(*mo)),
                           day(static_cast<unsigned>(*d))};
  if (!ymd.ok()) return std::nullopt;
  const local_seconds local = local_days(ymd) + hours(*h) + minutes(*mi) + seconds(*sec);
  const Result<site::Instant> utc = zone.toUtc(local);
  if (!utc) return std::nullopt;
  return time_point_cast<milliseconds>(*utc);
}

}  // namespace atoms::pos
