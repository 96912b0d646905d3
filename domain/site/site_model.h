// The site model: everything the box knows about one site (people, stations, shifts, punches...)
// as plain value structs. It is read from a site file (site_file.h) or the store
// (site_repository.h) and read by the labor engine, the scheduler and the panel.
//
// Contract: plain data with value semantics (copy, compare with ==); no invariants are enforced
// by the types themselves: parseSiteFile() is the gate that guarantees a model is consistent
// (unique ids, references resolve, times ordered). Not synchronised; the engine thread owns it.
// Times: instants are UTC (Instant); shift and time-off bounds also keep the wall-clock time
// they were written in (Stamp::local), since labor rules speak in local days and hours.
// Money is integer cents; there are no floats.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "domain/site/time_zone.h"

namespace atoms::site {

using Date = std::chrono::year_month_day;

// A date as "YYYY-MM-DD" (site files and the store): parseDate accepts only that form of a real
// calendar date, nullopt otherwise.
std::optional<Date> parseDate(std::string_view text);
std::string formatDate(Date d);
// The same for a local day (a date in the site's zone).
std::string formatLocalDay(std::chrono::local_days d);
// Minutes after midnight as "HH:MM" (0..1440; 1440 is "24:00", the end of the day).
std::string formatTimeOfDay(int minutes);

// An instant together with the wall-clock time it was written as. local - utc is the UTC offset
// that applied (or that the file stated explicitly).
struct Stamp {
  Instant utc{};
  LocalTime local{};
  friend bool operator==(const Stamp&, const Stamp&) = default;
};

struct SiteInfo {
  std::string id;        // the site id of the state directory it belongs to
  std::string name;      // display name, "Bistro Marée"
  std::string timeZone;  // IANA name, "America/Los_Angeles"
  std::vector<std::string>
      jurisdictions;     // most general first: "us", "us-ca", "us-ca-san-francisco"
  std::string industry;  // one of industries() (industry.h): "retail", "fast_food", ...
  // The employer's workweek and workday, for overtime and meal and rest periods: the week begins
  // on this weekday (c_encoding, 0 = Sunday) at workdayStartMinute, and each workday at
  // workdayStartMinute local time (0..1439; 240 keeps a closing shift past midnight in one
  // workday). California Labor Code 500(a); 29 CFR 778.105.
  unsigned workweekStart = 0;
  int workdayStartMinute = 0;
  friend bool operator==(const SiteInfo&, const SiteInfo&) = default;
};

// A certification the site tracks (food handler card, alcohol server permit...).
struct Certification {
  std::string id;
  std::string name;
  friend bool operator==(const Certification&, const Certification&) = default;
};

struct Station {
  std::string id;
  std::string name;
  std::vector<std::string> requiredCertifications;  // certification ids
  std::optional<int> minimumAge;                    // years; e.g. 18 (or 21) to serve alcohol
  // What the work involves, from the closed vocabulary of station_tag.h ("alcohol_service"):
  // the jurisdictions' station_min_age / station_certification rules apply through them.
  std::vector<std::string> tags;
  friend bool operator==(const Station&, const Station&) = default;
};

// A certification a person holds. An expired one is kept: the engine reports it, not the parser.
struct HeldCertification {
  std::string certificationId;
  std::optional<Date> expires;  // none: does not expire
  friend bool operator==(const HeldCertification&, const HeldCertification&) = default;
};

struct SmsConsent {
  bool granted = false;
  std::optional<Instant> at;  // when it was given (or withdrawn); required when granted
  friend bool operator==(const SmsConsent&, const SmsConsent&) = default;
};

// Weekdays as std::chrono::weekday::c_encoding(): 0 = Sunday ... 6 = Saturday.
// A recurring window in local time when the person can work. endMinute <= startMinute means the
// window runs past midnight into the next day.
struct AvailabilityWindow {
  unsigned weekday = 0;
  int startMinute = 0;  // minutes after local midnight, 0..1439
  int endMinute = 0;    // 1..1440
  friend bool operator==(const AvailabilityWindow&, const AvailabilityWindow&) = default;
};

struct TimeOff {
  Stamp start;
  Stamp end;
  friend bool operator==(const TimeOff&, const TimeOff&) = default;
};

struct Person {
  std::string id;
  std::string name;
  std::string phone;               // E.164, "+14155550123"
  std::vector<std::string> roles;  // station ids the person can work
  std::vector<HeldCertification> certifications;
  std::optional<Date> birthDate;  // required for minors and for anyone at a station with an age
  bool minor = false;             // declared under 18 (then birthDate is required)
  // First day of employment; starts the grace period a rule may give a new hire to obtain a
  // certification (e.g. 30 days for a California food handler card).
  std::optional<Date> hireDate;
  SmsConsent smsConsent;
  std::optional<std::string> managerOfRecord;  // person id
  bool safetyContact = false;
  std::int64_t hourlyRateCents = 0;
  std::vector<AvailabilityWindow> availability;
  std::vector<TimeOff> timeOff;
  friend bool operator==(const Person&, const Person&) = default;
};

struct Shift {
  std::string id;
  std::string stationId;
  Stamp start;
  Stamp end;
  std::optional<std::string> requiredCertification;  // beyond the station's own
  std::optional<std::string> assignee;               // person id; none: the shift is open
  friend bool operator==(const Shift&, const Shift&) = default;
};

// A published schedule: predictive-scheduling notice periods count from publishedAt.
struct ScheduleVersion {
  std::string id;
  Instant publishedAt{};
  std::vector<std::string> shiftIds;
  friend bool operator==(const ScheduleVersion&, const ScheduleVersion&) = default;
};

enum class PunchKind { kClockIn, kClockOut, kBreakStart, kBreakEnd };
// "clock_in", "clock_out", "break_start", "break_end".
std::string_view punchKindName(PunchKind kind);
std::optional<PunchKind> parsePunchKind(std::string_view name);

struct Punch {
  std::string personId;
  PunchKind kind = PunchKind::kClockIn;
  Instant at{};
  friend bool operator==(const Punch&, const Punch&) = default;
};

// The hours school is in session on a school day, local wall-clock minutes after midnight:
// 0 <= startMinute < endMinute <= 1440 (school does not run past midnight).
struct SchoolHours {
  int startMinute = 0;
  int endMinute = 0;
  friend bool operator==(const SchoolHours&, const SchoolHours&) = default;
};

// School calendar for the minors' hour limits. A school week is a week (beginning on weekStart)
// that contains at least one school day; a school day is a date listed in schoolDays.
// schoolHours applies to every school day; none: the hours are not known, and a rule that bars
// work during school hours cannot be evaluated (the engine says so rather than guess).
struct SchoolCalendar {
  unsigned weekStart = 0;  // c_encoding, 0 = Sunday
  std::vector<Date> schoolDays;
  std::optional<SchoolHours> schoolHours;
  friend bool operator==(const SchoolCalendar&, const SchoolCalendar&) = default;
};

struct SiteModel {
  SiteInfo site;
  std::vector<Certification> certifications;
  std::vector<Station> stations;
  std::vector<Person> people;
  std::vector<Shift> shifts;
  std::vector<ScheduleVersion> scheduleVersions;
  std::vector<Punch> punches;
  SchoolCalendar schoolCalendar;
  friend bool operator==(const SiteModel&, const SiteModel&) = default;
};

// Lookup by id over one SiteModel: positions into its vectors. Built in O(n log n); valid while
// the model's vectors are not resized or reordered. Returns nullptr for an unknown id.
class SiteIndex {
 public:
  explicit SiteIndex(const SiteModel& model);

  const Certification* certification(std::string_view id) const;
  const Station* station(std::string_view id) const;
  const Person* person(std::string_view id) const;
  const Shift* shift(std::string_view id) const;
  const ScheduleVersion* scheduleVersion(std::string_view id) const;

 private:
  const SiteModel* model_;
  std::map<std::string, std::size_t, std::less<>> certifications_, stations_, people_, shifts_,
      versions_;
};

}  // namespace atoms::site
