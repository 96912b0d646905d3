#include "domain/labor/schedule_change.h"

#include <algorithm>
#include <utility>

namespace atoms::labor {

using site::Instant;
using site::Seconds;

std::string_view changeKindName(ChangeKind kind) {
  switch (kind) {
    case ChangeKind::kAssign:
      return "assign";
    case ChangeKind::kAdd:
      return "add";
    case ChangeKind::kMove:
      return "move";
    case ChangeKind::kExtend:
      return "extend";
    case ChangeKind::kSwap:
      return "swap";
    case ChangeKind::kCut:
      return "cut";
    case ChangeKind::kPublish:
      return "publish";
  }
  return "assign";
}

const PersonVerdict* ChangeVerdict::person(std::string_view personId) const {
  for (const PersonVerdict& p : people) {
    if (p.personId == personId) return &p;
  }
  return nullptr;
}

namespace {

std::string quoted(std::string_view id) { return "'" + std::string(id) + "'"; }

// Evaluates one change; each method validates its change and lists the affected people.
class ChangeRun {
 public:
  ChangeRun(const LaborContext& ctx, const FairWorkweek& fww, Instant now, bool employeeRequested)
      : ctx_(ctx), fww_(fww), now_(now), requested_(employeeRequested) {}

  Result<ChangeVerdict> run(const AssignShift& a) {
    auto shift = liveShift(a.shiftId, "assign");
    if (!shift.ok()) return shift.error();
    const site::Shift& s = **shift;
    const site::Person* person = ctx_.index().person(a.personId);
    if (person == nullptr) return Error{"assign: unknown person " + quoted(a.personId)};
    if (s.assignee == a.personId) {
      return Error{"assign: " + quoted(a.personId) + " already works shift " + quoted(s.id)};
    }
    auto after = engine("assign", a.personId, s);
    if (!after.ok()) return after.error();
    add(*person, {s.id}, nullptr, &*after,
        workChange(a.personId, s.id, s.start.utc, s.start.utc, s.start.utc, s.end.utc, requested_));
    // The shift's current assignee loses it: a cancellation from their side.
    if (s.assignee) {
      if (const site::Person* previous = ctx_.index().person(*s.assignee)) {
        add(*previous, {s.id}, nullptr, nullptr,
            workChange(previous->id, s.id, s.start.utc, s.end.utc, s.start.utc, s.start.utc,
                       requested_));
      }
    }
    return finish(ChangeKind::kAssign);
  }

  Result<ChangeVerdict> run(const AddShift& a) {
    const site::Shift& s = a.shift;
    if (s.id.empty()) return Error{"add: the new shift has no id"};
    if (ctx_.index().shift(s.id) != nullptr) {
      return Error{"add: shift " + quoted(s.id) + " already exists"};
    }
    if (ctx_.index().station(s.stationId) == nullptr) {
      return Error{"add: shift " + quoted(s.id) + ": unknown station " + quoted(s.stationId)};
    }
    if (s.requiredCertification &&
        ctx_.index().certification(*s.requiredCertification) == nullptr) {
      return Error{"add: shift " + quoted(s.id) + ": unknown certification " +
                   quoted(*s.requiredCertification)};
    }
    if (auto ok = bounds("add", s.id, s.start, s.end); !ok.ok()) return ok.error();
    if (s.end.utc <= now_) {
      return Error{"add: shift " + quoted(s.id) + " ends at " + local(s.end) + ", before now"};
    }
    if (s.assignee) {
      const site::Person* person = ctx_.index().person(*s.assignee);
      if (person == nullptr) {
        return Error{"add: shift " + quoted(s.id) + ": unknown person " + quoted(*s.assignee)};
      }
      auto after = engine("add", person->id, s);
      if (!after.ok()) return after.error();
      add(*person, {s.id}, nullptr, &*after,
          workChange(person->id, s.id, s.start.utc, s.start.utc, s.start.utc, s.end.utc,
                     requested_));
    }
    return finish(ChangeKind::kAdd);
  }

  Result<ChangeVerdict> run(const MoveShift& m) {
    auto shift = notStarted(m.shiftId, "move");
    if (!shift.ok()) return shift.error();
    const site::Shift& s = **shift;
    if (auto ok = bounds("move", s.id, m.start, m.end); !ok.ok()) return ok.error();
    if (m.stationId && ctx_.index().station(*m.stationId) == nullptr) {
      return Error{"move: shift " + quoted(s.id) + ": unknown station " + quoted(*m.stationId)};
    }
    site::Shift moved = s;
    moved.start = m.start;
    moved.end = m.end;
    if (m.stationId) moved.stationId = *m.stationId;
    if (moved == s) return Error{"move: shift " + quoted(s.id) + " is unchanged"};
    if (moved.start.utc < now_) {
      return Error{"move: shift " + quoted(s.id) + " would start at " + local(moved.start) +
                   ", before now"};
    }
    return reshape(ChangeKind::kMove, s, moved);
  }

