#include "sms/text/callout_intent.h"

#include <algorithm>
#include <array>
#include <cstddef>
#include <utility>

#include "sms/text/tokens.h"

namespace atoms::sms {
namespace {

// What a pattern is evidence of. The subject (the words before it) then decides whose intent it
// is; see parse().
enum Signal : int {
  kNoShow,         // someone did not come in; counts without a name (the parser asks who)
  kNoShowIfNamed,  // the same, but only next to a roster name ("still no Jamal")
  kNobody,         // "nobody came in": a no-show with no one to name
  kSelf,           // "can't come in": the subject's call-out
  kCalledOut,      // "called out": the subject's call-out
  kLate,           // "running late"
  kLateIfTimed,    // "be there in": late only when a time follows ("in 10", "in a few")
  kArrived,        // "I'm here"
  kHealthWord,     // a health or family word: a hint only, and never audited
  kSignalCount,
};

constexpr int bit(Signal s) { return 1 << s; }

// Word patterns on folded words (phrase_set.h). Abbreviations, missing apostrophes and the common
// misspellings people text are spelled out as alternatives.
#define CANT                                                                                    \
  "can't|cant|cannot|can_not|cnt|unable_to|not_able_to|won't_be_able_to|wont_be_able_to|"       \
  "couldn't|couldnt|might_not|may_not|prob_not|probably_not|not_gonna|not_going_to|won't|wont|" \
  "will_not|wouldn't|wouldnt|aint_gonna|ain't_gonna|dont_think_i_can|don't_think_i_can"
#define NEG_PAST                                                                             \
  "didn't|didnt|did_not|didn|hasn't|hasnt|has_not|haven't|havent|have_not|never|ain't|aint|" \
  "still_hasn't|still_hasnt|still_didn't|still_didnt|still_not|never_did"

constexpr PhrasePattern kCallOutPhrases[] = {
    // Someone did not come in.
    {NEG_PAST " show|shown|showed|shows|showing|sho up?", kNoShow},
    {NEG_PAST " come|came|make|made|turn|turned|get|got|gotten ~1 in|it|up|here|to_work|today|"
              "tonight",
     kNoShow},
    {NEG_PAST " clock|clocked|punch|punched in", kNoShowIfNamed},  // "I haven't clocked in": no
    {"no show|shows|showed|showing|sho", kNoShow},
    {"noshow|noshowed|ncns|no_call_no_show", kNoShow},
    {"isn't|isnt|is_not|ain't|aint|not|wasn't|wasnt|still_not here|hear|yet", kNoShowIfNamed},
    {"isn't|isnt|is_not|not in yet", kNoShowIfNamed},
    {"still no|not", kNoShowIfNamed},
    {"no sign of", kNoShowIfNamed},
    {"nobody|noone|no_one|nadie|no_body came|showed|shows|come|is_here|here|has_come|vino|"
     "llego|ha_llegado|aparecio|viene|se_presento",
     kNobody},
    {"no vino|viene|llego|llega|ha_llegado|ha_venido|se_presento|se_ha_presentado|aparecio|"
     "ha_aparecido|se_aparecio|se_reporto|vendra|va_a_venir",
     kNoShow},
    {"falta|falto|faltan|faltaron", kNoShowIfNamed},
    {"no esta|estan aqui|aca|todavia|aun|hoy", kNoShowIfNamed},
    {"todavia|aun no", kNoShowIfNamed},

    // The subject will not come in.
    {CANT " come|go|be|get in|to_work|into_work|2_work|n", kSelf},
    {CANT " make|making it|today|tonight|tomorrow|tmrw|tmr|tonite|my_shift|the_shift|work|shift",
     kSelf},
    {CANT " come|work|wrk|be_there|be_in ~2 today|tonight|tomorrow|tmrw|tmr|tonite|2day|2nite|"
          "shift|shifts",
     kSelf},
    {CANT " be|come|go|get there|here", kSelf},
    {CANT " come|comin|make_it|work_today|work_tonight", kSelf},
    {"not|aint|ain't|isn't|isnt|won't_be|wont_be|no coming|comin|going_in|goin_in|gonna_come",
     kSelf},
    {"call|calling|called|calls|callin|callling|calld out|off", kCalledOut},
    {"called|calling|callin|calls|calld in", kCalledOut},
    {"out today|tonight|tomorrow|tmrw|tonite|2day|2nite", kSelf},
    {"out sick|ill|enfermo|enferma ~1 today|tonight|tomorrow|tmrw|tonite?", kSelf},
    {"miss|missing|skip|skipping|gotta_miss|have_to_miss|need_to_miss my|the|today's|tonight's|"
     "todays|tonights|tmrw's? shift|work",
     kSelf},
    {"take|taking|use|using|need|calling_in a? sick_day|personal_day|mental_health_day", kSelf},
    {"no puedo|podre|podria|puedo_ir|voy_a_poder|vamos_a_poder|podemos "
     "ir|venir|trabajar|llegar|asistir|presentarme|entrar|cubrir|hacer_mi_turno|trabajar_hoy",
     kSelf},
    {"no voy|vengo|ire|asistire|voy_a_ir|podre_ir", kSelf},
    {"voy_a|tengo_que|necesito|tendre_que faltar", kSelf},
    {"me reporto|reporte enfermo|enferma", kSelf},

    // The subject is coming, late.
    {"late|l8|l8te|laet|latee", kLate},
    {"running|runnin|runing|runnning ~3 late|l8|behind", kLate},
    {"llego|llegare|llegando|voy|vamos|vengo|ando|estoy_llegando|voy_a_llegar|hizo|poco|poquito|"
     "rato|llegar ~2 tarde|tardesito|tardecito",
     kLate},
    {"stuck|caught|sitting in|on ~1 traffic|train|subway|bus|metro|trafico", kLate},
    {"traffic|trafico|trafic|trafficc|atascado|atorado|embotellamiento", kLate},
    {"missed|miss the|my bus|train|ride|metro|camion|subway", kLate},
    {"se me fue|paso el? camion|bus|metro|tren", kLate},
    {"bus|train|subway|ride|uber|lyft|metro|camion ~2 delayed|late|broke|broke_down|never_came|"
     "didnt_come|didn't_come|didnt_show|didn't_show",
     kLate},
    {"car|tire|battery|truck|carro|coche ~2 broke|broke_down|died|dead|flat|won't_start|"
     "wont_start|se_descompuso|no_arranca",
     kLate},
    {"flat tire", kLate},
    {"almost|nearly|casi there|here|ahi|alli|llego|llegando", kLate},
    {"min|mins|minute|minutes|minutos|mns away|out", kLate},
    {CANT " make|be|get|come ~2 on_time|by|till|until|til|before", kLate},
    {"no llego|llegare|voy_a_llegar|alcanzo a? tiempo", kLate},
    {"there|here|be|b|arrive|arriving|ther|thr|thre in|n", kLateIfTimed},
    {"omw|otw|on_my_way|on_the_way|en_camino|ya_voy|voy_para_alla|heading_in|headed_in|"
     "leaving_now",
     kLateIfTimed},
    {"llego|llegare|estoy|estare|voy_a_llegar|llegando|estoy_ahi|ahi_estoy en|dentro_de",
     kLateIfTimed},

    // The subject is at work.
    {"i'm|im|i_am|iam|am|i'm_finally|im_finally|i'm_already|im_already|already|finally "
     "here|inside|at_work|at_the_store|onsite|on_site|hear|outside|out_front|in_the_lot|"
     "in_the_parking_lot",
     kArrived},
    {"just got|arrived|pulled|walked|clocked here|in|up", kArrived},
    {"got here", kArrived},
    {"just arrived|arrived", kArrived},
    {"clocked|clocking|punched|punching in", kArrived},
    {"made it", kArrived},
    {"ya llegue|llegamos|estoy|entre|marque|estamos|checke", kArrived},
    {"estoy|estamos aqui|aca|afuera|adentro|en_la_tienda|en_el_trabajo", kArrived},
    {"aqui|aca|ya estoy", kArrived},
    {"acabo de llegar|entrar", kArrived},

    // Why someone is out: a hint, never audited.
    {"sick|sik|sck|sickk|fever|flu|covid|covid19|vomiting|vomit|puking|puke|migraine|"
     "headache|stomach|diarrhea|nausea|nauseous|doctor|doctors|doctor's|hospital|surgery|"
     "pregnant|contagious|strep|toothache|dentist|emergency|funeral|passed_away|"
     "urgent_care|food_poisoning|throwing_up|threw_up|sore_throat|infection|dizzy|"
     "enfermo|enferma|enfermos|fiebre|gripe|vomito|vomitando|dolor|medico|doctora|emergencia|"
     "cirugia|embarazada|hospital|funeral|murio|fallecio|calentura|mareado|mareada|"
     "diarrea|infeccion|cita_medica|gripa",
     kHealthWord},
    {"feel|feeling|felt|feelin|sintiendo terrible|awful|unwell|horrible|like_crap|like_shit|"
     "bad|off|sick|ill",
     kHealthWord},
    {"i'm|im|i_am|am|been|is|was|getting|got|out ill", kHealthWord},
    {"siento|sentia|siente|sintiendo|senti mal|fatal|enfermo|enferma", kHealthWord},
    {"family|personal emergency|matter|issue|issues|stuff|thing|problem|problems", kHealthWord},
    {"emergencia|problema|asunto familiar|personal", kHealthWord},
};

// Harmless uses of the same words: a phrase match sharing a token with a guard of its signal does
// not count. The tag is the set of signals a guard stands against.
constexpr PhrasePattern kCallOutHarmless[] = {
    {"show|showed|shown|showing you|me|us|them|him|her|how|the|around|ya|u", bit(kNoShow)},
    {"paycheck|check|pay|deposit|hours|shift|shifts|schedule|order|delivery|truck|app|it|text|"
     "message|email|package|name|days|time ~2 didn't|didnt|hasn't|hasnt|not|never|isn't|isnt|"
     "still|no",
     bit(kNoShow) | bit(kNoShowIfNamed)},
    {"not|won't|wont|never|don't|dont|no|isn't|isnt|aren't|ain't|aint|wasn't|wasnt|nunca|not_gonna|"
     "not_going_to_be|not_gonna_be ~1 late|tarde|l8|behind",
     bit(kLate)},
    {"late|l8 "
     "shift|shifts|night|nights|close|closer|closing|lunch|dinner|start|fee|notice|checkout|"
     "out|breakfast|reply|response|answer|text|message|payment",
     bit(kLate)},
    {"can|could|may|ok_if|okay_if|possible_to|alright_if i|we? come|start|work|be|stay|leave|"
     "clock_in ~2 late",
     bit(kLate)},
    {"too|stay|staying|stayed|work|working|worked|open|opened|up|sleep|slept|pay ~1 late",
     bit(kLate)},
    {"was|were|been|being|came|got_in|showed_up ~2 late", bit(kLate)},
    {"buenas|en_la|por_la|de_la|esta|la|hoy_en_la tarde", bit(kLate)},
    {"can't|cant|cannot wait", bit(kSelf)},
    {CANT " come|make|be|get|go ~3 early|earlier|sooner|on_time|by|till|until|til|before|extra|"
          "any_earlier|back",
     bit(kSelf)},
    {"no llego|llegare|voy_a_llegar|alcanzo a? tiempo", bit(kSelf) | bit(kNoShow)},
    {"no voy|puedo|podre|voy_a_poder ~3 llegar a tiempo", bit(kSelf)},
    {"no voy|vamos a llegar ~1 tarde", bit(kSelf)},
    {"sold|run|ran|running|clock|clocked|clocking|punch|punched|log|logged|sign|signed|check|"
     "checked|going|go|went|hang|hanging|get|getting|got|let|stay|come|coming|came|head|heading|"
     "walk|walked|schedule|schedules|work|working|worked|take|taking|figure|figured|find|found|"
     "pay|paid|print|printed|hand|handed|put|posted|cash|cashed|left|leave|leaving|help|hours|"
     "shifts|roster ~1 out",
     bit(kSelf)},
    {"not|never|won't|wont|don't|dont|didn't|didnt|no|not_gonna|isn't|isnt ~2 call|calling|called|"
     "callin out|off|in",
     bit(kCalledOut)},
    {"got|get|getting|being|was|were|been called|call|calling in|out", bit(kCalledOut)},
    // Questions about someone else ("did Jamal call out?", "who called out today").
    {"did|does|has|is|who|anyone|anybody|quien|alguien ~2 call|called|calling|calls out|off|in",
     bit(kCalledOut) | bit(kSelf)},
    {"who|anyone|anybody|quien|alguien ~1 didn't|didnt|hasn't|hasnt|never|no show|shown|showed|"
     "came|vino|llego",
     bit(kNoShow)},
    {"can|could|i_can|i_could be|get|b there|here", bit(kLateIfTimed)},
    {"called|calling|callin in to|for|early", bit(kCalledOut)},
    {"call|called|calling|callin in ~2 order|orders|refill|prescription|delivery|favor|"
     "the_order|a_order|an_order|payment|the_truck",
     bit(kCalledOut)},
    {"not|no|isn't|isnt|aren't|never|nunca|ni|ya_no|no_estoy|not_even|wasn't|wasnt ~1 sick|ill|"
     "enfermo|enferma|fever|fiebre",
     bit(kHealthWord)},
    {"sick|tired of|de", bit(kHealthWord)},
    {"sick|feel|feeling day|days|leave|pay|time|policy|hours|balance|bad_about|bad_for",
     bit(kHealthWord)},
    {"emergency|emergencia contact|contacto|number|numero|exit|salida", bit(kHealthWord)},
    {"made it ~1 to|out|through|clear|sound", bit(kArrived)},
    {NEG_PAST " ~1 make|made|got|get|clocked|clock|punch|punched here|it|in", bit(kArrived)},
    {"can't|cant|cannot|won't|wont|couldn't|couldnt ~1 make|made|clock|punch ~1 it|in",
     bit(kArrived)},
    {"aren't|not|no_sign|nadie|nobody|noone|no_one ~2 here|aqui|aca", bit(kArrived)},
    {"no estoy|estamos aqui|aca|afuera|adentro", bit(kArrived)},
    {"not|never|no_longer|no coming|comin ~1 back|to_the_party|over|along", bit(kSelf)},
};

#undef CANT
#undef NEG_PAST

// Who a phrase is about is the nearest of these before it in the same clause (see Subjects).
constexpr std::array<std::string_view, 13> kFirstPerson = {
    "i", "i'm", "im", "i've", "ive", "i'll", "i'd", "yo", "iam", "we", "we're", "were", "us"};
constexpr std::array<std::string_view, 17> kThirdPerson = {
    "he",    "she",    "they", "he's", "she's", "they're", "hes",   "shes",   "theyre",
    "he'll", "she'll", "el",   "ella", "ellos", "he'd",    "she'd", "someone"};
// A name after one of these is an object, not the subject ("tell Jamal I'm running late").
constexpr std::array<std::string_view, 21> kObjectMarkers = {
    "tell",  "ask", "let",  "text",    "call", "for", "with", "to",    "cover",  "covering", "told",
    "asked", "msg", "dile", "avisale", "para", "con", "a",    "thank", "thanks", "from"};
constexpr std::array<std::string_view, 8> kNameJoin = {"and", "&", "y",    "or",
                                                       "o",   "n", "plus", "nor"};
constexpr std::array<std::string_view, 14> kBeforeObject = {
    "yet", "today", "tonight", "hoy", "todavia", "aun",   "of",
    "de",  "from",  "again",   "el",  "la",      "still", "for"};
constexpr std::array<std::string_view, 8> kMinuteWords = {"min",     "mins",   "minute", "minutes",
                                                          "minutos", "minuto", "mns",    "mn"};
constexpr std::array<std::string_view, 7> kHourWords = {"hour", "hours", "hr", "hrs",
                                                        "hora", "horas", "hrz"};
constexpr std::array<std::string_view, 10> kAbout = {"like", "about", "bout",  "abt",   "around",
                                                     "unos", "como",  "maybe", "aprox", "approx"};
constexpr std::array<std::pair<std::string_view, int>, 14> kNumberWords = {{
    {"five", 5},
    {"ten", 10},
    {"fifteen", 15},
    {"twenty", 20},
    {"thirty", 30},
    {"forty", 40},
    {"fourty", 40},
    {"sixty", 60},
    {"cinco", 5},
    {"diez", 10},
    {"quince", 15},
    {"veinte", 20},
    {"treinta", 30},
    {"cuarenta", 40},
}};
// Words after "in" that make "be there in" late without a number ("in a few", "en un rato").
constexpr std::array<std::string_view, 15> kSoonWords = {
    "few",    "bit",  "sec",     "second", "moment", "min",  "minute", "rato",
    "ratito", "poco", "momento", "mins",   "jiffy",  "half", "media"};
// First names that are also everyday words: matched only capitalised, mid-sentence.
constexpr std::array<std::string_view, 40> kWordNames = {
    "will",  "may",   "mark",   "bill", "pat",  "sue",   "rob",   "art",    "hope",   "joy",
    "faith", "grace", "dawn",   "rose", "jack", "june",  "april", "august", "summer", "sunny",
    "angel", "amber", "ruby",   "iris", "lily", "holly", "ivy",   "daisy",  "penny",  "sky",
    "rich",  "chase", "hunter", "sol",  "luz",  "cruz",  "rosa",  "don",    "guy",    "victoria"};

template <class Range, class Value>
bool contains(const Range& range, const Value& value) {
  return std::find(range.begin(), range.end(), value) != range.end();
}

std::string_view stripPossessive(std::string_view w) {
  if (w.size() > 2 && w.substr(w.size() - 2) == "'s") w.remove_suffix(2);
  return w;
}

enum class NameFit { kNo, kTypo, kExact };

// `possessive`: "Jamal's" counts as "Jamal" (the last word of a name only).
NameFit fitName(std::string_view written, std::string_view name, bool possessive = true) {
  if (possessive) written = stripPossessive(written);
  if (written == name) return NameFit::kExact;
  if (written.size() >= 5 && name.size() >= 5 && withinOneEdit(written, name)) {
    return NameFit::kTypo;
  }
  return NameFit::kNo;
}

struct Person {
  std::vector<std::string> words;  // folded name words; words[0] is the first name
};

struct NameSpan {
  std::size_t begin = 0;
  std::size_t end = 0;
  std::vector<std::size_t> people;  // indexes into the roster; more than one: ambiguous
};

class Reader {
 public:
  Reader(std::string_view text, std::vector<Token> tokens)
      : text_(text), tokens_(std::move(tokens)) {}

