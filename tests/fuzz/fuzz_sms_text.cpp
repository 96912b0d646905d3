// Fuzz target: the SMS text layer on any bytes a provider or a modem could hand in, and any text a
// template could produce: planSegments / countSegments (drivers/sms/encoding/segmentation.h), the
// GSM-7 and UTF-16 codecs, and KeywordParser, ContentLint, InjectionDetector, SafetyDetector,
// CallOutIntentParser (sms/text/).
//
// Properties: a plan's segments concatenate back to the input, each within its limit, filled
// greedily, each valid UTF-8 (so no surrogate pair or escape is split), with the units it claims;
// GSM-7 is chosen exactly when the text encodes, and each GSM-7 segment round-trips through the
// codec; a refused text is empty, invalid UTF-8, has a NUL, or needs more than 255 parts;
// countSegments agrees with the plan; UTF-8 <-> UTF-16 round-trips; every span the lint, the
// injection flag and the tokenizer report lies inside the input; keywords carry the references
// their kind promises; a call-out intent quotes words of the text, names only people of the roster
// (only for a no-show), states minutes only for lateness, and asks a question exactly when unsure.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "drivers/sms/encoding/gsm7.h"
#include "drivers/sms/encoding/segmentation.h"
#include "drivers/sms/encoding/utf.h"
#include "sms/text/callout_intent.h"
#include "sms/text/content_lint.h"
#include "sms/text/injection_flag.h"
#include "sms/text/keywords.h"
#include "sms/text/safety_report.h"
#include "sms/text/tokens.h"
#include "tests/fuzz/fuzz_support.h"

