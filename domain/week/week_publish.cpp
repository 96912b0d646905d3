// WeekDesk::publish (week_desk.h) and the text each affected person gets.
#include <algorithm>
#include <array>
#include <map>
#include <utility>

#include "base/timestamp.h"
#include "domain/callout/callout_receipt.h"
#include "domain/labor/fair_workweek.h"
#include "domain/site/site_repository.h"
#include "domain/week/week_desk.h"
#include "domain/week/week_desk_loaded.h"

namespace atoms::week {

namespace chr = std::chrono;

namespace {

using ShiftMap = std::map<std::string, site::Shift, std::less<>>;

ShiftMap byId(const std::vector<site::Shift>& shifts) {
  ShiftMap m;
  for (const site::Shift& s : shifts) m.emplace(s.id, s);
  return m;
}

std::optional<site::Shift> at(const ShiftMap& m, const std::string& id) {
  auto it = m.find(id);
  if (it == m.end()) return std::nullopt;
  return it->second;
}

std::vector<site::Shift> sorted(const ShiftMap& m) {
  std::vector<site::Shift> out;
  for (const auto& [id, s] : m) out.push_back(s);
  std::sort(out.begin(), out.end(), [](const site::Shift& a, const site::Shift& b) {
    return a.start.utc != b.start.utc ? a.start.utc < b.start.utc : a.id < b.id;
  });
  return out;
}

std::string dayText(site::LocalTime t) {
  static constexpr std::array<const char*, 7> kDays{"Sun", "Mon", "Tue", "Wed",
                                                    "Thu", "Fri", "Sat"};
  static constexpr std::array<const char*, 12> kMonths{"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                                       "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
  const auto day = chr::floor<chr::days>(t);
  const chr::year_month_day ymd{day};
  return std::string(kDays[chr::weekday(day).c_encoding()]) + " " +
         kMonths[static_cast<unsigned>(ymd.month()) - 1] + " " +
         std::to_string(static_cast<unsigned>(ymd.day()));
}

std::string shiftText(const site::SiteIndex& index, const site::Shift& s) {
  const std::string start = site::formatLocal(s.start.local);
  const std::string end = site::formatLocal(s.end.local);
  const site::Station* station = index.station(s.stationId);
  return dayText(s.start.local) + " " + start.substr(11, 5) + "-" + end.substr(11, 5) + " " +
         (station ? station->name : s.stationId);
}

// The change-engine form of one difference between the published week and the new one.
std::optional<labor::ScheduleChange> changeOf(const std::optional<site::Shift>& before,
                                              const std::optional<site::Shift>& after) {
  labor::ScheduleChange c;
  if (!before && after) {
    c.action = labor::AddShift{*after};
    return c;
  }
  if (before && !after) {
    c.action = labor::CutShift{before->id, true, {}, {}};
    return c;
  }
  if (!before || !after || *before == *after) return std::nullopt;
  if (before->start != after->start || before->end != after->end ||
      before->stationId != after->stationId) {
    const bool longer = after->start.utc <= before->start.utc && after->end.utc >= before->end.utc;
    const bool shorter = after->start.utc >= before->start.utc && after->end.utc <= before->end.utc;
    if (after->stationId == before->stationId && longer) {
      c.action = labor::ExtendShift{before->id, after->start, after->end};
    } else if (after->stationId == before->stationId && shorter) {
      c.action = labor::CutShift{before->id, false, after->start, after->end};
    } else {
      c.action = labor::MoveShift{before->id, after->start, after->end,
                                  after->stationId == before->stationId
                                      ? std::nullopt
                                      : std::optional<std::string>(after->stationId)};
    }
    return c;
  }
  if (after->assignee) {
    c.action = labor::AssignShift{*after->assignee, after->id};
  } else {
    c.action = labor::CutShift{before->id, true, {}, {}};
  }
  return c;
}

json::Value shiftJson(const site::Shift& s) {
  return json::Object{
      {"id", s.id},
      {"station", s.stationId},
      {"start",
       site::formatLocal(s.start.local) +
           site::formatOffset(s.start.local - site::LocalTime(s.start.utc.time_since_epoch()))},
      {"end", site::formatLocal(s.end.local) +
                  site::formatOffset(s.end.local - site::LocalTime(s.end.utc.time_since_epoch()))},
      {"assignee", s.assignee ? json::Value(*s.assignee) : json::Value()}};
}

}  // namespace

std::string weekNoticeText(const site::SiteModel& site, const site::Person& person, Week week,
                           const std::vector<const site::Shift*>& shifts,
                           const std::vector<const site::Shift*>& removed) {
  const site::SiteIndex index(site);
  const std::string first = person.name.substr(0, person.name.find(' '));
  std::string text = "Hi " + first + ", your schedule for the week of " +
                     dayText(site::LocalTime(week)) + " is posted.";
  if (!shifts.empty()) {
    text += " New or changed:";
    for (std::size_t i = 0; i < shifts.size(); ++i) {
      text += (i == 0 ? " " : "; ") + shiftText(index, *shifts[i]);
    }
    text += ".";
  }
  if (!removed.empty()) {
    text += " No longer on your schedule:";
    for (std::size_t i = 0; i < removed.size(); ++i) {
      text += (i == 0 ? " " : "; ") + shiftText(index, *removed[i]);
    }
    text += ".";
  }
  const site::Person* manager =
      person.managerOfRecord ? index.person(*person.managerOfRecord) : nullptr;
  text += " Questions? Reply here or ask " + (manager ? manager->name : "your manager") + ".";
  return text;
}

Result<PublishOutcome> WeekDesk::publish(Week week, std::int64_t version, const std::string& actor,
                                         TimePoint now,
                                         const std::optional<std::string>& overrideReason) {
  if (Status s = checkOverrideReason(overrideReason); !s) return s.error();
  auto l = load(week);
  if (!l) return l.error();
  auto opened = openIn(*l, actor, now);
  if (!opened) return opened.error();
  PublishOutcome out;
  out.view = std::move(*opened);
  auto newer = staleCheck(out.view.draft, version);
  if (!newer) return newer.error();
  if (*newer) {
    out.status = DeskStatus::kStale;
    out.newer = *newer;
    out.message =
        staleMessage(**newer, "nothing was published. Reload, check it and publish again.");
    return out;
  }
  const site::Instant instant = site::toInstant(now);

  // Merge: what changed outside the draft since it was opened (a call-out cover) is kept.
  DraftStore drafts(store_.db());
  auto baseRows = drafts.base(week);
  if (!baseRows) return baseRows.error();
  const std::vector<site::Shift> liveWeek = l->liveWeek();
  const ShiftMap base = byId(*baseRows), live = byId(liveWeek);
  const ShiftMap draft = byId(out.view.draft.shifts);
  ShiftMap merged = draft;
  std::vector<std::string> ids;
  for (const auto& [id, s] : base) ids.push_back(id);
  for (const auto& [id, s] : live) {
    if (!base.contains(id)) ids.push_back(id);
  }
  for (const std::string& id : ids) {
    const auto b = at(base, id), lv = at(live, id), d = at(draft, id);
    if (lv == b || d == lv) continue;
    if (d == b) {
      if (lv) {
        merged[id] = *lv;
      } else {
        merged.erase(id);
      }
    } else {
      out.conflicts.push_back(id);
    }
  }
  // What has started stays as it is published (it is being worked); a draft shift that was
  // never published and has started meanwhile is dropped (nobody was told of it).
  for (const auto& [id, s] : live) {
    if (s.start.utc <= instant) merged[id] = s;
  }
  std::erase_if(merged, [&](const auto& entry) {
    return entry.second.start.utc <= instant && !live.contains(entry.first);
  });
  if (!out.conflicts.empty()) {
    out.status = DeskStatus::kConflict;
    out.message = "Shift " + out.conflicts.front() +
                  " was changed outside this draft (a call-out cover or a site import) and in "
                  "the draft too; nothing was published. Open the week again and redo it.";
    return out;
  }
  const std::vector<site::Shift> shifts = sorted(merged);

  // The week's labor check: every denied finding must have been overridden in an edit.
  auto check = checkWeek(l->live, *l->rules, options_, week, shifts);
  if (!check) return check.error();
  for (const WeekFinding& f : check->findings) {
    if (!f.denied()) continue;
    const bool overridden = std::any_of(
        out.view.overrides.begin(), out.view.overrides.end(), [&f](const DraftOverride& o) {
          return o.ruleId == f.ruleId && o.shiftId == f.shiftId && o.personId == f.personId;
        });
    if (!overridden) out.denials.push_back(f);
  }

  // The new site: the week's shifts replaced, and a schedule version listing them.
  site::SiteModel next = l->live;
  std::erase_if(next.shifts, [&](const site::Shift& s) { return inWeek(next.site, week, s); });
  next.shifts.insert(next.shifts.end(), shifts.begin(), shifts.end());
  site::ScheduleVersion v;
  int n = 1;
  const std::string prefix = "week-" + formatWeek(week) + "-";
  for (const site::ScheduleVersion& old : next.scheduleVersions) {
    if (old.id.starts_with(prefix)) ++n;
  }
  v.id = prefix + std::to_string(n);
  v.publishedAt = instant;
  for (const site::Shift& s : shifts) v.shiftIds.push_back(s.id);
  next.scheduleVersions.push_back(v);
  out.versionId = v.id;

  // Advance notice of the version; premiums of the changes to what was published before.
  {
    auto ctx = labor::LaborContext::build(next, *l->rules, options_);
    if (!ctx) return ctx.error();
    auto fww = labor::FairWorkweek::build(*ctx);
    if (!fww) return fww.error();
    auto notice = fww->publishFindings(v, instant);
    if (!notice) return notice.error();
    out.notice = std::move(*notice);
  }
  for (const labor::RuleEvaluation& e : out.notice) {
    if (e.effect != labor::VerdictKind::kDenied || overrideReason) continue;
    WeekFinding f;
    f.ruleId = e.ruleId;
    if (const auto* p = e.input.find("personId"); p != e.input.end() && p->second.isString())
      f.personId = p->second.asString();
    if (const auto* s = e.input.find("shiftId"); s != e.input.end() && s->second.isString())
      f.shiftId = s->second.asString();
    f.result = e.result;
    f.effect = e.effect;
    f.detail = e.detail;
    f.overridable = true;
    out.denials.push_back(std::move(f));
  }
  if (!out.denials.empty()) {
    out.status = DeskStatus::kDenied;
    const WeekFinding& first = out.denials.front();
    out.message = "Not published: " + first.detail + " (" + first.ruleId + ")." +
                  (first.overridable ? " A manager may publish anyway with a reason."
                                     : " Change the draft first.");
    return out;
  }
  {
    auto ctx = labor::LaborContext::build(l->live, *l->rules, options_);
    if (!ctx) return ctx.error();
    auto changes = labor::ChangeEvaluator::build(*ctx);
    if (!changes) return changes.error();
    std::vector<std::string> changedIds;
    for (const auto& [id, s] : live) changedIds.push_back(id);
    for (const auto& [id, s] : merged) {
      if (!live.contains(id)) changedIds.push_back(id);
    }
    for (const std::string& id : changedIds) {
      const auto change = changeOf(at(live, id), at(merged, id));
      if (!change) continue;
      auto verdict = changes->evaluate(*change, instant);
      if (!verdict) {
        out.gaps.push_back("change to shift " + id + " not judged: " + verdict.message());
        continue;
      }
      out.premiumCents += verdict->premiumCents;
      for (const std::string& p : verdict->consentFrom) {
        if (std::find(out.consentFrom.begin(), out.consentFrom.end(), p) == out.consentFrom.end())
          out.consentFrom.push_back(p);
      }
      for (const std::string& g : verdict->gaps) out.gaps.push_back(g);
      out.changes.push_back(std::move(*verdict));
    }
  }

  // One batch: the site, the draft, the audit entry, the receipt, the texts.
  auto batch = store_.log().begin();
  if (!batch) return batch.error();
  if (Status s = site::writeSiteRows(store_.db(), next); !s) {
    return makeError("the schedule cannot be published: " + s.message());
  }
  WeekDraft published = out.view.draft;
  published.shifts = shifts;
  published.version += 1;
  published.updatedBy = actor;
  published.updatedAt = now;
  published.publishedVersion = v.id;
  published.publishedAt = now;
  auto saved = drafts.save(published);
  if (!saved) return saved.error();
  if (!*saved) return makeError("the draft of " + formatWeek(week) + " changed underneath");
  if (Status s = drafts.replaceBase(week, shifts); !s) return s.error();

  json::Array shiftList;
  for (const site::Shift& s : shifts) shiftList.push_back(shiftJson(s));
  callout::CalloutReceipt receipt("schedule-publish-" + v.id, "schedule.publish", now);
  receipt.source(
      "service", "schedule_draft:" + formatWeek(week) + "@" + std::to_string(version),
      "the draft of the week of " + formatWeek(week) + ", version " + std::to_string(version));
  receipt.source("policy", "labor-rules", "the labor rule tables of the site's jurisdictions");
  receipt.labor(out.notice);
  for (const labor::ChangeVerdict& c : out.changes) {
    for (const labor::PersonVerdict& p : c.people) receipt.labor(p.verdict.evaluations);
  }
  receipt.field("week", formatWeek(week));
  receipt.field("scheduleVersion", v.id);
  receipt.field("publishedBy", actor);
  receipt.field("shifts", std::move(shiftList));
  receipt.field("premiumCents", out.premiumCents);
  receipt.field("laborMinutes", check->labor.minutes);
  receipt.field("laborCostCents", check->labor.costCents());
  json::Array overrides;
  for (const DraftOverride& o : out.view.overrides) {
    overrides.push_back(json::Object{{"ruleId", o.ruleId},
                                     {"shift", o.shiftId},
                                     {"person", o.personId},
                                     {"reason", o.reason},
                                     {"by", o.actor}});
  }
  if (overrideReason) {
    overrides.push_back(json::Object{{"ruleId", "advance_notice"},
                                     {"shift", ""},
                                     {"person", ""},
                                     {"reason", *overrideReason},
                                     {"by", actor}});
  }
  receipt.field("overrides", overrides);
  for (const std::string& g : out.gaps) receipt.gap(g);
  if (!texter_) receipt.gap("the people were not texted: SMS is not running on the box");
  auto seq = receipt.addTo(*batch,
                           "The manager published the week's draft as the site's schedule after "
                           "the labor check; notice and change premiums as evaluated.",
                           "published");
  if (!seq) return seq.error();
  out.receiptSeq = *seq;

  // The texts: each person whose shifts are new, changed or gone.
  const site::SiteIndex index(next);
  for (const site::Person& p : next.people) {
    std::vector<const site::Shift*> mine, gone;
    for (const auto& [id, s] : merged) {
      if (s.assignee != p.id || s.start.utc <= instant) continue;
      const auto before = at(live, id);
      if (!before || *before != s) mine.push_back(&s);
    }
    for (const auto& [id, s] : live) {
      if (s.assignee != p.id || s.start.utc <= instant) continue;
      const auto after = at(merged, id);
      if (!after || after->assignee != p.id) gone.push_back(&s);
    }
    if (mine.empty() && gone.empty()) continue;
    std::sort(mine.begin(), mine.end(), [](const site::Shift* a, const site::Shift* b) {
      return a->start.utc < b->start.utc;
    });
    PersonNotice notice;
    notice.personId = p.id;
    for (const site::Shift* s : mine) notice.shiftIds.push_back(s->id);
    for (const site::Shift* s : gone) notice.removedIds.push_back(s->id);
    if (!texter_) {
      notice.outcome = "not_sent";
      notice.reason = "sms_off";
      out.notices.push_back(std::move(notice));
      continue;
    }
    sms::conversation::OutreachRequest request;
    request.id = "schedule-" + v.id + "-" + p.id;
    request.to = p.phone;
    request.kind = sms::MessageClass::kNotice;
    request.body = weekNoticeText(next, p, week, mine, gone);
    request.ref = v.id;
    request.sources.push_back(
        {"service", "schedule:" + v.id, "your schedule for the week of " + formatWeek(week)});
    request.actor = actor;
    auto sent = texter_(*batch, request);
    if (!sent) {
      notice.outcome = "refused";
      notice.reason = sent.message();
    } else {
      notice.outcome = std::string(sms::conversation::outreachOutcomeName(sent->outcome));
      notice.reason = sent->reason;
    }
    out.notices.push_back(std::move(notice));
  }

  json::Array texted;
  for (const PersonNotice& pn : out.notices) {
    texted.push_back(json::Object{{"person", pn.personId}, {"outcome", pn.outcome}});
  }
  if (Status s =
          drafts.recordEdit(week, {published.version, "publish", actor, now,
                                   json::Object{{"scheduleVersion", v.id},
                                                {"receiptSeq", static_cast<std::int64_t>(*seq)}}});
      !s) {
    return s.error();
  }
  if (Status s = batch->record(now, "schedule.published", actor,
                               json::Object{{"week", formatWeek(week)},
                                            {"draftVersion", version},
                                            {"scheduleVersion", v.id},
                                            {"shifts", static_cast<std::int64_t>(shifts.size())},
                                            {"premiumCents", out.premiumCents},
                                            {"receiptSeq", static_cast<std::int64_t>(*seq)},
                                            {"texted", std::move(texted)}});
      !s) {
    return s.error();
  }
  if (auto c = batch->commit(); !c) return c.error();

  out.view.draft = std::move(published);
  out.view.check = std::move(*check);
  out.message = "Published the week of " + formatWeek(week) + " as " + v.id + "; " +
                std::to_string(out.notices.size()) + " people told.";
  return out;
}

}  // namespace atoms::week
