#include "domain/terminal/punch_ledger.h"

#include <optional>
#include <string>

#include "base/canonical_json.h"
#include "base/unix_time.h"
#include "store/audit_entry.h"

namespace atoms::terminal {
namespace {

using drivers::terminal::Punch;
using drivers::terminal::PunchOutcomeKind;

site::PunchKind siteKind(drivers::terminal::PunchKind kind) {
  switch (kind) {
    case drivers::terminal::PunchKind::kClockIn:
      return site::PunchKind::kClockIn;
    case drivers::terminal::PunchKind::kClockOut:
      return site::PunchKind::kClockOut;
    case drivers::terminal::PunchKind::kBreakStart:
      return site::PunchKind::kBreakStart;
    case drivers::terminal::PunchKind::kBreakEnd:
      return site::PunchKind::kBreakEnd;
  }
  return site::PunchKind::kClockIn;
}

json::Object describe(const Punch& p) {
  return json::Object{{"id", p.id},
                      {"person", p.person},
                      {"kind", std::string(drivers::terminal::punchKindName(p.kind))},
                      {"at", drivers::terminal::formatPunchTime(p.at)}};
}

// The statements of one request, from the connection's cache.
struct Statements {
  Statement stored;
  Statement person;
  Statement insertTerminal;
  Statement insertSite;