  const std::vector<Token>& tokens() const { return tokens_; }

  // True when the text between two neighbouring tokens ends a clause.
  bool clauseBreak(std::size_t left, std::size_t right, bool commaBreaks = true) const {
    const std::string_view gap =
        text_.substr(tokens_[left].end, tokens_[right].begin - tokens_[left].end);
    const std::string_view breaks = commaBreaks ? ".!?;\n," : ".!?;\n";
    return gap.find_first_of(breaks) != std::string_view::npos;
  }

  bool capitalisedMidSentence(std::size_t i) const {
    const unsigned char first = static_cast<unsigned char>(text_[tokens_[i].begin]);
    if (first < 'A' || first > 'Z') return false;
    if (i == 0) return false;
    return !clauseBreak(i - 1, i, false);
  }

  std::string_view written(std::size_t first, std::size_t last) const {
    return text_.substr(tokens_[first].begin, tokens_[last].end - tokens_[first].begin);
  }

  // "5:20" is a clock time, not minutes.
  bool partOfClockTime(std::size_t i) const {
    const std::size_t b = tokens_[i].begin;
    const std::size_t e = tokens_[i].end;
    return (e < text_.size() && text_[e] == ':') || (b > 0 && text_[b - 1] == ':');
  }

 private:
  std::string_view text_;
  std::vector<Token> tokens_;
};

// The roster names in the text: at each token, the people whose full name starts there (longest
// wins), else those whose first name is there; exact beats a typo.
std::vector<NameSpan> findNames(const Reader& r, const std::vector<Person>& people,
                                const std::vector<bool>& taken) {
  const std::vector<Token>& tokens = r.tokens();
  std::vector<NameSpan> spans;
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    if (taken[i]) continue;
    NameSpan best;
    NameFit bestFit = NameFit::kNo;
    for (std::size_t p = 0; p < people.size(); ++p) {
      const Person& person = people[p];
      if (person.words.empty()) continue;
      std::size_t end = i;
      NameFit fit = NameFit::kNo;
      // Full name, then first name alone.
      if (person.words.size() > 1 && i + person.words.size() <= tokens.size()) {
        NameFit worst = NameFit::kExact;
        for (std::size_t k = 0; k < person.words.size() && worst != NameFit::kNo; ++k) {
          const bool last = k + 1 == person.words.size();
          worst = std::min(worst, fitName(tokens[i + k].folded, person.words[k], last));
        }
        if (worst != NameFit::kNo) {
          end = i + person.words.size();
          fit = worst;
        }
      }
      if (end == i) {
        fit = fitName(tokens[i].folded, person.words[0]);
        if (fit == NameFit::kNo) continue;
        if (contains(kWordNames, person.words[0]) && !r.capitalisedMidSentence(i)) continue;
        end = i + 1;
      }
      const auto better = [&] {
        if (end != best.end) return end > best.end;
        return fit > bestFit;
      };
      if (best.people.empty() || better()) {
        best = NameSpan{i, end, {p}};
        bestFit = fit;
      } else if (end == best.end && fit == bestFit) {
        best.people.push_back(p);
      }
    }
    if (!best.people.empty()) {
      i = best.end - 1;
      spans.push_back(std::move(best));
    }
  }
  return spans;
}

enum class Subject { kFirst, kNamed, kThird };

struct Who {
  Subject subject = Subject::kFirst;
  std::vector<std::size_t> spans;  // indexes into the name spans, text order
};

class Subjects {
 public:
  Subjects(const Reader& r, const std::vector<NameSpan>& names) : r_(r), names_(names) {
    const std::size_t n = r.tokens().size();
    endingAt_.assign(n + 1, kNone);
    startingAt_.assign(n + 1, kNone);
    for (std::size_t s = 0; s < names.size(); ++s) {
      endingAt_[names[s].end] = s;
      startingAt_[names[s].begin] = s;
    }
  }

