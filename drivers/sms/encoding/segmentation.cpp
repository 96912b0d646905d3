#include "drivers/sms/encoding/segmentation.h"

#include "drivers/sms/encoding/gsm7.h"
#include "drivers/sms/encoding/utf.h"

namespace atoms::drivers {

namespace {

struct Measure {
  SmsEncoding encoding = SmsEncoding::kGsm7;
  long long units = 0;
};

// Validates the text and decides its encoding and total size in units.
Result<Measure> measure(std::string_view utf8) {
  if (utf8.empty()) return makeError("message text is empty");
  bool gsm7 = true;
  long long gsmUnits = 0;
  long long utf16 = 0;
  for (std::size_t i = 0; i < utf8.size();) {
    const auto cp = decodeUtf8At(utf8, i);
    if (!cp) {
      return makeError("message text is not valid UTF-8 (at byte " + std::to_string(i) + ")");
    }
    if (cp->value == 0) {
      return makeError("message text contains a NUL byte (at byte " + std::to_string(i) + ")");
    }
    if (gsm7) {
      const int septets = gsm7Septets(cp->value);
      if (septets == 0) gsm7 = false;
      gsmUnits += septets;
    }
    utf16 += utf16Units(cp->value);
    i += cp->bytes;
  }
  if (gsm7) return Measure{SmsEncoding::kGsm7, gsmUnits};
  return Measure{SmsEncoding::kUcs2, utf16};
}

int unitsOf(SmsEncoding encoding, char32_t c) {
  return encoding == SmsEncoding::kGsm7 ? gsm7Septets(c) : utf16Units(c);
}

// Parts needed for `units` in total, assuming no part ends early (an upper bound on the plan is
// computed by the walk itself; this is only used to refuse absurd sizes before building).
long long minimumParts(const Measure& m) {
  if (m.units <= singleLimit(m.encoding)) return 1;
  const long long part = partLimit(m.encoding);
  return (m.units + part - 1) / part;
}

std::string tooMany(long long parts) {
  return "message text needs " + std::to_string(parts) + " SMS segments, more than " +
         std::to_string(kMaxSegments);
}

// Calls onPart(begin, end, units) for each part of the validated text, greedily filled, in order;
// returns how many parts. Stops early (returning kMaxSegments + 1) once the text is known to need
// more parts than can be sent, so a huge input costs no more than its first kMaxSegments parts.
template <class OnPart>
long long forEachPart(std::string_view utf8, const Measure& m, OnPart onPart) {
  if (m.units <= singleLimit(m.encoding)) {
    onPart(0, utf8.size(), static_cast<int>(m.units));
    return 1;
  }
  const int limit = partLimit(m.encoding);
  long long parts = 0;
  std::size_t begin = 0;
  int units = 0;
  for (std::size_t i = 0; i < utf8.size();) {
    const CodePoint cp = *decodeUtf8At(utf8, i);  // measure() validated the text
    const int u = unitsOf(m.encoding, cp.value);
    if (units + u > limit) {
      if (++parts > kMaxSegments) return parts;
      onPart(begin, i, units);
      begin = i;
      units = 0;
    }
    units += u;
    i += cp.bytes;
  }
  if (++parts <= kMaxSegments) onPart(begin, utf8.size(), units);
  return parts;
}

}  // namespace

std::string_view smsEncodingName(SmsEncoding encoding) {
  return encoding == SmsEncoding::kGsm7 ? "GSM-7" : "UCS-2";
}

int singleLimit(SmsEncoding encoding) {
  return encoding == SmsEncoding::kGsm7 ? kGsm7SingleSeptets : kUcs2SingleUnits;
}

int partLimit(SmsEncoding encoding) {
  return encoding == SmsEncoding::kGsm7 ? kGsm7PartSeptets : kUcs2PartUnits;
}

Result<SegmentPlan> planSegments(std::string_view utf8) {
  const Result<Measure> m = measure(utf8);
  if (!m) return m.error();
  if (minimumParts(*m) > kMaxSegments) return makeError(tooMany(minimumParts(*m)));
  SegmentPlan plan;
  plan.encoding = m->encoding;
  const long long parts = forEachPart(utf8, *m, [&](std::size_t begin, std::size_t end, int units) {
    plan.segments.push_back(SmsSegment{std::string(utf8.substr(begin, end - begin)), units});
  });
  if (parts > kMaxSegments) return makeError(tooMany(parts));
  return plan;
}

Result<int> countSegments(std::string_view utf8) {
  const Result<Measure> m = measure(utf8);
  if (!m) return m.error();
  if (minimumParts(*m) > kMaxSegments) return makeError(tooMany(minimumParts(*m)));
  const long long parts = forEachPart(utf8, *m, [](std::size_t, std::size_t, int) {});
  if (parts > kMaxSegments) return makeError(tooMany(parts));
  return static_cast<int>(parts);
}

}  // namespace atoms::drivers
