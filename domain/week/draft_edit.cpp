#include "domain/week/draft_edit.h"

#include <algorithm>
#include <map>
#include <utility>

namespace atoms::week {

namespace chr = std::chrono;

namespace {

std::string quoted(std::string_view id) { return "'" + std::string(id) + "'"; }

Error invalid(std::string_view kind, const std::string& what) {
  return makeError(std::string(kind) + ": " + what, ErrorKind::kInvalid);
}

void sortShifts(std::vector<site::Shift>& shifts) {
  std::sort(shifts.begin(), shifts.end(), [](const site::Shift& a, const site::Shift& b) {
    return a.start.utc != b.start.utc ? a.start.utc < b.start.utc : a.id < b.id;
  });
}

void addPerson(AppliedEdit& out, const std::optional<std::string>& person) {
  if (person &&
      std::find(out.personIds.begin(), out.personIds.end(), *person) == out.personIds.end()) {
    out.personIds.push_back(*person);
  }
}

std::string describe(const site::Shift& s) {
  return s.id + " " + s.stationId + " " + site::formatLocal(s.start.local).substr(0, 16) + "-" +
         site::formatLocal(s.end.local).substr(11, 5) + (s.assignee ? " " + *s.assignee : " open");
}

// One edit on one draft; each run() validates its edit against the draft and the site.
class EditRun {
 public:
  EditRun(WeekDraft& draft, const EditContext& ctx) : d_(draft), ctx_(ctx) {}

  Result<AppliedEdit> run(const AddShiftEdit& e) {
    site::Shift s;
    s.id = newId();
    s.stationId = e.stationId;
    s.requiredCertification = e.certificationId;
    s.assignee = e.assignee;
    if (Status st = setTimes("add", s, e.start, e.end); !st) return st.error();
    if (Status st = checkShift("add", s); !st) return st.error();
    d_.shifts.push_back(s);
    return done("added " + describe(s), s, std::nullopt);
  }

  Result<AppliedEdit> run(const MoveShiftEdit& e) {
    auto found = editable("move", e.shiftId);
    if (!found) return found.error();
    site::Shift& s = **found;
    const auto before = s.assignee;
    site::Shift moved = s;
    if (e.stationId) moved.stationId = *e.stationId;
    if (Status st = setTimes("move", moved, e.start, e.end); !st) return st.error();
    if (moved == s) return invalid("move", "shift " + quoted(s.id) + " is already there");
    if (Status st = checkShift("move", moved); !st) return st.error();
    s = moved;
    return done("moved " + describe(s), s, before);
  }

  Result<AppliedEdit> run(const ExtendShiftEdit& e) {
    auto found = editable("extend", e.shiftId);
    if (!found) return found.error();
    site::Shift& s = **found;
    site::Shift longer = s;
    if (Status st = setTimes("extend", longer, e.start, e.end); !st) return st.error();
    if (longer.start.utc > s.start.utc || longer.end.utc < s.end.utc ||
        longer.end.utc - longer.start.utc <= s.end.utc - s.start.utc) {
      return invalid(
          "extend", "shift " + quoted(s.id) + " must start no later, end no earlier and be longer");
    }
    if (Status st = checkShift("extend", longer); !st) return st.error();
    s = longer;
    return done("extended " + describe(s), s, std::nullopt);
  }

  Result<AppliedEdit> run(const CutShiftEdit& e) {
    auto found = editable("cut", e.shiftId);
    if (!found) return found.error();
    site::Shift& s = **found;
    site::Shift shorter = s;
    if (Status st = setTimes("cut", shorter, e.start, e.end); !st) return st.error();
    if (shorter.start.utc < s.start.utc || shorter.end.utc > s.end.utc ||
        shorter.end.utc - shorter.start.utc >= s.end.utc - s.start.utc) {
      return invalid("cut", "shift " + quoted(s.id) + " must stay inside its times and be shorter");
    }
    s = shorter;
    return done("cut " + describe(s), s, std::nullopt);
  }

  Result<AppliedEdit> run(const SwapShiftsEdit& e) {
    auto a = editable("swap", e.shiftId);
    if (!a) return a.error();
    auto b = editable("swap", e.otherShiftId);
    if (!b) return b.error();
    if (*a == *b) return invalid("swap", "a shift cannot be swapped with itself");
    if ((*a)->assignee == (*b)->assignee) {
      return invalid("swap", "shifts " + quoted(e.shiftId) + " and " + quoted(e.otherShiftId) +
                                 " have the same person (or are both open)");
    }
    std::swap((*a)->assignee, (*b)->assignee);
    AppliedEdit out;
    out.shiftIds = {e.shiftId, e.otherShiftId};
    addPerson(out, (*a)->assignee);
    addPerson(out, (*b)->assignee);
    out.summary = "swapped " + describe(**a) + " and " + describe(**b);
    sortShifts(d_.shifts);
    return out;
  }