  // Who a phrase starting at token `at` is about: the nearest name, "I" or pronoun before it in
  // the same clause (a pronoun gives way to a name further back: "Jamal said he can't come in");
  // nobody written means the sender, as texts usually leave out the "I".
  Who before(std::size_t at) const {
    Who who;
    for (std::size_t j = at, step = 0; j > 0 && step < 7; ++step) {
      if (r_.clauseBreak(j - 1, j)) break;
      if (const std::size_t s = endingAt_[j]; s != kNone) {
        const std::size_t b = names_[s].begin;
        if (b > 0 && !r_.clauseBreak(b - 1, b) &&
            contains(kObjectMarkers, r_.tokens()[b - 1].folded)) {
          j = b;  // "tell Jamal ...": not the subject
          continue;
        }
        who.subject = Subject::kNamed;
        who.spans = chainBackFrom(s);
        return who;
      }
      const std::string_view w = r_.tokens()[j - 1].folded;
      if (contains(kFirstPerson, w)) {
        if (who.subject != Subject::kThird) who.subject = Subject::kFirst;
        return who;
      }
      if (contains(kThirdPerson, w)) who.subject = Subject::kThird;
      --j;
    }
    return who;
  }

  // The names right after a phrase ending at token `end` ("still no Jamal", "falta Jamal").
  std::vector<std::size_t> after(std::size_t end) const {
    std::vector<std::size_t> spans;
    const std::size_t n = r_.tokens().size();
    std::size_t j = end;
    for (int skip = 0; skip < 2 && j < n && j > 0 && startingAt_[j] == kNone; ++skip) {
      if (r_.clauseBreak(j - 1, j) || !contains(kBeforeObject, r_.tokens()[j].folded)) break;
      ++j;
    }
    while (j < n && j > 0 && startingAt_[j] != kNone && !r_.clauseBreak(j - 1, j, false)) {
      const std::size_t s = startingAt_[j];
      spans.push_back(s);
      j = names_[s].end;
      if (j < n && contains(kNameJoin, r_.tokens()[j].folded)) ++j;
    }
    return spans;
  }

