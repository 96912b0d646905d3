#include "sms/text/stop_like.h"

#include <algorithm>
#include <iterator>
#include <vector>

namespace atoms::sms {

namespace {

// Tags: the confidence in hundredths (annoyance 60, sarcasm 40); see stop_like.h. Plus kNeedsCue:
// the words alone are also an ordinary request ("text me more details"), so they count only with a
// sarcastic cue (kSarcasmCues, or an emphatic MORE).
constexpr int kAnnoyed = 60;
constexpr int kSarcasm = 40;
constexpr int kNeedsCue = 1000;

constexpr PhrasePattern kStopLikePhrases[] = {
    // English: annoyance.
    {"enough|too_many|so_many with? the? texts|messages|msgs|texting|messaging|notifications",
     kAnnoyed},
    {"leave me alone", kAnnoyed},
    {"quit|stop bugging|bothering|pestering|spamming|harassing me?", kAnnoyed},
    {"spamming me", kAnnoyed},
    {"this is spam", kAnnoyed},
    {"go away", kAnnoyed},
    {"sick|tired of ~2 texts|messages|texting|messaging", kAnnoyed},
    // English: sarcasm ("oh please, message me MORE", "yay, more texts").
    {"message|text|msg|txt|texts|messages me more", kSarcasm + kNeedsCue},
    {"great|yay|wonderful|awesome|perfect|love another|more text|texts|message|messages", kSarcasm},
    // Spanish: annoyance.
    {"ya basta", kAnnoyed},
    {"basta de mensajes|textos|mensajitos", kAnnoyed},
    {"dejame|dejenme|dejeme en paz", kAnnoyed},
    {"deja|dejen|deje de molestar*", kAnnoyed},
    {"no me molestes|molesten|moleste", kAnnoyed},
    {"demasiados|tantos mensajes|textos", kAnnoyed},
    {"harto|harta|hartos|hartas de ~2 mensajes|textos", kAnnoyed},
    // Spanish: sarcasm ("mándame más mensajes").
    {"mandame|mandenme|escribeme|escribanme mas mensajes|textos", kSarcasm},
};

// What makes "message me more" sarcastic: a lead-in right before it ("oh please, message me
// more", "yeah right, text me more") or a taunt right after it ("text me more why don't you").
constexpr int kLeadIn = 1;
constexpr int kTaunt = 2;
constexpr PhrasePattern kSarcasmCues[] = {
    {"oh please|sure|great|yeah|right|yes|wow", kLeadIn},
    {"yeah|ya right", kLeadIn},
    {"yay|wow|gee|geez", kLeadIn},
    {"why don't|dont you", kTaunt},
};

// "MORE" in capitals in a message that is not all capitals.
bool emphaticMore(std::string_view body, const Token& more) {
  if (body.substr(more.begin, more.end - more.begin) != "MORE") return false;
  return std::any_of(body.begin(), body.end(), [](char c) { return c >= 'a' && c <= 'z'; });
}

// The whole message, give or take polite words.
constexpr std::string_view kResume[] = {"offers on", "offer on", "ofertas si", "ofertas on"};
constexpr std::string_view kPolite[] = {"please", "pls", "ok",  "okay",  "thanks",
                                        "thank",  "you", "por", "favor", "gracias"};

}  // namespace

StopLikeDetector::StopLikeDetector() : stopLike_(kStopLikePhrases), cues_(kSarcasmCues) {}

std::optional<StopLike> StopLikeDetector::check(std::string_view body) const {
  const std::vector<Token> tokens = tokenize(body);
  const std::vector<PhraseMatch> found = stopLike_.find(tokens);
  if (found.empty()) return std::nullopt;
  std::vector<PhraseMatch> cues;
  const auto cued = [&](const PhraseMatch& m) {
    if (emphaticMore(body, tokens[m.endToken - 1])) return true;
    if (cues.empty()) cues = cues_.find(tokens);
    return std::any_of(cues.begin(), cues.end(), [&](const PhraseMatch& c) {
      return (c.tag == kLeadIn && c.endToken == m.firstToken) ||
             (c.tag == kTaunt && c.firstToken == m.endToken);
    });
  };
  const auto first = std::find_if(found.begin(), found.end(), [&](const PhraseMatch& m) {
    return m.tag < kNeedsCue || cued(m);
  });
  if (first == found.end()) return std::nullopt;
  const PhraseMatch& m = *first;
  StopLike out;
  out.confidence = (m.tag % kNeedsCue) / 100.0;
  for (std::size_t i = m.firstToken; i < m.endToken; ++i) {
    if (!out.words.empty()) out.words.push_back(' ');
    out.words += tokens[i].folded;
  }
  return out;
}

bool StopLikeDetector::isResume(std::string_view body) const {
  std::string joined;
  for (const Token& t : tokenize(body)) {
    if (std::find(std::begin(kPolite), std::end(kPolite), t.folded) != std::end(kPolite)) continue;
    if (!joined.empty()) joined.push_back(' ');
    joined += t.folded;
  }
  return std::find(std::begin(kResume), std::end(kResume), joined) != std::end(kResume);
}

}  // namespace atoms::sms
