// The outbox's vocabulary: the states of an outbound message, the classes of message, what a
// caller asks to send (OutboundRequest) and what a row of table sms_outbox holds (OutboxRow).
// Plain values; the state machine that moves rows between states is Outbox (outbox.h).
//
//   queued -> sending -> sent -> delivered | undelivered | failed   (provider reports)
//     ^  |        |  \-> queued (retryable error, backoff) | failed (cap, permanent error)
//     |  v        \-> sending, in doubt (crash, lost answer): reconciled with the gateway
//    held          queued | held -> withdrawn (the caller no longer wants it sent)
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "base/unix_time.h"

namespace atoms::sms::mailbox {

enum class OutboxState {
  kQueued,       // waiting for its next attempt (next_attempt_at)
  kSending,      // handed to the gateway, outcome not recorded yet (or in doubt after a crash)
  kSent,         // the gateway accepted it (provider id known, or flagged uncertain)
  kDelivered,    // the provider reported delivery to the phone
  kUndelivered,  // the provider reported it could not deliver
  kFailed,       // never accepted: permanent error, attempt cap, expiry; or reported failed
  kHeld,         // kept back until released (kill switch, operator)
  kWithdrawn,    // the caller withdrew it before it was sent
};

// "queued", "sending", ...; parseOutboxState is the inverse (nullopt for anything else).
std::string_view outboxStateName(OutboxState state);
std::optional<OutboxState> parseOutboxState(std::string_view name);

// How far a message got, for ordering out-of-order reports: a state never moves to a lower rank,
// and only delivered (positive evidence that the phone has it) outranks undelivered/failed.
// queued/sending/held 0, sent 1, undelivered/failed/withdrawn 2, delivered 3.
int outboxStateRank(OutboxState state);

// What the message is, for ordering (safety first) and for holds (a kill switch at L1 holds
// outreach but not replies in a person's own thread nor safety alerts: DESIGN.md section 5).
enum class MessageClass { kReply, kOutreach, kSafety };
std::string_view messageClassName(MessageClass c);  // "reply", "outreach", "safety"
std::optional<MessageClass> parseMessageClass(std::string_view name);

// What a caller asks the outbox to send.
struct OutboundRequest {
  // The message's stable id and idempotency key: [printable ASCII, no space]{1,128}. Callers that
  // may ask twice for the same message (re-handling an inbound after a restart) pass a
  // deterministic id ("reply:inbox-42") and get one message; empty: the outbox makes a random one.
  std::string id;
  std::string to;    // E.164
  std::string body;  // UTF-8, 1..1600 characters, already linted by the caller
  MessageClass messageClass = MessageClass::kOutreach;
  std::string ref;                     // the caller's reference (call-out id...), may be empty
  std::optional<TimePoint> notBefore;  // not sent earlier (quiet hours)
  std::optional<TimePoint> expiresAt;  // not sent later (an offer for a shift that has started)
  std::string actor = "engine";        // who asked, for the audit entry
};

struct OutboxRow {
  std::int64_t seq = 0;  // enqueue order
  std::string id;
  std::string to;
  std::string body;
  MessageClass messageClass = MessageClass::kOutreach;
  int segments = 1;  // as planned before sending; the provider's count once it said
  std::string ref;
  OutboxState state = OutboxState::kQueued;
  int attempts = 0;           // times handed to send()
  int reconcileAttempts = 0;  // times the gateway could not be asked about an in-doubt send
  TimePoint nextAttemptAt{};  // queued: next send; sending: next reconcile
  std::optional<TimePoint> expiresAt;
  std::string gateway;     // name of the gateway that took it
  std::string providerId;  // the provider's id, once accepted
  std::string errorCode;   // the provider's code from a failed/undelivered report
  std::string lastError;   // one line for the operator
  bool uncertain = false;  // sent per the uncertain-outcome policy: the gateway could not say
  std::string holdReason;
  TimePoint createdAt{};
  TimePoint updatedAt{};
  std::optional<TimePoint> firstAttemptAt;
  std::optional<TimePoint> sentAt;
  std::optional<TimePoint> finalAt;  // delivered/undelivered/failed/withdrawn
};

}  // namespace atoms::sms::mailbox
