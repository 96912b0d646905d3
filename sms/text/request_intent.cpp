#include "sms/text/request_intent.h"

#include <algorithm>
#include <array>
#include <cstddef>
#include <span>
#include <utility>

#include "sms/text/tokens.h"

namespace atoms::sms {

// Named inside the anonymous namespace: the unity build puts other parsers' helpers beside these.
namespace {
namespace request_text {

using std::chrono::days;
using std::chrono::local_days;
using std::chrono::weekday;
using std::chrono::year_month_day;

template <class Range>
bool isOneOf(const Range& words, std::string_view w) {
  return std::find(words.begin(), words.end(), w) != words.end();
}

struct NamedNumber {
  std::string_view word;
  unsigned number;
};

// Weekday names (c_encoding), English and Spanish, with their short forms and the misspellings
// that are more than one edit away. Full names also match with one typo (six letters or more).
constexpr std::array<NamedNumber, 14> kWeekdayNames = {{{"sunday", 0},
                                                        {"monday", 1},
                                                        {"tuesday", 2},
                                                        {"wednesday", 3},
                                                        {"thursday", 4},
                                                        {"friday", 5},
                                                        {"saturday", 6},
                                                        {"domingo", 0},
                                                        {"lunes", 1},
                                                        {"martes", 2},
                                                        {"miercoles", 3},
                                                        {"jueves", 4},
                                                        {"viernes", 5},
                                                        {"sabado", 6}}};
constexpr std::array<NamedNumber, 22> kWeekdayShort = {
    {{"sun", 0},      {"mon", 1},     {"tue", 2},      {"tues", 2},     {"wed", 3},
     {"weds", 3},     {"thu", 4},     {"thur", 4},     {"thurs", 4},    {"fri", 5},
     {"sat", 6},      {"wensday", 3}, {"wendsday", 3}, {"wenesday", 3}, {"wednsday", 3},
     {"thrusday", 4}, {"thurday", 4}, {"tuseday", 2},  {"saterday", 6}, {"satuday", 6},
     {"miercole", 3}, {"sabados", 6}}};

constexpr std::array<NamedNumber, 33> kMonthNames = {
    {{"january", 1},   {"jan", 1},      {"february", 2},  {"feb", 2},       {"march", 3},
     {"april", 4},     {"apr", 4},      {"june", 6},      {"jun", 6},       {"july", 7},
     {"jul", 7},       {"august", 8},   {"aug", 8},       {"september", 9}, {"sep", 9},
     {"sept", 9},      {"october", 10}, {"oct", 10},      {"november", 11}, {"nov", 11},
     {"december", 12}, {"dec", 12},     {"enero", 1},     {"ene", 1},       {"febrero", 2},
     {"marzo", 3},     {"abril", 4},    {"mayo", 5},      {"junio", 6},     {"julio", 7},
     {"agosto", 8},    {"octubre", 10}, {"diciembre", 12}}};
// Month words that are also ordinary words ("may I", "mar"): a month only beside a day number.
constexpr std::array<NamedNumber, 6> kMonthNamesBesideDay = {
    {{"may", 5}, {"mar", 3}, {"septiembre", 9}, {"setiembre", 9}, {"noviembre", 11}, {"dic", 12}}};

constexpr std::array<std::string_view, 9> kTomorrow = {
    "tomorrow", "tmrw", "tmr", "tmrow", "tomorow", "tommorow", "tommorrow", "2morrow", "2moro"};
constexpr std::array<std::string_view, 2> kToday = {"today", "hoy"};

// Words that join two dates into one stretch.
constexpr std::array<std::string_view, 9> kRangeWords = {"to",    "through", "thru", "till", "til",
                                                         "until", "al",      "a",    "hasta"};

// Words before a bare number that make it a day of the month ("the 14", "el 14", "on 14").
constexpr std::array<std::string_view, 7> kDayLead = {"the", "el", "on", "del", "al", "dia", "for"};

// Time-off words, and the ones that ask for time off even without a day ("I need a day off").
constexpr std::array<std::string_view, 8> kOffWords = {
    "off", "libre", "libres", "vacation", "vacations", "vacaciones", "pto", "permiso"};
constexpr std::array<std::string_view, 5> kOffStrongAlone = {"vacation", "vacations", "vacaciones",
                                                             "pto", "permiso"};
constexpr std::array<std::string_view, 10> kOffStrongBefore = {
    "day", "days", "time", "need", "want", "request", "requesting", "dia", "dias", "tiempo"};
// "off" that is not time off: "I get off at 5", "clocked off".
constexpr std::array<std::string_view, 22> kOffHarmlessBefore = {
    "get", "got",  "gets",   "getting", "clock", "clocked", "sign",   "signed",
    "log", "turn", "turned", "drop",    "kick",  "show",    "showed", "logged",
    "im",  "i'm",  "am",     "are",     "is",    "was"};

// Saying one cannot work, and the work words it goes with.
constexpr std::array<std::string_view, 8> kCannot = {"cant", "can't", "cannot",   "unable",
                                                     "wont", "won't", "couldn't", "couldnt"};
constexpr std::array<std::string_view, 16> kWorkWords = {
    "work",  "come",  "make",  "do", "be",    "cover", "trabajar", "ir",
    "venir", "hacer", "estar", "in", "there", "shift", "working",  "turno"};
// Further ways to say "not any more", for availability only.
constexpr std::array<std::string_view, 5> kNoLonger = {"dont", "don't", "anymore", "longer",
                                                       "unavailable"};
constexpr std::array<std::string_view, 6> kOnlyWords = {"only",      "just",       "solo",
                                                        "solamente", "unicamente", "nomas"};
constexpr std::array<std::string_view, 5> kAvailabilityWords = {
    "availability", "available", "disponibilidad", "disponible", "disponibles"};

// Words that tell the language of a request (folded).
constexpr std::array<std::string_view, 44> kSpanishWords = {
    "libre",   "libres",  "vacaciones", "permiso", "manana",   "mananas",    "tarde",     "tardes",
    "noche",   "noches",  "sabado",     "domingo", "lunes",    "martes",     "miercoles", "jueves",
    "viernes", "sabados", "domingos",   "puedo",   "necesito", "quiero",     "semana",    "fines",
    "dia",     "dias",    "el",         "del",     "al",       "los",        "las",       "hoy",
    "solo",    "ya",      "pasado",     "proxima", "trabajar", "disponible", "favor",     "por",
    "tengo",   "pedir",   "puede",      "hasta"};
constexpr std::array<std::string_view, 40> kEnglishWords = {
    "off",     "need",      "can't",    "cant",   "cannot", "saturday", "sunday",    "monday",
    "tuesday", "wednesday", "thursday", "friday", "the",    "weekend",  "weekends",  "mornings",
    "morning", "only",      "tomorrow", "next",   "week",   "work",     "available", "i",
    "please",  "day",       "days",     "have",   "can",    "anymore",  "evenings",  "nights",
    "night",   "want",      "get",      "my",     "this",   "and",      "to",        "do"};

struct PartWord {
  std::string_view word;
  DayPart part;
  bool plural;
};
constexpr std::array<PartWord, 11> kPartWords = {{{"morning", DayPart::kMorning, false},
                                                  {"mornings", DayPart::kMorning, true},
                                                  {"afternoon", DayPart::kAfternoon, false},
                                                  {"afternoons", DayPart::kAfternoon, true},
                                                  {"evening", DayPart::kEvening, false},
                                                  {"evenings", DayPart::kEvening, true},
                                                  {"night", DayPart::kNight, false},
                                                  {"nights", DayPart::kNight, true},
                                                  {"mananas", DayPart::kMorning, true},
                                                  {"tardes", DayPart::kAfternoon, true},
                                                  {"noches", DayPart::kNight, true}}};
// Spanish singular parts need an article ("por la tarde"; "llego tarde" is late, "mañana" alone
// is tomorrow).
constexpr std::array<PartWord, 3> kSpanishPartWords = {{{"manana", DayPart::kMorning, false},
                                                        {"tarde", DayPart::kAfternoon, false},
                                                        {"noche", DayPart::kNight, false}}};
constexpr std::array<std::string_view, 4> kSpanishPartLead = {"la", "las", "esta", "cada"};

// A date as written, resolved against an anchor day.
struct DateSpec {
  enum class Kind { kWeekday, kDay, kMonthDay, kFixed } kind = Kind::kFixed;
  unsigned weekdayNumber = 0;
  unsigned day = 0;
  unsigned month = 0;
  int year = 0;  // 0: none written
  local_days from{};
  local_days to{};
};

struct Mention {
  std::size_t first = 0;
  std::size_t end = 0;  // one past the last token
  DateSpec spec;
  std::optional<DayPart> part;  // "tonight"
};

struct Resolved {
  bool valid = true;
  local_days from{};
  local_days to{};
};

local_days dateOf(int y, unsigned m, unsigned d, bool& ok) {
  const year_month_day ymd{std::chrono::year{y}, std::chrono::month{m}, std::chrono::day{d}};
  ok = ymd.ok();
  return ok ? local_days{ymd} : local_days{};
}

// The first day on or after `anchor` (after it, when `strict`) that the spec names.
Resolved resolve(const DateSpec& s, local_days anchor, bool strict, local_days today) {
  Resolved r;
  switch (s.kind) {
    case DateSpec::Kind::kFixed:
      r.from = s.from;
      r.to = s.to;
      return r;
    case DateSpec::Kind::kWeekday: {
      const unsigned at = weekday{anchor}.c_encoding();
      unsigned ahead = (s.weekdayNumber + 7 - at) % 7;
      if (ahead == 0 && strict) ahead = 7;
      r.from = r.to = anchor + days{ahead};
      return r;
    }
    case DateSpec::Kind::kDay: {
      const year_month_day a{anchor};
      std::chrono::year_month ym{a.year(), a.month()};
      for (int tries = 0; tries < 3; ++tries, ym += std::chrono::months{1}) {
        bool ok = false;
        const local_days d =
            dateOf(static_cast<int>(ym.year()), static_cast<unsigned>(ym.month()), s.day, ok);
        if (ok && (d > anchor || (!strict && d == anchor))) {
          r.from = r.to = d;
          return r;
        }
      }
      r.valid = false;
      return r;
    }
    case DateSpec::Kind::kMonthDay: {
      const int anchorYear = static_cast<int>(year_month_day{anchor}.year());
      if (s.year != 0) {
        bool ok = false;
        const local_days d = dateOf(s.year, s.month, s.day, ok);
        r.valid = ok && d >= today;
        r.from = r.to = d;
        return r;
      }
      for (int y = anchorYear; y < anchorYear + 5; ++y) {
        bool ok = false;
        const local_days d = dateOf(y, s.month, s.day, ok);
        if (ok && (d > anchor || (!strict && d == anchor))) {
          r.from = r.to = d;
          return r;
        }
        if (!ok && !(s.month == 2 && s.day == 29)) break;
      }
      r.valid = false;
      return r;
    }
  }
  return r;
}

std::optional<unsigned> dayNumber(const Token& t) {
  std::string_view w = t.folded;
  if (!t.numeric) {
    if (w.size() < 3) return std::nullopt;
    const std::string_view suffix = w.substr(w.size() - 2);
    if (suffix != "st" && suffix != "nd" && suffix != "rd" && suffix != "th") return std::nullopt;
    w.remove_suffix(2);
    if (!std::all_of(w.begin(), w.end(), [](char c) { return c >= '0' && c <= '9'; })) {
      return std::nullopt;
    }
  }
  if (w.empty() || w.size() > 2) return std::nullopt;
  const unsigned n = static_cast<unsigned>(std::stoi(std::string(w)));
  if (n < 1 || n > 31) return std::nullopt;
  return n;
}

bool isOrdinal(const Token& t) { return !t.numeric && dayNumber(t).has_value(); }

std::optional<unsigned> lookup(std::span<const NamedNumber> table, std::string_view w) {
  for (const NamedNumber& n : table) {
    if (n.word == w) return n.number;
  }
  return std::nullopt;
}

std::optional<unsigned> monthOf(const Token& t, bool besideDay) {
  if (auto m = lookup(kMonthNames, t.folded)) return m;
  if (besideDay) return lookup(kMonthNamesBesideDay, t.folded);
  return std::nullopt;
}

struct WeekdayWord {
  unsigned number = 0;
  bool plural = false;
};

// A weekday name: exact, short, a known misspelling, or one typo from a full name (six letters
// or more). Plural with a final "s" ("saturdays", "domingos").
std::optional<WeekdayWord> weekdayOf(std::string_view w) {
  if (auto n = lookup(kWeekdayNames, w)) return WeekdayWord{*n, false};
  if (auto n = lookup(kWeekdayShort, w)) return WeekdayWord{*n, w == "sabados"};
  if (w.size() > 5 && w.back() == 's') {
    const std::string_view single = w.substr(0, w.size() - 1);
    if (auto n = lookup(kWeekdayNames, single)) return WeekdayWord{*n, true};
  }
  if (w.size() >= 6) {
    for (const NamedNumber& n : kWeekdayNames) {
      if (n.word.size() >= 6 && withinOneEdit(w, n.word)) return WeekdayWord{n.number, false};
    }
    if (w.back() == 's') {
      const std::string_view single = w.substr(0, w.size() - 1);
      for (const NamedNumber& n : kWeekdayNames) {
        if (n.word.size() >= 6 && withinOneEdit(single, n.word)) {
          return WeekdayWord{n.number, true};
        }
      }
    }
  }
  return std::nullopt;
}

std::optional<PartWord> partOf(const std::vector<Token>& tokens, std::size_t i) {
  const std::string_view w = tokens[i].folded;
  for (const PartWord& p : kPartWords) {
    if (p.word == w) return p;
  }
  // One typo ("mornigs"); a final "s" keeps it plural ("morning" is one edit from "mornings").
  for (const PartWord& p : kPartWords) {
    if (w.size() >= 6 && p.word.size() >= 6 && p.plural == (w.back() == 's') &&
        withinOneEdit(w, p.word)) {
      return p;
    }
  }
  if (i > 0 && isOneOf(kSpanishPartLead, tokens[i - 1].folded)) {
    for (const PartWord& p : kSpanishPartWords) {
      if (p.word == w) return p;
    }
  }
  return std::nullopt;
}

// The text between two tokens, as written.
std::string_view between(std::string_view text, const std::vector<Token>& tokens, std::size_t a,
                         std::size_t b) {
  return text.substr(tokens[a].end, tokens[b].begin - tokens[a].end);
}

bool hasDash(std::string_view s) {
  return s.find('-') != std::string_view::npos ||
         s.find("\xe2\x80\x93") != std::string_view::npos ||  // en dash
         s.find("\xe2\x80\x94") != std::string_view::npos;    // em dash
}

class Reader {
 public:
  Reader(std::string_view text, const RequestCalendar& calendar)
      : text_(text), cal_(calendar), tokens_(tokenize(text)) {}