 private:
  // A name and the names joined to it before ("Jamal and Maria", "Jamal, Maria"), text order.
  std::vector<std::size_t> chainBackFrom(std::size_t s) const {
    std::vector<std::size_t> spans{s};
    while (true) {
      const std::size_t b = names_[spans.front()].begin;
      if (b == 0) break;
      std::size_t k = b;
      if (contains(kNameJoin, r_.tokens()[b - 1].folded) && !r_.clauseBreak(b - 1, b)) {
        k = b - 1;  // "and"
      } else if (r_.clauseBreak(b - 1, b, false) || !r_.clauseBreak(b - 1, b)) {
        break;  // a full stop, or no comma either
      }
      if (k == 0 || endingAt_[k] == kNone || r_.clauseBreak(k - 1, k, false)) break;
      spans.insert(spans.begin(), endingAt_[k]);
    }
    return spans;
  }

  static constexpr std::size_t kNone = static_cast<std::size_t>(-1);
  const Reader& r_;
  const std::vector<NameSpan>& names_;
  std::vector<std::size_t> endingAt_;
  std::vector<std::size_t> startingAt_;
};

// Anything longer is not lateness ("running 900 min late" states nothing usable).
constexpr int kMaxMinutes = 480;

std::optional<int> numberAt(const Reader& r, std::size_t i) {
  const Token& t = r.tokens()[i];
  if (t.numeric) {
    if (t.folded.size() > 3 || r.partOfClockTime(i)) return std::nullopt;
    const int value = std::stoi(t.folded);
    if (value < 1 || value > kMaxMinutes) return std::nullopt;
    return value;
  }
  for (const auto& [word, value] : kNumberWords) {
    if (t.folded == word) return value;
  }
  return std::nullopt;
}

// "10min", "15mins", "5m": digits glued to a minute word.
std::optional<int> gluedMinutes(const Token& t) {
  std::size_t digits = 0;
  while (digits < t.folded.size() && t.folded[digits] >= '0' && t.folded[digits] <= '9') ++digits;
  if (digits == 0 || digits > 3 || digits == t.folded.size()) return std::nullopt;
  const std::string_view unit = std::string_view(t.folded).substr(digits);
  if (unit != "m" && !contains(kMinuteWords, unit)) return std::nullopt;
  const int value = std::stoi(t.folded.substr(0, digits));
  if (value < 1 || value > kMaxMinutes) return std::nullopt;
  return value;
}

// Minutes stated in the text: "15 min", "15mins", "in 20", "en 10", "half hour", "an hour".
std::optional<int> statedMinutes(const Reader& r) {
  const std::vector<Token>& tokens = r.tokens();
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    const std::string_view w = tokens[i].folded;
    const std::string_view next =
        i + 1 < tokens.size() ? std::string_view(tokens[i + 1].folded) : std::string_view();
    if (const auto glued = gluedMinutes(tokens[i])) return *glued;
    if ((w == "half" || w == "media") &&
        (contains(kHourWords, next) ||
         (next == "an" && i + 2 < tokens.size() && contains(kHourWords, tokens[i + 2].folded)))) {
      return 30;
    }
    if (w == "quarter" || w == "cuarto") {
      for (std::size_t k = i + 1; k < std::min(tokens.size(), i + 4); ++k) {
        if (contains(kHourWords, tokens[k].folded)) return 15;
      }
    }
    std::optional<int> n = numberAt(r, i);
    if (!n && (w == "an" || w == "una" || w == "un" || w == "a") && contains(kHourWords, next)) {
      n = 1;
    }
    if (!n) continue;
    if (contains(kMinuteWords, next) || next == "m" || next == "late") return *n;
    if (contains(kHourWords, next) && *n <= kMaxMinutes / 60) return *n * 60;
    // "in 20", "en 10", "in like 15": a bare number after "in".
    std::size_t k = i;
    while (k > 0 && contains(kAbout, tokens[k - 1].folded)) --k;
    if (k > 0 &&
        (tokens[k - 1].folded == "in" || tokens[k - 1].folded == "en" ||
         tokens[k - 1].folded == "n") &&
        tokens[i].numeric) {
      return *n;
    }
  }
  return std::nullopt;
}

