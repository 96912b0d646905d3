// SafetyDesk: what happens when a text reports a safety problem (issue 7 item 5; seed 001 section
// 7: safety alerts pass quiet hours, caps and the L1 freeze; operator page docs/safety-alerts.md).
//
// - reportIn(): in the conversation's transaction for the inbound message, opens an incident
//   (table safety_incident, migration 8), alerts the reporter's manager of record and every safety
//   contact of the site by SMS (MessageClass::kSafetyAlert, through Outreach, so every alert has a
//   receipt), records the HUMAN_ONLY packet (audit "safety.packet": the box never decides what to
//   do about it, it makes sure a person does) and returns the answer for the reporter: the
//   emergency number first, then who was alerted. A second report from the same number while its
//   incident is open joins it (no second round of alerts; the reminders are already running).
// - Until a person it was sent to replies "ACK <id>", realertDue() sends a reminder round to all
//   of them every `realertEvery` (the daemon's timer calls it at nextRealert()).
// - acknowledgeIn(): "ACK <id>" from one of them closes it ("safety.acknowledge"), tells the
//   reporter and the others who is on it; from anyone else it changes nothing and says so.
// - acknowledgeFromPanel(): the same closing, audit ("safety.acknowledge", via "panel", whether
//   the person was alerted) and notices for a person of the site acknowledging on the panel,
//   alerted or not; who may is the caller's decision (daemon/api/safety_resource.h).
//
// Nothing here quotes the reporter's words to anyone or into the audit log: the alert names the
// kind of danger in general words and gives the reporter's number to call.
//
// Threading: reportIn/acknowledgeIn on the writer inside the caller's batch; realertDue and
// nextRealert from any thread (they go through the StoreRunner). Errors: store errors, one line.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"
#include "sms/conversation/outreach.h"
#include "sms/conversation/replies.h"
#include "sms/conversation/roster.h"
#include "sms/mailbox/inbox.h"
#include "sms/text/safety_report.h"
#include "store/audit_log.h"
#include "store/site_store.h"
#include "store/store_runner.h"

namespace atoms::sms::conversation {

// "ACK 12" (or "RECIBIDO 12"), alone in the text, any case: the incident id; else nullopt.
std::optional<std::int64_t> parseSafetyAck(std::string_view text);

// What the desk did with one inbound message, for the conversation's audit entry and its reply.
struct SafetyAnswer {
  std::string outcome;  // "safety_reported", "safety_still_open", "safety_acknowledged",
                        // "safety_ack_unknown", "safety_ack_not_yours",
                        // "safety_ack_closed" (panel: acknowledged already)
  std::int64_t incident = 0;
  std::string replyText;  // to the sender, in their thread
  // A safety message (past the freeze and quiet hours) for the reporter and the one who
  // acknowledged; an ordinary thread reply for an ACK that changed nothing.
  MessageClass replyClass = MessageClass::kSafetyAlert;
};

class SafetyDesk {
 public:
  // `store` and `outreach` must outlive the desk. Precondition: validateSafetySettings().
  SafetyDesk(atoms::StoreRunner& store, Outreach& outreach, SafetySettings settings);

  Result<SafetyAnswer> reportIn(SiteStore& store, AuditLog::Batch& batch,
                                const mailbox::InboxRow& message,
                                const std::optional<Contact>& reporter, const SafetyReport& report,
                                const ReplyContext& context, TimePoint now);
  Result<SafetyAnswer> acknowledgeIn(SiteStore& store, AuditLog::Batch& batch,
                                     const mailbox::InboxRow& message,
                                     const std::optional<Contact>& sender, std::int64_t incident,
                                     const ReplyContext& context, TimePoint now);

  // `by` acknowledges `incident` on the panel: "safety_acknowledged", "safety_ack_unknown" (no
  // such incident) or "safety_ack_closed"; replyText is empty (the panel words its own answer).
  Result<SafetyAnswer> acknowledgeFromPanel(SiteStore& store, AuditLog::Batch& batch,
                                            const Contact& by, std::int64_t incident,
                                            TimePoint now);

  // Sends a reminder round for every open incident whose time has come, one transaction each;
  // returns how many incidents got one.
  Result<int> realertDue(TimePoint now);
  // The earliest reminder time of an open incident; nullopt when none is open.
  Result<std::optional<TimePoint>> nextRealert();

  const SafetySettings& settings() const { return settings_; }

  struct Incident;  // a row of safety_incident (safety_desk.cpp)

 private:
  // Sends one round to every recipient; per recipient, whether the alert was queued (an opted-out
  // number is refused by Outreach).
  Result<std::vector<bool>> alertRound(SiteStore& store, AuditLog::Batch& batch, Incident& incident,
                                       TimePoint now);

  // Who acknowledges, and through what: "sms" (an ACK text) or "panel".
  struct AckBy {
    std::string phone;     // E.164; may be empty (a panel user the site has no number for)
    std::string name;      // as told to the others
    std::string personId;  // empty: not a person of the site
    std::string via;
    std::string actor;   // of the audit entry
    std::string source;  // of the notices' sources: "inbox-12", "panel:p-7"
  };
  // Closes `incident` as acknowledged by `who`, audits it and tells the reporter and the others.
  Status closeIn(SiteStore& store, AuditLog::Batch& batch, Incident& incident, const AckBy& who,
                 const ReplyContext& context, TimePoint now);

  atoms::StoreRunner& store_;
  Outreach& outreach_;
  SafetySettings settings_;
};

}  // namespace atoms::sms::conversation
