// RequestDesk: requests by text (docs/requests.md, decision 0033). A worker texts time off ("I
// need Saturday off") or an availability change ("I can't do mornings anymore"); the desk reads it
// (sms/text/request_intent.h), asks one short question back when it is unclear, else files a
// pending request (request_store.h), confirms it to the worker and tells the approver (the
// worker's manager of record, else the general manager) with the shifts it touches. The approver
// decides by APPROVE Rn / DENY Rn or on the requests API (request_book.h), through decide(): the
// same rules as the call-out approvals (approval_decision.h): only the approver named on it, never
// the person it is about; an approval asks the policy gate (pto.approve, availability.update) and
// writes the time off (site_time_off) or the new weekly windows (site_availability), which the
// labor engine, the call-out desk and the scheduler read. Assigned shifts are never unassigned:
// they are shown to the manager. The worker may withdraw a pending request (WITHDRAW Rn).
// Every change is audited (request.received, request.asked, request.decided, request.withdrawn,
// request.refused); no entry holds the text or a reason.
//
// Texts go through Outreach (consent, quiet hours, caps, freeze): replies in the sender's thread
// by the caller (Turn::reply), the rest by the desk with deterministic ids
// ("request-<id>-manager", "request-<id>-decided"), so a re-handled message sends nothing twice.
//
// Contract: every call runs inside the caller's batch on the store's writer (the engine thread);
// on an error the caller drops the batch (and the snapshot is invalidated). Every reference must
// outlive the desk. Errors: store errors, one line.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"
#include "base/time_point.h"
#include "domain/callout/approval_decision.h"
#include "domain/callout/desk_context.h"
#include "domain/callout/site_snapshot.h"
#include "domain/requests/request_store.h"
#include "sms/conversation/language.h"
#include "sms/conversation/outreach.h"
#include "sms/conversation/roster.h"
#include "store/site_store.h"

namespace atoms::requests {

// One step of the desk: the open batch and its instant.
struct RequestStep {
  SiteStore& store;
  AuditLog::Batch& batch;
  TimePoint now;
  std::optional<std::int64_t> inboxId;  // the text being handled, if any
};

// What the desk answers the sender of a text ("" text: nothing to say).
struct RequestAnswer {
  std::string outcome;  // "request_received", "request_question", "request_approved", ...
  std::string text;
  std::int64_t request = 0;
};

struct RequestDecision {
  callout::DecisionOutcome outcome = callout::DecisionOutcome::kUnknown;
  RequestAnswer answer;  // to the decider
};

// An assigned shift a request touches.
struct TouchedShift {
  std::string shiftId;
  std::string stationId;
  site::Stamp start;
  site::Stamp end;
};

// A request as a manager sees it.
struct RequestView {
  RequestRow row;
  std::string personName;
  std::string approverName;
  std::string words;  // requestWords() in English
  std::vector<TouchedShift> touched;
  // The effect an approval has (or had) on the site's data: the time-off periods, or the new
  // weekly windows.
  std::vector<site::TimeOff> timeOff;
  std::vector<site::AvailabilityWindow> windows;
};

class RequestDesk {
 public:
  // `desk` (the call-out desk's shared context: snapshot, Outreach, gate, general manager, how to
  // write to people) must outlive the desk.
  explicit RequestDesk(const callout::DeskContext& desk);

  // A text from `sender` (on the roster): nullopt when it is no request (the caller hands it on);
  // else the reply to the sender (a confirmation, or one question).
  Result<std::optional<RequestAnswer>> receive(RequestStep& step,
                                               const sms::conversation::Contact& sender,
                                               std::string_view body,
                                               sms::conversation::Language language);
  // `who` approves or denies request `id`; `remark` is the manager's own words, optional.
  Result<RequestDecision> decide(RequestStep& step, const callout::Decider& who, std::int64_t id,
                                 bool approve, std::string remark);
  // The worker withdraws their own pending request `id` (by text, or "api" for the panel).
  Result<RequestAnswer> withdraw(RequestStep& step, const callout::Decider& who, std::int64_t id);
  // Request `row` with names, words and the shifts it touches as of `now`.
  Result<RequestView> view(const RequestRow& row, TimePoint now) const;

  // Whether `personId` is on the site.
  bool knowsPerson(std::string_view personId) const;
  callout::SiteSnapshot& site() const { return desk_.site(); }
  TimePoint now() const { return desk_.outreach().now(); }

 private:
  std::string approverFor(const site::Person& person) const;
  Status apply(RequestStep& step, const RequestRow& row);
  Result<sms::conversation::OutreachResult> send(RequestStep& step, const std::string& id,
                                                 const std::string& to, sms::MessageClass kind,
                                                 const std::string& body, const RequestRow& row);

  const callout::DeskContext& desk_;
};

}  // namespace atoms::requests
