// What an inbound text asks of the schedule, when a worker texts for time off or changes when they
// can work (docs/requests.md, decision 0033):
//   time_off      "I need Saturday off", "can I have the 14th off", "necesito el sábado libre",
//                 "can't work Fri-Sun", "Dec 14 off", "12/14 off", "next week off": local dates
//                 `from`..`to` (inclusive), the whole day or one part of it ("Saturday night off")
//   availability  "I can't do mornings anymore", "I can only work weekends", "ya no puedo en las
//                 mañanas", "no puedo los domingos": a standing change to the weekly windows, on
//                 `weekdays` (empty: every day) for `part`, cannot or only
//   none          anything else (the call-out flow reads it next)
//
// Dates are read against the site's local date (`RequestCalendar`): a weekday name is the next
// such day after today, "tomorrow"/"mañana" the day after, "the 14th"/"el 14" the next 14th,
// "Dec 14"/"14 de diciembre" and "12/14" (month first unless the first number is over 12; a
// year may follow) the next such date, "this weekend"/"next weekend"/"next week" (the site's
// workweek). Two dates joined by "-", "to", "through", "al", "hasta" are a range ("Fri-Sun",
// "14-16", "del 14 al 16"); two next days joined by "and" are one too. Typos: one edit in a word
// of six letters or more ("saturdy", "wendesday"), and the common texting spellings ("tmrw").
// Time off that is only today is none: that is a call-out ("can't come in today"), and so is
// "can't work" (without "off") for only today or tomorrow ("I cant go in tomorrow").
//
// Never guessing: when it looks like a request but is unclear, `question` says what to ask (kind
// still says which request it would be):
//   "which_day"      time off without a day, or a day that does not exist ("Feb 30")
//   "one_range"      days that are not one stretch ("Monday and Thursday"): one request each
//   "too_long"       more than kMaxTimeOffDays days: the manager, in person
//   "which_times"    availability with no times named ("my availability changed")
//   "can_or_cannot"  times named without saying can or cannot ("mornings from now on")
// No reason is ever read or kept: `matched` (for the audit log) holds only the words that made it
// a request (dates, "off", "mornings"), never the rest of the text.
//
// Pure; any bytes are accepted. Thread-safe.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace atoms::sms {

enum class RequestKind { kNone, kTimeOff, kAvailability };
// "none", "time_off", "availability".
std::string_view requestKindName(RequestKind kind);

enum class DayPart { kAllDay, kMorning, kAfternoon, kEvening, kNight };
// "all_day", "morning", "afternoon", "evening", "night".
std::string_view dayPartName(DayPart part);

// The local minutes a part covers: morning 05:00-12:00, afternoon 12:00-17:00, evening
// 17:00-24:00, night 22:00-06:00 (end 1800: past midnight), all day 00:00-24:00.
struct MinuteSpan {
  int start = 0;
  int end = 1440;
};
MinuteSpan dayPartSpan(DayPart part);

enum class AvailabilityChange { kCannot, kOnly };
// "cannot", "only".
std::string_view availabilityChangeName(AvailabilityChange change);

inline constexpr int kMaxTimeOffDays = 31;

struct RequestCalendar {
  std::chrono::local_days today{};
  unsigned workweekStart = 0;  // std::chrono::weekday::c_encoding(): 0 = Sunday
};

struct RequestIntent {
  RequestKind kind = RequestKind::kNone;
  // time_off: inclusive local dates (both set unless the question is "which_day").
  std::optional<std::chrono::local_days> from;
  std::optional<std::chrono::local_days> to;
  DayPart part = DayPart::kAllDay;
  // availability: which weekdays (c_encoding, ascending; empty: every day) and what changes.
  std::vector<unsigned> weekdays;
  AvailabilityChange change = AvailabilityChange::kCannot;
  std::string question;  // "" when clear; else one of the codes above
  std::vector<std::string> matched;
  // The language the text is written in, when its words say so: "es", "en"; "" when they do not
  // (dates and numbers only). The reply follows it, as replies to keywords do.
  std::string language;

  bool clear() const { return kind != RequestKind::kNone && question.empty(); }
};

RequestIntent parseRequestIntent(std::string_view text, const RequestCalendar& calendar);

}  // namespace atoms::sms