  Result<AppliedEdit> run(const DeleteShiftEdit& e) {
    auto found = editable("delete", e.shiftId);
    if (!found) return found.error();
    const site::Shift gone = **found;
    d_.shifts.erase(d_.shifts.begin() + (*found - d_.shifts.data()));
    AppliedEdit out;
    out.shiftIds = {gone.id};
    addPerson(out, gone.assignee);
    out.summary = "deleted " + describe(gone);
    return out;
  }

  Result<AppliedEdit> run(const AssignEdit& e) {
    auto found = editable("assign", e.shiftId);
    if (!found) return found.error();
    site::Shift& s = **found;
    if (ctx_.index->person(e.personId) == nullptr) {
      return makeError("assign: unknown person " + quoted(e.personId), ErrorKind::kNotFound);
    }
    if (s.assignee == e.personId) {
      return invalid("assign", quoted(e.personId) + " already works shift " + quoted(s.id));
    }
    const auto before = s.assignee;
    s.assignee = e.personId;
    return done("assigned " + describe(s), s, before);
  }

  Result<AppliedEdit> run(const UnassignEdit& e) {
    auto found = editable("unassign", e.shiftId);
    if (!found) return found.error();
    site::Shift& s = **found;
    if (!s.assignee) return invalid("unassign", "shift " + quoted(s.id) + " is already open");
    const auto before = s.assignee;
    s.assignee.reset();
    return done("opened " + describe(s), s, before);
  }

  Result<AppliedEdit> run(const FillWeekEdit& e) {
    AppliedEdit out;
    std::vector<site::Shift> kept;
    for (const site::Shift& s : d_.shifts) {
      if (s.start.utc <= ctx_.now) {
        kept.push_back(s);
        continue;
      }
      out.shiftIds.push_back(s.id);
      addPerson(out, s.assignee);
    }
    std::size_t added = 0;
    for (const TemplateShift& t : e.shifts) {
      auto placed = placeTemplateShift(t, d_.week, *ctx_.zone, newId());
      if (!placed) return invalid("fill", placed.message());
      // The part of the week that is past stays as it was worked.
      if (placed->start.utc <= ctx_.now) continue;
      if (Status st = checkShift("fill", *placed); !st) return st.error();
      out.shiftIds.push_back(placed->id);
      addPerson(out, placed->assignee);
      kept.push_back(std::move(*placed));
      ++added;
    }
    d_.shifts = std::move(kept);
    sortShifts(d_.shifts);
    out.summary = "filled the week from " + e.source + ": " + std::to_string(added) + " shifts";
    return out;
  }

  Result<AppliedEdit> run(const PlanWeekEdit& e) {
    AppliedEdit out;
    std::vector<site::Shift> kept;
    std::map<std::string, const site::Shift*> before;
    for (const site::Shift& s : d_.shifts) {
      if (s.start.utc <= ctx_.now) {
        kept.push_back(s);
      } else {
        before[s.id] = &s;
      }
    }
    for (const site::Shift& s : e.shifts) {
      if (s.start.utc <= ctx_.now) continue;  // what has started stays as the draft has it
      if (Status st = checkShift("plan", s); !st) return st.error();
      auto it = before.find(s.id);
      if (it == before.end() || !(*it->second == s)) {
        out.shiftIds.push_back(s.id);
        addPerson(out, s.assignee);
        if (it != before.end()) addPerson(out, it->second->assignee);
      }
      if (it != before.end()) before.erase(it);
      kept.push_back(s);
    }
    for (const auto& [id, s] : before) {
      out.shiftIds.push_back(id);
      addPerson(out, s->assignee);
    }
    d_.shifts = std::move(kept);
    d_.nextShift = std::max(d_.nextShift, e.nextShift);
    sortShifts(d_.shifts);
    out.summary = e.summary;
    return out;
  }

 private:
  std::string newId() { return formatWeek(d_.week) + "-" + std::to_string(d_.nextShift++); }

