#include "sms/text/keywords.h"

#include <algorithm>
#include <array>
#include <optional>

#include "sms/text/offer_code.h"

namespace atoms::sms {

namespace {

struct Keyword {
  std::string_view words;  // folded words joined by one space
  KeywordKind kind;
};

// Whole-message keywords (after filler words are removed). See keywords.h for the sources.
constexpr std::array<Keyword, 26> kKeywords = {{
    {"stop", KeywordKind::kOptOut},     {"stopall", KeywordKind::kOptOut},
    {"stop all", KeywordKind::kOptOut}, {"unsubscribe", KeywordKind::kOptOut},
    {"cancel", KeywordKind::kOptOut},   {"end", KeywordKind::kOptOut},
    {"quit", KeywordKind::kOptOut},     {"optout", KeywordKind::kOptOut},
    {"opt out", KeywordKind::kOptOut},  {"revoke", KeywordKind::kOptOut},
    {"remove", KeywordKind::kOptOut},   {"arret", KeywordKind::kOptOut},
    {"alto", KeywordKind::kOptOut},     {"parar", KeywordKind::kOptOut},
    {"detener", KeywordKind::kOptOut},  {"cancelar", KeywordKind::kOptOut},
    {"baja", KeywordKind::kOptOut},     {"start", KeywordKind::kOptIn},
    {"unstop", KeywordKind::kOptIn},    {"yes", KeywordKind::kOptIn},
    {"help", KeywordKind::kHelp},       {"info", KeywordKind::kHelp},
    {"ayuda", KeywordKind::kHelp},      {"why", KeywordKind::kWhy},
    {"por que", KeywordKind::kWhy},     {"porque", KeywordKind::kWhy},
}};

// Polite words tolerated around a keyword ("STOP please", "help thanks").
constexpr std::array<std::string_view, 13> kFiller = {"please", "pls",     "plz", "thanks", "thank",
                                                      "you",    "thx",     "ty",  "now",    "por",
                                                      "favor",  "gracias", "ok"};

// Opt-out said in words, anywhere in a message (tag unused).
constexpr PhrasePattern kOptOutPhrases[] = {
    {"stop|quit texting|messaging|txting|sending|contacting|text|message"},
    {"unsubscribe|unsub"},
    {"opt me? out"},
    {"optout"},
    {"remove|take me from|off ~3 list|texts|texting|messages|sms|notifications"},
    {"don't|dont|do_not|never text|message|sms|contact me"},
    {"no more texts|messages|sms"},
    {"dar|darme|darse de baja"},
    {"no me|nos manden|mandes|envien|envies|escriban mas? mensajes|textos"},
};

constexpr std::array<std::string_view, 3> kApproveWords = {"approve", "approved", "approving"};
constexpr std::array<std::string_view, 6> kDenyWords = {"deny",   "denied",   "decline",
                                                        "reject", "rejected", "declined"};

// Words that say no to an offer, and words that say yes, around its code.
constexpr std::array<std::string_view, 18> kDeclineWords = {
    "no",     "nope",    "nah",      "not",  "cant",  "can't", "cannot", "won't", "wont",
    "unable", "decline", "declined", "pass", "sorry", "stop",  "cancel", "busy",  "puedo"};
constexpr std::array<std::string_view, 20> kAcceptWords = {
    "yes",    "y",    "yep",  "yeah", "ya",      "ok",        "okay",   "k",  "sure", "take",
    "taking", "i'll", "will", "can",  "confirm", "confirmed", "accept", "in", "si",   "claro"};
// Two-word phrases that contain a decline word but agree ("no problem").
constexpr std::array<std::array<std::string_view, 2>, 5> kAgreeingPhrases = {
    {{"no", "problem"}, {"no", "worries"}, {"no", "prob"}, {"cant", "wait"}, {"can't", "wait"}}};

template <class Array>
bool contains(const Array& words, std::string_view w) {
  return std::find(words.begin(), words.end(), w) != words.end();
}

std::string upper(std::string_view s) {
  std::string out(s);
  for (char& c : out) {
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
  }
  return out;
}

std::string joinWords(const std::vector<Token>& tokens, std::size_t first, std::size_t end) {
  std::string out;
  for (std::size_t i = first; i < end; ++i) {
    if (!out.empty()) out.push_back(' ');
    out += tokens[i].folded;
  }
  return out;
}

std::string_view trimRemark(std::string_view s) {
  const auto isTrim = [](char c) {
    return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == ',' || c == ':' || c == '-' ||
           c == '.' || c == ';';
  };
  while (!s.empty() && isTrim(s.front())) s.remove_prefix(1);
  while (!s.empty() && isTrim(s.back())) s.remove_suffix(1);
  return s;
}

ParsedKeyword make(KeywordKind kind, std::string keyword, std::string reference = {},
                   std::string remark = {}) {
  return ParsedKeyword{kind, std::move(keyword), std::move(reference), std::move(remark)};
}

// The offer reply carried by the tokens, if any open code is among them.
std::optional<ParsedKeyword> offerReply(const std::vector<Token>& tokens,
                                        std::span<const std::string> openCodes) {
  std::vector<std::string> found;
  bool accepts = false;
  bool declines = false;
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    const std::string& w = tokens[i].folded;
    if (tokens[i].numeric) {
      if (std::find(openCodes.begin(), openCodes.end(), w) != openCodes.end() &&
          std::find(found.begin(), found.end(), w) == found.end()) {
        found.push_back(w);
      }
      continue;
    }
    if (i + 1 < tokens.size() &&
        std::any_of(kAgreeingPhrases.begin(), kAgreeingPhrases.end(),
                    [&](const auto& p) { return p[0] == w && p[1] == tokens[i + 1].folded; })) {
      accepts = true;
      ++i;
      continue;
    }
    if (contains(kDeclineWords, w)) declines = true;
    if (contains(kAcceptWords, w)) accepts = true;
  }
  if (found.empty()) return std::nullopt;
  if (found.size() > 1) return make(KeywordKind::kAmbiguousOffer, "OFFER", found.front());
  if (declines && accepts) return make(KeywordKind::kAmbiguousOffer, "OFFER", found.front());
  if (declines) return make(KeywordKind::kDeclineOffer, "OFFER", found.front());
  return make(KeywordKind::kTakeOffer, "OFFER", found.front());
}

}  // namespace

