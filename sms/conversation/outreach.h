// Outreach: the one entry point every outgoing text message goes through (DESIGN.md section 5,
// "outreach rules"; issue 4). In one store transaction it
//   1. checks the request (id, E.164 recipient, body) and runs the content lint: a finding refuses
//      the message with an error naming it, its receipt is committed, nothing is queued;
//   2. gathers the recipient's facts: consent and urgent-at-night from the Roster, the opt-out
//      and the thread window from sms_contact_state, the offers pause (offers_pause.h: no offers
//      or notices), today's counts from sms_outreach (the site's local day, SiteTime), the freeze
//      flag;
//   3. asks decideOutreach() (sms/outreach/outreach_policy.h) and acts on the answer: send now ->
//      the Outbox (enqueueIn, in the same transaction); hold -> kept in sms_outreach until its hold
//      ends (quiet hours, cap) or outreach is released (freeze), never dropped; refuse -> nothing
//      queued;
//   4. appends a signed receipt (store/receipt.h) whose sources say why (the caller's sources, the
//      inbound message it answers, the roster entry, the rule decision), whose rule evaluations
//      hold the lint and the outreach rule, and which records the segment count and encoding
//      (GSM-7 / UCS-2) planned before sending.
// Held messages wait here, not in the outbox, because every release decides again for the one
// person (they may have opted out, hit the cap, or the offer may have expired meanwhile);
// releaseDue() does that when the engine's timer fires (nextRelease() says when).
//
// Ids: every request carries its id, which becomes the outbox id (the gateway's idempotency key).
// Asking again with the same id does nothing and returns what was decided the first time, so a
// caller that re-runs after a crash sends once.
//
// Threading: every method may be called from any thread; store work runs through the
// StoreRunner (on the engine thread in the daemon). sendIn() runs inside the caller's open batch on
// the writer (inside StoreRunner::run). The freeze flag is atomic. The Roster and SiteTime are
// called on the writer.
// Errors: one line naming the message id and the field; store errors as the store reports them.
#pragma once

#include <atomic>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "base/result.h"
#include "drivers/sms/encoding/segmentation.h"
#include "sms/conversation/conversation_settings.h"
#include "sms/conversation/conversation_tables.h"
#include "sms/conversation/roster.h"
#include "sms/conversation/site_time.h"
#include "sms/mailbox/outbox.h"
#include "sms/outreach/outreach_policy.h"
#include "sms/text/content_lint.h"
#include "store/audit_log.h"
#include "store/site_store.h"
#include "store/store_runner.h"

namespace atoms::sms::conversation {

// A source of the caller's for the receipt (store/receipt.h SourceRef): kind is one of org, mirror,
// memory, service, policy, message, decision; ref non-empty; label in plain words, because WHY
// reads it to the person ("open shift: line cook, Sat 17:00-23:00").
struct ReceiptSource {
  std::string kind;
  std::string ref;
  std::string label;
};

struct OutreachRequest {
  std::string id;  // [printable ASCII, no space]{1,128}; the outbox id ("reply:inbox-42")
  std::string to;  // E.164
  MessageClass kind = MessageClass::kNotice;
  bool urgent = false;                    // offers: cover for a shift starting soon
  std::string body;                       // 1..1,600 characters of UTF-8
  std::string ref;                        // the caller's reference (call-out id...), may be empty
  std::optional<TimePoint> notAfter;      // pointless after this: refused rather than late
  std::optional<std::int64_t> inReplyTo;  // the sms_inbox id it answers
  std::vector<ReceiptSource> sources;
  bool whyReply = false;  // an answer to WHY: a later WHY explains the text before it
  std::string actor = "engine";
};

enum class OutreachOutcome { kQueued, kHeld, kRefused, kWithdrawn };
std::string_view outreachOutcomeName(OutreachOutcome outcome);  // "queued", "held", ...

struct OutreachResult {
  std::string id;
  OutreachOutcome outcome = OutreachOutcome::kRefused;
  std::string reason;                  // "outreach.quiet_hours", ... (outreach_policy.h)
  std::string explanation;             // one line
  std::optional<TimePoint> holdUntil;  // held: decided again then; nullopt: until released
  int segments = 0;
  drivers::SmsEncoding encoding = drivers::SmsEncoding::kGsm7;
  std::optional<std::uint64_t> receiptSeq;  // the audit seq of the decision's receipt
  bool repeated = false;                    // the id was decided before: nothing was done this time
};

struct ReleaseSummary {
  int queued = 0;     // sent on to the outbox
  int held = 0;       // decided again and held again (the cap, quiet hours again)
  int refused = 0;    // refused now (opted out, expired...)
  int withdrawn = 0;  // held by a freeze longer than the limit
};

class Outreach {
 public:
  // Every reference must outlive the Outreach. Precondition: validateConversationSettings().
  Outreach(atoms::StoreRunner& store, mailbox::Outbox& outbox, const Roster& roster,
           const SiteTime& siteTime, ConversationSettings settings, atoms::NowFunction now);
  Outreach(const Outreach&) = delete;
  Outreach& operator=(const Outreach&) = delete;

