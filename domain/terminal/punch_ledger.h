// PunchLedger: where punches from time-clock terminals are stored (docs/terminals.md). It is the
// PunchSink of the terminal server, over the store (migration 10 "terminal_punches").
//
// One request is one AuditLog batch, committed before accept() returns:
// - a punch whose (terminal, id) is stored already is `duplicate` (nothing written; a retry
//   after a lost answer, or the same id twice in one request);
// - a punch for a person the site does not know is `refused` ("unknown person"), one dated more
//   than kMaxClockSkew after the box's clock is `refused` ("clock skew"): neither is stored, so a
//   resend is judged again (the person may have been added since);
// - every other punch is `accepted`: a terminal_punch row, and a site_punch row (at in whole
//   seconds) so the labor engine sees it.
// The accepted and refused punches of a request go into ONE audit entry of kind `punch` (actor
// `terminal:<id>`; more than kMaxPunchesPerEntry of them are split over several entries of the
// same batch, marked with `part`); a request of duplicates only writes nothing.
//
// After a commit with accepted punches, the listener gets them (site::Punch, in request order)
// on the writer thread, with the store already holding them.
//
// Threading: accept() may be called from any thread (server threads); it runs the work through
// the StoreRunner (the engine thread in the daemon) and blocks until it committed or failed.
// recordPunches() is for the writer thread itself.
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <vector>

#include "base/result.h"
#include "domain/site/site_model.h"
#include "drivers/terminal/punch_request.h"
#include "drivers/terminal/terminal_server.h"
#include "store/site_store.h"
#include "store/store_runner.h"

namespace atoms::terminal {

using TimePoint = std::chrono::system_clock::time_point;
using drivers::terminal::PunchBatch;
using drivers::terminal::PunchOutcome;

// How far ahead of the box's clock a punch may be dated.
inline constexpr std::chrono::minutes kMaxClockSkew{5};
// Accepted plus refused punches per audit entry (keeps an entry well under kMaxEntryBytes).
inline constexpr std::size_t kMaxPunchesPerEntry = 100;

struct RecordedPunches {
  std::vector<PunchOutcome> outcomes;  // one per punch, in request order
  std::vector<site::Punch> accepted;   // the ones stored, in request order
};

// Stores one request as described above, in one batch of its own. `now` is the box's clock (the
// skew check and received_at). Errors: SQL or audit failures (nothing is stored then).
// Writer thread only.
Result<RecordedPunches> recordPunches(SiteStore& store, const PunchBatch& batch, TimePoint now);

class PunchLedger final : public drivers::terminal::PunchSink {
 public:
  using Listener = std::function<void(const std::vector<site::Punch>&)>;

  // runner and now must outlive the ledger; now must be thread-safe. listener may be empty.
  PunchLedger(atoms::StoreRunner& runner, std::function<TimePoint()> now, Listener listener = {});

  Result<std::vector<PunchOutcome>> accept(const PunchBatch& batch) override;

 private:
  atoms::StoreRunner& runner_;
  std::function<TimePoint()> now_;
  Listener listener_;
};

}  // namespace atoms::terminal
