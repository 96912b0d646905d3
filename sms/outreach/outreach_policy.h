// The outreach rules for one outgoing text message (DESIGN.md section 5, seed 001 section 7, issue
// 4): consent, opt-out, quiet hours, the per-person daily cap, and the outreach freeze of the kill
// switch. A pure decision: the caller gathers the facts (the person's state, the site's settings,
// the local time), asks, and acts on the answer; the answer and its reason code go into the
// receipt. No clock, no store, no I/O, thread-safe.
//
// The rules, in the order they apply:
// 1. An opted-out person gets nothing but the one confirmation of their opt-out (CTIA, carrier
//    practice): kOptOutConfirmation passes everything, once. A person whose offers are paused by
//    a stop-like reply (seed 001 EC-RISK-005, sms/conversation/offers_pause.h) gets no offers and
//    no notices, refused (not held) until the pause is cleared; everything else still reaches them.
// 2. Without SMS consent, only replies in the person's own active thread (they wrote first) and
//    safety alerts (to the people responsible for the site, and the answer to the reporter).
// 3. Outreach frozen (kill switch L1 or higher, or the outreach breaker open): only replies in the
//    person's thread (at most kFrozenThreadRepliesPerDay per day, seed 001 section 7), safety
//    alerts and escalations pass; everything else is held (not dropped) until outreach is released.
// 4. Replies in the person's active thread and safety alerts pass quiet hours and the cap.
// 5. Quiet hours (default 21:00-08:00 local) hold offers, notices and escalations until they end;
//    urgent offers and escalations pass for a person who opted into urgent call-outs at night.
// 6. The daily cap (per person, counted from local midnight) holds offers and notices until the
//    next day's first allowed minute. Urgent offers count and are capped too: the cap protects one
//    person's phone; the call-out exception of seed 000 (EC-MGR-009) lifts the site's outreach
//    budget, not this. Escalations to a manager are not capped (missing one is worse).
// 7. A message with a deadline (an offer for a shift) that could only go out after it is refused,
//    not held.
// A "thread reply" is a reply to a person who wrote to the box within the active-thread window
// (default 4 hours); a reply outside it is judged as a notice.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <string_view>

#include "base/result.h"

namespace atoms::sms {

enum class MessageClass {
  kThreadReply,         // an answer to what the person just wrote (HELP, WHY, a confirmation)
  kOptOutConfirmation,  // the one reply to STOP
  kSafetyAlert,         // safety-critical site alert
  kEscalation,          // to a manager: a call-out with no cover, an approval that is waiting
  kOffer,               // a shift offer or any outreach that asks something of the person
  kNotice,              // information: schedule published, a reminder
};

// "thread_reply", "opt_out_confirmation", "safety_alert", "escalation", "offer", "notice".
std::string_view messageClassName(MessageClass kind);
// The class a name written by messageClassName() stands for; nullopt for any other text.
std::optional<MessageClass> messageClassFromName(std::string_view name);

struct OutgoingMessage {
  MessageClass kind = MessageClass::kNotice;
  bool urgent = false;  // offers: cover for a shift starting soon; escalations are always urgent
  std::optional<std::chrono::local_seconds> notAfter;  // pointless after this (the shift starts)
};

struct RecipientState {
  bool smsConsent = false;
  bool optedOut = false;
  bool optOutConfirmationSent = false;  // since the latest opt-out
  bool offersPaused = false;            // a stop-like reply paused their offers and notices
  bool urgentDuringQuietHours = false;  // opted into urgent call-outs during quiet hours
  // Time since their latest message to the box (computed by the caller in UTC, so DST cannot
  // bend it); nullopt if they never wrote.
  std::optional<std::chrono::seconds> sinceLastInbound;
  int threadRepliesToday = 0;  // replies in their thread since local midnight
  int cappedSentToday = 0;     // messages that count toward the cap, since local midnight
};

inline constexpr int kFrozenThreadRepliesPerDay = 2;

struct OutreachSettings {
  int quietStartMinute = 21 * 60;  // minutes after local midnight; start == end: no quiet hours
  int quietEndMinute = 8 * 60;
  int dailyCap = 6;  // offers and notices per person per local day, >= 1
  std::chrono::minutes activeThreadWindow{4 * 60};
};

// Minutes after local midnight of a local time (0..1439), and one written "17:05".
int minuteOfDay(std::chrono::local_seconds t);
std::string hhmm(int minuteOfDay);
// The inverse of hhmm(): "HH:MM" (00:00-23:59, two digits each) as minutes after midnight;
// nullopt for anything else.
std::optional<int> parseHhmm(std::string_view text);
// Whether local time `t` falls in the quiet hours of `s` (rule 5 below).
bool inQuietHours(const OutreachSettings& s, std::chrono::local_seconds t);

// Ok, or one line naming the first setting out of range.
Status validateOutreachSettings(const OutreachSettings& settings);

struct OutreachInput {
  OutgoingMessage message;
  RecipientState recipient;
  OutreachSettings settings;
  bool outreachFrozen = false;       // kill switch L1+ or BRK-OUT open
  std::chrono::local_seconds now{};  // the site's local time
};

enum class OutreachVerdict { kSendNow, kHold, kRefuse };

enum class OutreachReason {
  kAllowed,             // send: inside hours, under the cap
  kThreadReply,         // send: reply in the person's active thread
  kSafetyAlert,         // send: safety alert
  kEscalation,          // send: escalation (also during a freeze)
  kOptOutConfirmation,  // send: the one opt-out confirmation
  kUrgentOptIn,         // send: urgent, in quiet hours, to a person who opted in
  kQuietHours,          // hold until quiet hours end
  kDailyCap,            // hold until the next day
  kOutreachFrozen,      // hold until outreach is released
  kOptedOut,            // refuse
  kOffersPaused,        // refuse: an offer or notice to a person whose offers are paused
  kNoConsent,           // refuse
  kNotOptedOut,         // refuse: an opt-out confirmation for a person who is not opted out
  kExpired,             // refuse: past its deadline, or could only go out after it
  kInvalidInput,        // refuse: settings or state out of range
};

// "outreach.allowed", "outreach.thread_reply", ..., "outreach.invalid_input": for receipts.
std::string_view outreachReasonCode(OutreachReason reason);

struct OutreachDecision {
  OutreachVerdict verdict = OutreachVerdict::kRefuse;
  OutreachReason reason = OutreachReason::kInvalidInput;
  // kHold: decide again at this local time; nullopt while held for a freeze (until released).
  std::optional<std::chrono::local_seconds> holdUntil;
  MessageClass judgedAs = MessageClass::kNotice;  // a stale thread reply is judged as a notice
  bool countsTowardCap = false;                   // when sent, the caller adds 1 to cappedSentToday
  std::string explanation;                        // one line for the receipt and the panel
};

OutreachDecision decideOutreach(const OutreachInput& input);

}  // namespace atoms::sms
