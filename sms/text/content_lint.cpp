#include "sms/text/content_lint.h"

#include <algorithm>

namespace atoms::sms {

namespace {

constexpr int tag(LintCategory c) { return static_cast<int>(c); }

constexpr int kDiscipline = tag(LintCategory::kDiscipline);
constexpr int kHealth = tag(LintCategory::kHealth);
constexpr int kPrivateLife = tag(LintCategory::kPrivateLife);
constexpr int kRanking = tag(LintCategory::kRanking);
constexpr int kPrediction = tag(LintCategory::kPrediction);
constexpr int kHumanClaim = tag(LintCategory::kHumanClaim);
constexpr int kSecrecy = tag(LintCategory::kSecrecy);

// The rules. Patterns are on folded words (lowercase, accents removed, hyphens split words).
// English first, then the Spanish a bilingual site's templates may use.
constexpr PhrasePattern kRules[] = {
    // Discipline and blame.
    {"write|writes|writing|wrote|written up", kDiscipline},
    {"writeup*", kDiscipline},
    {"write|writing you|him|her|them|somebody|someone up", kDiscipline},
    {"written|verbal|final|formal|last|first|second|official warning|warnings", kDiscipline},
    {"been|was|were|already warned", kDiscipline},
    {"warned you|him|her|them", kDiscipline},
    {"disciplin*", kDiscipline},
    {"fired", kDiscipline},
    {"fire|firing you|him|her|them", kDiscipline},
    {"terminat*", kDiscipline},
    {"dismissal|dismissed", kDiscipline},
    {"suspend|suspended|suspension", kDiscipline},
    {"penalt*|penaliz*|penalis*", kDiscipline},
    {"reprimand*", kDiscipline},
    {"infraction*", kDiscipline},
    {"on probation", kDiscipline},
    {"no show|shows|showed|showing", kDiscipline},
    {"ncns", kDiscipline},
    {"didn't|didnt|did_not|never show|showed|turn_up|turned_up", kDiscipline},
    {"first|second|third|last|final strike|strikes", kDiscipline},
    {"three|3 strikes", kDiscipline},
    {"dock|docked|docking ~2 pay|wage|wages|hours", kDiscipline},
    {"attendance point|points|problem|problems|issue|issues|record", kDiscipline},
    {"unexcused", kDiscipline},
    {"consequence|consequences", kDiscipline},
    {"lazy|unreliable|irresponsible|careless|tardy|tardiness|negligent|negligence", kDiscipline},
    {"let the? team|us|everyone|everybody|crew|me|them|customers|guests|others down", kDiscipline},
    {"your|his|her|their|someone's|somebody's fault|faults", kDiscipline},
    {"blame|blamed|blaming", kDiscipline},
    {"get|got|getting you|him|her|them? in trouble", kDiscipline},
    {"be in trouble", kDiscipline},
    {"late again", kDiscipline},
    {"always|keeps|constantly late", kDiscipline},
    {"despedido|despedidos|amonestacion|amonestaciones|sancion|sanciones|sancionado*", kDiscipline},
    {"falta grave", kDiscipline},

    // Health.
    {"sick|sickness|sickly|unwell", kHealth},
    {"fell|feeling|feels|felt|is|was|been|being|got ill", kHealth},
    {"illness*", kHealth},
    {"doctor|doctors|doctor's|dentist*|hospital*|clinic|clinics|er_visit", kHealth},
    {"surgery|surgeries|surgical", kHealth},
    {"pregnan*|maternity|miscarriage", kHealth},
    {"injur*", kHealth},
    {"medical|medicat*|medicine|prescription*|diagnos*|symptom*", kHealth},
    {"disease*|infection*|infected|covid*|flu|fever|cancer|chemo*|contagious|quarantin*", kHealth},
    {"therapy|therapist|counselling|counseling|rehab|physio*", kHealth},
    {"mental health", kHealth},
    {"depress*|anxiety|panic_attack*|migraine*|concussion|stitches", kHealth},
    {"tested positive", kHealth},
    {"broke|broken|sprained ~1 arm|leg|wrist|ankle|hand|foot|finger|back", kHealth},
    {"disabilit*", kHealth},
    {"health issue|issues|problem|problems|condition|conditions|reasons|scare", kHealth},
    {"enferm*|medico|medica|embarazad*|cirugia|lesion|lesionado*|incapacidad", kHealth},

    // Private life.
    {"family|personal emergency|matter|matters|issue|issues|problem|problems|reasons|situation",
     kPrivateLife},
    {"divorc*|custody|funeral|bereavement|passed_away", kPrivateLife},
    {"court date|hearing|case|appearance", kPrivateLife},
    {"arrest*|jail|prison|probation_officer", kPrivateLife},
    {"immigration|deport*|undocumented|green_card|visa_status", kPrivateLife},
    {"religio*", kPrivateLife},
    {"childcare|babysitter|daycare", kPrivateLife},
    {"boyfriend|girlfriend", kPrivateLife},
    {"problemas|asuntos familiares|personales", kPrivateLife},

    // Rankings and comparisons of people.
    {"best|worst|top|bottom|weakest|strongest|slowest|laziest|lowest|highest|poorest|star "
     "performer|performers|performing|employee|employees|worker|workers|staffer|"
     "staffers|cook|cooks|server|servers|team_member|team_members|person_on_the_team",
     kRanking},
    {"low|high|under|over performer|performers|performing", kRanking},
    {"rank|ranks|ranked|ranking|rankings", kRanking},
    {"leaderboard*|scoreboard*", kRanking},
    {"score|scores|scored|scoring|scorecard*", kRanking},
    {"rating|ratings", kRanking},
    {"employee|worker|staff of the month|week|year", kRanking},
    {"more|less|most|least reliable|dependable|productive|efficient|punctual|useful|valuable",
     kRanking},
    {"underperform*|outperform*", kRanking},
    {"better|worse|faster|slower than ~2 you|him|her|them|everyone|everybody|others|the_rest",
     kRanking},
    {"mejor|peor empleado|empleada|trabajador|trabajadora", kRanking},

    // Predictions about a person.
    {"likely|going|about|planning|expected|expecting|thinking|gonna|might|may|could|will|"
     "probably ~2 quit|quitting|resign|resigning|walk_out",
     kPrediction},
    {"flight risk", kPrediction},

    // A claim or implication of being human.
    {"i'm|im|i_am|this_is|it's|its|you're_talking_to|you_are_talking_to|you're_texting|"
     "you_are_texting|you're_chatting_with|you_are_chatting_with a? real|actual|live? "
     "person|human|human_being|guy|woman|man|lady",
     kHumanClaim},
    {"not|never|isn't|isnt|no a|an? bot|bots|robot|machine|ai|computer|program|automated|"
     "automatic",
     kHumanClaim},
    {"real|actual person|human here", kHumanClaim},
    {"this_is|it's|its your manager|boss|supervisor|gm", kHumanClaim},
    {"soy una? persona|humano|humana", kHumanClaim},

    // Asking the reader to keep something from the manager of record.
    {"keep this|it|that between us|ourselves|you_and_me", kSecrecy},
    {"keep this|it|that to yourself|quiet|secret|private|hush", kSecrecy},
    {"between you and me", kSecrecy},
    {"off the record", kSecrecy},
    {"don't|dont|do_not|never tell|mention|show ~2 manager|managers|boss|supervisor|anyone|"
     "anybody|hr",
     kSecrecy},
    {"don't|dont|do_not|never let ~2 manager|managers|boss|supervisor|anyone|anybody|hr know",
     kSecrecy},
};

}  // namespace

std::string_view lintCategoryName(LintCategory category) {
  switch (category) {
    case LintCategory::kDiscipline:
      return "discipline";
    case LintCategory::kHealth:
      return "health";
    case LintCategory::kPrivateLife:
      return "private_life";
    case LintCategory::kRanking:
      return "ranking";
    case LintCategory::kPrediction:
      return "prediction";
    case LintCategory::kHumanClaim:
      return "human_claim";
    case LintCategory::kSecrecy:
      return "secrecy";
  }
  return "discipline";
}

ContentLint::ContentLint() : rules_(kRules) {}

std::vector<LintFinding> ContentLint::check(std::string_view text) const {
  const std::vector<Token> tokens = tokenize(text);
  std::vector<LintFinding> findings;
  for (const PhraseMatch& m : rules_.find(tokens)) {
    const std::size_t begin = tokens[m.firstToken].begin;
    const std::size_t end = tokens[m.endToken - 1].end;
    const auto category = static_cast<LintCategory>(m.tag);
    // One finding per category and span: overlapping rules of one category say the same thing.
    const bool covered = std::any_of(findings.begin(), findings.end(), [&](const LintFinding& f) {
      return f.category == category && f.begin <= begin &&
             begin + (end - begin) <= f.begin + f.length;
    });
    if (covered) continue;
    findings.push_back(LintFinding{category, begin, end - begin,
                                   std::string(text.substr(begin, end - begin)), m.pattern});
  }
  std::stable_sort(findings.begin(), findings.end(),
                   [](const LintFinding& a, const LintFinding& b) { return a.begin < b.begin; });
  return findings;
}

std::string ContentLint::describe(const std::vector<LintFinding>& findings) {
  std::string out;
  for (const LintFinding& f : findings) {
    if (!out.empty()) out += "; ";
    out += lintCategoryName(f.category);
    out += ": \"";
    for (char c : f.matched) out.push_back(c == '\n' || c == '\r' ? ' ' : c);
    out += '"';
  }
  return out;
}

}  // namespace atoms::sms
