#include "sms/text/injection_flag.h"

#include <algorithm>
#include <array>

#include "drivers/sms/encoding/utf.h"

namespace atoms::sms {

namespace {

constexpr int tag(InjectionReason r) { return static_cast<int>(r); }

constexpr int kOverride = tag(InjectionReason::kOverrideInstructions);
constexpr int kRole = tag(InjectionReason::kRoleChange);
constexpr int kAuthority = tag(InjectionReason::kAuthorityClaim);
constexpr int kBulk = tag(InjectionReason::kBulkApproval);
constexpr int kDisclosure = tag(InjectionReason::kDisclosureRequest);

// Word patterns (folded words; phrase_set.h). They aim at text that addresses the system, so a
// person's ordinary "ignore my last text" or "can you approve my swap?" passes.
constexpr PhrasePattern kInjectionPhrases[] = {
    {"ignore|ignoring|disregard|forget|override|bypass ~4 instructions|instruction|prompt|"
     "prompts|system_prompt|rules|guidelines|directives|programming|constraints|guardrails|"
     "policy|policies|restrictions|safeguards",
     kOverride},
    {"real|true|secret|hidden|override instructions|directives|system_prompt", kOverride},
    {"ignora|ignorar|olvida|olvidar ~4 instrucciones|reglas|indicaciones", kOverride},
    {"you_are|you're|youre now|no_longer", kRole},
    {"from now on you|you're|you'll|your", kRole},
    {"pretend|pretending to_be|you|that_you", kRole},
    {"roleplay*|role_play|role_playing", kRole},
    {"act|behave|respond as|like ~1 ai|assistant|bot|system|admin|administrator|root|developer|"
     "dan|jailbroken|unrestricted",
     kRole},
    {"act as if|though", kRole},
    {"jailbreak*|dan_mode|developer_mode|god_mode|admin_mode|debug_mode|maintenance_mode|"
     "sudo_mode|do_anything_now",
     kRole},
    {"simulate|simulating being|a", kRole},
    {"you must|will|shall obey|comply", kRole},
    {"ahora eres", kRole},
    {"as|being the|your manager|owner|boss|admin|administrator|gm|supervisor|general_manager|"
     "shift_lead ~3 authorize|authorise|approve|order|instruct|direct|override|allow|permit",
     kAuthority},
    {"i|we authorize|authorise|hereby", kAuthority},
    {"manager|owner|admin|management|supervisor|system override|overrides|authorization|"
     "authorisation|authorized|authorised|approved|okayed",
     kAuthority},
    {"i'm|im|i_am|this_is the|your manager|owner|boss|admin|administrator|gm|general_manager|"
     "supervisor|ceo|it_department|system",
     kAuthority},
    {"approve|authorize|authorise|grant all|every|everything|everyone|everybody|everyone's", kBulk},
    {"auto_approve|autoapprove|auto-approve|approve_automatically", kBulk},
    {"mark|set|flag ~3 as? approved|authorized|authorised", kBulk},
    {"approve|authorize|grant unlimited|any_amount_of ~1 overtime|hours", kBulk},
    {"reveal|show|print|tell|repeat|output|leak|dump|send|give|list|export|share ~3 "
     "system_prompt|api_key|api_keys|password|passwords|secret|secrets|token|tokens|credentials|"
     "config|configuration|phone_numbers|contact_list|contacts|everyone's_number|"
     "everyone's_numbers|all_numbers",
     kDisclosure},
    {"your system_prompt|instructions|programming|directives|initial_prompt", kDisclosure},
};

struct Marker {
  std::string_view text;  // lowercase; matched case-insensitively
  InjectionReason reason;
  bool lineStart;  // only at the start of a line (after spaces)
};

// Literal markers: chat-template role tags and code that has no business in a text message.
constexpr std::array<Marker, 26> kMarkers = {{
    {"system:", InjectionReason::kRoleMarker, true},
    {"assistant:", InjectionReason::kRoleMarker, true},
    {"developer:", InjectionReason::kRoleMarker, true},
    {"user:", InjectionReason::kRoleMarker, true},
    {"ai:", InjectionReason::kRoleMarker, true},
    {"[system]", InjectionReason::kRoleMarker, false},
    {"<system>", InjectionReason::kRoleMarker, false},
    {"</system>", InjectionReason::kRoleMarker, false},
    {"<|", InjectionReason::kRoleMarker, false},
    {"|>", InjectionReason::kRoleMarker, false},
    {"[inst]", InjectionReason::kRoleMarker, false},
    {"[/inst]", InjectionReason::kRoleMarker, false},
    {"<<sys>>", InjectionReason::kRoleMarker, false},
    {"</s>", InjectionReason::kRoleMarker, false},
    {"### instruction", InjectionReason::kRoleMarker, false},
    {"### system", InjectionReason::kRoleMarker, false},
    {"### response", InjectionReason::kRoleMarker, false},
    {"<script", InjectionReason::kCodeOrMarkup, false},
    {"javascript:", InjectionReason::kCodeOrMarkup, false},
    {"drop table", InjectionReason::kCodeOrMarkup, false},
    {"union select", InjectionReason::kCodeOrMarkup, false},
    {"'; --", InjectionReason::kCodeOrMarkup, false},
    {"rm -rf", InjectionReason::kCodeOrMarkup, false},
    {"{{", InjectionReason::kCodeOrMarkup, false},
    {"${", InjectionReason::kCodeOrMarkup, false},
    {"```", InjectionReason::kCodeOrMarkup, false},
}};

char lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

bool startsWithAt(std::string_view text, std::size_t at, std::string_view marker) {
  if (text.size() - at < marker.size()) return false;
  for (std::size_t k = 0; k < marker.size(); ++k) {
    if (lower(text[at + k]) != marker[k]) return false;
  }
  return true;
}

bool atLineStart(std::string_view text, std::size_t at) {
  while (at > 0) {
    const char c = text[at - 1];
    if (c == '\n' || c == '\r') return true;
    if (c != ' ' && c != '\t') return false;
    --at;
  }
  return true;
}

void markers(std::string_view text, std::vector<InjectionFinding>& out) {
  for (std::size_t at = 0; at < text.size(); ++at) {
    for (const Marker& m : kMarkers) {
      if (startsWithAt(text, at, m.text) && (!m.lineStart || atLineStart(text, at))) {
        out.push_back(InjectionFinding{m.reason, at, m.text.size()});
      }
    }
  }
}

// Invisible characters, reported as one finding per run.
void hiddenCharacters(std::string_view text, std::vector<InjectionFinding>& out) {
  bool inRun = false;
  for (std::size_t i = 0; i < text.size();) {
    const auto cp = drivers::decodeUtf8At(text, i);
    const std::size_t step = cp ? cp->bytes : 1;
    // U+FEFF at the very start is a byte-order mark some phones send; not hiding anything.
    const bool hidden = cp && isInvisibleFormatCharacter(cp->value) &&
                        !(i == 0 && cp->value == 0xFEFF) &&
                        cp->value != 0x200D;  // the zero-width joiner builds emoji sequences
    if (hidden && inRun) {
      out.back().length = i + step - out.back().begin;
    } else if (hidden) {
      out.push_back(InjectionFinding{InjectionReason::kHiddenCharacters, i, step});
    }
    inRun = hidden;
    i += step;
  }
}

}  // namespace

std::string_view injectionReasonName(InjectionReason reason) {
  switch (reason) {
    case InjectionReason::kOverrideInstructions:
      return "override_instructions";
    case InjectionReason::kRoleChange:
      return "role_change";
    case InjectionReason::kRoleMarker:
      return "role_marker";
    case InjectionReason::kAuthorityClaim:
      return "authority_claim";
    case InjectionReason::kBulkApproval:
      return "bulk_approval";
    case InjectionReason::kDisclosureRequest:
      return "disclosure_request";
    case InjectionReason::kCodeOrMarkup:
      return "code_or_markup";
    case InjectionReason::kHiddenCharacters:
      return "hidden_characters";
    case InjectionReason::kMixedScript:
      return "mixed_script";
  }
  return "override_instructions";
}

std::string InjectionFlag::reasons() const {
  std::vector<std::string_view> names;
  for (const InjectionFinding& f : findings) {
    const std::string_view n = injectionReasonName(f.reason);
    if (std::find(names.begin(), names.end(), n) == names.end()) names.push_back(n);
  }
  std::string out;
  for (std::string_view n : names) {
    if (!out.empty()) out.push_back(',');
    out += n;
  }
  return out;
}

InjectionDetector::InjectionDetector() : phrases_(kInjectionPhrases) {}

InjectionFlag InjectionDetector::check(std::string_view text) const {
  InjectionFlag flag;
  const std::vector<Token> tokens = tokenize(text);
  for (const PhraseMatch& m : phrases_.find(tokens)) {
    const std::size_t begin = tokens[m.firstToken].begin;
    flag.findings.push_back(InjectionFinding{static_cast<InjectionReason>(m.tag), begin,
                                             tokens[m.endToken - 1].end - begin});
  }
  for (const Token& t : tokens) {
    if (t.mixedScript) {
      flag.findings.push_back(
          InjectionFinding{InjectionReason::kMixedScript, t.begin, t.end - t.begin});
    }
  }
  markers(text, flag.findings);
  hiddenCharacters(text, flag.findings);
  std::stable_sort(
      flag.findings.begin(), flag.findings.end(),
      [](const InjectionFinding& a, const InjectionFinding& b) { return a.begin < b.begin; });
  return flag;
}

}  // namespace atoms::sms
