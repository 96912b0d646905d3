#include "sms/outreach/outreach_policy.h"

#include <cstdio>

#include "base/name_table.h"

namespace atoms::sms {

namespace {

using std::chrono::days;
using std::chrono::local_days;
using std::chrono::local_seconds;
using std::chrono::minutes;

constexpr int kMinutesPerDay = 24 * 60;

// The first moment at or after t that is outside quiet hours.
local_seconds quietHoursEnd(const OutreachSettings& s, local_seconds t) {
  if (!inQuietHours(s, t)) return t;
  const local_days day = std::chrono::floor<days>(t);
  local_seconds end = day + minutes(s.quietEndMinute);
  if (end < t) end += days(1);
  return end;
}

// "08:00" on the same local day as `now`, else "2024-05-03 08:00".
std::string when(local_seconds t, local_seconds now) {
  const local_days day = std::chrono::floor<days>(t);
  const std::string time = hhmm(minuteOfDay(t));
  if (day == std::chrono::floor<days>(now)) return time;
  const std::chrono::year_month_day ymd{day};
  char buf[16];
  std::snprintf(buf, sizeof buf, "%04d-%02u-%02u ", static_cast<int>(ymd.year()),
                static_cast<unsigned>(ymd.month()), static_cast<unsigned>(ymd.day()));
  return buf + time;
}

std::string quietWindow(const OutreachSettings& s) {
  return hhmm(s.quietStartMinute) + "-" + hhmm(s.quietEndMinute);
}

OutreachDecision decision(OutreachVerdict verdict, OutreachReason reason, MessageClass judgedAs,
                          std::string explanation) {
  OutreachDecision d;
  d.verdict = verdict;
  d.reason = reason;
  d.judgedAs = judgedAs;
  d.explanation = std::move(explanation);
  return d;
}

Status validateState(const RecipientState& r) {
  if (r.threadRepliesToday < 0) return makeError("recipient threadRepliesToday is negative");
  if (r.cappedSentToday < 0) return makeError("recipient cappedSentToday is negative");
  if (r.sinceLastInbound && r.sinceLastInbound->count() < 0) {
    return makeError("recipient sinceLastInbound is negative (a message from the future)");
  }
  return Status::success();
}

bool capped(MessageClass kind) {
  return kind == MessageClass::kOffer || kind == MessageClass::kNotice;
}

bool isUrgent(const OutgoingMessage& m) {
  return m.kind == MessageClass::kEscalation || (m.kind == MessageClass::kOffer && m.urgent);
}

}  // namespace

int minuteOfDay(local_seconds t) {
  const local_days day = std::chrono::floor<days>(t);
  return static_cast<int>(std::chrono::floor<minutes>(t - day).count());
}

std::string hhmm(int minute) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "%02d:%02d", minute / 60 % 24, minute % 60);
  return buf;
}

std::optional<int> parseHhmm(std::string_view v) {
  if (v.size() != 5 || v[2] != ':') return std::nullopt;
  for (const std::size_t i : {0u, 1u, 3u, 4u}) {
    if (v[i] < '0' || v[i] > '9') return std::nullopt;
  }
  const int hours = (v[0] - '0') * 10 + (v[1] - '0');
  const int minutes = (v[3] - '0') * 10 + (v[4] - '0');
  if (hours > 23 || minutes > 59) return std::nullopt;
  return hours * 60 + minutes;
}

bool inQuietHours(const OutreachSettings& s, local_seconds t) {
  const int m = minuteOfDay(t);
  if (s.quietStartMinute == s.quietEndMinute) return false;
  if (s.quietStartMinute < s.quietEndMinute) return m >= s.quietStartMinute && m < s.quietEndMinute;
  return m >= s.quietStartMinute || m < s.quietEndMinute;  // spans midnight
}

namespace {

constexpr NameTable<MessageClass, 6> kClassNames{{
    {MessageClass::kThreadReply, "thread_reply"},
    {MessageClass::kOptOutConfirmation, "opt_out_confirmation"},
    {MessageClass::kSafetyAlert, "safety_alert"},
    {MessageClass::kEscalation, "escalation"},
    {MessageClass::kOffer, "offer"},
    {MessageClass::kNotice, "notice"},
}};

}  // namespace