// Whether a time comes right after "be there in" / "omw" ("in 10", "in like 15", "in a few").
bool timeFollows(const Reader& r, std::size_t end) {
  const std::vector<Token>& tokens = r.tokens();
  std::size_t k = end;
  while (k < tokens.size() &&
         (contains(kAbout, tokens[k].folded) || tokens[k].folded == "a" ||
          tokens[k].folded == "an" || tokens[k].folded == "un" || tokens[k].folded == "una")) {
    ++k;
  }
  if (k >= tokens.size() || (k > 0 && r.clauseBreak(k - 1, k, false))) return false;
  return numberAt(r, k) || gluedMinutes(tokens[k]) || contains(kSoonWords, tokens[k].folded) ||
         contains(kHourWords, tokens[k].folded);
}

struct Finding {
  CallOutIntentKind kind = CallOutIntentKind::kNone;
  std::size_t firstToken = 0;
  std::size_t endToken = 0;
  std::vector<std::size_t> names;  // name spans, for a no-show
};

}  // namespace

std::string_view callOutIntentKindName(CallOutIntentKind kind) {
  switch (kind) {
    case CallOutIntentKind::kCoworkerNoShow:
      return "coworker_no_show";
    case CallOutIntentKind::kSelfCallOut:
      return "self_call_out";
    case CallOutIntentKind::kRunningLate:
      return "running_late";
    case CallOutIntentKind::kArrived:
      return "arrived";
    case CallOutIntentKind::kNone:
      break;
  }
  return "none";
}

