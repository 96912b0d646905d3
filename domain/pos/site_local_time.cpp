#include "domain/pos/site_local_time.h"

#include <string>

namespace atoms::pos {

std::optional<drivers::pos::PosTime> parseSiteLocalTime(std::string_view s,
                                                        const site::TimeZone& zone) {
  using namespace std::chrono;
  if ((s.size() != 16 && s.size() != 19) || (s[10] != ' ' && s[10] != 'T')) return std::nullopt;
  // The wall-clock time read as if it were UTC (one parser for both shapes), then placed in the
  // site's zone.
  std::string utcShape(s);
  utcShape[10] = 'T';
  if (utcShape.size() == 16) utcShape += ":00";
  const std::optional<drivers::pos::PosTime> wall = drivers::pos::parsePosTime(utcShape + "Z");
  if (!wall) return std::nullopt;
  const local_seconds local{floor<seconds>(*wall).time_since_epoch()};
  const Result<site::Instant> utc = zone.toUtc(local);
  if (!utc) return std::nullopt;
  return time_point_cast<milliseconds>(*utc);
}

}  // namespace atoms::pos
