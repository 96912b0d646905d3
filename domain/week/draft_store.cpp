#include "domain/week/draft_store.h"

#include <utility>

#include "base/unix_time.h"
#include "domain/site/site_repository.h"
#include "store/row_reader.h"

namespace atoms::week {

namespace {

std::int64_t secondsOf(site::Instant t) { return t.time_since_epoch().count(); }
std::int64_t secondsOf(site::LocalTime t) { return t.time_since_epoch().count(); }

WeekTemplate readTemplateHeader(RowReader& r) {
  WeekTemplate t;
  t.name = r.text();
  t.createdBy = r.text();
  t.createdAt = r.time();
  return t;
}

}  // namespace

Result<std::optional<WeekDraft>> DraftStore::find(Week week) {
  auto stmt = db_.cached(
      "SELECT version, next_shift, opened_at, updated_by, updated_at, published_version,"
      " published_at FROM schedule_draft WHERE week = ?");
  if (!stmt) return stmt.error();
  stmt->bind(1, formatWeek(week));
  auto header = readFirst(*stmt, [week](RowReader& r) {
    WeekDraft d;
    d.week = week;
    d.version = r.int64();
    d.nextShift = r.int64();
    d.openedAt = r.time();
    d.updatedBy = r.text();
    d.updatedAt = r.time();
    d.publishedVersion = r.optionalText();
    d.publishedAt = r.optionalTime();
    return d;
  });
  if (!header) return header.error();
  if (!*header) return std::optional<WeekDraft>();
  auto shifts = readShifts("schedule_draft_shift", week);
  if (!shifts) return shifts.error();
  (*header)->shifts = std::move(*shifts);
  return std::move(*header);
}

Status DraftStore::create(const WeekDraft& d, const std::vector<site::Shift>& base) {
  auto stmt = db_.cached(
      "INSERT INTO schedule_draft(week, version, next_shift, opened_at, updated_by, updated_at,"
      " published_version, published_at) VALUES(?, ?, ?, ?, ?, ?, ?, ?)");
  if (!stmt) return stmt.error();
  stmt->bind(1, formatWeek(d.week)).bind(2, d.version).bind(3, d.nextShift);
  stmt->bindTime(4, d.openedAt).bind(5, d.updatedBy).bindTime(6, d.updatedAt);
  stmt->bindOptional(7, d.publishedVersion).bindTime(8, d.publishedAt);
  if (Status s = stmt->run(); !s) return s;
  if (Status s = writeShifts("schedule_draft_shift", d.week, d.shifts); !s) return s;
  return writeShifts("schedule_draft_base", d.week, base);
}

Result<bool> DraftStore::save(const WeekDraft& d) {
  auto stmt = db_.cached(
      "UPDATE schedule_draft SET version = ?, next_shift = ?, updated_by = ?, updated_at = ?,"
      " published_version = ?, published_at = ? WHERE week = ? AND version = ?");
  if (!stmt) return stmt.error();
  stmt->bind(1, d.version).bind(2, d.nextShift).bind(3, d.updatedBy).bindTime(4, d.updatedAt);
  stmt->bindOptional(5, d.publishedVersion).bindTime(6, d.publishedAt);
  stmt->bind(7, formatWeek(d.week)).bind(8, d.version - 1);
  if (Status s = stmt->run(); !s) return s.error();
  if (db_.changes() != 1) return false;
  if (Status s = writeShifts("schedule_draft_shift", d.week, d.shifts); !s) return s.error();
  return true;
}

Result<std::vector<site::Shift>> DraftStore::base(Week week) {
  return readShifts("schedule_draft_base", week);
}

Status DraftStore::replaceBase(Week week, const std::vector<site::Shift>& shifts) {
  return writeShifts("schedule_draft_base", week, shifts);
}

Status DraftStore::writeShifts(std::string_view table, Week week,
                               const std::vector<site::Shift>& shifts) {
  const std::string name(table);
  const std::string key = formatWeek(week);
  auto del = db_.cached("DELETE FROM " + name + " WHERE week = ?");
  if (!del) return del.error();
  del->bind(1, key);
  if (Status s = del->run(); !s) return s;
  auto ins = db_.cached("INSERT INTO " + name +
                        "(week, id, station_id, start_utc, start_local, end_utc, end_local,"
                        " certification_id, assignee_id) VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?)");
  if (!ins) return ins.error();
  for (const site::Shift& s : shifts) {
    if (Status st = ins->reset(); !st) return st;
    ins->bind(1, key).bind(2, s.id).bind(3, s.stationId);
    ins->bind(4, secondsOf(s.start.utc)).bind(5, secondsOf(s.start.local));
    ins->bind(6, secondsOf(s.end.utc)).bind(7, secondsOf(s.end.local));
    ins->bindOptional(8, s.requiredCertification).bindOptional(9, s.assignee);
    if (Status st = ins->run(); !st) return st;
  }
  return Status::success();
}

Result<std::vector<site::Shift>> DraftStore::readShifts(std::string_view table, Week week) {
  auto stmt = db_.cached("SELECT " + std::string(site::kShiftColumns) + " FROM " +
                         std::string(table) + " WHERE week = ? ORDER BY start_utc, id");
  if (!stmt) return stmt.error();
  stmt->bind(1, formatWeek(week));
  return readRows(*stmt, [](RowReader& r) { return site::readShift(r); });
}

Status DraftStore::recordEdit(Week week, const EditRecord& e) {
  auto stmt = db_.cached(
      "INSERT INTO schedule_draft_edit(week, version, kind, actor, at, detail)"
      " VALUES(?, ?, ?, ?, ?, ?)");
  if (!stmt) return stmt.error();
  stmt->bind(1, formatWeek(week)).bind(2, e.version).bind(3, e.kind).bind(4, e.actor);
  stmt->bindTime(5, e.at).bind(6, json::canonical(e.detail));
  return stmt->run();
}

Result<std::vector<EditRecord>> DraftStore::edits(Week week, int limit) {
  auto stmt = db_.cached(
      "SELECT version, kind, actor, at, detail FROM schedule_draft_edit WHERE week = ?"
      " ORDER BY version DESC LIMIT ?");
  if (!stmt) return stmt.error();
  stmt->bind(1, formatWeek(week)).bind(2, std::int64_t{limit});
  return readRows(*stmt, [](RowReader& r) -> Result<EditRecord> {
    EditRecord e;
    e.version = r.int64();
    e.kind = r.text();
    e.actor = r.text();
    e.at = r.time();
    auto detail = json::parse(r.text());
    if (!detail)
      return makeError("schedule_draft_edit " + std::to_string(e.version) +
                       ": damaged detail: " + detail.message());
    e.detail = std::move(*detail);
    return e;
  });
}

Status DraftStore::recordOverride(Week week, const DraftOverride& o) {
  auto stmt = db_.cached(
      "INSERT OR REPLACE INTO schedule_draft_override(week, rule_id, shift_id, person_id, reason,"
      " actor, at, version) VALUES(?, ?, ?, ?, ?, ?, ?, ?)");
  if (!stmt) return stmt.error();
  stmt->bind(1, formatWeek(week)).bind(2, o.ruleId).bind(3, o.shiftId).bind(4, o.personId);
  stmt->bind(5, o.reason).bind(6, o.actor).bindTime(7, o.at).bind(8, o.version);
  return stmt->run();
}

Result<std::vector<DraftOverride>> DraftStore::overrides(Week week) {
  auto stmt = db_.cached(
      "SELECT rule_id, shift_id, person_id, reason, actor, at, version"
      " FROM schedule_draft_override WHERE week = ? ORDER BY version, rule_id, shift_id");
  if (!stmt) return stmt.error();
  stmt->bind(1, formatWeek(week));
  return readRows(*stmt, [](RowReader& r) {
    DraftOverride o;
    o.ruleId = r.text();
    o.shiftId = r.text();
    o.personId = r.text();
    o.reason = r.text();
    o.actor = r.text();
    o.at = r.time();
    o.version = r.int64();
    return o;
  });
}

Status DraftStore::saveTemplate(const WeekTemplate& t) {
  for (const char* sql : {"DELETE FROM schedule_template WHERE name = ?",
                          "DELETE FROM schedule_template_shift WHERE name = ?"}) {
    auto del = db_.cached(sql);
    if (!del) return del.error();
    del->bind(1, t.name);
    if (Status s = del->run(); !s) return s;
  }
  auto head =
      db_.cached("INSERT INTO schedule_template(name, created_by, created_at) VALUES(?, ?, ?)");
  if (!head) return head.error();
  head->bind(1, t.name).bind(2, t.createdBy).bindTime(3, t.createdAt);
  if (Status s = head->run(); !s) return s;
  auto ins = db_.cached(
      "INSERT INTO schedule_template_shift(name, position, station_id, day, start_minute,"
      " minutes, certification_id, assignee_id) VALUES(?, ?, ?, ?, ?, ?, ?, ?)");
  if (!ins) return ins.error();
  for (std::size_t i = 0; i < t.shifts.size(); ++i) {
    const TemplateShift& s = t.shifts[i];
    if (Status st = ins->reset(); !st) return st;
    ins->bind(1, t.name).bind(2, static_cast<std::int64_t>(i)).bind(3, s.stationId);
    ins->bind(4, std::int64_t{s.day}).bind(5, std::int64_t{s.startMinute});
    ins->bind(6, std::int64_t{s.minutes});
    ins->bindOptional(7, s.certificationId).bindOptional(8, s.assignee);
    if (Status st = ins->run(); !st) return st;
  }
  return Status::success();
}

Result<std::optional<WeekTemplate>> DraftStore::findTemplate(const std::string& name) {
  auto head =
      db_.cached("SELECT name, created_by, created_at FROM schedule_template WHERE name = ?");
  if (!head) return head.error();
  head->bind(1, name);
  auto found = readFirst(*head, readTemplateHeader);
  if (!found || !*found) return found;
  auto rows = db_.cached(
      "SELECT station_id, day, start_minute, minutes, certification_id, assignee_id"
      " FROM schedule_template_shift WHERE name = ? ORDER BY position");
  if (!rows) return rows.error();
  rows->bind(1, name);
  auto shifts = readRows(*rows, [](RowReader& r) {
    TemplateShift s;
    s.stationId = r.text();
    s.day = r.int32();
    s.startMinute = r.int32();
    s.minutes = r.int32();
    s.certificationId = r.optionalText();
    s.assignee = r.optionalText();
    return s;
  });
  if (!shifts) return shifts.error();
  (*found)->shifts = std::move(*shifts);
  return found;
}

Result<std::vector<std::string>> DraftStore::templateNames() {
  auto stmt = db_.cached("SELECT name FROM schedule_template ORDER BY name");
  if (!stmt) return stmt.error();
  return readRows(*stmt, [](RowReader& r) { return r.text(); });
}

}  // namespace atoms::week
