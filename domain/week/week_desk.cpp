#include "domain/week/week_desk.h"

#include <algorithm>
#include <utility>

#include "base/timestamp.h"
#include "domain/site/site_repository.h"
#include "domain/week/week_desk_loaded.h"

namespace atoms::week {

namespace {

bool contains(const std::vector<std::string>& v, const std::string& s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

constexpr std::size_t kMaxReason = 500;

}  // namespace

std::string_view deskStatusName(DeskStatus s) {
  switch (s) {
    case DeskStatus::kDone:
      return "done";
    case DeskStatus::kStale:
      return "stale";
    case DeskStatus::kDenied:
      return "denied";
    case DeskStatus::kConflict:
      return "conflict";
  }
  return "done";
}

Status checkOverrideReason(const std::optional<std::string>& reason) {
  if (!reason || (!reason->empty() && reason->size() <= kMaxReason && json::isValidUtf8(*reason)))
    return Status::success();
  return makeError("override reason: give one line of at most 500 characters", ErrorKind::kInvalid);
}

std::string staleMessage(const NewerVersion& newer, const std::string& outcome) {
  return "This week was changed by " + newer.by + " at " + formatTimestamp(newer.at) +
         " (version " + std::to_string(newer.version) + "); " + outcome;
}

std::vector<site::Shift> WeekDesk::Loaded::liveWeek() const {
  std::vector<site::Shift> out;
  for (const site::Shift& s : live.shifts) {
    if (inWeek(live.site, week, s)) out.push_back(s);
  }
  std::sort(out.begin(), out.end(), [](const site::Shift& a, const site::Shift& b) {
    return a.start.utc != b.start.utc ? a.start.utc < b.start.utc : a.id < b.id;
  });
  return out;
}

std::vector<WeekFinding> findingsAbout(const WeekCheck& check,
                                       const std::vector<std::string>& shiftIds,
                                       const std::vector<std::string>& people) {
  std::vector<WeekFinding> out;
  for (const WeekFinding& f : check.findings) {
    if (contains(shiftIds, f.shiftId) || contains(people, f.personId)) out.push_back(f);
  }
  return out;
}

WeekDesk::WeekDesk(SiteStore& store, RulesSource rules, labor::LaborOptions options,
                   ScheduleTexter texter)
    : store_(store), rules_(std::move(rules)), options_(options), texter_(std::move(texter)) {}

Result<WeekDesk::Loaded> WeekDesk::load(Week week) {
  Loaded l;
  l.week = week;
  auto live = site::loadSite(store_.db());
  if (!live) return makeError(live.message(), ErrorKind::kUnavailable);
  l.live = std::move(*live);
  if (Status s = checkWeekStart(l.live.site, week); !s) return s.error();
  auto zone = site::TimeZone::locate(l.live.site.timeZone);
  if (!zone) return zone.error();
  l.zone = *zone;
  auto rules = rules_(l.live);
  if (!rules) return makeError("the labor rules cannot be loaded: " + rules.message());
  l.rules = std::move(*rules);
  auto draft = DraftStore(store_.db()).find(week);
  if (!draft) return draft.error();
  l.draft = std::move(*draft);
  return l;
}

Result<DraftView> WeekDesk::openIn(Loaded& l, const std::string& actor, TimePoint now) {
  if (!l.draft) {
    WeekDraft d;
    d.week = l.week;
    d.version = 1;
    d.openedAt = now;
    d.updatedBy = actor;
    d.updatedAt = now;
    d.shifts = l.liveWeek();
    auto batch = store_.log().begin();
    if (!batch) return batch.error();
    DraftStore drafts(store_.db());
    if (Status s = drafts.create(d, d.shifts); !s) return s.error();
    if (Status s = drafts.recordEdit(
            l.week, {1, "open", actor, now,
                     json::Object{{"shifts", static_cast<std::int64_t>(d.shifts.size())}}});
        !s) {
      return s.error();
    }
    if (Status s =
            batch->record(now, "schedule.draft_opened", actor,
                          json::Object{{"week", formatWeek(l.week)},
                                       {"shifts", static_cast<std::int64_t>(d.shifts.size())}});
        !s) {
      return s.error();
    }
    if (auto c = batch->commit(); !c) return c.error();
    l.draft = std::move(d);
  }
  DraftView view;
  view.draft = *l.draft;
  auto check = checkWeek(l.live, *l.rules, options_, l.week, l.draft->shifts);
  if (!check) return check.error();
  view.check = std::move(*check);
  auto overrides = DraftStore(store_.db()).overrides(l.week);
  if (!overrides) return overrides.error();
  view.overrides = std::move(*overrides);
  return view;
}

Result<DraftView> WeekDesk::open(Week week, const std::string& actor, TimePoint now) {
  auto l = load(week);
  if (!l) return l.error();
  return openIn(*l, actor, now);
}

Result<std::optional<NewerVersion>> WeekDesk::staleCheck(const WeekDraft& draft,
                                                         std::int64_t version) {
  if (version == draft.version) return std::optional<NewerVersion>();
  NewerVersion n;
  n.version = draft.version;
  n.by = draft.updatedBy;
  n.at = draft.updatedAt;
  auto latest = DraftStore(store_.db()).edits(draft.week, 1);
  if (!latest) return latest.error();
  if (!latest->empty()) n.kind = latest->front().kind;
  return std::optional(n);
}

Result<EditOutcome> WeekDesk::editLoaded(Loaded& l, std::int64_t version, const DraftEdit& edit,
                                         const std::string& actor, TimePoint now,
                                         const std::optional<std::string>& overrideReason) {
  if (Status s = checkOverrideReason(overrideReason); !s) return s.error();
  auto opened = openIn(l, actor, now);
  if (!opened) return opened.error();
  EditOutcome out;
  out.view = std::move(*opened);
  auto newer = staleCheck(out.view.draft, version);
  if (!newer) return newer.error();
  if (*newer) {
    out.status = DeskStatus::kStale;
    out.newer = *newer;
    out.message =
        staleMessage(**newer, "your change was made on version " + std::to_string(version) +
                                  " and was not saved. Reload and try again.");
    return out;
  }

  WeekDraft next = out.view.draft;
  const site::SiteIndex index(l.live);
  EditContext ctx{&l.live, &index, &*l.zone, site::toInstant(now)};
  auto applied = applyEdit(edit, next, ctx);
  if (!applied) return applied.error();
  auto check = checkWeek(l.live, *l.rules, options_, l.week, next.shifts);
  if (!check) return check.error();
  out.applied = *applied;
  out.findings = findingsAbout(*check, applied->shiftIds, applied->personIds);
  out.newDenials = newDenials(out.view.check, *check);

  const bool allOverridable = std::all_of(out.newDenials.begin(), out.newDenials.end(),
                                          [](const WeekFinding& f) { return f.overridable; });
  if (!out.newDenials.empty() && (!allOverridable || !overrideReason)) {
    out.status = DeskStatus::kDenied;
    const WeekFinding& first = out.newDenials.front();
    out.message = "Not saved: " + first.detail + " (" + first.ruleId + ")." +
                  (allOverridable ? " A manager may override this with a reason."
                                  : " This rule cannot be overridden.");
    return out;
  }

  next.version = out.view.draft.version + 1;
  next.updatedBy = actor;
  next.updatedAt = now;
  auto batch = store_.log().begin();
  if (!batch) return batch.error();
  DraftStore drafts(store_.db());
  auto saved = drafts.save(next);
  if (!saved) return saved.error();
  if (!*saved) return makeError("the draft of " + formatWeek(l.week) + " changed underneath");
  json::Array overrides;
  for (const WeekFinding& f : out.newDenials) {
    DraftOverride o{f.ruleId, f.shiftId, f.personId, *overrideReason, actor, now, next.version};
    if (Status s = drafts.recordOverride(l.week, o); !s) return s.error();
    overrides.push_back(json::Object{
        {"ruleId", f.ruleId}, {"shift", f.shiftId}, {"person", f.personId}, {"reason", o.reason}});
    out.overridden.push_back(std::move(o));
  }
  json::Object detail{{"summary", applied->summary},
                      {"shifts", json::Array(applied->shiftIds.begin(), applied->shiftIds.end())},
                      {"overrides", overrides}};
  if (Status s = drafts.recordEdit(
          l.week, {next.version, std::string(editKindName(edit)), actor, now, detail});
      !s) {
    return s.error();
  }
  json::Object audit{{"week", formatWeek(l.week)},
                     {"version", next.version},
                     {"kind", editKindName(edit)},
                     {"summary", applied->summary},
                     {"overrides", std::move(overrides)},
                     {"denied", static_cast<std::int64_t>(check->denied)},
                     {"premiumCents", check->labor.premiumCents}};
  if (Status s = batch->record(now, "schedule.draft_edit", actor, std::move(audit)); !s) {
    return s.error();
  }
  if (auto c = batch->commit(); !c) return c.error();

  out.view.draft = std::move(next);
  out.view.check = std::move(*check);
  out.view.overrides.insert(out.view.overrides.end(), out.overridden.begin(), out.overridden.end());
  out.message = "Saved: " + applied->summary + ".";
  return out;
}

Result<EditOutcome> WeekDesk::edit(Week week, std::int64_t version, const DraftEdit& edit,
                                   const std::string& actor, TimePoint now,
                                   const std::optional<std::string>& overrideReason) {
  auto l = load(week);
  if (!l) return l.error();
  return editLoaded(*l, version, edit, actor, now, overrideReason);
}

Result<EditOutcome> WeekDesk::copyWeek(Week week, std::int64_t version, Week from,
                                       const std::string& actor, TimePoint now,
                                       const std::optional<std::string>& overrideReason) {
  auto l = load(week);
  if (!l) return l.error();
  if (Status s = checkWeekStart(l->live.site, from); !s) return s.error();
  if (from == week)
    return makeError("copy: a week cannot be copied onto itself", ErrorKind::kInvalid);
  auto source = DraftStore(store_.db()).find(from);
  if (!source) return source.error();
  std::vector<site::Shift> shifts;
  if (*source) {
    shifts = (*source)->shifts;
  } else {
    Loaded other;
    other.week = from;
    other.live = l->live;
    shifts = other.liveWeek();
  }
  FillWeekEdit fill;
  fill.source = "week " + formatWeek(from);
  for (const site::Shift& s : shifts) fill.shifts.push_back(templateShiftOf(from, s));
  return editLoaded(*l, version, fill, actor, now, overrideReason);
}

Result<EditOutcome> WeekDesk::applyTemplate(Week week, std::int64_t version,
                                            const std::string& name, const std::string& actor,
                                            TimePoint now,
                                            const std::optional<std::string>& overrideReason) {
  auto l = load(week);
  if (!l) return l.error();
  auto t = DraftStore(store_.db()).findTemplate(name);
  if (!t) return t.error();
  if (!*t) return makeError("no template named '" + name + "'", ErrorKind::kNotFound);
  FillWeekEdit fill{(*t)->shifts, "template '" + name + "'"};
  return editLoaded(*l, version, fill, actor, now, overrideReason);
}

Result<WeekTemplate> WeekDesk::saveTemplate(Week week, const std::string& name,
                                            const std::string& actor, TimePoint now) {
  if (name.empty() || name.size() > 64 || !json::isValidUtf8(name) ||
      !std::all_of(name.begin(), name.end(), [](char c) { return c >= 0x20 && c != 0x7f; })) {
    return makeError("template name: 1 to 64 printable characters", ErrorKind::kInvalid);
  }
  auto l = load(week);
  if (!l) return l.error();
  auto view = openIn(*l, actor, now);
  if (!view) return view.error();
  WeekTemplate t;
  t.name = name;
  t.createdBy = actor;
  t.createdAt = now;
  for (const site::Shift& s : view->draft.shifts) t.shifts.push_back(templateShiftOf(week, s));
  auto batch = store_.log().begin();
  if (!batch) return batch.error();
  if (Status s = DraftStore(store_.db()).saveTemplate(t); !s) return s.error();
  if (Status s =
          batch->record(now, "schedule.template_saved", actor,
                        json::Object{{"name", name},
                                     {"week", formatWeek(week)},
                                     {"shifts", static_cast<std::int64_t>(t.shifts.size())}});
      !s) {
    return s.error();
  }
  if (auto c = batch->commit(); !c) return c.error();
  return t;
}

Result<std::vector<std::string>> WeekDesk::templateNames() {
  return DraftStore(store_.db()).templateNames();
}

Result<std::vector<EditRecord>> WeekDesk::history(Week week, int limit) {
  return DraftStore(store_.db()).edits(week, limit);
}

}  // namespace atoms::week
