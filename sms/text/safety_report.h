// Whether an inbound text reports a safety problem on site (issue 7 item 5; seed 001 section 7: a
// safety alert reaches a human whatever else is switched off): an injury, fire or smoke, gas,
// violence or a threat, or dangerous equipment, in English or Spanish, or a message that starts
// with the SAFETY / SEGURIDAD keyword.
//
// It errs toward reporting: a false alarm costs a manager one call, a missed one can cost far more.
// So the patterns are plain words and phrases people text in a hurry ("fire in the kitchen",
// "someone cut their hand bad", "huele a gas"), matched on folded words (tokens.h, so case,
// accents and "St0p"-style tricks do not matter), with a few guards for the commonest harmless
// uses ("fire up the grill", "killing it", "a gas station", "you're fired" is not a fire).
//
// The patterns are one table (safety_report.cpp, syntax in phrase_set.h). Immutable after
// construction; check() is const and thread-safe. Any bytes are accepted.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sms/text/phrase_set.h"

namespace atoms::sms {

// kFoodSafety is never detected in a text: it is raised by a checklist's temperature reading out
// of range (sms/conversation/checklist_desk.h).
enum class SafetyCategory { kInjury, kFire, kGas, kViolence, kEquipment, kKeyword, kFoodSafety };

// "injury", "fire", "gas", "violence", "equipment", "keyword", "food_safety".
std::string_view safetyCategoryName(SafetyCategory category);
// The category a name written by safetyCategoryName() stands for; nullopt for any other text.
std::optional<SafetyCategory> safetyCategoryFromName(std::string_view name);

struct SafetyReport {
  SafetyCategory category = SafetyCategory::kKeyword;  // the first match in the text
  std::vector<std::string> matched;  // the matched words, as written, in text order
};

class SafetyDetector {
 public:
  SafetyDetector();

  // nullopt when the text reports nothing.
  std::optional<SafetyReport> check(std::string_view text) const;

 private:
  PhraseSet phrases_;
  PhraseSet harmless_;
};

}  // namespace atoms::sms