CallOutIntentParser::CallOutIntentParser()
    : phrases_(kCallOutPhrases), harmless_(kCallOutHarmless) {}

CallOutIntent CallOutIntentParser::parse(std::string_view text,
                                         std::span<const NameCandidate> people) const {
  const Reader r(text, tokenize(text));
  const std::vector<Token>& tokens = r.tokens();
  const std::size_t n = tokens.size();

  std::vector<int> guarded(n, 0);
  for (const PhraseMatch& m : harmless_.find(tokens)) {
    for (std::size_t i = m.firstToken; i < m.endToken; ++i) guarded[i] |= m.tag;
  }
  const std::vector<PhraseMatch> raw = phrases_.find(tokens);
  std::vector<bool> inPhrase(n, false);
  std::vector<bool> sensitive(n, false);  // health and family words: never audited
  std::vector<PhraseMatch> matches;
  for (const PhraseMatch& m : raw) {
    bool harmless = false;
    for (std::size_t i = m.firstToken; i < m.endToken; ++i) {
      inPhrase[i] = true;
      if (m.tag == kHealthWord) sensitive[i] = true;
      harmless = harmless || (guarded[i] & bit(static_cast<Signal>(m.tag))) != 0;
    }
    if (!harmless) matches.push_back(m);
  }

  std::vector<Person> roster;
  roster.reserve(people.size());
  for (const NameCandidate& c : people) {
    Person p;
    for (Token& t : tokenize(c.name)) p.words.push_back(std::move(t.folded));
    roster.push_back(std::move(p));
  }
  const std::vector<NameSpan> names = findNames(r, roster, inPhrase);
  const Subjects subjects(r, names);

  std::vector<Finding> findings;
  std::vector<Finding> hints;  // from health words only
  for (const PhraseMatch& m : matches) {
    Finding f{CallOutIntentKind::kNone, m.firstToken, m.endToken, {}};
    const Who who = subjects.before(m.firstToken);
    switch (static_cast<Signal>(m.tag)) {
      case kNoShow:
      case kNoShowIfNamed:
        f.kind = CallOutIntentKind::kCoworkerNoShow;
        f.names = who.spans;
        if (f.names.empty()) f.names = subjects.after(m.endToken);
        if (m.tag == kNoShowIfNamed && f.names.empty()) continue;
        if (who.subject == Subject::kFirst && f.names.empty() && m.firstToken > 0 &&
            contains(kFirstPerson, tokens[m.firstToken - 1].folded)) {
          f.kind = CallOutIntentKind::kSelfCallOut;  // "I didn't make it in"
        }
        break;
      case kNobody:
        f.kind = CallOutIntentKind::kCoworkerNoShow;
        break;
      case kSelf:
      case kCalledOut:
        f.kind = who.subject == Subject::kFirst ? CallOutIntentKind::kSelfCallOut
                                                : CallOutIntentKind::kCoworkerNoShow;
        f.names = who.spans;
        break;
      case kLateIfTimed:
        if (!timeFollows(r, m.endToken)) continue;
        [[fallthrough]];
      case kLate:
        if (who.subject != Subject::kFirst) continue;  // someone else's lateness
        f.kind = CallOutIntentKind::kRunningLate;
        break;
      case kArrived:
        if (who.subject != Subject::kFirst) continue;  // "Jamal is here": not the sender
        f.kind = CallOutIntentKind::kArrived;
        break;
      case kHealthWord:
        f.kind = who.subject == Subject::kFirst ? CallOutIntentKind::kSelfCallOut
                                                : CallOutIntentKind::kCoworkerNoShow;
        f.names = who.spans;
        hints.push_back(std::move(f));
        continue;
      case kSignalCount:
        continue;
    }
    findings.push_back(std::move(f));
  }
  // A message that is only "here" (or "aqui", "here now").
  if (findings.empty() && n >= 1 && n <= 2 &&
      (tokens[0].folded == "here" || tokens[0].folded == "aqui" || tokens[0].folded == "aca") &&
      (n == 1 || tokens[1].folded == "now" || tokens[1].folded == "ya")) {
    findings.push_back(Finding{CallOutIntentKind::kArrived, 0, n, {}});
  }

  CallOutIntent intent;
  bool confirm = false;
  if (findings.empty()) {
    if (hints.empty()) return intent;
    findings.push_back(hints.front());  // a hint alone: ask whether it is a call-out
    findings.back().endToken = findings.back().firstToken;  // its words are never audited
    confirm = true;
  }

  // Kinds in text order; being at work goes with reporting a no-show and ends being late.
  const auto has = [&](CallOutIntentKind k) {
    return std::any_of(findings.begin(), findings.end(),
                       [k](const Finding& f) { return f.kind == k; });
  };
  std::vector<CallOutIntentKind> kinds;
  for (const Finding& f : findings) {
    if (f.kind == CallOutIntentKind::kArrived && has(CallOutIntentKind::kCoworkerNoShow)) continue;
    if (f.kind == CallOutIntentKind::kRunningLate && has(CallOutIntentKind::kArrived) &&
        !has(CallOutIntentKind::kCoworkerNoShow)) {
      continue;
    }
    if (!contains(kinds, f.kind)) kinds.push_back(f.kind);
  }
  intent.kind = kinds.front();

  // Words for the audit log: every counted phrase, health words cut out.
  std::vector<bool> audited(n, false);
  for (const Finding& f : findings) {
    if (!contains(kinds, f.kind)) continue;
    for (std::size_t i = f.firstToken; i < f.endToken; ++i) audited[i] = true;
  }
  for (std::size_t i = 0; i < n;) {
    if (!audited[i] || sensitive[i]) {
      ++i;
      continue;
    }
    std::size_t j = i;
    while (j + 1 < n && audited[j + 1] && !sensitive[j + 1]) ++j;
    intent.matched.emplace_back(r.written(i, j));
    i = j + 1;
  }

  // The people a no-show names, text order, once each.
  bool ambiguous = false;
  std::vector<std::size_t> spanOrder;
  for (const Finding& f : findings) {
    if (f.kind != CallOutIntentKind::kCoworkerNoShow) continue;
    spanOrder.insert(spanOrder.end(), f.names.begin(), f.names.end());
  }
  std::sort(spanOrder.begin(), spanOrder.end());
  spanOrder.erase(std::unique(spanOrder.begin(), spanOrder.end()), spanOrder.end());
  for (std::size_t s : spanOrder) {
    std::vector<std::string> ids;  // a roster may list one id twice
    for (std::size_t p : names[s].people) {
      if (!contains(ids, people[p].personId)) ids.push_back(people[p].personId);
    }
    ambiguous = ambiguous || ids.size() > 1;
    for (std::string& id : ids) {
      if (!contains(intent.personIds, id)) intent.personIds.push_back(std::move(id));
    }
  }

  if (contains(kinds, CallOutIntentKind::kRunningLate)) intent.minutesLate = statedMinutes(r);

  if (kinds.size() > 1) {
    intent.confidence = IntentConfidence::kLow;
    intent.question = "which";
  } else if (confirm) {
    intent.confidence = IntentConfidence::kLow;
    intent.question = "confirm";
  } else if (intent.kind == CallOutIntentKind::kCoworkerNoShow &&
             (ambiguous || intent.personIds.size() != 1)) {
    intent.confidence = IntentConfidence::kLow;
    intent.question = "who";
  }
  return intent;
}

}  // namespace atoms::sms