  static Result<Statements> prepare(Database& db) {
    auto stored = db.cached(
        "SELECT person_id, kind, at FROM terminal_punch WHERE terminal_id = ? AND event_id = ?");
    if (!stored) return stored.error();
    auto person = db.cached("SELECT 1 FROM site_person WHERE id = ?");
    if (!person) return person.error();
    auto insertTerminal = db.cached(
        "INSERT INTO terminal_punch(terminal_id, event_id, person_id, kind, at, received_at)"
        " VALUES(?,?,?,?,?,?)");
    if (!insertTerminal) return insertTerminal.error();
    auto insertSite = db.cached(
        "INSERT INTO site_punch(position, person_id, kind, at)"
        " SELECT COALESCE(MAX(position), -1) + 1, ?, ?, ? FROM site_punch");
    if (!insertSite) return insertSite.error();
    return Statements{std::move(*stored), std::move(*person), std::move(*insertTerminal),
                      std::move(*insertSite)};
  }
};

// nullopt: not stored yet; otherwise "" when the stored punch is the same, else why it differs.
Result<std::optional<std::string>> storedAlready(Statement& s, const std::string& terminal,
                                                 const Punch& p) {
  if (Status r = s.reset(); !r) return r.error();
  s.bind(1, terminal).bind(2, p.id);
  auto row = s.step();
  if (!row) return row.error();
  if (!*row) return std::optional<std::string>();
  const bool same = s.columnText(0) == p.person &&
                    s.columnText(1) == drivers::terminal::punchKindName(p.kind) &&
                    s.columnInt64(2) == toUnixMillis(p.at);
  return std::optional<std::string>(same ? "" : "the id was stored for another punch");
}

Result<bool> personKnown(Statement& s, const std::string& person) {
  if (Status r = s.reset(); !r) return r.error();
  s.bind(1, person);
  return s.step();
}

}  // namespace

Result<RecordedPunches> recordPunches(SiteStore& store, const PunchBatch& batch, TimePoint now) {
  Database& db = store.db();
  auto audit = store.log().begin();
  if (!audit) return audit.error();
  auto st = Statements::prepare(db);
  if (!st) return st.error();

  RecordedPunches result;
  json::Array entries;  // accepted and refused, in request order, for the audit
  std::int64_t duplicates = 0;
  const auto latest = now + kMaxClockSkew;
  for (const Punch& p : batch.punches) {
    auto stored = storedAlready(st->stored, batch.terminal, p);
    if (!stored) return stored.error();
    if (stored->has_value()) {
      ++duplicates;
      result.outcomes.push_back({p.id, PunchOutcomeKind::kDuplicate, **stored});
      continue;
    }
    std::string refusal;
    auto known = personKnown(st->person, p.person);
    if (!known) return known.error();
    if (!*known) {
      refusal = "unknown person";
    } else if (p.at > latest) {
      refusal = "clock skew";
    }
    json::Object described = describe(p);
    if (!refusal.empty()) {
      described["outcome"] = "refused";
      described["reason"] = refusal;
      entries.emplace_back(std::move(described));
      result.outcomes.push_back({p.id, PunchOutcomeKind::kRefused, refusal});
      continue;
    }
    const std::string kind(drivers::terminal::punchKindName(p.kind));
    Statement& t = st->insertTerminal;
    if (Status r = t.reset(); !r) return r.error();
    t.bind(1, batch.terminal)
        .bind(2, p.id)
        .bind(3, p.person)
        .bind(4, kind)
        .bind(5, toUnixMillis(p.at))
        .bindTime(6, now);
    if (Status done = t.run(); !done) return done.error();
    const site::Instant seconds = std::chrono::floor<std::chrono::seconds>(p.at);
    Statement& s = st->insertSite;
    if (Status r = s.reset(); !r) return r.error();
    s.bind(1, p.person).bind(2, kind).bind(3, seconds.time_since_epoch().count());
    if (Status done = s.run(); !done) return done.error();
    described["outcome"] = "accepted";
    entries.emplace_back(std::move(described));
    result.outcomes.push_back({p.id, PunchOutcomeKind::kAccepted, ""});
    result.accepted.push_back(site::Punch{p.person, siteKind(p.kind), seconds});
  }
  if (entries.empty()) return result;  // duplicates only: the batch rolls back, nothing changed

  const std::string ts = formatTimestamp(now);
  const std::string actor = "terminal:" + batch.terminal;
  const std::size_t parts = (entries.size() + kMaxPunchesPerEntry - 1) / kMaxPunchesPerEntry;
  for (std::size_t part = 0; part < parts; ++part) {
    const auto first = entries.begin() + static_cast<std::ptrdiff_t>(part * kMaxPunchesPerEntry);
    const auto last = part + 1 == parts ? entries.end()
                                        : first + static_cast<std::ptrdiff_t>(kMaxPunchesPerEntry);
    std::int64_t accepted = 0;
    for (auto it = first; it != last; ++it) {
      if (it->find("outcome")->asString() == "accepted") ++accepted;
    }
    json::Object body{{"terminal", batch.terminal},
                      {"punches", json::Array(first, last)},
                      {"accepted", accepted},
                      {"refused", static_cast<std::int64_t>(last - first) - accepted},
                      {"duplicates", duplicates}};
    if (parts > 1) {
      body["part"] = static_cast<std::int64_t>(part + 1);
      body["parts"] = static_cast<std::int64_t>(parts);
    }
    if (auto seq = audit->add(ts, "punch", actor, json::Value(std::move(body))); !seq) {
      return seq.error();
    }
  }
  if (auto committed = audit->commit(); !committed) return committed.error();
  return result;
}

PunchLedger::PunchLedger(atoms::StoreRunner& runner, std::function<TimePoint()> now,
                         Listener listener)
    : runner_(runner), now_(std::move(now)), listener_(std::move(listener)) {}

Result<std::vector<PunchOutcome>> PunchLedger::accept(const PunchBatch& batch) {
  std::optional<RecordedPunches> recorded;
  Status status = runner_.run([&](SiteStore& store) -> Status {
    auto r = recordPunches(store, batch, now_());
    if (!r) return r.error();
    recorded = std::move(*r);
    if (listener_ && !recorded->accepted.empty()) {
      try {
        listener_(recorded->accepted);
      } catch (...) {
        // Stored is stored: a failing listener must not make the terminal send them again.
      }
    }
    return Status::success();
  });
  if (!status)
    return makeError("punches from terminal " + batch.terminal +
                     " were not stored: " + status.message());
  return std::move(recorded->outcomes);
}

}  // namespace atoms::terminal
