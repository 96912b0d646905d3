#include "domain/callout/callout_timers.h"

#include "domain/callout/approval_request.h"
#include "domain/callout/callout_close.h"
#include "domain/callout/callout_store.h"
#include "domain/callout/escalation.h"
#include "domain/callout/offer_wave.h"

namespace atoms::callout {

Result<int> runDueCallouts(const DeskContext& desk, atoms::StoreRunner& runner, TimePoint now) {
  int steps = 0;
  auto work = runner.run([&](SiteStore& store) -> Status {
    if (Status s = desk.site().refresh(store.db()); !s) return s;
    CalloutStore rows(store.db());
    auto open = rows.openCallouts();
    if (!open) return open.error();
    auto pending = rows.pendingApprovals();
    if (!pending) return pending.error();
    for (ApprovalRow a : *pending) {
      if (a.expiresAt > now) continue;
      auto batch = store.log().begin();
      if (!batch) return batch.error();
      DeskStep step(store, *batch, now, std::nullopt);
      if (Status s = expireApproval(desk, step, a); !s) return s;
      if (auto committed = batch->commit(); !committed) return committed.error();
      ++steps;
    }
    for (CalloutRow c : *open) {
      const bool ended = now >= c.shiftEnd;
      const bool escalationDue = c.escalateAt && now >= *c.escalateAt;
      const bool wave = c.nextWaveAt && now >= *c.nextWaveAt;
      if (!ended && !escalationDue && !wave) continue;
      auto batch = store.log().begin();
      if (!batch) return batch.error();
      DeskStep step(store, *batch, now, std::nullopt);
      if (ended) {
        endCallout(c, CalloutState::kExpired, now);
        if (Status s = closeOffers(desk, step, c, 0, false); !s) return s.error();
        if (Status s = audit(step, "callout.expired", {{"callout", c.id}, {"shift", c.shiftId}});
            !s) {
          return s.error();
        }
      } else {
        if (wave) {
          const policy::GateDecision gate = desk.ask(step, "callout.offer", true, "");
          auto allowed = laterWaveAllowed(step.rows, c, gate);
          if (!allowed) return allowed.error();
          if (*allowed) {
            auto sent = sendWave(desk, step, c, gate, false);
            if (!sent) return sent.error();
          } else {
            // Paused (kill switch L2/L3, SHADOW): no offer leaves; look again next interval.
            c.nextWaveAt = now + desk.settings().waveInterval;
            if (Status s = audit(step, "callout.wave_paused",
                                 {{"callout", c.id}, {"gate", gate.toJson()}});
                !s) {
              return s.error();
            }
          }
        }
        if (escalationDue) {
          if (Status s = escalate(desk, step, c, "no cover within the search window"); !s) return s;
        }
      }
      if (Status s = step.rows.updateCallout(c); !s) return s.error();
      if (auto committed = batch->commit(); !committed) return committed.error();
      ++steps;
    }
    return Status::success();
  });
  if (!work) {
    desk.site().invalidate();  // a step may have given a shift away in memory, then rolled back
    return work.error();
  }
  return steps;
}

Result<std::optional<TimePoint>> nextCalloutDue(atoms::StoreRunner& runner) {
  std::optional<TimePoint> next;
  auto read = runner.run([&](SiteStore& store) -> Status {
    auto due = CalloutStore(store.db()).nextDue();
    if (!due) return due.error();
    next = *due;
    return Status::success();
  });
  if (!read) return read.error();
  return next;
}

}  // namespace atoms::callout