  Result<ChangeVerdict> run(const ExtendShift& x) {
    auto shift = liveShift(x.shiftId, "extend");
    if (!shift.ok()) return shift.error();
    const site::Shift& s = **shift;
    if (auto ok = bounds("extend", s.id, x.start, x.end); !ok.ok()) return ok.error();
    if (x.start.utc > s.start.utc || x.end.utc < s.end.utc ||
        x.end.utc - x.start.utc <= s.end.utc - s.start.utc) {
      return Error{"extend: shift " + quoted(s.id) + ": " + local(x.start) + ".." + local(x.end) +
                   " must contain " + local(s.start) + ".." + local(s.end) + " and be longer"};
    }
    if (x.start.utc < s.start.utc && x.start.utc < now_) {
      return Error{"extend: shift " + quoted(s.id) + " cannot start at " + local(x.start) +
                   ", before now"};
    }
    site::Shift longer = s;
    longer.start = x.start;
    longer.end = x.end;
    return reshape(ChangeKind::kExtend, s, longer);
  }

  Result<ChangeVerdict> run(const SwapShifts& w) {
    if (w.shiftId == w.otherShiftId) {
      return Error{"swap: shift " + quoted(w.shiftId) + " with itself"};
    }
    auto first = notStarted(w.shiftId, "swap");
    if (!first.ok()) return first.error();
    auto second = notStarted(w.otherShiftId, "swap");
    if (!second.ok()) return second.error();
    const site::Shift& a = **first;
    const site::Shift& b = **second;
    for (const site::Shift* s : {&a, &b}) {
      if (!s->assignee) return Error{"swap: shift " + quoted(s->id) + " is open"};
    }
    if (*a.assignee == *b.assignee) {
      return Error{"swap: shifts " + quoted(a.id) + " and " + quoted(b.id) + " are both " +
                   quoted(*a.assignee) + "'s"};
    }
    for (const auto& [mine, theirs] : {std::pair(&a, &b), std::pair(&b, &a)}) {
      const site::Person* person = ctx_.index().person(*mine->assignee);
      if (person == nullptr) {
        return Error{"swap: shift " + quoted(mine->id) + ": unknown person " +
                     quoted(*mine->assignee)};
      }
      // The person works the other shift in place of theirs: evaluated under their own shift's
      // id, which the engine then leaves out of their existing work.
      site::Shift replacement = *theirs;
      replacement.id = mine->id;
      replacement.assignee = person->id;
      auto before = engine("swap", person->id, *mine);
      if (!before.ok()) return before.error();
      auto after = engine("swap", person->id, replacement);
      if (!after.ok()) return after.error();
      for (RuleEvaluation& e : after->evaluations) {
        if (auto it = e.input.find("shiftId");
            it != e.input.end() && it->second.isString() && it->second.asString() == mine->id) {
          e.input.set("shiftId", theirs->id);
        }
      }
      std::optional<WorkChange> change;
      if (mine->start.utc != theirs->start.utc || mine->end.utc != theirs->end.utc) {
        change = workChange(person->id, theirs->id, mine->start.utc, mine->end.utc,
                            theirs->start.utc, theirs->end.utc, requested_);
      }
      add(*person, {mine->id, theirs->id}, &*before, &*after, change);
    }
    return finish(ChangeKind::kSwap);
  }

  Result<ChangeVerdict> run(const CutShift& c) {
    auto shift = liveShift(c.shiftId, "cut");
    if (!shift.ok()) return shift.error();
    const site::Shift& s = **shift;
    Instant newStart = s.start.utc;
    Instant newEnd = s.start.utc;
    if (c.cancel) {
      if (s.start.utc <= now_) {
        return Error{"cut: shift " + quoted(s.id) +
                     " has started; cut it to end at or after now instead of cancelling it"};
      }
    } else {
      if (c.end.utc < c.start.utc) {
        return Error{"cut: shift " + quoted(s.id) + ": new end " + local(c.end) +
                     " is before new start " + local(c.start)};
      }
      if (c.end.utc == c.start.utc) {
        return Error{"cut: shift " + quoted(s.id) + " would have no time left; cancel it instead"};
      }
      if (c.start.utc < s.start.utc || c.end.utc > s.end.utc ||
          c.end.utc - c.start.utc >= s.end.utc - s.start.utc) {
        return Error{"cut: shift " + quoted(s.id) + ": " + local(c.start) + ".." + local(c.end) +
                     " must lie inside " + local(s.start) + ".." + local(s.end) +
                     " and be shorter"};
      }
      if (c.end.utc < now_ || (c.start.utc != s.start.utc && s.start.utc < now_)) {
        return Error{"cut: shift " + quoted(s.id) + ": hours already worked cannot be cut"};
      }
      newStart = c.start.utc;
      newEnd = c.end.utc;
    }
    // Removing work never makes an assignment rule fail or cost more (overtime, rest, minors'
    // hours and overlaps only get better), so only the fair-workweek rules are evaluated.
    if (s.assignee) {
      if (const site::Person* person = ctx_.index().person(*s.assignee)) {
        add(*person, {s.id}, nullptr, nullptr,
            workChange(person->id, s.id, s.start.utc, s.end.utc, newStart, newEnd, requested_));
      }
    }
    return finish(ChangeKind::kCut);
  }

