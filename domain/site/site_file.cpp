#include "domain/site/site_file.h"

#include <algorithm>
#include <initializer_list>
#include <set>

#include "base/canonical_json.h"
#include "base/digits.h"
#include "base/one_line.h"
#include "domain/site/industry.h"
#include "domain/site/station_tag.h"
#include "drivers/sms/phone_number.h"

namespace atoms::site {
namespace {

using json::Array;
using json::Object;
using json::Value;

constexpr std::string_view kWeekdays[] = {"sun", "mon", "tue", "wed", "thu", "fri", "sat"};

// --- text forms -------------------------------------------------------------------------------

// "HH:MM", 00:00..24:00, as minutes after midnight.
std::optional<int> parseTimeOfDay(std::string_view s) {
  if (s.size() != 5 || s[2] != ':') return {};
  const int h = readDigits(s, 0, 2), m = readDigits(s, 3, 2);
  if (h < 0 || m < 0 || m > 59 || h > 24 || (h == 24 && m != 0)) return {};
  return h * 60 + m;
}

std::optional<unsigned> parseWeekday(std::string_view s) {
  for (unsigned i = 0; i < 7; ++i) {
    if (kWeekdays[i] == s) return i;
  }
  return std::nullopt;
}

struct WrittenTime {
  LocalTime local;
  std::optional<Seconds> offset;
};

// YYYY-MM-DDTHH:MM[:SS][Z|+HH:MM|-HH:MM]
std::optional<WrittenTime> parseWrittenTime(std::string_view s) {
  if (s.size() < 16 || s[10] != 'T' || s[13] != ':') return std::nullopt;
  auto date = parseDate(s.substr(0, 10));
  const int h = readDigits(s, 11, 2), mi = readDigits(s, 14, 2);
  if (!date || h < 0 || mi < 0 || h > 23 || mi > 59) return {};
  int sec = 0;
  std::size_t pos = 16;
  if (pos < s.size() && s[pos] == ':') {
    sec = readDigits(s, pos + 1, 2);
    if (sec < 0 || sec > 59) return std::nullopt;
    pos += 3;
  }
  WrittenTime t{std::chrono::local_days{*date} + std::chrono::hours{h} + std::chrono::minutes{mi} +
                    Seconds{sec},
                std::nullopt};
  std::string_view rest = s.substr(pos);
  if (rest.empty()) return t;
  if (rest == "Z") {
    t.offset = Seconds{0};
    return t;
  }
  if (rest.size() != 6 || (rest[0] != '+' && rest[0] != '-') || rest[3] != ':') return {};
  const int oh = readDigits(rest, 1, 2), om = readDigits(rest, 4, 2);
  if (oh < 0 || om < 0 || oh > 14 || om > 59) return std::nullopt;
  const Seconds off{oh * 3600 + om * 60};
  t.offset = rest[0] == '-' ? -off : off;
  return t;
}

// --- reading ----------------------------------------------------------------------------------

// Reads the fields of one JSON object that belongs to a named record; every error is prefixed
// with the record ("shifts[12] (id s-88): ...").
class Fields {
 public:
  Fields(const Value& v, std::string label) : value_(&v), label_(std::move(label)) {
    if (v.isObject()) obj_ = &v.asObject();
  }

  const std::string& label() const { return label_; }
  Error fail(const std::string& what) const { return makeError(label_ + ": " + what); }

  // Not an object, or a field outside `allowed` (a typo would otherwise silently drop data).
  Status check(std::initializer_list<std::string_view> allowed) const {
    if (obj_ == nullptr) return fail("must be a JSON object");
    for (const auto& [key, value] : *obj_) {
      if (std::find(allowed.begin(), allowed.end(), key) == allowed.end()) {
        return fail("unknown field '" + key + "'");
      }
    }
    return Status::success();
  }

  // Absent or null.
  const Value* get(std::string_view key) const {
    const Value* v = obj_ == nullptr ? nullptr : value_->find(key);
    return v == nullptr || v->isNull() ? nullptr : v;
  }