  RequestIntent read();

 private:
  const Token& at(std::size_t i) const { return tokens_[i]; }
  bool word(std::size_t i, std::string_view w) const {
    return i < tokens_.size() && tokens_[i].folded == w;
  }
  void match(std::size_t first, std::size_t end) {
    for (std::size_t i = first; i < end && i < tokens_.size(); ++i) {
      intent_.matched.push_back(tokens_[i].folded);
    }
  }
  void scan();
  std::optional<Mention> dateAt(std::size_t i) const;
  bool onlyWeekdayDates() const;
  void decide();
  void decideTimeOff();
  void decideAvailability();

  std::string_view text_;
  RequestCalendar cal_;
  std::vector<Token> tokens_;
  RequestIntent intent_;

  std::vector<Mention> dates_;
  std::optional<DayPart> singlePart_;
  std::optional<DayPart> pluralPart_;
  std::vector<unsigned> pluralWeekdays_;
  bool off_ = false;
  bool offAlone_ = false;  // asks for time off even without a day
  bool cannot_ = false;    // "can't"/"no puedo" said of work
  bool noLonger_ = false;  // "anymore", "ya no", "don't"
  bool only_ = false;
  bool availabilityWord_ = false;
  std::vector<std::size_t> markerTokens_;
};

std::optional<Mention> Reader::dateAt(std::size_t i) const {
  const std::size_t n = tokens_.size();
  const local_days today = cal_.today;
  Mention m;
  m.first = i;
  const Token& t = at(i);
  // 12/14, 12/14/26, 14/12/2026
  if (t.numeric && t.folded.size() <= 2 && i + 1 < n && at(i + 1).numeric &&
      at(i + 1).folded.size() <= 2 && between(text_, tokens_, i, i + 1) == "/") {
    unsigned a = static_cast<unsigned>(std::stoi(t.folded));
    unsigned b = static_cast<unsigned>(std::stoi(at(i + 1).folded));
    if (a > 12) std::swap(a, b);
    m.spec.kind = DateSpec::Kind::kMonthDay;
    m.spec.month = a;
    m.spec.day = b;
    m.end = i + 2;
    if (i + 2 < n && at(i + 2).numeric && between(text_, tokens_, i + 1, i + 2) == "/") {
      const std::string& y = at(i + 2).folded;
      if (y.size() == 2) m.spec.year = 2000 + std::stoi(y);
      if (y.size() == 4) m.spec.year = std::stoi(y);
      m.end = i + 3;
    }
    return m;
  }
  const auto yearAt = [&](std::size_t j) -> int {
    if (j < n && at(j).numeric && at(j).folded.size() == 4) return std::stoi(at(j).folded);
    return 0;
  };
  // Dec 14, December 14th, diciembre 14
  if (i + 1 < n) {
    if (auto day = dayNumber(at(i + 1))) {
      if (auto month = monthOf(t, true)) {
        m.spec = DateSpec{DateSpec::Kind::kMonthDay, 0, *day, *month, yearAt(i + 2), {}, {}};
        m.end = m.spec.year ? i + 3 : i + 2;
        return m;
      }
    }
  }
  // 14 Dec, 14th of December, 14 de diciembre
  if (auto day = dayNumber(t)) {
    std::size_t j = i + 1;
    if (word(j, "of") || word(j, "de")) ++j;
    if (j < n) {
      if (auto month = monthOf(at(j), true)) {
        m.spec = DateSpec{DateSpec::Kind::kMonthDay, 0, *day, *month, 0, {}, {}};
        std::size_t k = j + 1;
        if (word(k, "de")) ++k;
        m.spec.year = yearAt(k);
        m.end = m.spec.year ? k + 1 : j + 1;
        return m;
      }
    }
    // the 14th, el 14, 14th
    if (isOrdinal(t) || (i > 0 && isOneOf(kDayLead, at(i - 1).folded))) {
      m.spec.kind = DateSpec::Kind::kDay;
      m.spec.day = *day;
      m.end = i + 1;
      return m;
    }
  }
  if (auto wd = weekdayOf(t.folded)) {
    const bool spanishPlural = i > 0 && word(i - 1, "los");
    if (wd->plural || spanishPlural) return std::nullopt;  // a standing change (scan())
    m.spec.kind = DateSpec::Kind::kWeekday;
    m.spec.weekdayNumber = wd->number;
    m.end = i + 1;
    return m;
  }
  const auto fixed = [&](local_days from, local_days to, std::size_t end) {
    m.spec.kind = DateSpec::Kind::kFixed;
    m.spec.from = from;
    m.spec.to = to;
    m.end = end;
    return m;
  };
  if (isOneOf(kTomorrow, t.folded)) return fixed(today + days{1}, today + days{1}, i + 1);
  if (t.folded == "manana" && !(i > 0 && isOneOf(kSpanishPartLead, at(i - 1).folded))) {
    if (i > 0 && word(i - 1, "pasado")) {
      m.first = i - 1;
      return fixed(today + days{2}, today + days{2}, i + 1);
    }
    return fixed(today + days{1}, today + days{1}, i + 1);
  }
  if (isOneOf(kToday, t.folded)) return fixed(today, today, i + 1);
  if (t.folded == "tonight" || t.folded == "2nite" || t.folded == "tonite") {
    m.part = DayPart::kNight;
    return fixed(today, today, i + 1);
  }
  if (t.folded == "noche" && i > 0 && word(i - 1, "esta")) {
    m.first = i - 1;
    m.part = DayPart::kNight;
    return fixed(today, today, i + 1);
  }
  const unsigned todayNumber = weekday{today}.c_encoding();
  const local_days saturday = today + days{(6 + 7 - todayNumber) % 7};
  const bool next = i > 0 && (word(i - 1, "next") || word(i - 1, "proximo"));
  // this weekend, next weekend, este fin de semana, el próximo fin de semana
  if (t.folded == "weekend" || (t.folded == "fin" && word(i + 1, "de") && word(i + 2, "semana"))) {
    const local_days sat = todayNumber == 0 ? today - days{1} : saturday;
    const local_days from = next ? sat + days{7} : std::max(sat, today);
    return fixed(from, sat + days{next ? 8 : 1}, t.folded == "fin" ? i + 3 : i + 1);
  }
  // next week, la próxima semana, la semana que viene, this week, esta semana
  const auto weekStartOf = [&](local_days d) {
    return d - days{(weekday{d}.c_encoding() + 7 - cal_.workweekStart % 7) % 7};
  };
  if (t.folded == "week" || t.folded == "semana") {
    const bool spanishNext = word(i + 1, "que") && word(i + 2, "viene");
    const bool after = word(i + 1, "proxima") || word(i + 1, "entrante");
    const bool thisWeek = i > 0 && (word(i - 1, "this") || word(i - 1, "esta"));
    const bool nextWeek = i > 0 && (word(i - 1, "next") || word(i - 1, "proxima"));
    if (nextWeek || spanishNext || after) {
      const local_days start = weekStartOf(today) + days{7};
      return fixed(start, start + days{6}, spanishNext ? i + 3 : (after ? i + 2 : i + 1));
    }
    if (thisWeek) return fixed(today, weekStartOf(today) + days{6}, i + 1);
  }
  return std::nullopt;
}

void Reader::scan() {
  const std::size_t n = tokens_.size();
  for (std::size_t i = 0; i < n; ++i) {
    const std::string& w = at(i).folded;
    if (auto mention = dateAt(i)) {
      if (mention->part) singlePart_ = mention->part;
      dates_.push_back(*mention);
      match(mention->first, mention->end);
      i = mention->end - 1;
      continue;
    }
    // A bare number right after a date and a dash or a range word: "Dec 14-16", "del 14 al 16".
    if (!dates_.empty() && dates_.back().end <= i && at(i).numeric && dayNumber(at(i)) &&
        dates_.back().end > 0 && dates_.back().end + 1 >= i) {
      const std::size_t prev = dates_.back().end - 1;
      const bool joined = hasDash(between(text_, tokens_, prev, i)) ||
                          (prev + 1 < i && isOneOf(kRangeWords, at(prev + 1).folded));
      if (joined) {
        Mention m;
        m.first = i;
        m.end = i + 1;
        m.spec.kind = DateSpec::Kind::kDay;
        m.spec.day = *dayNumber(at(i));
        dates_.push_back(m);
        match(i, i + 1);
        continue;
      }
    }
    if (auto wd = weekdayOf(w); wd && (wd->plural || (i > 0 && word(i - 1, "los")))) {
      pluralWeekdays_.push_back(wd->number);
      match(i, i + 1);
      continue;
    }
    if (w == "weekends" || (w == "fines" && word(i + 1, "de") && word(i + 2, "semana"))) {
      pluralWeekdays_.push_back(0);
      pluralWeekdays_.push_back(6);
      match(i, w == "fines" ? i + 3 : i + 1);
      continue;
    }
    if (w == "weekdays" || (w == "entre" && word(i + 1, "semana"))) {
      for (unsigned d = 1; d <= 5; ++d) pluralWeekdays_.push_back(d);
      match(i, w == "entre" ? i + 2 : i + 1);
      continue;
    }
    if (auto part = partOf(tokens_, i)) {
      const bool shifts = word(i + 1, "shifts") || word(i + 1, "turnos");
      if (part->plural || shifts) {
        pluralPart_ = part->part;
      } else {
        singlePart_ = part->part;
      }
      match(i, i + 1);
      continue;
    }
    if (isOneOf(kOffWords, w)) {
      const bool harmless =
          (w == "off" && i > 0 && isOneOf(kOffHarmlessBefore, at(i - 1).folded)) ||
          (w == "off" && word(i + 1, "at"));
      if (!harmless) {
        off_ = true;
        if (isOneOf(kOffStrongAlone, w) || (i > 0 && isOneOf(kOffStrongBefore, at(i - 1).folded))) {
          offAlone_ = true;
        }
        markerTokens_.push_back(i);
      }
      continue;
    }
    const bool canNot = w == "can" && word(i + 1, "not");
    const bool noPuedo = w == "no" && (word(i + 1, "puedo") || word(i + 1, "podre") ||
                                       word(i + 1, "voy") || word(i + 1, "podemos"));
    if (isOneOf(kCannot, w) || canNot || noPuedo) {
      for (std::size_t j = i + 1; j < n && j <= i + 4; ++j) {
        if (isOneOf(kWorkWords, at(j).folded)) cannot_ = true;
      }
      noLonger_ = true;
      markerTokens_.push_back(i);
      continue;
    }
    if (w == "unavailable") cannot_ = true;
    if (isOneOf(kNoLonger, w) || (w == "ya" && word(i + 1, "no")) ||
        (w == "no" && (word(i + 1, "more") || word(i + 1, "longer")))) {
      noLonger_ = true;
      markerTokens_.push_back(i);
      continue;
    }
    if (isOneOf(kOnlyWords, w) || (w == "nada" && word(i + 1, "mas"))) {
      only_ = true;
      markerTokens_.push_back(i);
      continue;
    }
    if (isOneOf(kAvailabilityWords, w)) {
      availabilityWord_ = true;
      // "not available Saturday", "no estoy disponible el sábado": cannot work then.
      if ((i > 0 && word(i - 1, "not")) || (i > 1 && word(i - 2, "no"))) {
        cannot_ = true;
        noLonger_ = true;
      }
      markerTokens_.push_back(i);
    }
  }
}

void Reader::decideTimeOff() {
  intent_.kind = RequestKind::kTimeOff;
  if (singlePart_) intent_.part = *singlePart_;
  // Resolve in text order; a date joined to the one before by a dash or a range word runs from it.
  struct Stretch {
    local_days from;
    local_days to;
  };
  std::vector<Stretch> stretches;
  bool invalid = false;
  for (std::size_t k = 0; k < dates_.size(); ++k) {
    const Mention& m = dates_[k];
    bool joined = false;
    if (k > 0 && !stretches.empty()) {
      const Mention& prev = dates_[k - 1];
      if (prev.end <= m.first) {
        const std::string_view gap = between(text_, tokens_, prev.end - 1, m.first);
        joined = hasDash(gap);
        for (std::size_t j = prev.end; j < m.first; ++j) {
          if (isOneOf(kRangeWords, at(j).folded)) joined = true;
        }
      }
    }
    if (joined) {
      const Resolved r = resolve(m.spec, stretches.back().from, false, cal_.today);
      if (!r.valid) {
        invalid = true;
        continue;
      }
      stretches.back().to = std::max(stretches.back().to, r.to);
      continue;
    }
    const Resolved r =
        resolve(m.spec, cal_.today, m.spec.kind == DateSpec::Kind::kWeekday, cal_.today);
    if (!r.valid) {
      invalid = true;
      continue;
    }
    stretches.push_back({r.from, r.to});
  }
  if (invalid || stretches.empty()) {
    intent_.question = "which_day";
    return;
  }
  std::sort(stretches.begin(), stretches.end(),
            [](const Stretch& a, const Stretch& b) { return a.from < b.from; });
  Stretch all = stretches.front();
  for (const Stretch& s : stretches) {
    if (s.from > all.to + days{1}) {
      intent_.question = "one_range";
      return;
    }
    all.to = std::max(all.to, s.to);
  }
  if (all.to < all.from) {
    intent_.question = "which_day";
    return;
  }
  intent_.from = all.from;
  intent_.to = all.to;
  if ((all.to - all.from).count() + 1 > kMaxTimeOffDays) intent_.question = "too_long";
}

void Reader::decideAvailability() {
  intent_.kind = RequestKind::kAvailability;
  std::vector<unsigned> weekdays = pluralWeekdays_;
  std::sort(weekdays.begin(), weekdays.end());
  weekdays.erase(std::unique(weekdays.begin(), weekdays.end()), weekdays.end());
  intent_.weekdays = std::move(weekdays);
  intent_.part = pluralPart_.value_or(singlePart_.value_or(DayPart::kAllDay));
  if (pluralWeekdays_.empty() && !pluralPart_ && !singlePart_) {
    intent_.question = "which_times";
    return;
  }
  if (only_) {
    intent_.change = AvailabilityChange::kOnly;
  } else if (noLonger_) {
    intent_.change = AvailabilityChange::kCannot;
  } else {
    intent_.question = "can_or_cannot";
  }
}

bool Reader::onlyWeekdayDates() const {
  return !dates_.empty() && std::all_of(dates_.begin(), dates_.end(), [](const Mention& m) {
    return m.spec.kind == DateSpec::Kind::kWeekday;
  });
}

void Reader::decide() {
  // Weekdays said with a standing part or "only": "can't do Saturday mornings", "I can only work
  // Saturday and Sunday": a change of the weekly windows on those days.
  if (!off_ && onlyWeekdayDates() && (pluralPart_ || only_)) {
    for (const Mention& m : dates_) pluralWeekdays_.push_back(m.spec.weekdayNumber);
    decideAvailability();
    return;
  }
  // Time off: a day and "off" or "can't work"; or "a day off" without one (asked).
  if (!dates_.empty() && (off_ || cannot_)) {
    decideTimeOff();
    // Today, or "can't come in tomorrow" without "off": a call-out (the desk looks for cover now),
    // not a request that waits for the manager.
    const bool soon = intent_.from && (*intent_.from <= cal_.today + days{off_ ? 0 : 1});
    if (intent_.question.empty() && soon && intent_.to <= cal_.today + days{off_ ? 0 : 1}) {
      intent_ = RequestIntent{};
    }
    return;
  }
  const bool standing = !pluralWeekdays_.empty() || pluralPart_.has_value();
  if (standing && (only_ || noLonger_ || availabilityWord_ || off_)) {
    decideAvailability();
    return;
  }
  if (offAlone_) {
    intent_.kind = RequestKind::kTimeOff;
    intent_.question = "which_day";
    return;
  }
  if (availabilityWord_ && (noLonger_ || only_ || word(0, "my") || singlePart_)) {
    decideAvailability();
    return;
  }
}

RequestIntent Reader::read() {
  if (tokens_.empty() || tokens_.size() > 80) return intent_;
  scan();
  decide();
  if (intent_.kind == RequestKind::kNone) return RequestIntent{};
  for (std::size_t i : markerTokens_) intent_.matched.push_back(at(i).folded);
  int spanish = 0;
  int english = 0;
  for (const Token& t : tokens_) {
    spanish += isOneOf(kSpanishWords, t.folded) ? 1 : 0;
    english += isOneOf(kEnglishWords, t.folded) ? 1 : 0;
  }
  if (spanish != english) intent_.language = spanish > english ? "es" : "en";
  return intent_;
}

}  // namespace request_text
}  // namespace

std::string_view requestKindName(RequestKind kind) {
  switch (kind) {
    case RequestKind::kNone:
      return "none";
    case RequestKind::kTimeOff:
      return "time_off";
    case RequestKind::kAvailability:
      return "availability";
  }
  return "none";
}

std::string_view dayPartName(DayPart part) {
  switch (part) {
    case DayPart::kAllDay:
      return "all_day";
    case DayPart::kMorning:
      return "morning";
    case DayPart::kAfternoon:
      return "afternoon";
    case DayPart::kEvening:
      return "evening";
    case DayPart::kNight:
      return "night";
  }
  return "all_day";
}

MinuteSpan dayPartSpan(DayPart part) {
  switch (part) {
    case DayPart::kAllDay:
      return {0, 1440};
    case DayPart::kMorning:
      return {300, 720};
    case DayPart::kAfternoon:
      return {720, 1020};
    case DayPart::kEvening:
      return {1020, 1440};
    case DayPart::kNight:
      return {1320, 1800};
  }
  return {0, 1440};
}

std::string_view availabilityChangeName(AvailabilityChange change) {
  return change == AvailabilityChange::kOnly ? "only" : "cannot";
}

RequestIntent parseRequestIntent(std::string_view text, const RequestCalendar& calendar) {
  return request_text::Reader(text, calendar).read();
}

}  // namespace atoms::sms
