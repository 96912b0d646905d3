// ActionClasses: the declared autonomy class of every action kind the box may propose (issue 7
// item 1; seed 000 section 4, seed 001 sections 6-8; DESIGN.md section 5), as data in
// etc/policy/actions.json (operator page docs/policy-actions.md), and clamp(), the pure rule that
// turns a declared class into what the gate does now, given the function's graduation, the kill
// switch level and the function's breaker.
//
// The loader is strict: an unknown field, class, function, effect or breaker, a duplicate or
// missing kind, a missing source, or a kind that touches pay or is adverse to one person declared
// AUTONOMOUS, is a one-line error naming the file and kind; nothing is loaded then.
// find() of a kind not in the table is an error: the gate treats an unknown kind as HUMAN_ONLY.
//
// An ActionClassTable is an immutable value, safe to read from any thread. clamp() is pure.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"
#include "domain/policy/kill_switch.h"

namespace atoms::policy {

// Seed 001 vocabulary: what the box may do with an action of this kind.
enum class AutonomyClass { kAutonomous, kProposeConfirm, kHumanOnly };
// "AUTONOMOUS", "PROPOSE_CONFIRM", "HUMAN_ONLY" and back (nullopt outside the set).
std::string_view autonomyClassName(AutonomyClass c);
std::optional<AutonomyClass> autonomyClassFromName(std::string_view name);

// A function's earned autonomy (seed 001 section 6, trust budget).
enum class Graduation { kShadow, kPropose, kAutonomous };
// "SHADOW", "PROPOSE", "AUTONOMOUS" and back.
std::string_view graduationName(Graduation g);
std::optional<Graduation> graduationFromName(std::string_view name);

// True for a seed 000 ManagementFunction ("staffing_scheduling", "quiet_hr", ...): the unit the
// trust budget is kept per.
bool isManagementFunction(std::string_view name);

// What an action does, which decides how the kill switch and breakers reach it (seed 001 s. 7-8).
enum class ActionEffect {
  kOutreach,       // a message the box starts: held from L1 and while its breaker is open
  kReplyInThread,  // a reply in a person's own thread to their question: passes L1
  kWrite,          // changes who works when, pay or records: parked (record only) from L2
  kInternal,       // nothing leaves the box (handoff, record, packet): any graduation, stops at L3
  kEscalationPath  // safety alerts, escalation delivery: no level, breaker or graduation stops it
};
// "outreach", "reply_in_thread", "write", "internal", "escalation_path" and back.
std::string_view actionEffectName(ActionEffect e);
std::optional<ActionEffect> actionEffectFromName(std::string_view name);

// Who confirms a PROPOSE_CONFIRM item or receives a HUMAN_ONLY packet of this kind (and who would
// confirm an AUTONOMOUS kind while it is clamped to PROPOSE_CONFIRM).
enum class Confirmer { kManagerOfRecord, kOwner };
// "manager_of_record", "owner" and back.
std::string_view confirmerName(Confirmer c);
std::optional<Confirmer> confirmerFromName(std::string_view name);

// One row of etc/policy/actions.json.
struct ActionClass {
  std::string kind;  // "callout.offer": lowercase dotted, seed names where the seeds give them
  AutonomyClass declared = AutonomyClass::kHumanOnly;
  Confirmer confirmer = Confirmer::kManagerOfRecord;
  std::string function;  // seed 000 ManagementFunction ("staffing_scheduling", ...): trust budget
  ActionEffect effect = ActionEffect::kInternal;
  std::string breaker;  // seed 001 section 8 name ("BRK-OUT", "BRK-SCH", ...) or "none"
  bool touchesPay = false;
  bool adverse = false;  // adverse to one person: counts toward the RISK-08 concentration monitor
  std::string description;
  std::string source;  // the seed or design section the class comes from
};

class ActionClassTable {
 public:
  // Parses the text of an actions file; `origin` names it in errors ("etc/policy/actions.json").
  static Result<ActionClassTable> parse(std::string_view text, std::string_view origin);
  // Reads and parses a file.
  static Result<ActionClassTable> load(const std::string& path);

  // The row of `kind`. Error "unknown action kind \"x\" (treated as HUMAN_ONLY)" when absent.
  // The pointer stays valid as long as the table.
  Result<const ActionClass*> find(std::string_view kind) const;
  // All rows in file order.
  const std::vector<ActionClass>& all() const { return rows_; }
  // The functions the rows name, each once, in file order (each has a trust budget).
  std::vector<std::string> functions() const;
  // The functions with a row whose breaker is `breaker` ("BRK-OUT"), each once, in file order.
  std::vector<std::string> functionsUsingBreaker(std::string_view breaker) const;

 private:
  std::vector<ActionClass> rows_;
};

// What the gate does with one proposed action right now.
enum class EffectiveOutcome {
  kExecute,           // act now
  kQueueForApproval,  // a PROPOSE_CONFIRM item for the confirmer
  kHumanPacket,       // a HUMAN_ONLY packet; the box never executes it
  kHold,              // outreach held, not dropped (L1 / open breaker); re-checked on release
  kRecordOnly,        // decided and recorded, not acted on (SHADOW, L2 write freeze)
  kDeny               // not run at all (L3 full stop)
};
// "execute", "queue_for_approval", "human_packet", "hold", "record_only", "deny".
std::string_view effectiveOutcomeName(EffectiveOutcome o);

struct Clamped {
  AutonomyClass effective = AutonomyClass::kHumanOnly;  // the class after graduation/breaker
  EffectiveOutcome outcome = EffectiveOutcome::kDeny;
  std::string rule;  // the seed rule that decided it, for the receipt
};

// The effective class and outcome of an action of class `action` (DESIGN.md section 5):
// - escalation path: executes (HUMAN_ONLY: packet) at every level, graduation and breaker;
// - L3 stops everything else (deny);
// - HUMAN_ONLY: a packet (packets continue at L1 and L2);
// - L2: everything else is record only (writes frozen, no new inbox items);
// - internal kinds are AUTONOMOUS in every function state: graduation and breakers do not apply;
// - SHADOW: record only; L1 or `breakerOpen`: outreach held (replies in a person's own thread
//   pass, L1 semantics);
// - `breakerOpen` (except replies in thread) or PROPOSE: at most PROPOSE_CONFIRM.
// `breakerOpen` is true while the breaker named by action.breaker is Open or HalfOpen (seed 001
// section 8: both clamp the function to PROPOSE). The L1 per-thread reply cap (2 a day) and the
// RISK-08 repeated-adverse elevation need history and are the gate's, not clamp()'s.
Clamped clamp(const ActionClass& action, Graduation graduation, KillSwitchLevel level,
              bool breakerOpen);

}  // namespace atoms::policy