  Result<ChangeVerdict> run(const PublishVersion& p) {
    const site::ScheduleVersion& v = p.version;
    if (v.id.empty()) return Error{"publish: the schedule version has no id"};
    if (const site::ScheduleVersion* existing = ctx_.index().scheduleVersion(v.id)) {
      return Error{"publish: schedule version " + quoted(v.id) + " was already published at " +
                   site::formatLocal(ctx_.zone().toLocal(existing->publishedAt))};
    }
    if (v.shiftIds.empty()) {
      return Error{"publish: schedule version " + quoted(v.id) + " lists no shifts"};
    }
    auto findings = fww_.publishFindings(v, now_);
    if (!findings.ok()) return Error{"publish: " + findings.message()};
    for (const site::Person& person : ctx_.model().people) {
      std::vector<RuleEvaluation> mine;
      for (const RuleEvaluation& e : *findings) {
        if (e.input.at("personId").asString() == person.id) mine.push_back(e);
      }
      if (mine.empty()) continue;
      PersonVerdict pv;
      pv.personId = person.id;
      for (const std::string& id : v.shiftIds) {
        const site::Shift* s = ctx_.index().shift(id);
        if (s != nullptr && s->assignee == person.id) pv.shiftIds.push_back(id);
      }
      pv.verdict = Verdict::combine(std::move(mine), person.managerOfRecord);
      note(person, std::move(pv), false);
    }
    return finish(ChangeKind::kPublish);
  }

 private:
  std::string local(const site::Stamp& s) const {
    return site::formatLocal(ctx_.zone().toLocal(s.utc));
  }

  Result<const site::Shift*> knownShift(const std::string& id, std::string_view what) const {
    const site::Shift* s = ctx_.index().shift(id);
    if (s == nullptr) return Error{std::string(what) + ": unknown shift " + quoted(id)};
    return s;
  }
  // A shift that has not ended yet (hours already worked are not changed).
  Result<const site::Shift*> liveShift(const std::string& id, std::string_view what) const {
    auto s = knownShift(id, what);
    if (s.ok() && (*s)->end.utc <= now_) {
      return Error{std::string(what) + ": shift " + quoted(id) + " already ended at " +
                   local((*s)->end)};
    }
    return s;
  }
  Result<const site::Shift*> notStarted(const std::string& id, std::string_view what) const {
    auto s = liveShift(id, what);
    if (s.ok() && (*s)->start.utc <= now_) {
      return Error{std::string(what) + ": shift " + quoted(id) + " has started at " +
                   local((*s)->start) + "; extend or cut it instead"};
    }
    return s;
  }
  Status bounds(std::string_view what, const std::string& id, const site::Stamp& start,
                const site::Stamp& end) const {
    if (end.utc <= start.utc) {
      return Error{std::string(what) + ": shift " + quoted(id) + ": end " + local(end) +
                   " is not after start " + local(start)};
    }
    return Status::success();
  }
  Result<Verdict> engine(std::string_view what, const std::string& personId,
                         const site::Shift& shift) const {
    auto v = ctx_.evaluate(personId, shift);
    if (!v.ok()) return Error{std::string(what) + ": " + v.message()};
    return v;
  }