std::string_view keywordKindName(KeywordKind kind) {
  switch (kind) {
    case KeywordKind::kNone:
      return "none";
    case KeywordKind::kOptOut:
      return "opt_out";
    case KeywordKind::kOptIn:
      return "opt_in";
    case KeywordKind::kHelp:
      return "help";
    case KeywordKind::kWhy:
      return "why";
    case KeywordKind::kTakeOffer:
      return "take_offer";
    case KeywordKind::kDeclineOffer:
      return "decline_offer";
    case KeywordKind::kAmbiguousOffer:
      return "ambiguous_offer";
    case KeywordKind::kUnknownOfferCode:
      return "unknown_offer_code";
    case KeywordKind::kApprove:
      return "approve";
    case KeywordKind::kDeny:
      return "deny";
  }
  return "none";
}

bool isRequestReference(std::string_view reference) {
  return reference.size() >= 2 && reference.size() <= 10 &&
         (reference.front() == 'r' || reference.front() == 'R') &&
         std::all_of(reference.begin() + 1, reference.end(),
                     [](char c) { return c >= '0' && c <= '9'; });
}

KeywordParser::KeywordParser() : optOutPhrases_(kOptOutPhrases) {}

bool isProviderKeyword(std::string_view body) {
  static constexpr std::array<std::string_view, 11> kProviderWords = {
      "STOP",   "STOPALL", "UNSUBSCRIBE", "CANCEL", "END", "QUIT",
      "REVOKE", "OPTOUT",  "START",       "UNSTOP", "YES"};
  const std::size_t first = body.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos) return false;
  const std::size_t last = body.find_last_not_of(" \t\r\n");
  const std::string word = upper(body.substr(first, last - first + 1));
  return std::find(kProviderWords.begin(), kProviderWords.end(), word) != kProviderWords.end();
}

ParsedKeyword KeywordParser::parse(std::string_view body,
                                   std::span<const std::string> openOfferCodes,
                                   std::span<const std::string> pastOfferCodes) const {
  const std::vector<Token> tokens = tokenize(body);
  if (tokens.empty()) return {};

  // 1. The whole message is a keyword, as written ("por que") or give or take polite words.
  std::vector<Token> core;
  for (const Token& t : tokens) {
    if (!contains(kFiller, t.folded)) core.push_back(t);
  }
  for (const std::vector<Token>* words : {&tokens, static_cast<const std::vector<Token>*>(&core)}) {
    if (words->empty() || words->size() > 2) continue;
    const std::string joined = joinWords(*words, 0, words->size());
    for (const Keyword& k : kKeywords) {
      if (k.words == joined) return make(k.kind, upper(joined));
    }
  }

  // 2. Opt-out in words anywhere wins over whatever else the message says.
  const std::vector<PhraseMatch> optOut = optOutPhrases_.find(tokens);
  if (!optOut.empty()) {
    return make(KeywordKind::kOptOut,
                upper(joinWords(tokens, optOut.front().firstToken, optOut.front().endToken)));
  }

  // 3. A manager's decision on a numbered request.
  const std::string& first = tokens.front().folded;
  const bool approve = contains(kApproveWords, first);
  const bool deny = contains(kDenyWords, first);
  const bool numberIsOpenOffer =
      tokens.size() > 1 && std::find(openOfferCodes.begin(), openOfferCodes.end(),
                                     tokens[1].folded) != openOfferCodes.end();
  if ((approve || deny) && !numberIsOpenOffer) {
    std::string reference;
    std::size_t restFrom = tokens.front().end;
    if (tokens.size() > 1 && tokens[1].numeric && tokens[1].folded.size() <= 9) {
      reference = tokens[1].folded;
      restFrom = tokens[1].end;
    } else if (tokens.size() > 1 && isRequestReference(tokens[1].folded)) {
      reference = tokens[1].folded;  // a worker's request by text: "APPROVE R3"
      restFrom = tokens[1].end;
    }
    return make(approve ? KeywordKind::kApprove : KeywordKind::kDeny, approve ? "APPROVE" : "DENY",
                std::move(reference), std::string(trimRemark(body.substr(restFrom))));
  }

  // 4. A reply to an open offer, by its code.
  if (auto reply = offerReply(tokens, openOfferCodes)) return std::move(*reply);
  // A reply to one of the sender's closed offers, in the same forms: the offer is over.
  if (auto late = offerReply(tokens, pastOfferCodes)) {
    return make(KeywordKind::kUnknownOfferCode, "OFFER", late->reference);
  }

  // 5. Just a code, but not one that is open to this person.
  std::size_t numbers = 0;
  std::size_t others = 0;
  std::string code;
  for (const Token& t : core) {
    if (t.numeric) {
      ++numbers;
      code = t.folded;
    } else if (!contains(kAcceptWords, t.folded)) {
      ++others;
    }
  }
  // Only what could be a code: "1830" alone is a time, never a code (offer_code.h).
  if (numbers == 1 && others == 0 && isUsableOfferCode(code)) {
    return make(KeywordKind::kUnknownOfferCode, "OFFER", code);
  }
  return {};
}

}  // namespace atoms::sms