  Status setTimes(std::string_view kind, site::Shift& s, site::LocalTime start,
                  site::LocalTime end) {
    if (end <= start) return invalid(kind, "the shift must end after it starts");
    if (end - start > chr::hours(24)) return invalid(kind, "a shift is at most 24 hours");
    auto startUtc = ctx_.zone->toUtc(start);
    if (!startUtc) return invalid(kind, "start: " + startUtc.message());
    auto endUtc = ctx_.zone->toUtc(end);
    if (!endUtc) return invalid(kind, "end: " + endUtc.message());
    s.start = {*startUtc, start};
    s.end = {*endUtc, end};
    return Status::success();
  }

  Status checkShift(std::string_view kind, const site::Shift& s) {
    const site::Station* station = ctx_.index->station(s.stationId);
    if (station == nullptr) {
      return makeError(std::string(kind) + ": unknown station " + quoted(s.stationId),
                       ErrorKind::kNotFound);
    }
    if (s.requiredCertification && ctx_.index->certification(*s.requiredCertification) == nullptr) {
      return makeError(
          std::string(kind) + ": unknown certification " + quoted(*s.requiredCertification),
          ErrorKind::kNotFound);
    }
    if (s.assignee && ctx_.index->person(*s.assignee) == nullptr) {
      return makeError(std::string(kind) + ": unknown person " + quoted(*s.assignee),
                       ErrorKind::kNotFound);
    }
    if (!inWeek(ctx_.site->site, d_.week, s)) {
      return invalid(kind,
                     "shift " + quoted(s.id) + " is not in the week of " + formatWeek(d_.week));
    }
    if (s.start.utc <= ctx_.now) {
      return invalid(kind, "shift " + quoted(s.id) + " would start in the past");
    }
    return Status::success();
  }

  Result<site::Shift*> editable(std::string_view kind, const std::string& id) {
    for (site::Shift& s : d_.shifts) {
      if (s.id != id) continue;
      if (s.start.utc <= ctx_.now) {
        return invalid(kind, "shift " + quoted(id) + " has already started");
      }
      return &s;
    }
    return makeError(
        std::string(kind) + ": no shift " + quoted(id) + " in the draft of " + formatWeek(d_.week),
        ErrorKind::kNotFound);
  }

  AppliedEdit done(std::string summary, const site::Shift& s,
                   const std::optional<std::string>& previousAssignee) {
    AppliedEdit out;
    out.shiftIds = {s.id};
    addPerson(out, previousAssignee);
    addPerson(out, s.assignee);
    out.summary = std::move(summary);
    sortShifts(d_.shifts);
    return out;
  }

  WeekDraft& d_;
  const EditContext& ctx_;
};

}  // namespace

std::string_view editKindName(const DraftEdit& edit) {
  static constexpr std::string_view kNames[] = {"add",    "move",   "extend",   "cut",  "swap",
                                                "delete", "assign", "unassign", "fill", "plan"};
  return kNames[edit.index()];
}

Result<AppliedEdit> applyEdit(const DraftEdit& edit, WeekDraft& draft, const EditContext& ctx) {
  WeekDraft copy = draft;
  EditRun run(copy, ctx);
  auto applied = std::visit([&run](const auto& e) { return run.run(e); }, edit);
  if (applied) draft = std::move(copy);
  return applied;
}

Result<site::Shift> placeTemplateShift(const TemplateShift& t, Week week,
                                       const site::TimeZone& zone, std::string id) {
  if (t.day < 0 || t.day > 7 || t.startMinute < 0 || t.startMinute >= 1440 || t.minutes < 1 ||
      t.minutes > 1440) {
    return makeError("template shift at " + t.stationId + " day " + std::to_string(t.day) +
                         " has times out of range",
                     ErrorKind::kInvalid);
  }
  const site::LocalTime start =
      site::LocalTime(week + chr::days(t.day)) + chr::minutes(t.startMinute);
  const site::LocalTime end = start + chr::minutes(t.minutes);
  auto startUtc = zone.toUtc(start);
  if (!startUtc) return makeError("shift " + id + ": " + startUtc.message(), ErrorKind::kInvalid);
  auto endUtc = zone.toUtc(end);
  if (!endUtc) return makeError("shift " + id + ": " + endUtc.message(), ErrorKind::kInvalid);
  site::Shift s;
  s.id = std::move(id);
  s.stationId = t.stationId;
  s.start = {*startUtc, start};
  s.end = {*endUtc, end};
  s.requiredCertification = t.certificationId;
  s.assignee = t.assignee;
  return s;
}

}  // namespace atoms::week
