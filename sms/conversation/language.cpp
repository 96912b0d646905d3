#include "sms/conversation/language.h"

#include <algorithm>
#include <array>
#include <string>

namespace atoms::sms::conversation {

namespace {

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return out;
}

bool startsWithWord(std::string_view text, std::string_view word) {
  return text.substr(0, word.size()) == word &&
         (text.size() == word.size() || text[word.size()] == ' ');
}

// Uppercase keywords as KeywordParser reports them.
constexpr std::array<std::string_view, 8> kSpanishKeywords = {
    "ALTO", "PARAR", "DETENER", "CANCELAR", "BAJA", "AYUDA", "POR QUE", "PORQUE"};
constexpr std::array<std::string_view, 12> kEnglishKeywords = {
    "STOP", "STOPALL", "STOP ALL", "UNSUBSCRIBE", "CANCEL", "END",
    "QUIT", "OPTOUT",  "OPT OUT",  "HELP",        "WHY",    "UNSTOP"};
// First words of the opt-out phrases of keywords.cpp that are Spanish ("darme de baja", "no me
// manden mas mensajes").
constexpr std::array<std::string_view, 5> kSpanishPhraseStarts = {"DAR", "DARME", "DARSE", "NO ME",
                                                                  "NO NOS"};

}  // namespace

std::string_view languageCode(Language language) {
  return language == Language::kSpanish ? "es" : "en";
}

std::optional<Language> parseLanguage(std::string_view code) {
  const std::string c = lower(code.substr(0, code.find_first_of("-_")));
  if (c == "en") return Language::kEnglish;
  if (c == "es") return Language::kSpanish;
  return std::nullopt;
}

std::optional<Language> keywordLanguage(const ParsedKeyword& keyword) {
  const std::string_view k = keyword.keyword;
  if (k.empty()) return std::nullopt;
  if (std::find(kSpanishKeywords.begin(), kSpanishKeywords.end(), k) != kSpanishKeywords.end()) {
    return Language::kSpanish;
  }
  if (std::find(kEnglishKeywords.begin(), kEnglishKeywords.end(), k) != kEnglishKeywords.end()) {
    return Language::kEnglish;
  }
  if (keyword.kind == KeywordKind::kOptOut) {
    for (std::string_view start : kSpanishPhraseStarts) {
      if (startsWithWord(k, start)) return Language::kSpanish;
    }
    return Language::kEnglish;  // the other opt-out phrases are English ("stop texting me")
  }
  return std::nullopt;
}

Language replyLanguage(const ParsedKeyword& keyword, const Contact* contact, Language siteDefault) {
  if (auto fromWords = keywordLanguage(keyword)) return *fromWords;
  if (contact != nullptr) {
    for (const std::string& code : contact->languages) {
      if (auto l = parseLanguage(code)) return *l;
    }
  }
  return siteDefault;
}

}  // namespace atoms::sms::conversation
