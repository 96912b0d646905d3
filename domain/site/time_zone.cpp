#include "domain/site/time_zone.h"

#include <date/tz.h>

#include <cstdio>
#include <exception>

#include "base/digits.h"

namespace atoms::site {
namespace {

date::local_seconds toDate(LocalTime t) { return date::local_seconds{t.time_since_epoch()}; }
date::sys_seconds toDate(Instant t) { return date::sys_seconds{t.time_since_epoch()}; }

}  // namespace

Result<TimeZone> TimeZone::locate(std::string_view name) {
  // locate_zone throws std::runtime_error for an unknown name, and the first call loads the
  // database (which may throw if tzdata is missing): keep both inside this boundary.
  try {
    const date::time_zone* zone = date::locate_zone(name);
    if (zone != nullptr) return TimeZone(zone, std::string(name));
  } catch (const std::exception&) {
  }
  return makeError("unknown time zone '" + std::string(name) + "'");
}

Result<Instant> TimeZone::toUtc(LocalTime local) const {
  const date::local_info info = zone_->get_info(toDate(local));
  switch (info.result) {
    case date::local_info::unique:
      return Instant{local.time_since_epoch() - info.first.offset};
    case date::local_info::nonexistent:
      return makeError("local time " + formatLocal(local) + " does not exist in " + name_ +
                       " (clocks jump from " + formatOffset(info.first.offset) + " to " +
                       formatOffset(info.second.offset) + "); give an explicit offset");
    default:
      return makeError("local time " + formatLocal(local) + " is ambiguous in " + name_ +
                       " (it occurs at " + formatOffset(info.first.offset) + " and at " +
                       formatOffset(info.second.offset) + "); give an explicit offset");
  }
}

Instant TimeZone::firstInstantFrom(LocalTime local) const {
  const date::local_info info = zone_->get_info(toDate(local));
  if (info.result == date::local_info::nonexistent) {
    return Instant{info.second.begin.time_since_epoch()};
  }
  // Unique, or ambiguous: `first` is the offset before the clocks go back, the earlier instant.
  return Instant{local.time_since_epoch() - info.first.offset};
}

LocalTime TimeZone::toLocal(Instant utc) const {
  return LocalTime{(utc + offsetAt(utc)).time_since_epoch()};
}

Seconds TimeZone::offsetAt(Instant utc) const { return zone_->get_info(toDate(utc)).offset; }

TimeZone::OffsetPeriod TimeZone::offsetPeriodAt(Instant utc) const {
  const date::sys_info info = zone_->get_info(toDate(utc));
  return {info.offset, Instant{info.begin.time_since_epoch()},
          Instant{info.end.time_since_epoch()}};
}

std::vector<Seconds> TimeZone::offsetsFor(LocalTime local) const {
  const date::local_info info = zone_->get_info(toDate(local));
  if (info.result == date::local_info::unique) return {info.first.offset};
  return {info.first.offset, info.second.offset};
}

std::string formatOffset(Seconds offset) {
  const long long total = offset.count();
  const long long magnitude = total < 0 ? -total : total;
  char buf[64];
  std::snprintf(buf, sizeof buf, "%c%02lld:%02lld", total < 0 ? '-' : '+', magnitude / 3600,
                (magnitude % 3600) / 60);
  return buf;
}

std::string formatLocal(LocalTime local) {
  const auto day = std::chrono::floor<std::chrono::days>(local);
  const std::chrono::year_month_day ymd{day};
  const std::chrono::hh_mm_ss<Seconds> tod{local - day};
  if (ymd.ok() && int(ymd.year()) >= 0 && int(ymd.year()) <= 9999) {
    // The labor engine formats times in every finding: no printf on that path.
    std::string text = isoDate(int(ymd.year()), unsigned(ymd.month()), unsigned(ymd.day()));
    text.resize(19, ':');
    text[10] = 'T';
    writeDigits(text.data() + 11, static_cast<int>(tod.hours().count()), 2);
    writeDigits(text.data() + 14, static_cast<int>(tod.minutes().count()), 2);
    writeDigits(text.data() + 17, static_cast<int>(tod.seconds().count()), 2);
    return text;
  }
  char buf[64];
  std::snprintf(
      buf, sizeof buf, "%04d-%02u-%02uT%02lld:%02lld:%02lld", int(ymd.year()),
      unsigned(ymd.month()), unsigned(ymd.day()), static_cast<long long>(tod.hours().count()),
      static_cast<long long>(tod.minutes().count()), static_cast<long long>(tod.seconds().count()));
  return buf;
}

}  // namespace atoms::site
