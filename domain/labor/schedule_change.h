// Proposed changes to a site's schedule (assign, add, move, extend, swap, cut, publish) and their
// evaluation at a decision instant: every affected person's rule findings, the premiums the
// change costs, who must approve and whose consent is needed (docs/labor-changes.md).
//
// Contract:
// - ChangeEvaluator::build() indexes the published schedule once (fair_workweek.h); evaluate()
//   then reads the person's nearby shifts only, like LaborContext::evaluate, which it calls for
//   every assignment check (overtime, rest between shifts, minors, certifications, overlap...).
// - It keeps a pointer to the LaborContext: the context (and its SiteModel and RuleBook) must
//   outlive it and not change while it lives. evaluate() is const; not synchronised.
// - `now` is the decision instant, passed in: nothing here reads a clock. The change is judged
//   against the model as it is; evaluate() does not apply it.
// - Errors are values naming the record: unknown shift, person, station or version; a shift that
//   ends before it starts; an extend that does not lengthen, a cut that does not shorten or leaves
//   no time; a swap of a shift with itself or between two shifts of one person; a change to a
//   shift that has already ended. Rule findings are never errors.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "base/result.h"
#include "domain/labor/fair_workweek.h"
#include "domain/labor/labor_engine.h"
#include "domain/labor/rule_evaluation.h"
#include "domain/site/site_model.h"

namespace atoms::labor {

// Person `personId` takes the existing shift `shiftId` (open, or someone else's: they lose it).
struct AssignShift {
  std::string personId;
  std::string shiftId;
};
// A new shift (its id must be new), open or assigned.
struct AddShift {
  site::Shift shift;
};
// New start and end, and optionally a new station, for an existing shift.
struct MoveShift {
  std::string shiftId;
  site::Stamp start;
  site::Stamp end;
  std::optional<std::string> stationId;
};
// A longer shift: starts no later and ends no earlier than now, and is longer.
struct ExtendShift {
  std::string shiftId;
  site::Stamp start;
  site::Stamp end;
};
// The assignees of two shifts exchange them.
struct SwapShifts {
  std::string shiftId;
  std::string otherShiftId;
};
// A shorter shift (the new bounds lie inside the old ones), or, with `cancel`, no shift at all.
struct CutShift {
  std::string shiftId;
  bool cancel = false;
  site::Stamp start;  // ignored when cancel
  site::Stamp end;
};
// Publishing a schedule version now (its publishedAt is ignored: the decision instant is used).
struct PublishVersion {
  site::ScheduleVersion version;
};

enum class ChangeKind { kAssign, kAdd, kMove, kExtend, kSwap, kCut, kPublish };
// "assign", "add", "move", "extend", "swap", "cut", "publish".
std::string_view changeKindName(ChangeKind kind);

struct ScheduleChange {
  std::variant<AssignShift, AddShift, MoveShift, ExtendShift, SwapShifts, CutShift, PublishVersion>
      action;
  // The affected employees asked for this change in writing (a swap they agreed, a pickup they
  // requested): no predictability pay, no right-to-decline consent (fair_workweek.h). Set from a
  // recorded request only.
  bool employeeRequested = false;

  ChangeKind kind() const { return static_cast<ChangeKind>(action.index()); }
};

// One affected person's outcome.
struct PersonVerdict {
  std::string personId;
  std::vector<std::string> shiftIds;  // the shifts of theirs the change is about
  // evaluations: the engine's findings for the person's new assignment (none for a cut or a lost
  // shift), then the fair-workweek findings. kind: the strictest effect, except that an engine
  // premium the person was already owed before the change (same shift, same cost) does not count
  // as new: only premiums the change adds make it allowed_with_premium. premiumMinutes/Cents:
  // what the change adds (the engine's premium after minus before, never below zero, plus the
  // fair-workweek premium). approver: the manager of record when the change costs a premium.
  Verdict verdict;
  bool writtenConsent = false;  // a rule asks for the person's consent in writing
};

struct ChangeVerdict {
  ChangeKind change = ChangeKind::kAssign;
  VerdictKind kind = VerdictKind::kAllowed;  // the strictest over the people
  std::vector<PersonVerdict> people;         // in the order the change names them
  std::int64_t premiumMinutes = 0;           // sums over the people
  std::int64_t premiumCents = 0;
  std::int64_t extraCents = 0;           // the extra cost within premiumCents (rule_evaluation.h)
  std::vector<std::string> approvers;    // managers of record of people owed a premium; sorted
  std::vector<std::string> consentFrom;  // people whose verdict is needs_consent, in order
  // What could not be settled: a person owed a premium with no manager of record.
  std::vector<std::string> gaps;

  const PersonVerdict* person(std::string_view personId) const;
};

class ChangeEvaluator {
 public:
  // Errors: a schedule version naming an unknown shift.
  static Result<ChangeEvaluator> build(const LaborContext& ctx);

  Result<ChangeVerdict> evaluate(const ScheduleChange& change, site::Instant now) const;

  const FairWorkweek& fairWorkweek() const { return fww_; }

 private:
  ChangeEvaluator(const LaborContext& ctx, FairWorkweek fww) : ctx_(&ctx), fww_(std::move(fww)) {}

  const LaborContext* ctx_;
  FairWorkweek fww_;
};

}  // namespace atoms::labor