  Result<std::string> string(std::string_view key) const {
    const Value* v = get(key);
    if (v == nullptr) return fail("'" + std::string(key) + "' is missing");
    if (!v->isString()) return fail("'" + std::string(key) + "' must be a string");
    return v->asString();
  }
  Result<std::optional<std::string>> optString(std::string_view key) const {
    if (get(key) == nullptr) return std::optional<std::string>{};
    auto s = string(key);
    if (!s) return s.error();
    return std::optional<std::string>{*s};
  }
  Result<std::string> id() const {
    auto s = string("id");
    if (!s) return s;
    if (!isValidId(*s)) {
      return fail("id '" + *s + "' must be 1-64 characters of letters, digits, '-', '_', '.'");
    }
    return s;
  }
  Result<bool> boolean(std::string_view key, bool fallback) const {
    const Value* v = get(key);
    if (v == nullptr) return fallback;
    if (!v->isBool()) return fail("'" + std::string(key) + "' must be true or false");
    return v->asBool();
  }
  Result<std::optional<std::int64_t>> optInt(std::string_view key) const {
    const Value* v = get(key);
    if (v == nullptr) return std::optional<std::int64_t>{};
    if (!v->isInt()) return fail("'" + std::string(key) + "' must be an integer");
    return std::optional<std::int64_t>{v->asInt()};
  }
  Result<const Array*> array(std::string_view key, bool required) const {
    const Value* v = get(key);
    if (v == nullptr) {
      if (required) return fail("'" + std::string(key) + "' is missing");
      static const Array empty;
      return &empty;
    }
    if (!v->isArray()) return fail("'" + std::string(key) + "' must be an array");
    return &v->asArray();
  }
  Result<std::vector<std::string>> strings(std::string_view key, bool required) const {
    auto a = array(key, required);
    if (!a) return a.error();
    std::vector<std::string> out;
    for (const Value& v : **a) {
      if (!v.isString()) return fail("'" + std::string(key) + "' must be an array of strings");
      out.push_back(v.asString());
    }
    return out;
  }
  Result<std::optional<Date>> optDate(std::string_view key) const {
    auto s = optString(key);
    if (!s) return s.error();
    if (!*s) return std::optional<Date>{};
    auto d = parseDate(**s);
    if (!d) return fail(std::string(key) + " '" + **s + "' is not a date (YYYY-MM-DD)");
    return std::optional<Date>{*d};
  }
  // A wall-clock time in the site's zone, or one with an offset the zone uses at that wall time.
  Result<Stamp> stamp(std::string_view key, const TimeZone& tz) const {
    auto s = string(key);
    if (!s) return s.error();
    auto t = parseWrittenTime(*s);
    if (!t) return fail(badTime(key, *s));
    if (!t->offset) {
      auto utc = tz.toUtc(t->local);
      if (!utc) return fail(std::string(key) + ": " + utc.message());
      // Before a zone kept standard time its offset was local mean time, seconds included
      // (America/Los_Angeles: -07:52:58 until 1883). A site file writes offsets as +HH:MM, so such
      // a time could be read but never written back: refuse it here.
      if ((t->local.time_since_epoch() - utc->time_since_epoch()) % std::chrono::minutes{1} !=
          Seconds::zero()) {
        return fail(std::string(key) + " '" + *s + "': " + tz.name() +
                    " had no standard time then (its offset was not whole minutes); give a time"
                    " from after it adopted standard time");
      }
      return Stamp{*utc, t->local};
    }
    const auto offsets = tz.offsetsFor(t->local);
    if (std::find(offsets.begin(), offsets.end(), *t->offset) == offsets.end()) {
      std::string allowed;
      for (Seconds o : offsets) allowed += (allowed.empty() ? "" : " or ") + formatOffset(o);
      return fail(std::string(key) + " '" + *s + "': offset " + formatOffset(*t->offset) +
                  " is not used by " + tz.name() + " at that local time (" + allowed + ")");
    }
    return Stamp{Instant{t->local.time_since_epoch() - *t->offset}, t->local};
  }
  // An instant: explicit offset (any), or a wall-clock time in the site's zone.
  Result<Instant> instant(std::string_view key, const TimeZone& tz) const {
    auto s = string(key);
    if (!s) return s.error();
    if (!parseWrittenTime(*s)) return fail(badTime(key, *s));
    auto utc = parseInstant(*s, tz);
    if (!utc) return fail(std::string(key) + ": " + utc.message());
    return *utc;
  }

