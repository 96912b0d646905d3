#include "sms/text/out_of_scope.h"

#include <algorithm>
#include <array>
#include <vector>

#include "base/name_table.h"

namespace atoms::sms {

namespace {

constexpr int kAsksRanking = static_cast<int>(OutOfScopeKind::kRanking);
constexpr int kAsksContact = static_cast<int>(OutOfScopeKind::kContact);

constexpr PhrasePattern kPhrases[] = {
    // Ranking: a judgement of people, asked of the assistant.
    {"who|who's|whos|who_is|who_are|who_was ~3 best|worst|laziest|lazy|lazier|slowest|slower|"
     "fastest|faster|better|worse|weakest|strongest|hardest_working|least_reliable|"
     "most_reliable|least|favorite|favourite|top",
     kAsksRanking},
    {"best|worst|laziest|slowest|weakest|favorite|favourite|top|least_reliable|most_reliable "
     "employee|employees|worker|workers|cook|cooks|server|servers|cashier|cashiers|staff|"
     "person|people|coworker|coworkers|one_here|on_the_team|on_staff",
     kAsksRanking},
    {"rank|ranking|rate|rating|grade|grading|score|scoring|evaluate|judge ~2 staff|people|"
     "workers|employees|team|crew|everyone|everybody|coworkers|co_workers|servers|cooks|"
     "cashiers|them|him|her",
     kAsksRanking},
    {"compare|comparing|rank ~1 and|vs|versus|or|with|against", kAsksRanking},
    {"who should|do|would|can i|we|you? fire|cut|let_go|write_up|get_rid_of|replace", kAsksRanking},
    {"quien|quienes es|son el|la|los|las? mejor|mejores|peor|peores|mas_flojo|mas_floja|"
     "mas_lento|mas_lenta|mas_vago|mas_vaga",
     kAsksRanking},
    {"el|la mejor|peor empleado|empleada|trabajador|trabajadora|cocinero|cocinera|mesero|mesera|"
     "cajero|cajera|companero|companera",
     kAsksRanking},
    {"compara|comparar|compares|califica|calificar|clasifica|clasificar|evalua|evaluar ~2 "
     "empleados|trabajadores|personal|equipo|todos|ellos|ellas|companeros",
     kAsksRanking},
    {"a_quien debo|deberia|puedo despedir|correr", kAsksRanking},

    // Contact details of someone else.
    {"what's|whats|what_is|what_are ~3 number|numbers|phone|phone_number|cell|cell_number|"
     "digits|contact|contact_info|address|email",
     kAsksContact},
    {"give|send|text|share|tell|get|pass|forward|need|want|have ~4 number|phone|phone_number|"
     "cell|cell_number|digits|contact|contact_info|address|email",
     kAsksContact},
    {"number|phone|phone_number|cell|cell_number|contact|contact_info|address|email for|of",
     kAsksContact},
    {"dame|dime|pasame|mandame|manda|enviame|me_das|me_pasas|me_mandas|necesito|tienes|"
     "cual_es|cual_seria ~4 numero|telefono|celular|cel|whatsapp|direccion|correo",
     kAsksContact},
    {"numero|telefono|celular|cel|whatsapp|direccion|correo de|del", kAsksContact},
};

// A contact word right after one of these is the sender's own or no one's: "my new number",
// "text me at this number", "a number".
constexpr std::array<std::string_view, 18> kNotSomeoneElses = {
    "my",   "mi",   "mine", "your", "tu",    "new", "nuevo", "nueva", "this",
    "that", "esta", "este", "same", "wrong", "a",   "an",    "un",    "our"};

constexpr std::array<std::string_view, 16> kContactWords = {
    "number", "numbers",  "phone",   "cell", "digits",   "contact",   "address", "email",
    "numero", "telefono", "celular", "cel",  "whatsapp", "direccion", "correo",  "info"};

constexpr NameTable<OutOfScopeKind, 3> kNames{{{OutOfScopeKind::kNone, "none"},
                                               {OutOfScopeKind::kRanking, "ranking"},
                                               {OutOfScopeKind::kContact, "contact"}}};

bool isOneOf(std::span<const std::string_view> words, std::string_view w) {
  return std::find(words.begin(), words.end(), w) != words.end();
}

// A contact match whose contact word follows "my", "this", "a"...: not someone else's details.
bool aboutOwnOrNoOne(const std::vector<Token>& tokens, const PhraseMatch& m) {
  for (std::size_t i = m.firstToken; i < m.endToken; ++i) {
    if (!isOneOf(kContactWords, tokens[i].folded)) continue;
    if (i > 0 && isOneOf(kNotSomeoneElses, tokens[i - 1].folded)) return true;
  }
  return false;
}

}  // namespace

std::string_view outOfScopeKindName(OutOfScopeKind kind) { return nameOf(kNames, kind); }

OutOfScopeDetector::OutOfScopeDetector() : phrases_(kPhrases) {}

OutOfScopeKind OutOfScopeDetector::check(std::string_view body) const {
  const std::vector<Token> tokens = tokenize(body);
  for (const PhraseMatch& m : phrases_.find(tokens)) {
    if (m.tag == kAsksContact && aboutOwnOrNoOne(tokens, m)) continue;
    return static_cast<OutOfScopeKind>(m.tag);
  }
  return OutOfScopeKind::kNone;
}

}  // namespace atoms::sms
