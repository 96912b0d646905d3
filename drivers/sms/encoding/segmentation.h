// How one outgoing text message is split into SMS segments: the encoding it needs (GSM-7 when
// every character is in the GSM 03.38 default alphabet or its extension table, UCS-2 otherwise)
// and the text of each part, known before anything is sent (receipts show the count; the modem
// driver turns each part into one PDU).
//
// Limits (3GPP TS 23.040 with an 8-bit concatenation reference in the User Data Header):
//   GSM-7: 160 septets in a single message, 153 per part of a concatenated one; an extension
//          character (€ [ ] { } ^ ~ \ | and form feed) is ESC + code, counts 2 and is never split.
//   UCS-2: 70 UTF-16 code units single, 67 per part; a character outside the BMP (most emoji) is a
//          surrogate pair, counts 2 and is never split.
// Parts are filled greedily, so the count is the one providers and phones compute. The segments'
// texts concatenate back to exactly the input. All functions are pure and thread-safe.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"

namespace atoms::drivers {

enum class SmsEncoding { kGsm7, kUcs2 };

// "GSM-7" or "UCS-2".
std::string_view smsEncodingName(SmsEncoding encoding);

inline constexpr int kGsm7SingleSeptets = 160;
inline constexpr int kGsm7PartSeptets = 153;
inline constexpr int kUcs2SingleUnits = 70;
inline constexpr int kUcs2PartUnits = 67;
// An 8-bit concatenation reference numbers parts 1..255: a longer text cannot be sent as one
// message at all. Providers cap far lower (Twilio: 1,600 characters); their drivers check that.
inline constexpr int kMaxSegments = 255;

struct SmsSegment {
  std::string text;  // UTF-8, a substring of the input
  int units = 0;     // septets (GSM-7) or UTF-16 code units (UCS-2)
};

struct SegmentPlan {
  SmsEncoding encoding = SmsEncoding::kGsm7;
  std::vector<SmsSegment> segments;  // never empty
};

// The single-message and per-part limits of an encoding, in units.
int singleLimit(SmsEncoding encoding);
int partLimit(SmsEncoding encoding);

// Errors (one line, nothing else happens): empty text, invalid UTF-8 (names the byte), a NUL
// byte (names the byte), more than kMaxSegments parts.
Result<SegmentPlan> planSegments(std::string_view utf8);

// planSegments(utf8)->segments.size(), without building the segments' texts.
Result<int> countSegments(std::string_view utf8);

}  // namespace atoms::drivers
