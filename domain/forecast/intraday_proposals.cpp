#include "domain/forecast/intraday_proposals.h"

#include <algorithm>
#include <array>
#include <cstdlib>

#include "base/timestamp.h"
#include "domain/forecast/demand_history.h"
#include "domain/labor/pay.h"
#include "domain/site/site_model.h"

namespace atoms::forecast {
namespace {

constexpr std::array<std::string_view, 4> kProposalStateNames = {"pending", "approved", "denied",
                                                                 "expired"};
constexpr char kProposalColumns[] =
    "SELECT id, day, station, kind, state, measure, window_start, window_end, actual, forecast,"
    " shift_id, person_id, cut_to, premium_cents, premium_minutes, summary, requested_at,"
    " decided_by, decided_at, remark, scheduled_end FROM intraday_proposal ";

// "11:00-12:00" from a window on the wall clock.
std::string windowText(const IntradaySignal& s) {
  const auto day = std::chrono::floor<std::chrono::days>(s.windowStart);
  const auto minuteOf = [&](std::chrono::local_seconds t) {
    return static_cast<int>(std::chrono::floor<std::chrono::minutes>(t - day).count());
  };
  return site::formatTimeOfDay(minuteOf(s.windowStart)) + "-" +
         site::formatTimeOfDay(minuteOf(s.windowEnd));
}

// 41200 cents as "$412.00"; a count as "38 covers".
std::string amountText(Measure measure, std::int64_t amount) {
  if (measure == Measure::kNetSales) return labor::formatCents(amount);
  return std::to_string(amount) + " " + measureName(measure);
}

Result<IntradayProposal> readProposal(Statement& s) {
  IntradayProposal p;
  p.id = s.columnInt64(0);
  const std::string dayText = s.columnText(1);
  const auto day = site::parseDate(dayText);
  if (!day) return makeError("intraday proposal " + std::to_string(p.id) + ": bad day");
  p.day = std::chrono::local_days(*day);
  p.signal.station = s.columnText(2);
  p.signal.kind = s.columnText(3) == "cut" ? IntradayKind::kCut : IntradayKind::kAdd;
  const std::string state = s.columnText(4);
  for (std::size_t i = 0; i < kProposalStateNames.size(); ++i) {
    if (kProposalStateNames[i] == state) p.state = static_cast<ProposalState>(i);
  }
  const std::string measure = s.columnText(5);
  for (int m = 0; m < kMeasureCount; ++m) {
    if (measure == measureName(static_cast<Measure>(m))) p.signal.measure = static_cast<Measure>(m);
  }
  p.signal.windowStart = std::chrono::local_seconds(std::chrono::seconds(s.columnInt64(6)));
  p.signal.windowEnd = std::chrono::local_seconds(std::chrono::seconds(s.columnInt64(7)));
  p.signal.actual = s.columnInt64(8);
  p.signal.forecast = s.columnInt64(9);
  p.shiftId = s.columnText(10);
  p.personId = s.columnText(11);
  if (!s.columnIsNull(12)) p.cutTo = site::Instant(std::chrono::seconds(s.columnInt64(12)));
  p.premiumCents = s.columnInt64(13);
  p.premiumMinutes = s.columnInt64(14);
  p.summary = s.columnText(15);
  p.requestedAt = fromUnixMillis(s.columnInt64(16));
  p.decidedBy = s.columnText(17);
  if (!s.columnIsNull(18)) p.decidedAt = fromUnixMillis(s.columnInt64(18));
  p.remark = s.columnText(19);
  if (!s.columnIsNull(20)) p.scheduledEnd = site::Instant(std::chrono::seconds(s.columnInt64(20)));
  return p;
}

Result<std::vector<IntradayProposal>> readProposals(Statement& s) {
  std::vector<IntradayProposal> out;
  for (;;) {
    auto row = s.step();
    if (!row) return row.error();
    if (!*row) break;
    auto p = readProposal(s);
    if (!p) return p.error();
    out.push_back(std::move(*p));
  }
  return out;
}

json::Object proposalBody(const IntradayProposal& p) {
  json::Object body{{"id", p.id},
                    {"day", dayText(p.day)},
                    {"station", p.signal.station},
                    {"kind", std::string(intradayKindName(p.signal.kind))},
                    {"measure", measureName(p.signal.measure)},
                    {"window", windowText(p.signal)},
                    {"actual", p.signal.actual},
                    {"forecast", p.signal.forecast},
                    {"percent_off", std::int64_t{p.signal.percentOff()}},
                    {"summary", p.summary}};
  if (p.signal.kind == IntradayKind::kCut) {
    body["shift"] = p.shiftId;
    body["person"] = p.personId;
    body["premium_cents"] = p.premiumCents;
    body["premium_minutes"] = p.premiumMinutes;
  }
  return body;
}

}  // namespace

std::string_view proposalStateName(ProposalState state) {
  return kProposalStateNames[static_cast<std::size_t>(state)];
}

std::string proposalSummary(const IntradaySignal& signal, const std::string& stationName,
                            const std::optional<EarlyRelease>& release,
                            const std::string& personName) {
  const int percent = std::abs(signal.percentOff());
  std::string text = stationName + ": " + measureName(signal.measure) + " " + windowText(signal) +
                     " ran " + std::to_string(percent) + "% " +
                     (signal.kind == IntradayKind::kAdd ? "above" : "below") + " the forecast (" +
                     amountText(signal.measure, signal.actual) + " against " +
                     amountText(signal.measure, signal.forecast) + "). ";
  if (signal.kind == IntradayKind::kAdd || !release) {
    return text + "Add one person at " + stationName + "?";
  }
  const auto minuteOf = [](const site::Stamp& s) {
    const auto day = std::chrono::floor<std::chrono::days>(s.local);
    return static_cast<int>(std::chrono::floor<std::chrono::minutes>(s.local - day).count());
  };
  text += "Offer " + personName + " to finish at " +
          site::formatTimeOfDay(minuteOf(release->newEnd)) + " instead of " +
          site::formatTimeOfDay(minuteOf(release->scheduledEnd)) + "? ";
  text +=
      release->premiumCents > 0
          ? "Fair Workweek premium for the cut: " + labor::formatCents(release->premiumCents) + "."
          : "No Fair Workweek premium for the cut.";
  return text;
}

Result<std::optional<IntradayProposal>> fileProposal(SiteStore& store, std::chrono::local_days day,
                                                     const IntradaySignal& signal,
                                                     const std::optional<EarlyRelease>& release,
                                                     const std::string& summary, TimePoint now) {
  using None = std::optional<IntradayProposal>;
  if (signal.kind == IntradayKind::kCut && !release) return None();
  auto held = store.db().cached(
      "SELECT count(*) FROM intraday_proposal WHERE day = ?1 AND station = ?2 AND"
      " (state = 'pending' OR (state = 'denied' AND kind = ?3))");
  if (!held) return held.error();
  held->bind(1, dayText(day)).bind(2, signal.station).bind(3, intradayKindName(signal.kind));
  auto counted = held->step();
  if (!counted) return counted.error();
  if (*counted && held->columnInt64(0) > 0) return None();

  IntradayProposal p;
  p.day = day;
  p.signal = signal;
  p.summary = summary;
  p.requestedAt = now;
  if (release) {
    p.shiftId = release->shiftId;
    p.personId = release->personId;
    p.cutTo = release->newEnd.utc;
    p.scheduledEnd = release->scheduledEnd.utc;
    p.premiumCents = release->premiumCents;
    p.premiumMinutes = release->premiumMinutes;
  }
  auto audit = store.log().begin();
  if (!audit) return audit.error();
  auto s = store.db().cached(
      "INSERT INTO intraday_proposal(day, station, kind, state, measure, window_start,"
      " window_end, actual, forecast, shift_id, person_id, cut_to, premium_cents,"
      " premium_minutes, summary, requested_at, decided_by, decided_at, remark, scheduled_end)"
      " VALUES (?, ?, ?, 'pending', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, '', NULL, '', ?)");
  if (!s) return s.error();
  std::optional<std::int64_t> cutTo, scheduledEnd;
  if (p.cutTo) cutTo = p.cutTo->time_since_epoch().count();
  if (p.scheduledEnd) scheduledEnd = p.scheduledEnd->time_since_epoch().count();
  s->bind(1, dayText(day))
      .bind(2, signal.station)
      .bind(3, intradayKindName(signal.kind))
      .bind(4, std::string_view(measureName(signal.measure)))
      .bind(5, static_cast<std::int64_t>(signal.windowStart.time_since_epoch().count()))
      .bind(6, static_cast<std::int64_t>(signal.windowEnd.time_since_epoch().count()))
      .bind(7, signal.actual)
      .bind(8, signal.forecast)
      .bind(9, p.shiftId)
      .bind(10, p.personId)
      .bindOptional(11, cutTo)
      .bind(12, p.premiumCents)
      .bind(13, p.premiumMinutes)
      .bind(14, p.summary)
      .bindTime(15, now)
      .bindOptional(16, scheduledEnd);
  if (Status done = s->run(); !done) return done.error();
  p.id = store.db().lastInsertRowid();
  if (Status added = audit->record(now, "intraday.proposal", "engine", proposalBody(p)); !added) {
    return added.error();
  }
  if (auto committed = audit->commit(); !committed) return committed.error();
  return None(std::move(p));
}

Result<std::vector<IntradayProposal>> proposalsOn(Database& db, std::chrono::local_days day) {
  auto s = db.cached(std::string(kProposalColumns) + "WHERE day = ? ORDER BY id");
  if (!s) return s.error();
  s->bind(1, dayText(day));
  return readProposals(*s);
}

Result<std::optional<IntradayProposal>> proposalById(Database& db, std::int64_t id) {
  auto s = db.cached(std::string(kProposalColumns) + "WHERE id = ?");
  if (!s) return s.error();
  s->bind(1, id);
  auto rows = readProposals(*s);
  if (!rows) return rows.error();
  if (rows->empty()) return std::optional<IntradayProposal>();
  return std::optional<IntradayProposal>(std::move(rows->front()));
}

TimePoint proposalExpiry(const IntradayProposal& p) {
  TimePoint at = p.requestedAt + kProposalLife;
  if (p.cutTo) at = std::min(at, TimePoint(p.cutTo->time_since_epoch()));
  return at;
}

namespace {

Status setDecided(SiteStore& store, AuditLog::Batch& batch, const IntradayProposal& p,
                  std::string_view kind, const std::string& actor, json::Object body) {
  auto s = store.db().cached(
      "UPDATE intraday_proposal SET state = ?, decided_by = ?, decided_at = ?, remark = ?"
      " WHERE id = ?");
  if (!s) return s.error();
  s->bind(1, proposalStateName(p.state))
      .bind(2, p.decidedBy)
      .bindTime(3, *p.decidedAt)
      .bind(4, p.remark)
      .bind(5, p.id);
  if (Status done = s->run(); !done) return done;
  return batch.record(*p.decidedAt, kind, actor, std::move(body));
}

// A pending proposal past its expiry becomes expired (intraday.expired, by the engine).
Status expireOne(SiteStore& store, AuditLog::Batch& batch, IntradayProposal& p, TimePoint now) {
  p.state = ProposalState::kExpired;
  p.decidedAt = now;
  json::Object body = proposalBody(p);
  body["expired_at"] = formatTimestamp(proposalExpiry(p));
  return setDecided(store, batch, p, "intraday.expired", "engine", std::move(body));
}

}  // namespace

Result<IntradayProposal> decideProposalIn(SiteStore& store, AuditLog::Batch& batch, std::int64_t id,
                                          bool approve, const std::string& personId,
                                          const std::string& remark, TimePoint now) {
  auto found = proposalById(store.db(), id);
  if (!found) return found.error();
  if (!*found) {
    return makeError("intraday proposal " + std::to_string(id) + " does not exist",
                     ErrorKind::kNotFound);
  }
  IntradayProposal p = std::move(**found);
  if (p.state != ProposalState::kPending) {
    return makeError("intraday proposal " + std::to_string(id) + " is already " +
                         std::string(proposalStateName(p.state)),
                     ErrorKind::kRefused);
  }
  if (now >= proposalExpiry(p)) {
    if (Status s = expireOne(store, batch, p, now); !s) return s.error();
    return p;
  }
  p.state = approve ? ProposalState::kApproved : ProposalState::kDenied;
  p.decidedBy = personId;
  p.decidedAt = now;
  p.remark = remark;
  json::Object body = proposalBody(p);
  body["decision"] = approve ? "approve" : "deny";
  body["remark"] = remark;
  if (Status s =
          setDecided(store, batch, p, "intraday.decided", "person:" + personId, std::move(body));
      !s) {
    return s.error();
  }
  return p;
}

Result<IntradayProposal> decideProposal(SiteStore& store, std::int64_t id, bool approve,
                                        const std::string& personId, const std::string& remark,
                                        TimePoint now) {
  auto batch = store.log().begin();
  if (!batch) return batch.error();
  auto decided = decideProposalIn(store, *batch, id, approve, personId, remark, now);
  if (!decided) return decided.error();
  if (auto committed = batch->commit(); !committed) return committed.error();
  return decided;
}

Result<int> expireProposals(SiteStore& store, TimePoint now) {
  auto s = store.db().cached(std::string(kProposalColumns) + "WHERE state = 'pending' ORDER BY id");
  if (!s) return s.error();
  auto pending = readProposals(*s);
  if (!pending) return pending.error();
  std::vector<IntradayProposal> due;
  for (IntradayProposal& p : *pending) {
    if (now >= proposalExpiry(p)) due.push_back(std::move(p));
  }
  if (due.empty()) return 0;
  auto batch = store.log().begin();
  if (!batch) return batch.error();
  for (IntradayProposal& p : due) {
    if (Status e = expireOne(store, *batch, p, now); !e) return e.error();
  }
  if (auto committed = batch->commit(); !committed) return committed.error();
  return static_cast<int>(due.size());
}

}  // namespace atoms::forecast
