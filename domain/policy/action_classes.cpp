#include "domain/policy/action_classes.h"

#include <algorithm>
#include <array>
#include <fstream>
#include <functional>
#include <set>
#include <sstream>
#include <utility>

#include "base/canonical_json.h"
#include "base/name_table.h"

namespace atoms::policy {
namespace {

using json::Value;

constexpr NameTable<AutonomyClass, 3> kClassNames{
    {{AutonomyClass::kAutonomous, "AUTONOMOUS"},
     {AutonomyClass::kProposeConfirm, "PROPOSE_CONFIRM"},
     {AutonomyClass::kHumanOnly, "HUMAN_ONLY"}}};
constexpr NameTable<Graduation, 3> kGraduationNames{{{Graduation::kShadow, "SHADOW"},
                                                     {Graduation::kPropose, "PROPOSE"},
                                                     {Graduation::kAutonomous, "AUTONOMOUS"}}};
constexpr NameTable<ActionEffect, 5> kEffectNames{
    {{ActionEffect::kOutreach, "outreach"},
     {ActionEffect::kReplyInThread, "reply_in_thread"},
     {ActionEffect::kWrite, "write"},
     {ActionEffect::kInternal, "internal"},
     {ActionEffect::kEscalationPath, "escalation_path"}}};
constexpr NameTable<Confirmer, 2> kConfirmerNames{
    {{Confirmer::kManagerOfRecord, "manager_of_record"}, {Confirmer::kOwner, "owner"}}};
constexpr NameTable<EffectiveOutcome, 6> kOutcomeNames{
    {{EffectiveOutcome::kExecute, "execute"},
     {EffectiveOutcome::kQueueForApproval, "queue_for_approval"},
     {EffectiveOutcome::kHumanPacket, "human_packet"},
     {EffectiveOutcome::kHold, "hold"},
     {EffectiveOutcome::kRecordOnly, "record_only"},
     {EffectiveOutcome::kDeny, "deny"}}};

template <class E, std::size_t N>
std::string choices(const NameTable<E, N>& table) {
  std::string out;
  for (const auto& entry : table) out += (out.empty() ? "" : ", ") + std::string(entry.second);
  return out;
}

// Seed 000 section 2, ManagementFunction: the trust budget is kept per function.
const std::set<std::string, std::less<>> kFunctions{
    "goal_setting",        "planning",          "checkins_unblocking", "feedback_growth",
    "staffing_scheduling", "hiring_onboarding", "budget_approvals",    "reporting_escalation",
    "rituals_comms",       "quiet_hr",          "security_compliance"};

// Seed 001 section 8 per-function breakers (BRK-CONN-<system> guards delivery, not a kind).
const std::set<std::string, std::less<>> kBreakers{"BRK-PLAN",  "BRK-OUT", "BRK-APR", "BRK-SCH",
                                                   "BRK-FB",    "BRK-HR",  "BRK-COM", "BRK-DAT",
                                                   "BRK-MODEL", "none"};

const std::set<std::string, std::less<>> kActionFields{
    "kind",    "class",      "confirmer", "function",    "effect",
    "breaker", "touchesPay", "adverse",   "description", "source"};

bool validKindName(std::string_view kind) {
  // Lowercase dotted segments: "callout.offer", "schedule.reduce_hours".
  if (kind.empty() || kind.front() == '.' || kind.back() == '.') return false;
  bool dot = false;
  char prev = 0;
  for (char ch : kind) {
    if (ch == '.') {
      if (prev == '.') return false;
      dot = true;
    } else if (!((ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || ch == '_')) {
      return false;
    }
    prev = ch;
  }
  return dot;
}

class RowParser {
 public:
  RowParser(std::string_view origin, const json::Object& obj, std::string who)
      : origin_(origin), obj_(obj), who_(std::move(who)) {}

  Error fail(std::string_view what) const {
    return makeError(std::string(origin_) + ": " + who_ + ": " + std::string(what));
  }

  Result<std::string> str(std::string_view field) const {
    const Value* v = find(field);
    if (v == nullptr) return fail("missing field \"" + std::string(field) + "\"");
    if (!v->isString() || v->asString().empty()) {
      return fail("field \"" + std::string(field) + "\" must be a non-empty string");
    }
    return v->asString();
  }

  Result<bool> flag(std::string_view field) const {
    const Value* v = find(field);
    if (v == nullptr) return false;
    if (!v->isBool()) return fail("field \"" + std::string(field) + "\" must be true or false");
    return v->asBool();
  }

  template <class E, std::size_t N>
  Result<E> named(std::string_view field, const NameTable<E, N>& table) const {
    auto text = str(field);
    if (!text) return text.error();
    auto value = fromName(table, *text);
    if (!value) {
      return fail("unknown " + std::string(field) + " \"" + *text + "\" (expected one of " +
                  choices(table) + ")");
    }
    return *value;
  }

  Result<std::string> member(std::string_view field,
                             const std::set<std::string, std::less<>>& allowed) const {
    auto text = str(field);
    if (!text) return text.error();
    if (!allowed.contains(*text)) {
      return fail("unknown " + std::string(field) + " \"" + *text + "\"");
    }
    return text;
  }

 private:
  const Value* find(std::string_view field) const {
    auto it = obj_.find(std::string(field));
    return it == obj_.end() ? nullptr : &it->second;
  }

  std::string_view origin_;
  const json::Object& obj_;
  std::string who_;
};

Result<ActionClass> parseRow(std::string_view origin, const Value& v, std::size_t index) {
  const std::string position = "action #" + std::to_string(index + 1);
  if (!v.isObject()) {
    return makeError(std::string(origin) + ": " + position + ": must be a JSON object");
  }
  const json::Object& obj = v.asObject();
  // Errors name the kind once it is known, the position before.
  std::string who = position;
  auto kindIt = obj.find("kind");
  if (kindIt != obj.end() && kindIt->second.isString() && !kindIt->second.asString().empty()) {
    who = "action \"" + kindIt->second.asString() + "\"";
  }
  RowParser p(origin, obj, who);

  for (const auto& [key, ignored] : obj) {
    if (!kActionFields.contains(key)) return p.fail("unknown field \"" + key + "\"");
  }

  ActionClass row;
  auto kind = p.str("kind");
  if (!kind) return kind.error();
  if (!validKindName(*kind)) {
    return p.fail("kind must be lowercase dotted words (\"callout.offer\")");
  }
  row.kind = std::move(*kind);
  auto declared = p.named("class", kClassNames);
  if (!declared) return declared.error();
  row.declared = *declared;
  auto confirmer = p.named("confirmer", kConfirmerNames);
  if (!confirmer) return confirmer.error();
  row.confirmer = *confirmer;
  auto function = p.member("function", kFunctions);
  if (!function) return function.error();
  row.function = std::move(*function);
  auto effect = p.named("effect", kEffectNames);
  if (!effect) return effect.error();
  row.effect = *effect;
  auto breaker = p.member("breaker", kBreakers);
  if (!breaker) return breaker.error();
  row.breaker = std::move(*breaker);
  auto pay = p.flag("touchesPay");
  if (!pay) return pay.error();
  row.touchesPay = *pay;
  auto adverse = p.flag("adverse");
  if (!adverse) return adverse.error();
  row.adverse = *adverse;
  auto description = p.str("description");
  if (!description) return description.error();
  row.description = std::move(*description);
  auto source = p.str("source");
  if (!source) return source.error();
  row.source = std::move(*source);

  // Hard lines the table itself may not cross (seed 001 RISK-08; DESIGN.md section 5).
  if (row.declared == AutonomyClass::kAutonomous && (row.touchesPay || row.adverse)) {
    return p.fail(std::string("a kind that ") +
                  (row.touchesPay ? "touches pay" : "is adverse to one person") +
                  " must be PROPOSE_CONFIRM or HUMAN_ONLY");
  }
  // An alert that waits for an approval or a breaker is not an escalation path.
  if (row.effect == ActionEffect::kEscalationPath) {
    if (row.declared == AutonomyClass::kProposeConfirm) {
      return p.fail("an escalation_path kind must be AUTONOMOUS or HUMAN_ONLY");
    }
    if (row.breaker != "none") return p.fail("an escalation_path kind takes breaker \"none\"");
  }
  return row;
}

std::string_view levelRule(KillSwitchLevel level) {
  switch (level) {
    case KillSwitchLevel::kL1:
      return "seed 001 section 7 L1 outreach freeze: held, not dropped";
    case KillSwitchLevel::kL2:
      return "seed 001 section 7 L2 write freeze: decisions park in shadow";
    case KillSwitchLevel::kL3:
      return "seed 001 section 7 L3 full stop: no runs";
    case KillSwitchLevel::kL0:
      break;
  }
  return "";
}

}  // namespace

bool isManagementFunction(std::string_view name) { return kFunctions.count(name) != 0; }

std::string_view autonomyClassName(AutonomyClass c) { return nameOf(kClassNames, c); }
std::optional<AutonomyClass> autonomyClassFromName(std::string_view name) {
  return fromName(kClassNames, name);
}
std::string_view graduationName(Graduation g) { return nameOf(kGraduationNames, g); }
std::optional<Graduation> graduationFromName(std::string_view name) {
  return fromName(kGraduationNames, name);
}
std::string_view actionEffectName(ActionEffect e) { return nameOf(kEffectNames, e); }
std::optional<ActionEffect> actionEffectFromName(std::string_view name) {
  return fromName(kEffectNames, name);
}
std::string_view confirmerName(Confirmer c) { return nameOf(kConfirmerNames, c); }
std::optional<Confirmer> confirmerFromName(std::string_view name) {
  return fromName(kConfirmerNames, name);
}
std::string_view effectiveOutcomeName(EffectiveOutcome o) { return nameOf(kOutcomeNames, o); }

Result<ActionClassTable> ActionClassTable::parse(std::string_view text, std::string_view origin) {
  const std::string where(origin);
  auto doc = json::parse(text);
  if (!doc) return makeError(where + ": " + doc.message());
  if (!doc->isObject()) return makeError(where + ": the file must hold one JSON object");
  for (const auto& [key, ignored] : doc->asObject()) {
    if (key != "version" && key != "actions") {
      return makeError(where + ": unknown field \"" + key + "\"");
    }
  }
  const Value* version = doc->find("version");
  if (version == nullptr || !version->isInt() || version->asInt() != 1) {
    return makeError(where + ": field \"version\" must be 1");
  }
  const Value* actions = doc->find("actions");
  if (actions == nullptr || !actions->isArray() || actions->asArray().empty()) {
    return makeError(where + ": field \"actions\" must be a non-empty array");
  }

  ActionClassTable table;
  std::set<std::string, std::less<>> seen;
  const json::Array& rows = actions->asArray();
  for (std::size_t i = 0; i < rows.size(); ++i) {
    auto row = parseRow(origin, rows[i], i);
    if (!row) return row.error();
    if (!seen.insert(row->kind).second) {
      return makeError(where + ": action \"" + row->kind + "\": duplicate kind");
    }
    table.rows_.push_back(std::move(*row));
  }
  return table;
}

Result<ActionClassTable> ActionClassTable::load(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return makeError(path + ": cannot read the action classes file");
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) return makeError(path + ": read error");
  return parse(text.str(), path);
}

Result<const ActionClass*> ActionClassTable::find(std::string_view kind) const {
  auto it = std::find_if(rows_.begin(), rows_.end(),
                         [&](const ActionClass& row) { return row.kind == kind; });
  if (it == rows_.end()) {
    return makeError("unknown action kind \"" + std::string(kind) + "\" (treated as HUMAN_ONLY)");
  }
  return &*it;
}

namespace {

std::vector<std::string> functionsOf(const std::vector<ActionClass>& rows,
                                     const std::function<bool(const ActionClass&)>& keep) {
  std::vector<std::string> out;
  for (const ActionClass& row : rows) {
    if (keep(row) && std::find(out.begin(), out.end(), row.function) == out.end()) {
      out.push_back(row.function);
    }
  }
  return out;
}

}  // namespace

std::vector<std::string> ActionClassTable::functions() const {
  return functionsOf(rows_, [](const ActionClass&) { return true; });
}

std::vector<std::string> ActionClassTable::functionsUsingBreaker(std::string_view breaker) const {
  return functionsOf(rows_, [&](const ActionClass& row) { return row.breaker == breaker; });
}

Clamped clamp(const ActionClass& action, Graduation graduation, KillSwitchLevel level,
              bool breakerOpen) {
  const AutonomyClass declared = action.declared;
  const bool humanOnly = declared == AutonomyClass::kHumanOnly;

  if (action.effect == ActionEffect::kEscalationPath) {
    return {declared, humanOnly ? EffectiveOutcome::kHumanPacket : EffectiveOutcome::kExecute,
            "seed 001 section 7: the escalation path stays up at every level"};
  }
  if (level == KillSwitchLevel::kL3) {
    return {declared, EffectiveOutcome::kDeny, std::string(levelRule(level))};
  }
  if (humanOnly) {
    return {declared, EffectiveOutcome::kHumanPacket,
            "declared HUMAN_ONLY: a packet for a human, never executed by the box"};
  }
  if (level == KillSwitchLevel::kL2) {
    return {declared, EffectiveOutcome::kRecordOnly, std::string(levelRule(level))};
  }

  AutonomyClass effective = declared;
  std::string rule = "declared " + std::string(autonomyClassName(declared));
  // Seed 000 section 8: an internal move is AUTONOMOUS in every function state (nothing leaves).
  if (action.effect != ActionEffect::kInternal) {
    if (graduation == Graduation::kShadow) {
      return {effective, EffectiveOutcome::kRecordOnly,
              "seed 001 section 6 SHADOW: the box decides and records, it does not act"};
    }
    const bool outreach = action.effect == ActionEffect::kOutreach;
    if (outreach && level == KillSwitchLevel::kL1) {
      return {effective, EffectiveOutcome::kHold, std::string(levelRule(level))};
    }
    if (breakerOpen) {
      if (outreach) {
        return {effective, EffectiveOutcome::kHold,
                "seed 001 section 8: " + action.breaker + " open, outreach frozen per L1"};
      }
      // Replies in a person's own thread pass L1 semantics, so only the class clamp applies.
      if (effective == AutonomyClass::kAutonomous &&
          action.effect != ActionEffect::kReplyInThread) {
        effective = AutonomyClass::kProposeConfirm;
        rule = "seed 001 section 8: " + action.breaker + " open, clamped to PROPOSE";
      }
    }
    if (graduation == Graduation::kPropose && effective == AutonomyClass::kAutonomous) {
      effective = AutonomyClass::kProposeConfirm;
      rule = "seed 001 section 6 PROPOSE: at most PROPOSE_CONFIRM";
    }
  }
  return {effective,
          effective == AutonomyClass::kAutonomous ? EffectiveOutcome::kExecute
                                                  : EffectiveOutcome::kQueueForApproval,
          rule};
}

}  // namespace atoms::policy
