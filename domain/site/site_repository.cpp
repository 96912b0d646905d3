#include "domain/site/site_repository.h"

#include <cstdio>
#include <functional>
#include <map>
#include <string_view>

#include "domain/site/site_file.h"
#include "store/row_reader.h"

namespace atoms::site {
namespace {

// Children first, so the order also suits foreign keys if a later migration adds them.
constexpr std::string_view kTables[] = {
    "site_school_day",
    "site_punch",
    "site_schedule_version_shift",
    "site_schedule_version",
    "site_shift",
    "site_time_off",
    "site_availability",
    "site_person_certification",
    "site_person_role",
    "site_person",
    "site_station_certification",
    "site_station_tag",
    "site_station",
    "site_certification",
    "site_jurisdiction",
    "site_info",
};

std::int64_t seconds(Instant t) { return t.time_since_epoch().count(); }
std::int64_t seconds(LocalTime t) { return t.time_since_epoch().count(); }

// One prepared INSERT, run once per row.
class Inserter {
 public:
  static Result<Inserter> make(Database& db, std::string_view sql) {
    auto stmt = db.prepare(sql);
    if (!stmt) return stmt.error();
    return Inserter(std::move(*stmt));
  }
  Statement& row() { return stmt_; }
  Status run() {
    auto done = stmt_.step();
    if (!done) return done.error();
    return stmt_.reset();
  }