std::string_view messageClassName(MessageClass kind) { return nameOf(kClassNames, kind); }

std::optional<MessageClass> messageClassFromName(std::string_view name) {
  return fromName(kClassNames, name);
}

std::string_view outreachReasonCode(OutreachReason reason) {
  switch (reason) {
    case OutreachReason::kAllowed:
      return "outreach.allowed";
    case OutreachReason::kThreadReply:
      return "outreach.thread_reply";
    case OutreachReason::kSafetyAlert:
      return "outreach.safety_alert";
    case OutreachReason::kEscalation:
      return "outreach.escalation";
    case OutreachReason::kOptOutConfirmation:
      return "outreach.opt_out_confirmation";
    case OutreachReason::kUrgentOptIn:
      return "outreach.urgent_opt_in";
    case OutreachReason::kQuietHours:
      return "outreach.quiet_hours";
    case OutreachReason::kDailyCap:
      return "outreach.daily_cap";
    case OutreachReason::kOutreachFrozen:
      return "outreach.frozen";
    case OutreachReason::kOptedOut:
      return "outreach.opted_out";
    case OutreachReason::kOffersPaused:
      return "outreach.offers_paused";
    case OutreachReason::kNoConsent:
      return "outreach.no_consent";
    case OutreachReason::kNotOptedOut:
      return "outreach.not_opted_out";
    case OutreachReason::kExpired:
      return "outreach.expired";
    case OutreachReason::kInvalidInput:
      return "outreach.invalid_input";
  }
  return "outreach.invalid_input";
}

Status validateOutreachSettings(const OutreachSettings& s) {
  const auto minute = [](std::string_view name, int value) -> Status {
    if (value >= 0 && value < kMinutesPerDay) return Status::success();
    return makeError("outreach setting " + std::string(name) + " is " + std::to_string(value) +
                     ", not a minute of the day (0-1439)");
  };
  if (Status st = minute("quietStartMinute", s.quietStartMinute); !st) return st;
  if (Status st = minute("quietEndMinute", s.quietEndMinute); !st) return st;
  if (s.dailyCap < 1) {
    return makeError("outreach setting dailyCap is " + std::to_string(s.dailyCap) +
                     ", must be at least 1");
  }
  if (s.activeThreadWindow <= minutes(0)) {
    return makeError("outreach setting activeThreadWindow must be positive");
  }
  return Status::success();
}

