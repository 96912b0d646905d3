#include "domain/forecast/staffing.h"

#include <algorithm>
#include <cmath>

namespace atoms::forecast {

bool drivesCenter(const LaborStandard& standard, std::string_view center) {
  return standard.revenueCenters.empty() ||
         std::find(standard.revenueCenters.begin(), standard.revenueCenters.end(), center) !=
             standard.revenueCenters.end();
}

Status validateLaborStandard(const LaborStandard& s) {
  const auto bad = [&](const std::string& what) {
    return Status(makeError("labor standard \"" + s.station + "\": " + what, ErrorKind::kInvalid));
  };
  if (s.station.empty()) return makeError("labor standard without a station", ErrorKind::kInvalid);
  if (!std::isfinite(s.unitsPerHead) || s.unitsPerHead < 0) {
    return bad("units per head must be 0 or more");
  }
  if (s.periodMinutes < kIntervalMinutes || s.periodMinutes > 60 ||
      s.periodMinutes % kIntervalMinutes != 0) {
    return bad("the period must be 15, 30, 45 or 60 minutes");
  }
  if (s.minimumHeads < 0 || s.maximumHeads < 0 || s.setupHeads < 0 || s.closingHeads < 0 ||
      (s.maximumHeads > 0 && s.maximumHeads < s.minimumHeads)) {
    return bad("heads must be 0 or more, and the most at least the least");
  }
  if (s.opensMinute < 0 || s.closesMinute > 24 * 60 || s.opensMinute >= s.closesMinute ||
      s.opensMinute % kIntervalMinutes != 0 || s.closesMinute % kIntervalMinutes != 0) {
    return bad("hours must fall on 15-minute boundaries within the day, opening before closing");
  }
  if (s.setupMinutes < 0 || s.closingMinutes < 0 || s.setupMinutes % kIntervalMinutes != 0 ||
      s.closingMinutes % kIntervalMinutes != 0 || s.setupMinutes > s.opensMinute ||
      s.closesMinute + s.closingMinutes > 24 * 60) {
    return bad("setup and closing must be whole quarter hours within the day");
  }
  if (!(s.roundUpFrom >= 0 && s.roundUpFrom < 1)) return bad("round up from must be in [0, 1)");
  return Status::success();
}

int roundHeads(double load, double roundUpFrom) {
  if (!(load > 0)) return 0;
  const double whole = std::floor(load + 1e-9);
  return static_cast<int>(whole) + (load - whole > roundUpFrom + 1e-9 ? 1 : 0);
}

Result<std::vector<StationDay>> requiredHeads(const std::vector<RevenueCenterForecast>& forecasts,
                                              const std::vector<LaborStandard>& standards) {
  std::vector<StationDay> out;
  if (forecasts.empty()) return out;
  const std::vector<DayForecast>& days = forecasts.front().days;
  for (const RevenueCenterForecast& forecast : forecasts) {
    bool same = forecast.days.size() == days.size();
    for (std::size_t d = 0; same && d < days.size(); ++d)
      same = forecast.days[d].day == days[d].day;
    if (!same) {
      return makeError("revenue center \"" + forecast.revenueCenter +
                           "\": its forecast covers other days than the others",
                       ErrorKind::kInvalid);
    }
  }
  for (const LaborStandard& standard : standards) {
    if (Status status = validateLaborStandard(standard); !status) return status.error();
    for (const std::string& center : standard.revenueCenters) {
      const bool known = std::any_of(forecasts.begin(), forecasts.end(),
                                     [&](const auto& f) { return f.revenueCenter == center; });
      if (!known) {
        return makeError("labor standard \"" + standard.station +
                             "\": no forecast for revenue center \"" + center + "\"",
                         ErrorKind::kInvalid);
      }
    }
    const double perInterval =
        standard.unitsPerHead * kIntervalMinutes / static_cast<double>(standard.periodMinutes);
    const int opens = standard.opensMinute / kIntervalMinutes;
    const int closes = standard.closesMinute / kIntervalMinutes;
    const int setupFrom = opens - standard.setupMinutes / kIntervalMinutes;
    const int closingUntil = closes + standard.closingMinutes / kIntervalMinutes;
    for (std::size_t d = 0; d < days.size(); ++d) {
      StationDay station;
      station.station = standard.station;
      station.day = days[d].day;
      bool open = false;
      for (const RevenueCenterForecast& forecast : forecasts) {
        if (!drivesCenter(standard, forecast.revenueCenter) || !forecast.days[d].open) continue;
        open = true;
        if (perInterval <= 0) continue;
        for (std::size_t s = 0; s < station.load.size(); ++s) {
          station.load[s] += forecast.days[d].intervals[s].value(standard.driver) / perInterval;
        }
      }
      if (open) {
        for (int s = 0; s < kIntervalsPerDay; ++s) {
          const auto i = static_cast<std::size_t>(s);
          int heads = roundHeads(station.load[i], standard.roundUpFrom);
          if (s >= opens && s < closes) heads = std::max(heads, standard.minimumHeads);
          if (s >= setupFrom && s < opens) heads = std::max(heads, standard.setupHeads);
          if (s >= closes && s < closingUntil) heads = std::max(heads, standard.closingHeads);
          if (standard.maximumHeads > 0) heads = std::min(heads, standard.maximumHeads);
          station.heads[i] = heads;
        }
      }
      out.push_back(std::move(station));
    }
  }
  return out;
}

}  // namespace atoms::forecast