 private:
  static std::string badTime(std::string_view key, const std::string& s) {
    return std::string(key) + " '" + s + "' is not a time (YYYY-MM-DDTHH:MM[:SS][Z|+HH:MM])";
  }
  const Value* value_;
  const Object* obj_ = nullptr;
  std::string label_;
};

std::string recordLabel(std::string_view section, std::size_t i, const Value& v) {
  std::string label = std::string(section) + "[" + std::to_string(i) + "]";
  if (const Value* id = v.find("id"); id != nullptr && id->isString()) {
    label += " (id " + id->asString() + ")";
  }
  return label;
}

template <class T>
Status checkUnique(const std::vector<T>& items, std::string_view section) {
  std::set<std::string, std::less<>> seen;
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (!seen.insert(items[i].id).second) {
      return makeError(std::string(section) + "[" + std::to_string(i) + "] (id " + items[i].id +
                       "): duplicate id (an earlier record has it too)");
    }
  }
  return Status::success();
}

#define SITE_TRY(var, expr)             \
  auto var##_r = (expr);                \
  if (!var##_r) return var##_r.error(); \
  auto var = std::move(var##_r).value()

#define SITE_CHECK(expr) \
  if (Status s_ = (expr); !s_) return s_.error()

Result<SiteInfo> parseSiteInfo(const Value* v) {
  if (v == nullptr) return makeError("site: is missing");
  Fields f(*v, "site");
  SITE_CHECK(f.check(
      {"id", "name", "timeZone", "jurisdictions", "industry", "workweekStart", "workdayStart"}));
  SiteInfo info;
  SITE_TRY(id, f.id());
  info.id = id;
  SITE_TRY(name, f.optString("name"));
  info.name = name.value_or("");
  SITE_TRY(zone, f.string("timeZone"));
  info.timeZone = zone;
  SITE_TRY(jurisdictions, f.strings("jurisdictions", true));
  if (jurisdictions.empty()) return f.fail("'jurisdictions' must name at least one jurisdiction");
  for (const std::string& j : jurisdictions) {
    if (!isValidId(j)) return f.fail("jurisdiction code '" + j + "' is malformed");
  }
  info.jurisdictions = jurisdictions;
  SITE_TRY(industry, f.string("industry"));
  if (!isKnownIndustry(industry)) {
    return f.fail("industry '" + oneLine(industry) +
                  "' is not one of: " + std::string(knownIndustryList()));
  }
  info.industry = industry;
  SITE_TRY(week, f.optString("workweekStart"));
  if (week) {
    const auto wd = parseWeekday(*week);
    if (!wd) {
      return f.fail("workweekStart '" + oneLine(*week) +
                    "' must be one of sun mon tue wed thu fri sat");
    }
    info.workweekStart = *wd;
  }
  SITE_TRY(day, f.optString("workdayStart"));
  if (day) {
    const auto minute = parseTimeOfDay(*day);
    if (!minute || *minute >= 24 * 60) {
      return f.fail("workdayStart '" + oneLine(*day) + "' must be a time of day, 00:00 to 23:59");
    }
    info.workdayStartMinute = *minute;
  }
  return info;
}

Result<Person> parsePerson(const Fields& f, const TimeZone& tz) {
  SITE_CHECK(f.check({"id", "name", "phone", "roles", "certifications", "birthDate", "minor",
                      "hireDate", "smsConsent", "managerOfRecord", "safetyContact",
                      "hourlyRateCents", "availability", "timeOff"}));
  Person p;
  SITE_TRY(id, f.id());
  p.id = id;
  SITE_TRY(name, f.string("name"));
  p.name = name;
  SITE_TRY(phone, f.string("phone"));
  if (!drivers::isE164(phone))
    return f.fail("phone '" + phone + "' is not E.164 (like +14155550123)");
  p.phone = phone;
  SITE_TRY(roles, f.strings("roles", false));
  p.roles = roles;
  SITE_TRY(certs, f.array("certifications", false));
  for (std::size_t i = 0; i < certs->size(); ++i) {
    Fields c((*certs)[i], f.label() + " certifications[" + std::to_string(i) + "]");
    SITE_CHECK(c.check({"id", "expires"}));
    HeldCertification held;
    SITE_TRY(cid, c.string("id"));
    held.certificationId = cid;
    SITE_TRY(expires, c.optDate("expires"));
    held.expires = expires;
    p.certifications.push_back(held);
  }
  SITE_TRY(birth, f.optDate("birthDate"));
  p.birthDate = birth;
  SITE_TRY(minor, f.boolean("minor", false));
  p.minor = minor;
  SITE_TRY(hire, f.optDate("hireDate"));
  if (hire && birth && *hire < *birth) return f.fail("hireDate is before birthDate");
  p.hireDate = hire;
  if (const Value* consent = f.get("smsConsent"); consent != nullptr) {
    Fields c(*consent, f.label() + " smsConsent");
    SITE_CHECK(c.check({"granted", "at"}));
    SITE_TRY(granted, c.boolean("granted", false));
    p.smsConsent.granted = granted;
    if (c.get("at") != nullptr) {
      SITE_TRY(at, c.instant("at", tz));
      p.smsConsent.at = at;
    } else if (granted) {
      return c.fail("'at' is missing: consent must say when it was given");
    }
  }
  SITE_TRY(manager, f.optString("managerOfRecord"));
  p.managerOfRecord = manager;
  SITE_TRY(safety, f.boolean("safetyContact", false));
  p.safetyContact = safety;
  SITE_TRY(rate, f.optInt("hourlyRateCents"));
  if (rate && *rate < 0) return f.fail("'hourlyRateCents' must not be negative");
  p.hourlyRateCents = rate.value_or(0);
  SITE_TRY(avail, f.array("availability", false));
  for (std::size_t i = 0; i < avail->size(); ++i) {
    Fields a((*avail)[i], f.label() + " availability[" + std::to_string(i) + "]");
    SITE_CHECK(a.check({"day", "start", "end"}));
    SITE_TRY(day, a.string("day"));
    SITE_TRY(start, a.string("start"));
    SITE_TRY(end, a.string("end"));
    auto wd = parseWeekday(day);
    if (!wd) return a.fail("day '" + day + "' must be one of sun mon tue wed thu fri sat");
    auto s = parseTimeOfDay(start);
    auto e = parseTimeOfDay(end);
    if (!s || *s == 1440) return a.fail("start '" + start + "' is not a time of day (HH:MM)");
    if (!e || *e == 0) return a.fail("end '" + end + "' is not a time of day (HH:MM, up to 24:00)");
    if (*s == *e) return a.fail("the window is empty (start equals end)");
    p.availability.push_back(AvailabilityWindow{*wd, *s, *e});
  }
  SITE_TRY(offs, f.array("timeOff", false));
  for (std::size_t i = 0; i < offs->size(); ++i) {
    Fields t((*offs)[i], f.label() + " timeOff[" + std::to_string(i) + "]");
    SITE_CHECK(t.check({"start", "end"}));
    SITE_TRY(start, t.stamp("start", tz));
    SITE_TRY(end, t.stamp("end", tz));
    if (end.utc <= start.utc) return t.fail("ends before it starts");
    p.timeOff.push_back(TimeOff{start, end});
  }
  return p;
}

Result<SiteModel> parseModel(const Value& root) {
  Fields top(root, "site file");
  SITE_CHECK(top.check({"version", "site", "certifications", "stations", "people", "shifts",
                        "scheduleVersions", "punches", "schoolCalendar"}));
  SITE_TRY(version, top.optInt("version"));
  if (!version) return top.fail("'version' is missing");
  if (*version != kSiteFileVersion) {
    return top.fail("version " + std::to_string(*version) + " is not supported (this build reads " +
                    std::to_string(kSiteFileVersion) + ")");
  }

  SiteModel m;
  SITE_TRY(info, parseSiteInfo(top.get("site")));
  m.site = info;
  auto tzr = TimeZone::locate(m.site.timeZone);
  if (!tzr) return makeError("site: " + tzr.message());
  const TimeZone tz = *tzr;

  SITE_TRY(certs, top.array("certifications", false));
  for (std::size_t i = 0; i < certs->size(); ++i) {
    Fields f((*certs)[i], recordLabel("certifications", i, (*certs)[i]));
    SITE_CHECK(f.check({"id", "name"}));
    Certification c;
    SITE_TRY(id, f.id());
    c.id = id;
    SITE_TRY(name, f.string("name"));
    c.name = name;
    m.certifications.push_back(c);
  }
  SITE_CHECK(checkUnique(m.certifications, "certifications"));
  std::set<std::string, std::less<>> certIds;
  for (const auto& c : m.certifications) certIds.insert(c.id);

  SITE_TRY(stations, top.array("stations", true));
  for (std::size_t i = 0; i < stations->size(); ++i) {
    Fields f((*stations)[i], recordLabel("stations", i, (*stations)[i]));
    SITE_CHECK(f.check({"id", "name", "requiredCertifications", "minimumAge", "tags"}));
    Station s;
    SITE_TRY(id, f.id());
    s.id = id;
    SITE_TRY(name, f.string("name"));
    s.name = name;
    SITE_TRY(required, f.strings("requiredCertifications", false));
    for (const std::string& c : required) {
      if (certIds.count(c) == 0) return f.fail("unknown certification '" + c + "'");
    }
    s.requiredCertifications = required;
    SITE_TRY(age, f.optInt("minimumAge"));
    if (age && (*age < 0 || *age > 99)) return f.fail("'minimumAge' must be 0-99 years");
    if (age) s.minimumAge = static_cast<int>(*age);
    SITE_TRY(tags, f.strings("tags", false));
    std::set<std::string, std::less<>> seenTags;
    for (const std::string& tag : tags) {
      if (!isStationTagForm(tag)) {
        return f.fail("tag '" + tag +
                      "' must be lower_snake words (a-z, 0-9, single '_' between words), like "
                      "alcohol_service");
      }
      if (!isKnownStationTag(tag)) {
        return f.fail("tag '" + tag + "' is not a known station tag (known: " +
                      std::string(knownStationTagList()) + ")");
      }
      if (!seenTags.insert(tag).second) return f.fail("tag '" + tag + "' is listed twice");
    }
    s.tags = tags;
    m.stations.push_back(s);
  }
  SITE_CHECK(checkUnique(m.stations, "stations"));

  SITE_TRY(people, top.array("people", true));
  for (std::size_t i = 0; i < people->size(); ++i) {
    SITE_TRY(p, parsePerson(Fields((*people)[i], recordLabel("people", i, (*people)[i])), tz));
    m.people.push_back(p);
  }
  SITE_CHECK(checkUnique(m.people, "people"));

  SITE_TRY(shifts, top.array("shifts", false));
  for (std::size_t i = 0; i < shifts->size(); ++i) {
    Fields f((*shifts)[i], recordLabel("shifts", i, (*shifts)[i]));
    SITE_CHECK(f.check({"id", "station", "start", "end", "requiredCertification", "assignee"}));
    Shift s;
    SITE_TRY(id, f.id());
    s.id = id;
    SITE_TRY(station, f.string("station"));
    s.stationId = station;
    SITE_TRY(start, f.stamp("start", tz));
    s.start = start;
    SITE_TRY(end, f.stamp("end", tz));
    s.end = end;
    if (s.end.utc < s.start.utc) return f.fail("ends before it starts");
    if (s.end.utc == s.start.utc) return f.fail("ends when it starts (zero length)");
    if (s.end.utc - s.start.utc > kMaxShiftLength) return f.fail("is longer than 24 hours");
    SITE_TRY(cert, f.optString("requiredCertification"));
    s.requiredCertification = cert;
    SITE_TRY(assignee, f.optString("assignee"));
    s.assignee = assignee;
    m.shifts.push_back(s);
  }
  SITE_CHECK(checkUnique(m.shifts, "shifts"));

  SITE_TRY(versions, top.array("scheduleVersions", false));
  for (std::size_t i = 0; i < versions->size(); ++i) {
    Fields f((*versions)[i], recordLabel("scheduleVersions", i, (*versions)[i]));
    SITE_CHECK(f.check({"id", "publishedAt", "shifts"}));
    ScheduleVersion v;
    SITE_TRY(id, f.id());
    v.id = id;
    SITE_TRY(at, f.instant("publishedAt", tz));
    v.publishedAt = at;
    SITE_TRY(ids, f.strings("shifts", true));
    v.shiftIds = ids;
    m.scheduleVersions.push_back(v);
  }
  SITE_CHECK(checkUnique(m.scheduleVersions, "scheduleVersions"));

  SITE_TRY(punches, top.array("punches", false));
  for (std::size_t i = 0; i < punches->size(); ++i) {
    Fields f((*punches)[i], "punches[" + std::to_string(i) + "]");
    SITE_CHECK(f.check({"person", "kind", "at"}));
    Punch p;
    SITE_TRY(person, f.string("person"));
    p.personId = person;
    SITE_TRY(kind, f.string("kind"));
    auto k = parsePunchKind(kind);
    if (!k)
      return f.fail("kind '" + kind + "' must be clock_in, clock_out, break_start or break_end");
    p.kind = *k;
    SITE_TRY(at, f.instant("at", tz));
    p.at = at;
    m.punches.push_back(p);
  }

  if (const Value* cal = top.get("schoolCalendar"); cal != nullptr) {
    Fields f(*cal, "schoolCalendar");
    SITE_CHECK(f.check({"weekStart", "schoolDays", "schoolHours"}));
    SITE_TRY(start, f.optString("weekStart"));
    if (start) {
      auto wd = parseWeekday(*start);
      if (!wd)
        return f.fail("weekStart '" + *start + "' must be one of sun mon tue wed thu fri sat");
      m.schoolCalendar.weekStart = *wd;
    }
    SITE_TRY(days, f.strings("schoolDays", false));
    std::set<std::string> seen;
    for (const std::string& d : days) {
      auto date = parseDate(d);
      if (!date) return f.fail("school day '" + d + "' is not a date (YYYY-MM-DD)");
      if (!seen.insert(d).second) return f.fail("school day '" + d + "' is listed twice");
      m.schoolCalendar.schoolDays.push_back(*date);
    }
    if (const Value* hours = f.get("schoolHours"); hours != nullptr) {
      Fields h(*hours, "schoolCalendar schoolHours");
      SITE_CHECK(h.check({"start", "end"}));
      SITE_TRY(opens, h.string("start"));
      SITE_TRY(closes, h.string("end"));
      const auto from = parseTimeOfDay(opens);
      const auto to = parseTimeOfDay(closes);
      if (!from || *from == 1440) {
        return h.fail("start '" + opens + "' is not a time of day (HH:MM)");
      }
      if (!to) return h.fail("end '" + closes + "' is not a time of day (HH:MM, up to 24:00)");
      if (*to <= *from) {
        return h.fail("end '" + closes + "' is not after start '" + opens +
                      "' (school hours lie within one day)");
      }
      m.schoolCalendar.schoolHours = SchoolHours{*from, *to};
    }
  }
  return m;
}

// References between records, checked once every record is read.
Status checkReferences(const SiteModel& m) {
  const SiteIndex index(m);
  for (std::size_t i = 0; i < m.people.size(); ++i) {
    const Person& p = m.people[i];
    const std::string label = "people[" + std::to_string(i) + "] (id " + p.id + ")";
    bool needsBirthDate = p.minor;
    std::set<std::string, std::less<>> roles;
    for (const std::string& r : p.roles) {
      const Station* s = index.station(r);
      if (s == nullptr) return makeError(label + ": unknown station '" + r + "' in roles");
      if (!roles.insert(r).second) return makeError(label + ": role '" + r + "' is listed twice");
      if (s->minimumAge) needsBirthDate = true;
    }
    std::set<std::string, std::less<>> held;
    for (const HeldCertification& c : p.certifications) {
      if (index.certification(c.certificationId) == nullptr) {
        return makeError(label + ": unknown certification '" + c.certificationId + "'");
      }
      if (!held.insert(c.certificationId).second) {
        return makeError(label + ": certification '" + c.certificationId + "' is listed twice");
      }
    }
    if (needsBirthDate && !p.birthDate) {
      return makeError(label + ": birthDate is missing (required for " +
                       (p.minor ? std::string("a minor") : "a station with a minimum age") + ")");
    }
    if (p.managerOfRecord) {
      if (index.person(*p.managerOfRecord) == nullptr) {
        return makeError(label + ": unknown person '" + *p.managerOfRecord +
                         "' as managerOfRecord");
      }
      if (*p.managerOfRecord == p.id) {
        return makeError(label + ": a person cannot be their own managerOfRecord");
      }
    }
  }
  for (std::size_t i = 0; i < m.shifts.size(); ++i) {
    const Shift& s = m.shifts[i];
    const std::string label = "shifts[" + std::to_string(i) + "] (id " + s.id + ")";
    const Station* station = index.station(s.stationId);
    if (station == nullptr) return makeError(label + ": unknown station '" + s.stationId + "'");
    if (s.requiredCertification && index.certification(*s.requiredCertification) == nullptr) {
      return makeError(label + ": unknown certification '" + *s.requiredCertification + "'");
    }
    if (s.assignee) {
      const Person* p = index.person(*s.assignee);
      if (p == nullptr) return makeError(label + ": unknown person '" + *s.assignee + "'");
      if (station->minimumAge && !p->birthDate) {
        return makeError(label + ": assignee '" + p->id + "' has no birthDate but station '" +
                         station->id + "' has a minimum age");
      }
    }
  }
  for (std::size_t i = 0; i < m.scheduleVersions.size(); ++i) {
    const ScheduleVersion& v = m.scheduleVersions[i];
    const std::string label = "scheduleVersions[" + std::to_string(i) + "] (id " + v.id + ")";
    std::set<std::string, std::less<>> seen;
    for (const std::string& id : v.shiftIds) {
      if (index.shift(id) == nullptr) return makeError(label + ": unknown shift '" + id + "'");
      if (!seen.insert(id).second) return makeError(label + ": shift '" + id + "' is listed twice");
    }
  }
  for (std::size_t i = 0; i < m.punches.size(); ++i) {
    if (index.person(m.punches[i].personId) == nullptr) {
      return makeError("punches[" + std::to_string(i) + "]: unknown person '" +
                       m.punches[i].personId + "'");
    }
  }
  return Status::success();
}

// --- writing ----------------------------------------------------------------------------------

Array stringArray(const std::vector<std::string>& items) {
  Array a;
  for (const auto& s : items) a.emplace_back(s);
  return a;
}

Value toJson(const SiteModel& m) {
  Object site{{"id", m.site.id},
              {"name", m.site.name},
              {"timeZone", m.site.timeZone},
              {"jurisdictions", stringArray(m.site.jurisdictions)},
              {"industry", m.site.industry}};
  // Written when they differ from the defaults, so files that never set them export unchanged.
  if (m.site.workweekStart != 0)
    site["workweekStart"] = std::string(kWeekdays[m.site.workweekStart % 7]);
  if (m.site.workdayStartMinute != 0)
    site["workdayStart"] = formatTimeOfDay(m.site.workdayStartMinute);
  Array certs;
  for (const auto& c : m.certifications) certs.emplace_back(Object{{"id", c.id}, {"name", c.name}});
  Array stations;
  for (const auto& s : m.stations) {
    Object o{{"id", s.id}, {"name", s.name}};
    if (!s.requiredCertifications.empty()) {
      o["requiredCertifications"] = stringArray(s.requiredCertifications);
    }
    if (s.minimumAge) o["minimumAge"] = *s.minimumAge;
    if (!s.tags.empty()) o["tags"] = stringArray(s.tags);
    stations.emplace_back(std::move(o));
  }
  Array people;
  for (const auto& p : m.people) {
    Object o{{"id", p.id}, {"name", p.name}, {"phone", p.phone}, {"roles", stringArray(p.roles)}};
    if (!p.certifications.empty()) {
      Array held;
      for (const auto& c : p.certifications) {
        Object h{{"id", c.certificationId}};
        if (c.expires) h["expires"] = formatDate(*c.expires);
        held.emplace_back(std::move(h));
      }
      o["certifications"] = std::move(held);
    }
    if (p.birthDate) o["birthDate"] = formatDate(*p.birthDate);
    if (p.minor) o["minor"] = true;
    if (p.hireDate) o["hireDate"] = formatDate(*p.hireDate);
    Object consent{{"granted", p.smsConsent.granted}};
    if (p.smsConsent.at) consent["at"] = formatInstant(*p.smsConsent.at);
    o["smsConsent"] = std::move(consent);
    if (p.managerOfRecord) o["managerOfRecord"] = *p.managerOfRecord;
    if (p.safetyContact) o["safetyContact"] = true;
    o["hourlyRateCents"] = p.hourlyRateCents;
    if (!p.availability.empty()) {
      Array a;
      for (const auto& w : p.availability) {
        a.emplace_back(Object{{"day", std::string(kWeekdays[w.weekday % 7])},
                              {"start", formatTimeOfDay(w.startMinute)},
                              {"end", formatTimeOfDay(w.endMinute)}});
      }
      o["availability"] = std::move(a);
    }
    if (!p.timeOff.empty()) {
      Array a;
      for (const auto& t : p.timeOff) {
        a.emplace_back(Object{{"start", formatStamp(t.start)}, {"end", formatStamp(t.end)}});
      }
      o["timeOff"] = std::move(a);
    }
    people.emplace_back(std::move(o));
  }
  Array shifts;
  for (const auto& s : m.shifts) {
    Object o{{"id", s.id},
             {"station", s.stationId},
             {"start", formatStamp(s.start)},
             {"end", formatStamp(s.end)}};
    if (s.requiredCertification) o["requiredCertification"] = *s.requiredCertification;
    if (s.assignee) o["assignee"] = *s.assignee;
    shifts.emplace_back(std::move(o));
  }
  Array versions;
  for (const auto& v : m.scheduleVersions) {
    versions.emplace_back(Object{{"id", v.id},
                                 {"publishedAt", formatInstant(v.publishedAt)},
                                 {"shifts", stringArray(v.shiftIds)}});
  }
  Array punches;
  for (const auto& p : m.punches) {
    punches.emplace_back(Object{{"person", p.personId},
                                {"kind", std::string(punchKindName(p.kind))},
                                {"at", formatInstant(p.at)}});
  }
  Array days;
  for (const auto& d : m.schoolCalendar.schoolDays) days.emplace_back(formatDate(d));
  Object calendar{{"weekStart", std::string(kWeekdays[m.schoolCalendar.weekStart % 7])},
                  {"schoolDays", std::move(days)}};
  if (const auto& h = m.schoolCalendar.schoolHours) {
    calendar["schoolHours"] =
        Object{{"start", formatTimeOfDay(h->startMinute)}, {"end", formatTimeOfDay(h->endMinute)}};
  }
  return Object{{"version", kSiteFileVersion},
                {"site", std::move(site)},
                {"certifications", std::move(certs)},
                {"stations", std::move(stations)},
                {"people", std::move(people)},
                {"shifts", std::move(shifts)},
                {"scheduleVersions", std::move(versions)},
                {"punches", std::move(punches)},
                {"schoolCalendar", std::move(calendar)}};
}

bool isFlat(const Value& v) {
  if (v.isArray()) {
    return std::all_of(v.asArray().begin(), v.asArray().end(),
                       [](const Value& e) { return !e.isArray() && !e.isObject(); });
  }
  if (v.isObject()) {
    return std::all_of(v.asObject().begin(), v.asObject().end(), [](const auto& kv) {
      return !kv.second.isArray() && !kv.second.isObject();
    });
  }
  return true;
}

// Indented JSON for people to read and diff: containers of scalars on one line (canonical form
// with a space after separators), everything else one member per line.
void pretty(const Value& v, int depth, std::string& out) {
  if (isFlat(v)) {
    const std::string text = json::canonical(v);
    if (!v.isArray() && !v.isObject()) {
      out += text;
      return;
    }
    // Re-serialise members with ", " and ": " for readability.
    const bool isArray = v.isArray();
    out += isArray ? "[" : "{";
    bool first = true;
    if (isArray) {
      for (const Value& e : v.asArray()) {
        out += first ? "" : ", ";
        out += json::canonical(e);
        first = false;
      }
    } else {
      for (const auto& [k, e] : v.asObject()) {
        out += first ? "" : ", ";
        out += json::canonical(Value(k)) + ": " + json::canonical(e);
        first = false;
      }
    }
    out += isArray ? "]" : "}";
    return;
  }
  const std::string indent(static_cast<std::size_t>(depth + 1) * 2, ' ');
  const std::string closing(static_cast<std::size_t>(depth) * 2, ' ');
  if (v.isArray()) {
    out += "[\n";
    bool first = true;
    for (const Value& e : v.asArray()) {
      out += first ? "" : ",\n";
      out += indent;
      pretty(e, depth + 1, out);
      first = false;
    }
    out += "\n" + closing + "]";
    return;
  }
  out += "{\n";
  bool first = true;
  for (const auto& [k, e] : v.asObject()) {
    out += first ? "" : ",\n";
    out += indent + json::canonical(Value(k)) + ": ";
    pretty(e, depth + 1, out);
    first = false;
  }
  out += "\n" + closing + "}";
}

}  // namespace

bool isValidId(std::string_view s) {
  if (s.empty() || s.size() > 64) return false;
  return std::all_of(s.begin(), s.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
           c == '_' || c == '.';
  });
}

Result<SiteModel> parseSiteFile(std::string_view text) {
  auto root = json::parse(text);
  if (!root) return makeError("site file: " + root.message());
  auto model = parseModel(*root);
  // Messages quote the file's own strings, which JSON lets carry newlines: one line, always.
  if (!model) return makeError(oneLine(model.message()));
  if (auto s = checkReferences(*model); !s) return makeError(oneLine(s.message()));
  return model;
}

std::string writeSiteFile(const SiteModel& model) {
  // Top-level sections in reading order (who and where first, then what happened), members of
  // records sorted by key.
  static constexpr std::string_view kOrder[] = {"version",          "site",    "certifications",
                                                "stations",         "people",  "shifts",
                                                "scheduleVersions", "punches", "schoolCalendar"};
  const Value doc = toJson(model);
  std::string out = "{\n";
  bool first = true;
  for (std::string_view key : kOrder) {
    const Value* v = doc.find(key);
    if (v == nullptr) continue;
    out += first ? "" : ",\n";
    out += "  " + json::canonical(Value(key)) + ": ";
    pretty(*v, 1, out);
    first = false;
  }
  out += "\n}\n";
  return out;
}

Result<Instant> parseInstant(std::string_view text, const TimeZone& zone) {
  auto t = parseWrittenTime(text);
  if (!t) {
    return makeError("'" + std::string(text) + "' is not a time (YYYY-MM-DDTHH:MM[:SS][Z|+HH:MM])");
  }
  if (t->offset) return Instant{t->local.time_since_epoch() - *t->offset};
  return zone.toUtc(t->local);
}

std::string formatInstant(Instant t) { return formatLocal(LocalTime{t.time_since_epoch()}) + "Z"; }

std::string formatStamp(const Stamp& s) {
  return formatLocal(s.local) + formatOffset(s.local.time_since_epoch() - s.utc.time_since_epoch());
}

Status validateSiteModel(const SiteModel& model) {
  auto parsed = parseSiteFile(writeSiteFile(model));
  if (!parsed) return parsed.error();
  return Status::success();
}

}  // namespace atoms::site
