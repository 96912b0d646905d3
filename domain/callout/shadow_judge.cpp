#include "domain/callout/shadow_judge.h"

#include <utility>

#include "domain/callout/shift_attendance.h"
#include "store/audit_entry.h"

namespace atoms::callout {

ShadowJudge::ShadowJudge(SiteSnapshot& site, atoms::StoreRunner& store, std::chrono::minutes grace,
                         TrustFeedback feedback)
    : site_(site), store_(store), grace_(grace), feedback_(std::move(feedback)) {}

Result<std::optional<TimePoint>> ShadowJudge::nextDue() {
  std::optional<TimePoint> next;
  Status s = store_.run([&](SiteStore& store) -> Status {
    auto rows = ShadowBook(store.db()).awaiting();
    if (!rows) return rows.error();
    if (!rows->empty()) next = rows->front().shiftStart + grace_;
    return Status::success();
  });
  if (!s) return s.error();
  return next;
}

Result<int> ShadowJudge::due(TimePoint now) {
  int judged = 0;
  Status s = store_.run([&](SiteStore& store) -> Status {
    auto rows = ShadowBook(store.db()).awaiting();
    if (!rows) return rows.error();
    if (rows->empty() || now < rows->front().shiftStart + grace_) return Status::success();
    // The schedule as stored now: a person may have changed the shift (a `site import`).
    site_.invalidate();
    if (Status fresh = site_.refresh(store.db()); !fresh) return fresh;
    for (const ShadowRow& row : *rows) {
      if (now < row.shiftStart + grace_) break;
      if (Status done = judge(store, row, now); !done) return done;
      ++judged;
    }
    return Status::success();
  });
  if (!s) return s.error();
  return judged;
}

Status ShadowJudge::judge(SiteStore& store, const ShadowRow& row, TimePoint now) {
  std::optional<std::string> worker;
  std::string source = "nobody";
  if (const site::Shift* shift = site_.index().shift(row.shiftId)) {
    auto in =
        clockedInFor(store.db(), site_.model(), *shift, site::toInstant(row.shiftStart + grace_));
    if (!in) return in.error();
    if (*in) {
      worker = *in;
      source = "time_clock";
    } else if (shift->assignee && *shift->assignee != row.absentId) {
      worker = *shift->assignee;
      source = "schedule";
    }
  }
  ShadowVerdict verdict = ShadowVerdict::kUnknown;
  if (worker && *worker != row.absentId) {
    verdict = row.wouldOffer(*worker) ? ShadowVerdict::kAgreed : ShadowVerdict::kDisagreed;
  }
  auto batch = store.log().begin();
  if (!batch) return batch.error();
  const char* why = "";
  if (verdict == ShadowVerdict::kUnknown) {
    why = worker ? "the person reported out worked the shift"
                 : "nobody clocked in for the shift and the schedule was not changed";
  }
  if (Status s = recordShadowVerdict(*batch, store.db(), row, verdict, worker, source, "engine",
                                     why, now, feedback_);
      !s) {
    return s;
  }
  if (auto committed = batch->commit(); !committed) return committed.error();
  return Status::success();
}

Status recordShadowVerdict(AuditLog::Batch& batch, Database& db, const ShadowRow& row,
                           ShadowVerdict verdict, const std::optional<std::string>& worker,
                           std::string_view source, std::string_view actor, std::string_view why,
                           TimePoint now, const TrustFeedback& feedback) {
  // A person's verdict names them; the clock's names where it looked.
  if (Status s = ShadowBook(db).judge(row.calloutId, verdict, worker.value_or(""),
                                      source == "panel" ? actor : source, now);
      !s) {
    return s;
  }
  json::Object body{{"callout", row.calloutId},
                    {"shift", row.shiftId},
                    {"verdict", std::string(shadowVerdictName(verdict))},
                    {"source", std::string(source)},
                    {"receipt", row.receiptSeq}};
  if (worker) body["worker"] = *worker;
  if (!why.empty()) body["why"] = std::string(why);
  auto added =
      batch.add(formatTimestamp(now), "callout.shadow_judged", actor, json::Value(std::move(body)));
  if (!added) return added.error();
  if (verdict != ShadowVerdict::kUnknown && feedback.shadow) {
    feedback.shadow(batch, now, "callout.offer", verdict == ShadowVerdict::kAgreed,
                    "callout-" + std::to_string(row.calloutId) + "-shadow");
  }
  return Status::success();
}

}  // namespace atoms::callout
