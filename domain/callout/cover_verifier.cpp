#include "domain/callout/cover_verifier.h"

#include <algorithm>
#include <vector>

#include "domain/callout/cover_verdict.h"
#include "domain/callout/shift_attendance.h"
#include "store/audit_entry.h"
#include "store/row_reader.h"

namespace atoms::callout {

namespace {

struct Watched {
  std::int64_t calloutId = 0;
  std::string kind;
  std::string shiftId;
  std::string personId;
  TimePoint assignedAt{};
  TimePoint shiftStart{};
  TimePoint shiftEnd{};
};

Result<std::vector<Watched>> pending(Database& db) {
  auto stmt = db.cached(
      "SELECT callout_id, kind, shift_id, person_id, assigned_at, shift_start, shift_end"
      " FROM cover_check WHERE outcome = 'pending' ORDER BY callout_id");
  if (!stmt) return stmt.error();
  return readRows(*stmt, [](RowReader& r) {
    return Watched{r.int64(), r.text(), r.text(), r.text(), r.time(), r.time(), r.time()};
  });
}

}  // namespace

Status CoverVerifier::watch(Database& db, const CalloutRow& covered, std::string_view kind,
                            TimePoint at) {
  auto stmt = db.cached(
      "INSERT OR IGNORE INTO cover_check(callout_id, kind, shift_id, person_id, assigned_at,"
      " shift_start, shift_end, outcome, judged_at, reason, evidence)"
      " VALUES (?,?,?,?,?,?,?,'pending',NULL,'','')");
  if (!stmt) return stmt.error();
  stmt->bind(1, covered.id)
      .bind(2, kind)
      .bind(3, std::string_view(covered.shiftId))
      .bind(4, std::string_view(covered.coveredBy))
      .bindTime(5, at)
      .bindTime(6, covered.shiftStart)
      .bindTime(7, covered.shiftEnd);
  auto done = stmt->step();
  if (!done) return done.error();
  return Status::success();
}

CoverVerifier::CoverVerifier(atoms::StoreRunner& store, std::chrono::minutes grace, bool timeClocks,
                             decltype(TrustFeedback::verification) verified)
    : store_(store), grace_(grace), timeClocks_(timeClocks), verified_(std::move(verified)) {}

namespace {

// A call-out about the watched shift opened after the cover's.
Result<std::optional<std::int64_t>> laterCallout(Database& db, const Watched& w) {
  auto latest = CalloutStore(db).latestCalloutForShift(w.shiftId);
  if (!latest) return latest.error();
  if (!*latest || (*latest)->id <= w.calloutId) return std::optional<std::int64_t>();
  return std::optional<std::int64_t>((*latest)->id);
}

CoverFacts factsOf(const Watched& w, std::chrono::minutes grace, bool timeClocks) {
  CoverFacts facts;
  facts.timeClocks = timeClocks;
  // A cover given after the start has the grace from the moment it was given.
  facts.clockInDeadline = std::max(w.shiftStart, w.assignedAt) + grace;
  facts.shiftEnd = w.shiftEnd;
  return facts;
}

}  // namespace

Result<std::optional<TimePoint>> CoverVerifier::nextDue(TimePoint now) {
  std::optional<TimePoint> next;
  Status read = store_.run([&](SiteStore& store) -> Status {
    auto rows = pending(store.db());
    if (!rows) return rows.error();
    for (const Watched& w : *rows) {
      auto later = laterCallout(store.db(), w);
      if (!later) return later.error();
      // A new call-out about the shift is judged at once.
      const TimePoint at = *later ? w.assignedAt : coverDue(factsOf(w, grace_, timeClocks_), now);
      if (!next || at < *next) next = at;
    }
    return Status::success();
  });
  if (!read) return read.error();
  return next;
}

Result<int> CoverVerifier::due(TimePoint now) {
  int judged = 0;
  Status s = store_.run([&](SiteStore& store) -> Status {
    auto rows = pending(store.db());
    if (!rows) return rows.error();
    for (const Watched& w : *rows) {
      CoverFacts facts = factsOf(w, grace_, timeClocks_);
      auto later = laterCallout(store.db(), w);
      if (!later) return later.error();
      facts.laterCallout = *later;
      if (facts.timeClocks && now >= facts.clockInDeadline) {
        auto in = shiftClockIn(store.db(), w.personId, w.shiftStart, std::min(now, facts.shiftEnd));
        if (!in) return in.error();
        facts.clockIn = *in;
      }
      const CoverJudgement j = judgeCover(facts, now);
      if (j.verdict == CoverVerdict::kPending) continue;

      std::string evidence;
      if (facts.laterCallout) {
        evidence = "callout:" + std::to_string(*facts.laterCallout);
      } else if (facts.clockIn) {
        evidence = "site_punch:" + w.personId + "@" + formatTimestamp(*facts.clockIn);
      } else if (facts.timeClocks) {
        evidence = "site_punch:" + w.personId + ": no clock-in by the shift's end " +
                   formatTimestamp(facts.shiftEnd);
      } else {
        evidence = "no time clock; no call-out about the shift by its end " +
                   formatTimestamp(facts.shiftEnd);
      }
      auto batch = store.log().begin();
      if (!batch) return batch.error();
      auto update = store.db().cached(
          "UPDATE cover_check SET outcome = ?, judged_at = ?, reason = ?, evidence = ?"
          " WHERE callout_id = ? AND outcome = 'pending'");
      if (!update) return update.error();
      update->bind(1, coverVerdictName(j.verdict))
          .bindTime(2, now)
          .bind(3, std::string_view(j.reason))
          .bind(4, std::string_view(evidence))
          .bind(5, w.calloutId);
      if (auto done = update->step(); !done) return done.error();
      const std::string ref = "callout-" + std::to_string(w.calloutId);
      auto added =
          batch->add(formatTimestamp(now), "callout.verification", "engine",
                     json::Value(json::Object{{"callout", w.calloutId},
                                              {"kind", w.kind},
                                              {"shift", w.shiftId},
                                              {"person", w.personId},
                                              {"outcome", std::string(coverVerdictName(j.verdict))},
                                              {"reason", j.reason},
                                              {"evidence", evidence}}));
      if (!added) return added.error();
      if (verified_) {
        verified_(*batch, now, w.kind,
                  j.verdict == CoverVerdict::kVerified
                      ? policy::TrustOutcome::kAutonomousVerified
                      : policy::TrustOutcome::kVerificationMismatch,
                  ref);
      }
      if (auto committed = batch->commit(); !committed) return committed.error();
      ++judged;
    }
    return Status::success();
  });
  if (!s) return s.error();
  return judged;
}

}  // namespace atoms::callout