OutreachDecision decideOutreach(const OutreachInput& in) {
  const OutgoingMessage& msg = in.message;
  const RecipientState& who = in.recipient;
  const OutreachSettings& s = in.settings;
  using V = OutreachVerdict;
  using R = OutreachReason;

  if (Status st = validateOutreachSettings(s); !st) {
    return decision(V::kRefuse, R::kInvalidInput, msg.kind, st.message());
  }
  if (Status st = validateState(who); !st) {
    return decision(V::kRefuse, R::kInvalidInput, msg.kind, st.message());
  }

  // 1. Opt-out: the one confirmation, then silence.
  if (msg.kind == MessageClass::kOptOutConfirmation) {
    if (!who.optedOut) {
      return decision(V::kRefuse, R::kNotOptedOut, msg.kind,
                      "not sent: an opt-out confirmation for a person who is not opted out");
    }
    if (who.optOutConfirmationSent) {
      return decision(V::kRefuse, R::kOptedOut, msg.kind,
                      "not sent: this opt-out was already confirmed once");
    }
    return decision(V::kSendNow, R::kOptOutConfirmation, msg.kind,
                    "sent: the one confirmation of an opt-out");
  }
  if (who.optedOut) {
    return decision(V::kRefuse, R::kOptedOut, msg.kind,
                    "not sent: this person opted out of text messages (STOP)");
  }
  // The caller's class, not the judged one: a late reply to what they wrote is still a reply.
  if (who.offersPaused && capped(msg.kind)) {
    return decision(V::kRefuse, R::kOffersPaused, msg.kind,
                    "not sent: this person paused offers and notices (a stop-like reply) until "
                    "they send OFFERS ON or a manager clears it");
  }

  MessageClass kind = msg.kind;
  const bool activeThread = who.sinceLastInbound && *who.sinceLastInbound <= s.activeThreadWindow;
  if (kind == MessageClass::kThreadReply && !activeThread) kind = MessageClass::kNotice;

  // 2. Consent.
  // Safety alerts go to the people responsible for the site and to the person who reported the
  // danger (issue 4: replies in a person's own thread and safety alerts are the exceptions);
  // only an opt-out stops them.
  if (!who.smsConsent && kind != MessageClass::kThreadReply && kind != MessageClass::kSafetyAlert) {
    return decision(V::kRefuse, R::kNoConsent, kind,
                    msg.kind == MessageClass::kThreadReply
                        ? "not sent: a reply outside the person's active thread needs SMS consent"
                        : "not sent: this person has not agreed to text messages");
  }

  // 3. Outreach freeze.
  if (in.outreachFrozen) {
    const bool passes =
        kind == MessageClass::kSafetyAlert || kind == MessageClass::kEscalation ||
        (kind == MessageClass::kThreadReply && who.threadRepliesToday < kFrozenThreadRepliesPerDay);
    if (!passes) {
      OutreachDecision d =
          decision(V::kHold, R::kOutreachFrozen, kind,
                   kind == MessageClass::kThreadReply
                       ? "held: outreach is frozen and this thread had its " +
                             std::to_string(kFrozenThreadRepliesPerDay) + " replies today"
                       : "held until outreach is released: the kill switch or the outreach breaker "
                         "froze it");
      d.countsTowardCap = capped(kind);
      return d;
    }
  }

  // 4. Exempt from quiet hours and the cap.
  if (kind == MessageClass::kThreadReply) {
    return decision(V::kSendNow, R::kThreadReply, kind,
                    "sent: a reply in the person's own active thread");
  }
  if (kind == MessageClass::kSafetyAlert) {
    return decision(V::kSendNow, R::kSafetyAlert, kind, "sent: safety alert");
  }

  if (msg.notAfter && in.now > *msg.notAfter) {
    return decision(V::kRefuse, R::kExpired, kind,
                    "not sent: its deadline " + when(*msg.notAfter, in.now) + " has passed");
  }

  // 5 and 6. Quiet hours, then the cap; the earliest moment that satisfies both.
  const bool quietPass = isUrgent(msg) && who.urgentDuringQuietHours;
  const bool quietNow = inQuietHours(s, in.now);
  local_seconds at = in.now;
  R reason = R::kAllowed;
  if (quietNow && !quietPass) {
    at = quietHoursEnd(s, in.now);
    reason = R::kQuietHours;
  }
  if (capped(kind) && who.cappedSentToday >= s.dailyCap &&
      std::chrono::floor<days>(at) == std::chrono::floor<days>(in.now)) {
    at = std::chrono::floor<days>(in.now) + days(1);
    if (!quietPass) at = quietHoursEnd(s, at);
    reason = R::kDailyCap;
  }

  if (reason == R::kAllowed) {
    const bool urgentAtNight = quietNow && quietPass;
    OutreachDecision d = decision(
        V::kSendNow,
        urgentAtNight ? R::kUrgentOptIn
                      : (kind == MessageClass::kEscalation ? R::kEscalation : R::kAllowed),
        kind,
        urgentAtNight ? "sent in quiet hours: urgent, and this person opted into urgent "
                        "call-outs at night"
                      : "sent: within the site's hours" +
                            std::string(capped(kind) ? " and the person's daily cap" : ""));
    d.countsTowardCap = capped(kind);
    return d;
  }
  if (msg.notAfter && at > *msg.notAfter) {
    return decision(V::kRefuse, R::kExpired, kind,
                    "not sent: it could only go out at " + when(at, in.now) +
                        ", after its deadline " + when(*msg.notAfter, in.now));
  }
  OutreachDecision d = decision(
      V::kHold, reason, kind,
      reason == R::kQuietHours
          ? "held until " + when(at, in.now) + ": quiet hours " + quietWindow(s) + " at this site"
          : "held until " + when(at, in.now) + ": this person had " +
                std::to_string(who.cappedSentToday) + " of " + std::to_string(s.dailyCap) +
                " messages today");
  d.holdUntil = at;
  d.countsTowardCap = capped(kind);
  return d;
}

}  // namespace atoms::sms
