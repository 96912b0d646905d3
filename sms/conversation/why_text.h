// The answer to WHY (issue 4, seed 000 section 5.3): the sources of the receipt of the last text
// the box sent to this person, in plain words, in at most three SMS segments. The receipt is the
// one Outreach signed for that text (outreach.h), so WHY says exactly what the log records.
//
// Sources are read by kind and ref: the box's own rule decisions ("policy" with an outreach reason
// code, "decision" with the reason a message was held first), the text it answered ("message"
// sms_inbox:N) and the roster entry ("org" roster:ID) are worded by this file in the reply's
// language; any other source (a caller's: "open shift: line cook, Sat 17:00-23:00") is read out by
// its label, unless the label is empty or fails the content lint. Never quotes what the person
// wrote. When everything does not fit, the last sources are dropped and the text says there is
// more; a single source that alone is too long is cut at a word.
//
// Pure functions, thread-safe.
#pragma once

#include <string>
#include <string_view>

#include "base/canonical_json.h"
#include "sms/conversation/replies.h"
#include "sms/text/content_lint.h"

namespace atoms::sms::conversation {

inline constexpr int kWhyMaxSegments = 3;
// Receipt source refs written by Outreach and read back here.
inline constexpr std::string_view kInboxSourcePrefix = "sms_inbox:";
inline constexpr std::string_view kRosterSourcePrefix = "roster:";
inline constexpr std::string_view kUnknownRosterRef = "roster:unknown";
// Receipt extension field: the site's local time of the decision, "YYYY-MM-DDTHH:MM".
inline constexpr std::string_view kLocalTimeField = "localTime";

// The WHY reply for `receipt` (a receipt object, with or without its sig).
std::string whyText(const json::Value& receipt, const ReplyContext& context,
                    const ContentLint& lint);
// The reply when nothing was sent to the person yet.
std::string whyNothingText(const ReplyContext& context);

}  // namespace atoms::sms::conversation