namespace {

using atoms::fuzz::require;
namespace drv = atoms::drivers;
namespace sms = atoms::sms;

int unitsOf(drv::SmsEncoding encoding, std::string_view utf8) {
  int units = 0;
  for (std::size_t i = 0; i < utf8.size();) {
    const auto cp = drv::decodeUtf8At(utf8, i);
    require(cp.has_value(), "a segment is valid UTF-8");
    units += encoding == drv::SmsEncoding::kGsm7 ? drv::gsm7Septets(cp->value)
                                                 : drv::utf16Units(cp->value);
    i += cp->bytes;
  }
  return units;
}

int firstCharUnits(drv::SmsEncoding encoding, std::string_view utf8) {
  const auto cp = drv::decodeUtf8At(utf8, 0);
  require(cp.has_value(), "a segment starts with a character");
  return encoding == drv::SmsEncoding::kGsm7 ? drv::gsm7Septets(cp->value)
                                             : drv::utf16Units(cp->value);
}

void checkSegments(std::string_view text) {
  const auto plan = drv::planSegments(text);
  const auto count = drv::countSegments(text);
  require(plan.ok() == count.ok(), "countSegments refuses exactly what planSegments refuses");
  const bool valid = drv::validateUtf8(text).ok();
  if (!plan) {
    const bool hasNul = text.find('\0') != std::string_view::npos;
    require(text.empty() || !valid || hasNul ||
                plan.message().find("more than 255") != std::string::npos,
            "a refused text is empty, invalid, has a NUL or is too long");
    return;
  }
  require(valid && !text.empty(), "only valid, non-empty text is planned");
  require(*count == static_cast<int>(plan->segments.size()), "countSegments == plan size");
  require(!plan->segments.empty() &&
              plan->segments.size() <= static_cast<std::size_t>(drv::kMaxSegments),
          "1..255 segments");
  const bool gsm = drv::encodeGsm7(text).has_value();
  require(gsm == (plan->encoding == drv::SmsEncoding::kGsm7), "GSM-7 exactly when it encodes");

  const std::size_t n = plan->segments.size();
  const int limit = n == 1 ? drv::singleLimit(plan->encoding) : drv::partLimit(plan->encoding);
  std::string joined;
  for (std::size_t i = 0; i < n; ++i) {
    const drv::SmsSegment& s = plan->segments[i];
    require(!s.text.empty(), "no empty segment");
    require(s.units == unitsOf(plan->encoding, s.text), "a segment has the units it claims");
    require(s.units <= limit, "a segment is within its limit");
    if (i + 1 < n) {
      require(s.units + firstCharUnits(plan->encoding, plan->segments[i + 1].text) > limit,
              "parts are filled greedily");
    }
    if (plan->encoding == drv::SmsEncoding::kGsm7) {
      const auto septets = drv::encodeGsm7(s.text);
      require(septets.has_value() && static_cast<int>(septets->size()) == s.units,
              "a GSM-7 segment encodes to its septets");
      require((*septets)[septets->size() - 1] != drv::kGsm7Escape, "no segment ends in ESC");
      const auto back = drv::decodeGsm7(*septets);
      require(back.ok() && *back == s.text, "a GSM-7 segment round-trips");
    } else {
      const auto wide = drv::utf8ToUtf16(s.text);
      require(wide.ok() && static_cast<int>(wide->size()) == s.units,
              "a UCS-2 segment has its code units");
    }
    joined += s.text;
  }
  require(joined == text, "segments concatenate back to the input");
}

void checkCodecs(std::string_view text) {
  const auto wide = drv::utf8ToUtf16(text);
  require(wide.ok() == drv::validateUtf8(text).ok(), "utf8ToUtf16 accepts exactly valid UTF-8");
  if (wide) {
    const auto back = drv::utf16ToUtf8(*wide);
    require(back.ok() && *back == text, "UTF-8 -> UTF-16 -> UTF-8 round-trips");
  }
  // The same bytes read as UTF-16 (little-endian pairs), as a modem's UCS-2 payload would be.
  std::u16string units;
  for (std::size_t i = 0; i + 1 < text.size(); i += 2) {
    units.push_back(static_cast<char16_t>(static_cast<std::uint8_t>(text[i]) |
                                          (static_cast<std::uint8_t>(text[i + 1]) << 8)));
  }
  const auto utf8 = drv::utf16ToUtf8(units);
  if (utf8) {
    require(drv::validateUtf8(*utf8).ok(), "utf16ToUtf8 yields valid UTF-8");
    const auto again = drv::utf8ToUtf16(*utf8);
    require(again.ok() && *again == units, "UTF-16 -> UTF-8 -> UTF-16 round-trips");
  }
  // The same bytes as unpacked septets.
  const std::span<const std::uint8_t> septets(reinterpret_cast<const std::uint8_t*>(text.data()),
                                              text.size());
  const auto decoded = drv::decodeGsm7(septets);
  bool allSeptets = true;
  for (std::uint8_t b : septets) allSeptets = allSeptets && b < 0x80;
  require(decoded.ok() == allSeptets, "decodeGsm7 refuses exactly values above 127");
  if (decoded) require(drv::validateUtf8(*decoded).ok(), "decodeGsm7 yields valid UTF-8");
}

void checkWords(std::string_view text) {
  static const sms::KeywordParser parser;
  static const sms::ContentLint lint;
  static const sms::InjectionDetector detector;
  static const std::vector<std::string> open{"4821", "7390"};

  std::size_t previousEnd = 0;
  for (const sms::Token& t : sms::tokenize(text)) {
    require(t.begin >= previousEnd && t.begin < t.end && t.end <= text.size(),
            "tokens are in order, non-empty, inside the text");
    previousEnd = t.end;
  }

  const sms::ParsedKeyword k = parser.parse(text, open);
  if (k.kind == sms::KeywordKind::kTakeOffer || k.kind == sms::KeywordKind::kDeclineOffer) {
    require(k.reference == open[0] || k.reference == open[1], "an offer reply names an open code");
  }
  if (k.kind == sms::KeywordKind::kApprove || k.kind == sms::KeywordKind::kDeny) {
    require(sms::isRequestReference(k.reference) ||
                std::all_of(k.reference.begin(), k.reference.end(),
                            [](char c) { return c >= '0' && c <= '9'; }),
            "a request number is digits, or R and digits");
  }
  require(k.kind == sms::KeywordKind::kNone || !k.keyword.empty(), "a keyword names itself");

  std::size_t lastBegin = 0;
  for (const sms::LintFinding& f : lint.check(text)) {
    require(f.begin + f.length <= text.size() && f.length > 0, "a lint span is inside the text");
    require(text.substr(f.begin, f.length) == f.matched, "a lint finding quotes its span");
    require(f.begin >= lastBegin, "lint findings are in text order");
    lastBegin = f.begin;
  }
  (void)sms::ContentLint::describe(lint.check(text));

  const sms::InjectionFlag flag = detector.check(text);
  for (const sms::InjectionFinding& f : flag.findings) {
    require(f.begin + f.length <= text.size() && f.length > 0, "an injection span is inside");
  }
  require(flag.flagged() == !flag.reasons().empty(), "a flag has reasons");

  static const sms::SafetyDetector safety;
  if (const auto report = safety.check(text)) {
    require(!report->matched.empty(), "a safety report names what it matched");
    for (const std::string& m : report->matched) {
      require(!m.empty() && text.find(m) != std::string_view::npos,
              "a safety match is words of the text");
    }
  }

  static const sms::CallOutIntentParser intents;
  static const std::vector<sms::NameCandidate> roster = {
      {"p1", "Jamal Reed"}, {"p2", "Jamal Brooks"}, {"p3", "María López"}, {"p4", "Dee"}};
  const sms::CallOutIntent intent = intents.parse(text, roster);
  for (const std::string& m : intent.matched) {
    require(!m.empty() && text.find(m) != std::string_view::npos,
            "an intent match is words of the text");
  }
  for (const std::string& id : intent.personIds) {
    require(id == "p1" || id == "p2" || id == "p3" || id == "p4",
            "a named person is on the roster");
  }
  require(intent.personIds.empty() || intent.kind == sms::CallOutIntentKind::kCoworkerNoShow ||
              intent.question == "which",
          "only a no-show names people");
  require(!intent.minutesLate ||
              (*intent.minutesLate > 0 &&
               (intent.kind == sms::CallOutIntentKind::kRunningLate || intent.question == "which")),
          "minutes are stated only for lateness");
  require((intent.confidence == sms::IntentConfidence::kLow) == !intent.question.empty(),
          "a question exactly when unsure");
  require(intent.kind != sms::CallOutIntentKind::kNone ||
              (intent.matched.empty() && intent.question.empty()),
          "none carries nothing");
  (void)sms::callOutIntentKindName(intent.kind);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text = atoms::fuzz::asText(data, size);
  checkSegments(text);
  checkCodecs(text);
  checkWords(text);
  return 0;
}