  // Move and extend: the assignee (if any) works `changed` in place of `original`.
  Result<ChangeVerdict> reshape(ChangeKind kind, const site::Shift& original,
                                const site::Shift& changed) {
    if (original.assignee) {
      const site::Person* person = ctx_.index().person(*original.assignee);
      if (person == nullptr) {
        return Error{std::string(changeKindName(kind)) + ": shift " + quoted(original.id) +
                     ": unknown person " + quoted(*original.assignee)};
      }
      auto before = engine(changeKindName(kind), person->id, original);
      if (!before.ok()) return before.error();
      auto after = engine(changeKindName(kind), person->id, changed);
      if (!after.ok()) return after.error();
      std::optional<WorkChange> change;
      if (original.start.utc != changed.start.utc || original.end.utc != changed.end.utc) {
        change = workChange(person->id, original.id, original.start.utc, original.end.utc,
                            changed.start.utc, changed.end.utc, requested_);
      }
      add(*person, {original.id}, &*before, &*after, change);
    }
    return finish(kind);
  }

  // Folds one person's engine findings (after the change; before it, for the premium they were
  // already owed) and fair-workweek findings into their verdict.
  void add(const site::Person& person, std::vector<std::string> shiftIds, const Verdict* before,
           Verdict* after, const std::optional<WorkChange>& change) {
    PersonVerdict pv;
    pv.personId = person.id;
    pv.shiftIds = std::move(shiftIds);
    Verdict& v = pv.verdict;
    bool owesPremium = false;
    if (after != nullptr) {
      v.premiumMinutes = std::max<std::int64_t>(
          0, after->premiumMinutes - (before != nullptr ? before->premiumMinutes : 0));
      v.premiumCents = std::max<std::int64_t>(
          0, after->premiumCents - (before != nullptr ? before->premiumCents : 0));
      v.extraCents = std::max<std::int64_t>(
          0, after->extraCents - (before != nullptr ? before->extraCents : 0));
      owesPremium = v.premiumMinutes > 0 || v.premiumCents > 0;
      for (RuleEvaluation& e : after->evaluations) {
        VerdictKind effect = e.effect;
        if (effect == VerdictKind::kAllowedWithPremium && !owesPremium) {
          effect = VerdictKind::kAllowed;
          e.detail += "; owed before this change too";
        }
        v.kind = std::max(v.kind, effect);
        v.evaluations.push_back(std::move(e));
      }
    }
    if (change) {
      for (RuleEvaluation& e : fww_.changeFindings(*change, now_)) {
        v.kind = std::max(v.kind, e.effect);
        if (e.effect == VerdictKind::kAllowedWithPremium) owesPremium = true;
        v.premiumMinutes += e.premiumMinutes;
        v.premiumCents += e.premiumCents;
        v.extraCents += e.extraCents;
        if (e.effect == VerdictKind::kNeedsConsent) {
          const auto it = e.input.find("writtenConsentRequired");
          if (it != e.input.end() && it->second.isBool() && it->second.asBool()) {
            pv.writtenConsent = true;
          }
        }
        v.evaluations.push_back(std::move(e));
      }
    }
    if (owesPremium) v.approver = person.managerOfRecord;
    note(person, std::move(pv), owesPremium);
  }

  void note(const site::Person& person, PersonVerdict pv, bool owesPremium) {
    if (owesPremium && !person.managerOfRecord) {
      out_.gaps.push_back(person.id +
                          " is owed a premium and has no manager of record to approve it");
    }
    out_.people.push_back(std::move(pv));
  }

  ChangeVerdict finish(ChangeKind kind) {
    out_.change = kind;
    for (const PersonVerdict& p : out_.people) {
      out_.kind = std::max(out_.kind, p.verdict.kind);
      out_.premiumMinutes += p.verdict.premiumMinutes;
      out_.premiumCents += p.verdict.premiumCents;
      out_.extraCents += p.verdict.extraCents;
      if (p.verdict.approver) out_.approvers.push_back(*p.verdict.approver);
      if (p.verdict.kind == VerdictKind::kNeedsConsent) out_.consentFrom.push_back(p.personId);
    }
    std::sort(out_.approvers.begin(), out_.approvers.end());
    out_.approvers.erase(std::unique(out_.approvers.begin(), out_.approvers.end()),
                         out_.approvers.end());
    return std::move(out_);
  }

  const LaborContext& ctx_;
  const FairWorkweek& fww_;
  Instant now_;
  bool requested_;
  ChangeVerdict out_;
};

}  // namespace

Result<ChangeEvaluator> ChangeEvaluator::build(const LaborContext& ctx) {
  auto fww = FairWorkweek::build(ctx);
  if (!fww.ok()) return fww.error();
  return ChangeEvaluator(ctx, std::move(*fww));
}

Result<ChangeVerdict> ChangeEvaluator::evaluate(const ScheduleChange& change,
                                                site::Instant now) const {
  ChangeRun run(*ctx_, fww_, now, change.employeeRequested);
  return std::visit([&](const auto& action) { return run.run(action); }, change.action);
}

}  // namespace atoms::labor
