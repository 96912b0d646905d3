// One handling by the call-out desk: what the caller brings (DeskTurn: its open batch, the decision
// instant, the text being handled), what every step of a flow works on (DeskStep: the same plus
// the call-out rows on that batch's store) and what goes back to whoever wrote (DeskAnswer).
//
// Contract: a step lives inside the caller's open batch; whatever it writes (rows, audit entries,
// receipts, queued texts) commits or is dropped with that batch. Not synchronised: the store's
// writer (the engine thread) only.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "base/canonical_json.h"
#include "base/time_point.h"
#include "domain/callout/callout_receipt.h"
#include "domain/callout/callout_store.h"
#include "store/audit_log.h"
#include "store/site_store.h"

namespace atoms::callout {

// One handling in progress: the open batch and the decision instant.
struct DeskTurn {
  SiteStore& store;
  AuditLog::Batch& batch;
  TimePoint now;
  std::optional<std::int64_t> inboxId;  // the text being handled, if any
};

// What the desk says back to whoever wrote, and the call-out it concerns.
struct DeskAnswer {
  std::string outcome;  // "callout_opened", "offer_taken", ... (the conversation's audit entry)
  std::string text;     // the reply, in the sender's thread; empty: no reply
  std::int64_t callout = 0;
};

// One step of a flow: the open batch, the decision instant, the rows.
struct DeskStep {
  DeskStep(SiteStore& s, AuditLog::Batch& b, TimePoint t, std::optional<std::int64_t> inbox)
      : store(s), batch(b), now(t), inboxId(inbox), rows(s.db()) {}
  explicit DeskStep(DeskTurn& turn) : DeskStep(turn.store, turn.batch, turn.now, turn.inboxId) {}

  SiteStore& store;
  AuditLog::Batch& batch;
  TimePoint now;
  std::optional<std::int64_t> inboxId;
  CalloutStore rows;
};

// An audit entry of `kind` by the engine at the step's instant, in its batch.
Status audit(DeskStep& step, std::string_view kind, json::Object body);

// Signs `receipt` into the step's batch and files it under call-out `calloutId` (the panel lists a
// call-out's receipts from there). Returns the entry's seq.
Result<std::uint64_t> signReceipt(DeskStep& step, CalloutReceipt& receipt, std::int64_t calloutId,
                                  std::string_view rationale, std::string_view outcome);

}  // namespace atoms::callout
