#include "sms/text/checklist_intent.h"

#include <cctype>
#include <vector>

#include "sms/text/tokens.h"

namespace atoms::sms {
namespace {

bool isDoneWord(const std::string& w) {
  return w == "done" || w == "listo" || w == "lista" || w == "hecho" || w == "hecha" ||
         w == "terminado" || w == "terminada";
}

bool isTempWord(const std::string& w) { return w == "temp" || w == "temperatura"; }

// The reading that starts at `at` in `text` (a digit): [-]digits[.digit][ ][°|º][F|C].
std::optional<ChecklistIntent> reading(std::string_view text, std::size_t at) {
  ChecklistIntent r;
  r.kind = ChecklistIntent::Kind::kTemperature;
  const bool negative = at > 0 && text[at - 1] == '-';
  long whole = 0;
  std::size_t i = at;
  while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) {
    whole = whole * 10 + (text[i] - '0');
    if (whole > 999) return std::nullopt;
    ++i;
  }
  int tenth = 0;
  if (i + 1 < text.size() && (text[i] == '.' || text[i] == ',') &&
      std::isdigit(static_cast<unsigned char>(text[i + 1]))) {
    tenth = text[i + 1] - '0';
    i += 2;
    while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) ++i;
  }
  while (i < text.size() && text[i] == ' ') ++i;
  // U+00B0 DEGREE SIGN and U+00BA MASCULINE ORDINAL (often typed for it) in UTF-8.
  if (i + 1 < text.size() && text[i] == '\xc2' && (text[i + 1] == '\xb0' || text[i + 1] == '\xba'))
    i += 2;
  if (i < text.size()) {
    const char u = static_cast<char>(std::toupper(static_cast<unsigned char>(text[i])));
    const bool alone =
        i + 1 >= text.size() || !std::isalpha(static_cast<unsigned char>(text[i + 1]));
    if ((u == 'F' || u == 'C') && alone) r.unit = u;
  }
  r.tenths = static_cast<int>(whole * 10 + tenth) * (negative ? -1 : 1);
  return r;
}

}  // namespace

std::optional<ChecklistIntent> parseChecklistIntent(std::string_view text) {
  const std::vector<Token> tokens = tokenize(text);
  if (tokens.size() < 2) return std::nullopt;
  const bool done = isDoneWord(tokens[0].folded);
  if (!done && !isTempWord(tokens[0].folded)) return std::nullopt;

  std::string name;
  std::size_t i = 1;
  for (; i < tokens.size(); ++i) {
    if (!done && std::isdigit(static_cast<unsigned char>(tokens[i].folded[0]))) break;
    if (!name.empty()) name += ' ';
    name += tokens[i].folded;
  }
  if (name.empty()) return std::nullopt;
  if (done) return ChecklistIntent{ChecklistIntent::Kind::kDone, std::move(name), 0, 0};
  if (i == tokens.size()) return std::nullopt;  // TEMP without a reading
  auto r = reading(text, tokens[i].begin);
  if (!r) return std::nullopt;
  r->name = std::move(name);
  return r;
}

int toTenthsFahrenheit(int tenths, char unit) {
  if (unit != 'C') return tenths;
  const int scaled = tenths * 9;  // tenths of C * 9/5 + 320
  const int half = scaled >= 0 ? 2 : -2;
  return (scaled + half) / 5 + 320;
}

}  // namespace atoms::sms
