#include "tests/support/synthetic_site.h"

#include <algorithm>
#include <array>
#include <cstdio>
#include <optional>
#include <stdexcept>
#include <string_view>
#include <tuple>
#include <utility>

#include "domain/site/time_zone.h"

namespace atoms::testing {
namespace {

namespace chr = std::chrono;
using site::LocalTime;

// splitmix64: tiny, good enough for test data, and the same sequence everywhere.
class Random {
 public:
  explicit Random(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next() {
    std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  // Uniform in [0, n) (n > 0; the modulo bias is irrelevant here).
  int below(int n) { return static_cast<int>(next() % static_cast<std::uint64_t>(n)); }
  int between(int lo, int hi) { return lo + below(hi - lo + 1); }
  bool percent(int p) { return below(100) < p; }

 private:
  std::uint64_t state_;
};

struct StationSpec {
  std::string_view id;
  std::string_view name;
  std::string_view certification;  // empty: none
  int minimumAge;                  // 0: none
  bool minorsMayWork;
};

// The first `spec.stations` of these, in this order.
constexpr std::array<StationSpec, 10> kStations{{
    {"line", "Line", "food-handler", 0, false},
    {"dish", "Dish", "", 0, true},
    {"floor", "Floor", "", 0, true},
    {"bar", "Bar", "rbs", 21, false},
    {"prep", "Prep", "food-handler", 0, false},
    {"host", "Host stand", "", 0, true},
    {"grill", "Grill", "food-handler", 18, false},
    {"cashier", "Counter", "", 0, true},
    {"expo", "Expo", "food-handler", 0, false},
    {"stock", "Stockroom", "", 0, true},
}};

struct Template {
  int startMinute;
  int lengthMinutes;
};
constexpr Template kOpen{6 * 60, 8 * 60};
constexpr Template kMorning{7 * 60, 6 * 60};
constexpr Template kLunch{11 * 60, 4 * 60};
constexpr Template kMid{11 * 60, 8 * 60};
constexpr Template kSwing{14 * 60, 8 * 60};
constexpr Template kClose{16 * 60, 8 * 60};
constexpr Template kLate{17 * 60, 7 * 60};
constexpr Template kEvening{17 * 60, 4 * 60};
constexpr Template kDouble{10 * 60, 11 * 60};
constexpr Template kAfterSchool{15 * 60 + 30, 3 * 60};  // minors 14-15 on a school day
constexpr Template kWeekendDay{10 * 60, 6 * 60};
constexpr std::array<Template, 7> kAdultTemplates{kOpen,  kMorning, kLunch, kMid,
                                                  kSwing, kClose,   kLate};

constexpr std::array<std::string_view, 24> kFirstNames{
    "Ana",   "Ben",   "Carmen", "Dana", "Eli", "Farah", "Gabe", "Hana",
    "Imani", "Jamal", "Keisha", "Luis", "Mei", "Nadia", "Omar", "Priya",
    "Quinn", "Rosa",  "Sam",    "Tuan", "Uma", "Vic",   "Will", "Yara"};
constexpr std::array<std::string_view, 20> kLastNames{
    "Alvarez", "Brown",   "Chen",   "Dubois", "Eriksen", "Foster", "Garcia",
    "Haddad",  "Ibrahim", "Jensen", "Kim",    "Lopez",   "Martin", "Nguyen",
    "Okafor",  "Park",    "Raman",  "Souza",  "Tran",    "Warsame"};

std::string numbered(const char* format, int n) {
  char buf[32];
  std::snprintf(buf, sizeof buf, format, n);
  return buf;
}

class Generator {
 public:
  explicit Generator(const SyntheticSiteSpec& spec)
      : spec_(spec), random_(spec.seed), zone_(locate(spec.timeZone)) {}

  site::SiteModel run() {
    site::SiteModel m;
    m.site = site::SiteInfo{"synthetic-" + std::to_string(spec_.seed), "Synthetic site",
                            spec_.timeZone, spec_.jurisdictions, spec_.industry};
    m.certifications = {{"food-handler", "Food handler card"},
                        {"rbs", "Responsible beverage service"},
                        {"first-aid", "First aid / CPR"}};
    const int stationCount = std::clamp(spec_.stations, 1, static_cast<int>(kStations.size()));
    for (int i = 0; i < stationCount; ++i) {
      const StationSpec& s = kStations[static_cast<std::size_t>(i)];
      site::Station station{std::string(s.id), std::string(s.name), {}, std::nullopt};
      if (!s.certification.empty()) station.requiredCertifications.emplace_back(s.certification);
      if (s.minimumAge > 0) station.minimumAge = s.minimumAge;
      m.stations.push_back(std::move(station));
    }
    addPeople(m, stationCount);
    addShifts(m, stationCount);
    addVersions(m);
    addSchoolCalendar(m);
    return m;
  }

 private:
  static site::TimeZone locate(const std::string& name) {
    auto zone = site::TimeZone::locate(name);
    if (!zone) throw std::invalid_argument("synthetic site: " + zone.message());
    return *zone;
  }

  chr::local_days day(int offset) const {
    return chr::local_days{spec_.firstDay} + chr::days{offset};
  }
  int days() const { return spec_.weeks * 7; }

  std::optional<site::Stamp> stamp(LocalTime local) const {
    auto utc = zone_.toUtc(local);
    if (!utc) return std::nullopt;  // in a DST gap or fold: the generator skips such a time
    return site::Stamp{*utc, local};
  }

  const StationSpec& stationOf(const std::string& id) const {
    return *std::find_if(kStations.begin(), kStations.end(),
                         [&](const StationSpec& s) { return s.id == id; });
  }

  void addPeople(site::SiteModel& m, int stationCount) {
    const int minors = spec_.people >= 10 ? std::max(1, spec_.people * spec_.minorsPercent / 100)
                                          : spec_.people * spec_.minorsPercent / 100;
    const chr::year year = spec_.firstDay.year();
    for (int i = 0; i < spec_.people; ++i) {
      site::Person p;
      p.id = numbered("p-%04d", i);
      p.name =
          std::string(kFirstNames[static_cast<std::size_t>(i) % kFirstNames.size()]) + " " +
          std::string(kLastNames[static_cast<std::size_t>(i * 7 + i / 20) % kLastNames.size()]);
      p.phone = "+1415" + numbered("%07d", 5500000 + i);
      // The last `minors` people are minors (14 to 17 on the first day), spread over the ages.
      const bool minor = i >= spec_.people - minors;
      const int age = minor ? 14 + (spec_.people - 1 - i) % 4 : random_.between(19, 62);
      p.minor = minor;
      // Born so that the age on the first day is exactly `age`.
      const unsigned month = static_cast<unsigned>(random_.between(1, 12));
      const unsigned dom = static_cast<unsigned>(random_.between(1, 28));
      const bool laterInYear =
          std::pair(month, dom) > std::pair(static_cast<unsigned>(spec_.firstDay.month()),
                                            static_cast<unsigned>(spec_.firstDay.day()));
      p.birthDate = site::Date{chr::year{static_cast<int>(year) - age - (laterInYear ? 1 : 0)} /
                               chr::month{month} / chr::day{dom}};
      std::vector<int> eligible;
      for (int s = 0; s < stationCount; ++s) {
        const StationSpec& st = kStations[static_cast<std::size_t>(s)];
        if (minor ? st.minorsMayWork : (st.minimumAge <= age)) eligible.push_back(s);
      }
      if (i == 0) {  // the general manager works anywhere an adult may
        for (int s : eligible) p.roles.emplace_back(kStations[static_cast<std::size_t>(s)].id);
      } else {
        const int roles = std::min(static_cast<int>(eligible.size()), random_.between(1, 3));
        for (int r = 0; r < roles; ++r) {
          const int pick =
              eligible[static_cast<std::size_t>(random_.below(static_cast<int>(eligible.size())))];
          const std::string id(kStations[static_cast<std::size_t>(pick)].id);
          if (std::find(p.roles.begin(), p.roles.end(), id) == p.roles.end()) p.roles.push_back(id);
        }
      }
      for (const std::string& role : p.roles) {
        const std::string_view cert = stationOf(role).certification;
        if (cert.empty() || std::any_of(p.certifications.begin(), p.certifications.end(),
                                        [&](const site::HeldCertification& h) {
                                          return h.certificationId == cert;
                                        })) {
          continue;
        }
        // About one card in thirty has lapsed before the schedule starts.
        const int expiresIn =
            random_.percent(3) ? -random_.between(1, 60) : random_.between(90, 1000);
        p.certifications.push_back(
            site::HeldCertification{std::string(cert), site::Date{day(expiresIn)}});
      }
      if (random_.percent(30)) p.certifications.push_back({"first-aid", std::nullopt});
      p.hourlyRateCents = minor ? random_.between(68, 76) * 25 : random_.between(70, 150) * 25;
      if (auto at = stamp(LocalTime{day(-60)} + chr::hours{10}); at && random_.percent(95)) {
        p.smsConsent = site::SmsConsent{true, at->utc};
      }
      if (i != 0) p.managerOfRecord = "p-0000";
      p.safetyContact = i < 3;
      if (random_.percent(spec_.timeOffPercent)) {
        const int from = random_.below(days());
        auto start = stamp(LocalTime{day(from)});
        auto end = stamp(LocalTime{day(from + random_.between(1, 3))});
        if (start && end) p.timeOff.push_back(site::TimeOff{*start, *end});
      }
      m.people.push_back(std::move(p));
    }
  }

  bool onTimeOff(const site::Person& p, const site::Stamp& start, const site::Stamp& end) const {
    return std::any_of(p.timeOff.begin(), p.timeOff.end(), [&](const site::TimeOff& off) {
      return off.start.utc < end.utc && start.utc < off.end.utc;
    });
  }

  void addShift(site::SiteModel& m, const std::string& station, int dayOffset, Template t,
                std::optional<std::string> assignee) {
    const LocalTime start = LocalTime{day(dayOffset)} + chr::minutes{t.startMinute};
    auto s = stamp(start);
    auto e = stamp(start + chr::minutes{t.lengthMinutes});
    if (!s || !e) return;
    site::Shift shift{"", station, *s, *e, std::nullopt, std::move(assignee)};
    // Floor shifts in the evening pour drinks now and then.
    if (station == "floor" && t.startMinute >= 17 * 60 && random_.percent(20)) {
      shift.requiredCertification = "rbs";
    }
    m.shifts.push_back(std::move(shift));
  }

  // Minors get shifts their hour limits allow (after school or a weekend day at 14-15, an evening
  // or lunch at 16-17), except for the rare slip a check should catch.
  Template minorTemplate(const site::Person& p, int dayOffset) {
    const chr::year_month_day first = spec_.firstDay;
    const chr::year_month_day birth = *p.birthDate;
    int age = static_cast<int>(first.year()) - static_cast<int>(birth.year());
    if (std::pair(static_cast<unsigned>(first.month()), static_cast<unsigned>(first.day())) <
        std::pair(static_cast<unsigned>(birth.month()), static_cast<unsigned>(birth.day()))) {
      --age;
    }
    if (random_.percent(3)) return kEvening;
    const unsigned wd = chr::weekday{day(dayOffset)}.c_encoding();
    const bool weekend = wd == 0 || wd == 6;
    if (age <= 15) return weekend ? kWeekendDay : kAfterSchool;
    return weekend && random_.percent(50) ? kLunch : kEvening;
  }

  void addShifts(site::SiteModel& m, int stationCount) {
    for (const site::Person& p : m.people) {
      if (p.roles.empty()) continue;
      for (int w = 0; w < spec_.weeks; ++w) {
        const int count =
            p.minor ? random_.between(1, 3) : (random_.percent(8) ? 6 : random_.between(3, 5));
        std::array<int, 7> order{0, 1, 2, 3, 4, 5, 6};
        for (int k = 6; k > 0; --k)
          std::swap(order[static_cast<std::size_t>(k)],
                    order[static_cast<std::size_t>(random_.below(k + 1))]);
        for (int k = 0; k < count; ++k) {
          const int d = w * 7 + order[static_cast<std::size_t>(k)];
          const std::string& station =
              p.roles[static_cast<std::size_t>(random_.below(static_cast<int>(p.roles.size())))];
          Template t = p.minor ? minorTemplate(p, d)
                               : kAdultTemplates[static_cast<std::size_t>(
                                     random_.below(static_cast<int>(kAdultTemplates.size())))];
          if (!p.minor && random_.percent(2)) t = kDouble;
          const LocalTime start = LocalTime{day(d)} + chr::minutes{t.startMinute};
          auto s = stamp(start);
          auto e = stamp(start + chr::minutes{t.lengthMinutes});
          // Time off is respected, except for the occasional slip a check should catch.
          if (s && e && onTimeOff(p, *s, *e) && !random_.percent(10)) continue;
          addShift(m, station, d, t, p.id);
          // Now and then a second shift the same day: a split shift after a morning one; rarely
          // a double booking.
          const bool split = t.startMinute + t.lengthMinutes <= kEvening.startMinute - 60;
          if (!p.minor && random_.percent(split ? 10 : 1)) addShift(m, station, d, kEvening, p.id);
        }
      }
    }
    for (int d = 0; d < days(); ++d) {
      for (int k = 0; k < spec_.openShiftsPerDay; ++k) {
        const std::string station(
            kStations[static_cast<std::size_t>(random_.below(stationCount))].id);
        addShift(m, station, d,
                 kAdultTemplates[static_cast<std::size_t>(
                     random_.below(static_cast<int>(kAdultTemplates.size())))],
                 std::nullopt);
      }
    }
    std::stable_sort(
        m.shifts.begin(), m.shifts.end(), [](const site::Shift& a, const site::Shift& b) {
          return std::tie(a.start.utc, a.stationId) < std::tie(b.start.utc, b.stationId);
        });
    for (std::size_t i = 0; i < m.shifts.size(); ++i) {
      m.shifts[i].id = numbered("s-%05d", static_cast<int>(i) + 1);
    }
  }

  void addVersions(site::SiteModel& m) {
    for (int w = 0; w < spec_.weeks; ++w) {
      auto weekStart = stamp(LocalTime{day(w * 7)});
      auto weekEnd = stamp(LocalTime{day(w * 7 + 7)});
      if (!weekStart || !weekEnd) continue;
      site::ScheduleVersion v;
      v.id = numbered("v-week-%02d", w + 1);
      // 17:00 the evening before the notice period starts.
      v.publishedAt = weekStart->utc - chr::days{spec_.noticeDays} - chr::hours{7};
      for (const site::Shift& s : m.shifts) {
        if (s.start.utc >= weekStart->utc && s.start.utc < weekEnd->utc) v.shiftIds.push_back(s.id);
      }
      m.scheduleVersions.push_back(std::move(v));
    }
  }

  void addSchoolCalendar(site::SiteModel& m) {
    m.schoolCalendar.weekStart = 0;
    for (int d = 0; d < days(); ++d) {
      if (spec_.weeks > 2 && d / 7 == 2) continue;  // spring break in the third week
      const unsigned wd = chr::weekday{day(d)}.c_encoding();
      if (wd >= 1 && wd <= 5) m.schoolCalendar.schoolDays.emplace_back(day(d));
    }
  }

  SyntheticSiteSpec spec_;
  Random random_;
  site::TimeZone zone_;
};

}  // namespace

site::SiteModel syntheticSite(const SyntheticSiteSpec& spec) { return Generator(spec).run(); }

}  // namespace atoms::testing
