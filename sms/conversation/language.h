// The languages the box writes to people in (English and Spanish), and which one a reply uses: the
// language the person wrote in when the keyword tells it ("AYUDA", "ALTO", "darme de baja"), else
// the person's preferred language from the roster, else the site default.
//
// Pure functions, thread-safe.
#pragma once

#include <optional>
#include <string_view>

#include "sms/conversation/roster.h"
#include "sms/text/keywords.h"

namespace atoms::sms::conversation {

enum class Language { kEnglish, kSpanish };

// "en", "es"; parseLanguage is the inverse (nullopt for anything else; case-insensitive, and a
// region suffix is ignored: "es-MX" is Spanish).
std::string_view languageCode(Language language);
std::optional<Language> parseLanguage(std::string_view code);

// The language a parsed keyword was written in, when the words say so: the Spanish keywords and
// opt-out phrases are Spanish, the English ones English; nullopt for words both languages use
// (START, an offer code, APPROVE) and for no keyword.
std::optional<Language> keywordLanguage(const ParsedKeyword& keyword);

// The reply language by the rule above. `contact` may be null (a number not on the roster).
Language replyLanguage(const ParsedKeyword& keyword, const Contact* contact, Language siteDefault);

}  // namespace atoms::sms::conversation
