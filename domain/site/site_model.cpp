#include "domain/site/site_model.h"

#include <cstdio>

#include "base/digits.h"
#include "base/name_table.h"

namespace atoms::site {
namespace {

constexpr NameTable<PunchKind, 4> kPunchKindNames{{{PunchKind::kClockIn, "clock_in"},
                                                   {PunchKind::kClockOut, "clock_out"},
                                                   {PunchKind::kBreakStart, "break_start"},
                                                   {PunchKind::kBreakEnd, "break_end"}}};

template <class T>
std::map<std::string, std::size_t, std::less<>> indexOf(const std::vector<T>& items) {
  std::map<std::string, std::size_t, std::less<>> index;
  for (std::size_t i = 0; i < items.size(); ++i) index.emplace(items[i].id, i);
  return index;
}

template <class T>
const T* lookup(const std::map<std::string, std::size_t, std::less<>>& index,
                const std::vector<T>& items, std::string_view id) {
  auto it = index.find(id);
  return it == index.end() ? nullptr : &items[it->second];
}

}  // namespace

std::optional<Date> parseDate(std::string_view s) {
  if (s.size() != 10 || s[4] != '-' || s[7] != '-') return std::nullopt;
  const int y = readDigits(s, 0, 4), m = readDigits(s, 5, 2), d = readDigits(s, 8, 2);
  if (y < 0 || m < 0 || d < 0) return std::nullopt;
  Date date{std::chrono::year{y}, std::chrono::month{unsigned(m)}, std::chrono::day{unsigned(d)}};
  if (!date.ok()) return std::nullopt;
  return date;
}

std::string formatDate(Date d) {
  if (d.ok() && int(d.year()) >= 0 && int(d.year()) <= 9999) {
    return isoDate(int(d.year()), unsigned(d.month()), unsigned(d.day()));
  }
  char buf[32];
  std::snprintf(buf, sizeof buf, "%04d-%02u-%02u", int(d.year()), unsigned(d.month()),
                unsigned(d.day()));
  return buf;
}

std::string formatLocalDay(std::chrono::local_days d) { return formatDate(Date{d}); }

std::string formatTimeOfDay(int minutes) {
  std::string text(5, ':');
  writeDigits(text.data(), minutes / 60, 2);
  writeDigits(text.data() + 3, minutes % 60, 2);
  return text;
}

std::string_view punchKindName(PunchKind kind) { return nameOf(kPunchKindNames, kind); }

std::optional<PunchKind> parsePunchKind(std::string_view name) {
  return fromName(kPunchKindNames, name);
}

SiteIndex::SiteIndex(const SiteModel& model)
    : model_(&model),
      certifications_(indexOf(model.certifications)),
      stations_(indexOf(model.stations)),
      people_(indexOf(model.people)),
      shifts_(indexOf(model.shifts)),
      versions_(indexOf(model.scheduleVersions)) {}

const Certification* SiteIndex::certification(std::string_view id) const {
  return lookup(certifications_, model_->certifications, id);
}
const Station* SiteIndex::station(std::string_view id) const {
  return lookup(stations_, model_->stations, id);
}
const Person* SiteIndex::person(std::string_view id) const {
  return lookup(people_, model_->people, id);
}
const Shift* SiteIndex::shift(std::string_view id) const {
  return lookup(shifts_, model_->shifts, id);
}
const ScheduleVersion* SiteIndex::scheduleVersion(std::string_view id) const {
  return lookup(versions_, model_->scheduleVersions, id);
}

}  // namespace atoms::site