  // The outreach freeze (kill switch L1+, BRK-OUT open): set by the caller. Clearing it does not
  // release anything by itself: call releaseDue() after.
  void setOutreachFrozen(bool frozen) { frozen_.store(frozen); }
  bool outreachFrozen() const { return frozen_.load(); }

  // Decides on `request` in its own transaction (see the file comment). A content-lint finding is
  // an error ("SMS reply:inbox-4 not sent: its text fails the content check: discipline: ...")
  // whose receipt is committed; invalid requests are errors that change nothing.
  Result<OutreachResult> send(const OutreachRequest& request);
  // The same inside the caller's batch on the writer. A lint refusal adds its receipt to `batch`
  // and returns the error; `batch` stays usable (commit it to keep the record).
  Result<OutreachResult> sendIn(SiteStore& store, AuditLog::Batch& batch,
                                const OutreachRequest& request);

  // Decides again on every held message whose hold has ended at `now` (and, when outreach is not
  // frozen, on those held by a freeze), in transactions of up to 64 messages. Each decision gets a
  // receipt. The engine's timer calls it at nextRelease() and whenever the freeze is lifted.
  Result<ReleaseSummary> releaseDue(TimePoint now);
  // The earliest time a held message's hold ends (freeze holds excluded); nullopt for none.
  Result<std::optional<TimePoint>> nextRelease();

  // The decision record of one message; nullopt when there is none.
  Result<std::optional<LedgerRow>> find(std::string_view id);

  const ConversationSettings& settings() const { return settings_; }
  const Roster& roster() const { return roster_; }
  const SiteTime& siteTime() const { return siteTime_; }
  TimePoint now() const { return now_(); }
  // The site's local date of an instant, "YYYY-MM-DD" (the day caps and once-a-day replies count).
  std::string localDay(TimePoint t) const;

 private:
  struct Facts;
  // What one request came to, and whether the batch holds a record worth committing.
  struct Attempt {
    Result<OutreachResult> result;
    bool commit = false;
  };
  Attempt attemptIn(SiteStore& store, AuditLog::Batch& batch, const OutreachRequest& request);
  Result<Facts> gather(Database& db, ConversationTables& tables, const LedgerRow& row,
                       TimePoint now);
  Result<OutreachResult> decide(SiteStore& store, AuditLog::Batch& batch, LedgerRow& row,
                                bool isNew, TimePoint now,
                                const std::optional<std::int64_t>& previousReceipt);
  // Adds the receipt of a lint refusal to `batch`.
  Status recordLintRefusal(AuditLog::Batch& batch, const OutreachRequest& request,
                           const std::vector<LintFinding>& findings, TimePoint now);

  atoms::StoreRunner& store_;
  mailbox::Outbox& outbox_;
  const Roster& roster_;
  const SiteTime& siteTime_;
  ConversationSettings settings_;
  atoms::NowFunction now_;
  ContentLint lint_;
  std::atomic<bool> frozen_{false};
};

}  // namespace atoms::sms::conversation