 private:
  explicit Inserter(Statement stmt) : stmt_(std::move(stmt)) {}
  Statement stmt_;
};

#define REPO_TRY(var, expr)             \
  auto var##_r = (expr);                \
  if (!var##_r) return var##_r.error(); \
  auto var = std::move(var##_r).value()

#define REPO_CHECK(expr) \
  if (Status s_ = (expr); !s_) return s_

// Mutable lookup by id while a model is being assembled from rows.
template <class T>
class ById {
 public:
  explicit ById(std::vector<T>& items) : items_(&items) {
    for (std::size_t i = 0; i < items.size(); ++i) index_.emplace(items[i].id, i);
  }
  T* find(const std::string& id) {
    auto it = index_.find(id);
    return it == index_.end() ? nullptr : &(*items_)[it->second];
  }

 private:
  std::vector<T>* items_;
  std::map<std::string, std::size_t> index_;
};

Status writeRows(Database& db, const SiteModel& m) {
  for (std::string_view table : kTables) {
    REPO_CHECK(db.exec("DELETE FROM " + std::string(table)));
  }
  REPO_TRY(info, Inserter::make(db,
                                "INSERT INTO site_info(id, site_id, name, time_zone, industry,"
                                " school_week_start, school_start_minute, school_end_minute,"
                                " workweek_start, workday_start_minute)"
                                " VALUES(1, ?, ?, ?, ?, ?, ?, ?, ?, ?)"));
  info.row()
      .bind(1, m.site.id)
      .bind(2, m.site.name)
      .bind(3, m.site.timeZone)
      .bind(4, m.site.industry)
      .bind(5, std::int64_t{m.schoolCalendar.weekStart});
  if (const auto& hours = m.schoolCalendar.schoolHours) {
    info.row().bind(6, std::int64_t{hours->startMinute}).bind(7, std::int64_t{hours->endMinute});
  } else {
    info.row().bindNull(6).bindNull(7);
  }
  info.row()
      .bind(8, std::int64_t{m.site.workweekStart})
      .bind(9, std::int64_t{m.site.workdayStartMinute});
  REPO_CHECK(info.run());

  REPO_TRY(jur, Inserter::make(db, "INSERT INTO site_jurisdiction(position, code) VALUES(?, ?)"));
  for (std::size_t i = 0; i < m.site.jurisdictions.size(); ++i) {
    jur.row().bind(1, std::int64_t(i)).bind(2, m.site.jurisdictions[i]);
    REPO_CHECK(jur.run());
  }

  REPO_TRY(cert, Inserter::make(
                     db, "INSERT INTO site_certification(id, position, name) VALUES(?, ?, ?)"));
  for (std::size_t i = 0; i < m.certifications.size(); ++i) {
    cert.row()
        .bind(1, m.certifications[i].id)
        .bind(2, std::int64_t(i))
        .bind(3, m.certifications[i].name);
    REPO_CHECK(cert.run());
  }

  REPO_TRY(station, Inserter::make(db,
                                   "INSERT INTO site_station(id, position, name, minimum_age)"
                                   " VALUES(?, ?, ?, ?)"));
  REPO_TRY(stationCert, Inserter::make(db,
                                       "INSERT INTO site_station_certification(station_id,"
                                       " position, certification_id) VALUES(?, ?, ?)"));
  REPO_TRY(stationTag, Inserter::make(db,
                                      "INSERT INTO site_station_tag(station_id, position, tag)"
                                      " VALUES(?, ?, ?)"));
  for (std::size_t i = 0; i < m.stations.size(); ++i) {
    const Station& s = m.stations[i];
    station.row().bind(1, s.id).bind(2, std::int64_t(i)).bind(3, s.name);
    if (s.minimumAge) {
      station.row().bind(4, std::int64_t{*s.minimumAge});
    } else {
      station.row().bindNull(4);
    }
    REPO_CHECK(station.run());
    for (std::size_t j = 0; j < s.requiredCertifications.size(); ++j) {
      stationCert.row().bind(1, s.id).bind(2, std::int64_t(j)).bind(3, s.requiredCertifications[j]);
      REPO_CHECK(stationCert.run());
    }
    for (std::size_t j = 0; j < s.tags.size(); ++j) {
      stationTag.row().bind(1, s.id).bind(2, std::int64_t(j)).bind(3, s.tags[j]);
      REPO_CHECK(stationTag.run());
    }
  }

  REPO_TRY(person, Inserter::make(db,
                                  "INSERT INTO site_person(id, position, name, phone, birth_date,"
                                  " minor, sms_consent, sms_consent_at, manager_id,"
                                  " safety_contact, hourly_rate_cents, hire_date)"
                                  " VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"));
  REPO_TRY(role, Inserter::make(db,
                                "INSERT INTO site_person_role(person_id, position, station_id)"
                                " VALUES(?, ?, ?)"));
  REPO_TRY(held, Inserter::make(db,
                                "INSERT INTO site_person_certification(person_id, position,"
                                " certification_id, expires) VALUES(?, ?, ?, ?)"));
  REPO_TRY(avail, Inserter::make(db,
                                 "INSERT INTO site_availability(person_id, position, weekday,"
                                 " start_minute, end_minute) VALUES(?, ?, ?, ?, ?)"));
  REPO_TRY(off, Inserter::make(db,
                               "INSERT INTO site_time_off(person_id, position, start_utc,"
                               " start_local, end_utc, end_local) VALUES(?, ?, ?, ?, ?, ?)"));
  for (std::size_t i = 0; i < m.people.size(); ++i) {
    const Person& p = m.people[i];
    Statement& r = person.row();
    r.bind(1, p.id).bind(2, std::int64_t(i)).bind(3, p.name).bind(4, p.phone);
    if (p.birthDate) {
      r.bind(5, formatDate(*p.birthDate));
    } else {
      r.bindNull(5);
    }
    r.bind(6, std::int64_t{p.minor}).bind(7, std::int64_t{p.smsConsent.granted});
    if (p.smsConsent.at) {
      r.bind(8, seconds(*p.smsConsent.at));
    } else {
      r.bindNull(8);
    }
    r.bindOptional(9, p.managerOfRecord);
    r.bind(10, std::int64_t{p.safetyContact}).bind(11, p.hourlyRateCents);
    if (p.hireDate) {
      r.bind(12, formatDate(*p.hireDate));
    } else {
      r.bindNull(12);
    }
    REPO_CHECK(person.run());
    for (std::size_t j = 0; j < p.roles.size(); ++j) {
      role.row().bind(1, p.id).bind(2, std::int64_t(j)).bind(3, p.roles[j]);
      REPO_CHECK(role.run());
    }
    for (std::size_t j = 0; j < p.certifications.size(); ++j) {
      const HeldCertification& c = p.certifications[j];
      held.row().bind(1, p.id).bind(2, std::int64_t(j)).bind(3, c.certificationId);
      if (c.expires) {
        held.row().bind(4, formatDate(*c.expires));
      } else {
        held.row().bindNull(4);
      }
      REPO_CHECK(held.run());
    }
    for (std::size_t j = 0; j < p.availability.size(); ++j) {
      const AvailabilityWindow& w = p.availability[j];
      avail.row()
          .bind(1, p.id)
          .bind(2, std::int64_t(j))
          .bind(3, std::int64_t{w.weekday})
          .bind(4, std::int64_t{w.startMinute})
          .bind(5, std::int64_t{w.endMinute});
      REPO_CHECK(avail.run());
    }
    for (std::size_t j = 0; j < p.timeOff.size(); ++j) {
      const TimeOff& t = p.timeOff[j];
      off.row()
          .bind(1, p.id)
          .bind(2, std::int64_t(j))
          .bind(3, seconds(t.start.utc))
          .bind(4, seconds(t.start.local))
          .bind(5, seconds(t.end.utc))
          .bind(6, seconds(t.end.local));
      REPO_CHECK(off.run());
    }
  }

  REPO_TRY(shift, Inserter::make(db,
                                 "INSERT INTO site_shift(id, position, station_id, start_utc,"
                                 " start_local, end_utc, end_local, certification_id,"
                                 " assignee_id) VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?)"));
  for (std::size_t i = 0; i < m.shifts.size(); ++i) {
    const Shift& s = m.shifts[i];
    Statement& r = shift.row();
    r.bind(1, s.id)
        .bind(2, std::int64_t(i))
        .bind(3, s.stationId)
        .bind(4, seconds(s.start.utc))
        .bind(5, seconds(s.start.local))
        .bind(6, seconds(s.end.utc))
        .bind(7, seconds(s.end.local));
    r.bindOptional(8, s.requiredCertification);
    r.bindOptional(9, s.assignee);
    REPO_CHECK(shift.run());
  }

  REPO_TRY(version, Inserter::make(db,
                                   "INSERT INTO site_schedule_version(id, position,"
                                   " published_at) VALUES(?, ?, ?)"));
  REPO_TRY(versionShift, Inserter::make(db,
                                        "INSERT INTO site_schedule_version_shift(version_id,"
                                        " position, shift_id) VALUES(?, ?, ?)"));
  for (std::size_t i = 0; i < m.scheduleVersions.size(); ++i) {
    const ScheduleVersion& v = m.scheduleVersions[i];
    version.row().bind(1, v.id).bind(2, std::int64_t(i)).bind(3, seconds(v.publishedAt));
    REPO_CHECK(version.run());
    for (std::size_t j = 0; j < v.shiftIds.size(); ++j) {
      versionShift.row().bind(1, v.id).bind(2, std::int64_t(j)).bind(3, v.shiftIds[j]);
      REPO_CHECK(versionShift.run());
    }
  }

  REPO_TRY(punch, Inserter::make(db,
                                 "INSERT INTO site_punch(position, person_id, kind, at)"
                                 " VALUES(?, ?, ?, ?)"));
  for (std::size_t i = 0; i < m.punches.size(); ++i) {
    const Punch& p = m.punches[i];
    punch.row()
        .bind(1, std::int64_t(i))
        .bind(2, p.personId)
        .bind(3, punchKindName(p.kind))
        .bind(4, seconds(p.at));
    REPO_CHECK(punch.run());
  }

  REPO_TRY(day, Inserter::make(db, "INSERT INTO site_school_day(day, position) VALUES(?, ?)"));
  for (std::size_t i = 0; i < m.schoolCalendar.schoolDays.size(); ++i) {
    day.row().bind(1, formatDate(m.schoolCalendar.schoolDays[i])).bind(2, std::int64_t(i));
    REPO_CHECK(day.run());
  }
  return Status::success();
}

// Runs a SELECT (once per load, so not kept in the statement cache) and calls onRow for each row;
// stops at the first error.
Status eachRow(Database& db, std::string_view sql, const std::function<Status(RowReader&)>& onRow) {
  auto stmt = db.prepare(sql);
  if (!stmt) return stmt.error();
  for (;;) {
    auto row = stmt->step();
    if (!row) return row.error();
    if (!*row) return Status::success();
    RowReader reader(*stmt);
    REPO_CHECK(onRow(reader));
  }
}

Result<Date> dateFrom(const std::string& text) {
  auto d = parseDate(text);
  if (!d) return makeError("stored site has a malformed date '" + text + "'");
  return *d;
}

Result<std::optional<Date>> optionalDate(RowReader& r) {
  auto text = r.optionalText();
  if (!text) return std::optional<Date>();
  auto d = dateFrom(*text);
  if (!d) return d.error();
  return std::optional<Date>(*d);
}

Instant instant(RowReader& r) { return Instant{Seconds{r.int64()}}; }

Stamp stamp(RowReader& r) {
  const Instant utc = instant(r);
  return Stamp{utc, LocalTime{Seconds{r.int64()}}};
}

Status loadInto(Database& db, SiteModel& m, bool& found) {
  REPO_CHECK(eachRow(db,
                     "SELECT site_id, name, time_zone, industry, school_week_start,"
                     " school_start_minute, school_end_minute, workweek_start,"
                     " workday_start_minute FROM site_info",
                     [&](RowReader& r) {
                       found = true;
                       m.site.id = r.text();
                       m.site.name = r.text();
                       m.site.timeZone = r.text();
                       m.site.industry = r.text();
                       m.schoolCalendar.weekStart = static_cast<unsigned>(r.int64());
                       const auto start = r.optionalInt64();
                       const auto end = r.optionalInt64();
                       if (start.has_value() != end.has_value()) {
                         return Status(makeError("stored school hours are incomplete"));
                       }
                       if (start) {
                         m.schoolCalendar.schoolHours =
                             SchoolHours{static_cast<int>(*start), static_cast<int>(*end)};
                       }
                       m.site.workweekStart = static_cast<unsigned>(r.int64());
                       m.site.workdayStartMinute = static_cast<int>(r.int64());
                       return Status::success();
                     }));
  if (!found) return Status::success();
  REPO_CHECK(eachRow(db, "SELECT code FROM site_jurisdiction ORDER BY position", [&](RowReader& r) {
    m.site.jurisdictions.push_back(r.text());
    return Status::success();
  }));
  REPO_CHECK(
      eachRow(db, "SELECT id, name FROM site_certification ORDER BY position", [&](RowReader& r) {
        m.certifications.push_back(Certification{r.text(), r.text()});
        return Status::success();
      }));
  REPO_CHECK(eachRow(db, "SELECT id, name, minimum_age FROM site_station ORDER BY position",
                     [&](RowReader& r) {
                       Station st{r.text(), r.text(), {}, std::nullopt, {}};
                       if (auto age = r.optionalInt64()) st.minimumAge = static_cast<int>(*age);
                       m.stations.push_back(std::move(st));
                       return Status::success();
                     }));
  ById<Station> stationsById(m.stations);
  REPO_CHECK(eachRow(db,
                     "SELECT station_id, certification_id FROM site_station_certification"
                     " ORDER BY station_id, position",
                     [&](RowReader& r) {
                       Station* st = stationsById.find(r.text());
                       if (st == nullptr) return Status(makeError("stored site is inconsistent"));
                       st->requiredCertifications.push_back(r.text());
                       return Status::success();
                     }));
  REPO_CHECK(eachRow(db,
                     "SELECT station_id, tag FROM site_station_tag ORDER BY station_id, position",
                     [&](RowReader& r) {
                       Station* st = stationsById.find(r.text());
                       if (st == nullptr) return Status(makeError("stored site is inconsistent"));
                       st->tags.push_back(r.text());
                       return Status::success();
                     }));
  REPO_CHECK(eachRow(db,
                     "SELECT id, name, phone, birth_date, minor, sms_consent, sms_consent_at,"
                     " manager_id, safety_contact, hourly_rate_cents, hire_date FROM site_person"
                     " ORDER BY position",
                     [&](RowReader& r) {
                       Person p;
                       p.id = r.text();
                       p.name = r.text();
                       p.phone = r.text();
                       auto birth = optionalDate(r);
                       if (!birth) return Status(birth.error());
                       p.birthDate = *birth;
                       p.minor = r.flag();
                       p.smsConsent.granted = r.flag();
                       if (auto at = r.optionalInt64()) p.smsConsent.at = Instant{Seconds{*at}};
                       p.managerOfRecord = r.optionalText();
                       p.safetyContact = r.flag();
                       p.hourlyRateCents = r.int64();
                       auto hired = optionalDate(r);
                       if (!hired) return Status(hired.error());
                       p.hireDate = *hired;
                       m.people.push_back(std::move(p));
                       return Status::success();
                     }));
  ById<Person> peopleById(m.people);
  const Status inconsistent =
      makeError("stored site is inconsistent (a row names an unknown person)");
  // Each of these rows starts with the person it belongs to.
  const auto eachPersonRow = [&](std::string_view sql,
                                 const std::function<Status(Person&, RowReader&)>& onRow) {
    return eachRow(db, sql, [&](RowReader& r) {
      Person* p = peopleById.find(r.text());
      if (p == nullptr) return inconsistent;
      return onRow(*p, r);
    });
  };
  REPO_CHECK(eachPersonRow(
      "SELECT person_id, station_id FROM site_person_role ORDER BY person_id, position",
      [&](Person& p, RowReader& r) {
        p.roles.push_back(r.text());
        return Status::success();
      }));
  REPO_CHECK(
      eachPersonRow("SELECT person_id, certification_id, expires FROM site_person_certification"
                    " ORDER BY person_id, position",
                    [&](Person& p, RowReader& r) {
                      HeldCertification c{r.text(), std::nullopt};
                      auto expires = optionalDate(r);
                      if (!expires) return Status(expires.error());
                      c.expires = *expires;
                      p.certifications.push_back(std::move(c));
                      return Status::success();
                    }));
  REPO_CHECK(
      eachPersonRow("SELECT person_id, weekday, start_minute, end_minute FROM site_availability"
                    " ORDER BY person_id, position",
                    [&](Person& p, RowReader& r) {
                      p.availability.push_back(AvailabilityWindow{static_cast<unsigned>(r.int64()),
                                                                  r.int32(), r.int32()});
                      return Status::success();
                    }));
  REPO_CHECK(
      eachPersonRow("SELECT person_id, start_utc, start_local, end_utc, end_local"
                    " FROM site_time_off ORDER BY person_id, position",
                    [&](Person& p, RowReader& r) {
                      p.timeOff.push_back(TimeOff{stamp(r), stamp(r)});
                      return Status::success();
                    }));
  REPO_CHECK(eachRow(db,
                     "SELECT " + std::string(kShiftColumns) + " FROM site_shift ORDER BY position",
                     [&](RowReader& r) {
                       m.shifts.push_back(readShift(r));
                       return Status::success();
                     }));
  REPO_CHECK(eachRow(db, "SELECT id, published_at FROM site_schedule_version ORDER BY position",
                     [&](RowReader& r) {
                       m.scheduleVersions.push_back(ScheduleVersion{r.text(), instant(r), {}});
                       return Status::success();
                     }));
  ById<ScheduleVersion> versionsById(m.scheduleVersions);
  REPO_CHECK(eachRow(db,
                     "SELECT version_id, shift_id FROM site_schedule_version_shift"
                     " ORDER BY version_id, position",
                     [&](RowReader& r) {
                       ScheduleVersion* v = versionsById.find(r.text());
                       if (v == nullptr) return Status(makeError("stored site is inconsistent"));
                       v->shiftIds.push_back(r.text());
                       return Status::success();
                     }));
  REPO_CHECK(eachRow(db, "SELECT person_id, kind, at FROM site_punch ORDER BY position",
                     [&](RowReader& r) {
                       std::string person = r.text();
                       auto kind = parsePunchKind(r.text());
                       if (!kind) return Status(makeError("stored punch has unknown kind"));
                       m.punches.push_back(Punch{std::move(person), *kind, instant(r)});
                       return Status::success();
                     }));
  REPO_CHECK(eachRow(db, "SELECT day FROM site_school_day ORDER BY position", [&](RowReader& r) {
    auto d = dateFrom(r.text());
    if (!d) return Status(d.error());
    m.schoolCalendar.schoolDays.push_back(*d);
    return Status::success();
  }));
  return Status::success();
}

}  // namespace

Status writeSiteRows(Database& db, const SiteModel& model) {
  REPO_CHECK(validateSiteModel(model));
  if (Status s = writeRows(db, model); !s)
    return makeError("cannot store the site: " + s.message());
  return Status::success();
}

Status importSite(Database& db, const SiteModel& model) {
  REPO_CHECK(validateSiteModel(model));
  auto tx = Transaction::begin(db);
  if (!tx) return makeError("cannot store the site: " + tx.message());
  if (Status s = writeRows(db, model); !s)
    return makeError("cannot store the site: " + s.message());
  if (Status s = tx->commit(); !s) return makeError("cannot store the site: " + s.message());
  return Status::success();
}

Result<PersonStanding> personStanding(Database& db, std::string_view id) {
  const auto exists = [&](const char* sql) -> Result<bool> {
    auto stmt = db.cached(sql);
    if (!stmt) return stmt.error();
    stmt->bind(1, id);
    auto row = stmt->step();
    if (!row) return row.error();
    return *row;
  };
  PersonStanding out;
  auto person = db.cached("SELECT phone, manager_id FROM site_person WHERE id = ?");
  if (!person) return person.error();
  person->bind(1, id);
  auto row = person->step();
  if (!row) return row.error();
  if (*row) {
    out.onSite = true;
    out.phone = person->columnText(0);
    out.managerId = person->columnIsNull(1) ? std::string() : person->columnText(1);
  }
  auto manager = exists("SELECT 1 FROM site_person WHERE manager_id = ? LIMIT 1");
  if (!manager) return manager.error();
  out.managerOfRecord = *manager;
  return out;
}

Shift readShift(RowReader& r) {
  return Shift{r.text(), r.text(), stamp(r), stamp(r), r.optionalText(), r.optionalText()};
}

Result<SiteModel> loadSite(Database& db) {
  SiteModel m;
  bool found = false;
  if (Status s = loadInto(db, m, found); !s)
    return makeError("cannot read the site: " + s.message());
  if (!found) return makeError("no site has been imported (atoms-edge site import FILE)");
  return m;
}

}  // namespace atoms::site
