#include "sms/text/safety_report.h"

#include "base/name_table.h"
#include "sms/text/tokens.h"

namespace atoms::sms {
namespace {

constexpr int tag(SafetyCategory c) { return static_cast<int>(c); }
constexpr int kInjury = tag(SafetyCategory::kInjury);
constexpr int kFire = tag(SafetyCategory::kFire);
constexpr int kGas = tag(SafetyCategory::kGas);
constexpr int kViolence = tag(SafetyCategory::kViolence);
constexpr int kEquipment = tag(SafetyCategory::kEquipment);

// Word patterns on folded words (phrase_set.h).
constexpr PhrasePattern kSafetyPhrases[] = {
    // Injury.
    {"hurt|injured|injury|injuries|bleeding|unconscious|fainted|passed_out|collapsed", kInjury},
    {"not breathing|responding", kInjury},
    {"cut|sliced|burned|burnt ~3 hand|hands|finger|fingers|arm|leg|face|himself|herself|"
     "themselves|myself|deep",
     kInjury},
    {"fell|slipped|tripped ~3 floor|ladder|stairs|hit|head|down", kInjury},
    {"call|calling|called ~1 911|ambulance|paramedics|ems", kInjury},
    {"ambulance|paramedics|emergency_room", kInjury},
    {"herido|herida|heridos|lastimado|lastimada|sangre|sangrando|desmayo|desmayado|desmayada|"
     "inconsciente|quemadura|quemado|quemada|ambulancia",
     kInjury},
    {"se cayo|corto|quemo", kInjury},
    // Fire.
    {"fire|fires|flames|smoke|smoking|burning", kFire},
    {"on fire", kFire},
    {"fire_alarm|smoke_alarm|extinguisher", kFire},
    {"fuego|incendio|humo|llamas", kFire},
    // Gas.
    {"gas leak|leaking|smell|smells", kGas},
    {"smell|smells|smelling ~2 gas", kGas},
    {"carbon monoxide", kGas},
    {"co_alarm|co_detector", kGas},
    {"fuga|olor|huele ~2 gas", kGas},
    // Violence and threats.
    {"fight|fighting|punched|attacked|assaulted|assault|robbery|robbed|stabbed|shooting",
     kViolence},
    {"gun|guns|weapon|weapons|pistol", kViolence},
    {"threatening|threatened|threat|threats ~3 me|us|him|her|them|staff|someone|kill|hurt",
     kViolence},
    {"pulled ~1 knife|gun", kViolence},
    {"pelea|peleando|arma|armas|pistola|amenaza|amenazando|asalto|robo|atacado|atacada|golpeo",
     kViolence},
    // Dangerous equipment.
    {"shock|shocked|electrocuted|electrocution|sparks|sparking", kEquipment},
    {"exposed|live ~1 wire|wires|wiring", kEquipment},
    {"fryer|oil|grease ~3 fire|overflow|overflowing|spill|spilled", kEquipment},
    {"slicer|mixer|grinder|compactor|forklift|machine ~4 guard|jammed|caught|stuck|broken|"
     "sparking|smoking",
     kEquipment},
    {"gas_line|broken_glass|flooding|flooded", kEquipment},
    {"descarga|descargas|chispas|cable_pelado|cables_pelados", kEquipment},
};

// Harmless uses that share words with the table: where one of these matches, the tokens it
// covers do not count.
constexpr PhrasePattern kSafetyHarmless[] = {
    {"fire|firing up|off|away", 0},  // "fire up the grill", "fire off an email"
    {"fired|firing you|him|her|them|me", 0},
    {"gas station|stations|money|card|tank", 0},
    {"smoke|smoking break|breaks|area", 0},
    {"killing it", 0},
    {"go|going|quick|grab|a smoke|smoking", 0},  // "going for a smoke"
};

bool keywordFirst(const std::vector<Token>& tokens) {
  return !tokens.empty() && (tokens[0].folded == "safety" || tokens[0].folded == "seguridad" ||
                             tokens[0].folded == "emergency" || tokens[0].folded == "emergencia");
}

}  // namespace

namespace {

constexpr NameTable<SafetyCategory, 7> kCategoryNames{{
    {SafetyCategory::kInjury, "injury"},
    {SafetyCategory::kFire, "fire"},
    {SafetyCategory::kGas, "gas"},
    {SafetyCategory::kViolence, "violence"},
    {SafetyCategory::kEquipment, "equipment"},
    {SafetyCategory::kFoodSafety, "food_safety"},
    {SafetyCategory::kKeyword, "keyword"},
}};

}  // namespace

std::string_view safetyCategoryName(SafetyCategory category) {
  return nameOf(kCategoryNames, category);
}

std::optional<SafetyCategory> safetyCategoryFromName(std::string_view name) {
  return fromName(kCategoryNames, name);
}

SafetyDetector::SafetyDetector() : phrases_(kSafetyPhrases), harmless_(kSafetyHarmless) {}

std::optional<SafetyReport> SafetyDetector::check(std::string_view text) const {
  const std::vector<Token> tokens = tokenize(text);
  std::vector<bool> harmless(tokens.size(), false);
  for (const PhraseMatch& m : harmless_.find(tokens)) {
    for (std::size_t i = m.firstToken; i < m.endToken; ++i) harmless[i] = true;
  }
  std::optional<SafetyReport> report;
  if (keywordFirst(tokens)) {
    report =
        SafetyReport{SafetyCategory::kKeyword,
                     {std::string(text.substr(tokens[0].begin, tokens[0].end - tokens[0].begin))}};
  }
  for (const PhraseMatch& m : phrases_.find(tokens)) {
    bool allHarmless = true;
    for (std::size_t i = m.firstToken; i < m.endToken; ++i)
      allHarmless = allHarmless && harmless[i];
    if (allHarmless) continue;
    const std::size_t begin = tokens[m.firstToken].begin;
    std::string words(text.substr(begin, tokens[m.endToken - 1].end - begin));
    if (!report) {
      report = SafetyReport{static_cast<SafetyCategory>(m.tag), {}};
    } else if (report->category == SafetyCategory::kKeyword) {
      report->category = static_cast<SafetyCategory>(m.tag);  // the keyword says less
    }
    report->matched.push_back(std::move(words));
  }
  return report;
}

}  // namespace atoms::sms
