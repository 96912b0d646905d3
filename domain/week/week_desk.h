// WeekDesk: the manager's week on the box (docs/decisions/0032-schedule-drafts.md): opens a
// week's draft, makes one edit at a time on it with the labor check, saves templates, and
// publishes the draft as the site's schedule (week_publish.cpp).
//
// - Every edit names the draft version it was made on; a stale one is refused (kStale) with who
//   made the newer version and when, and nothing changes. Never last-writer-wins.
// - Every edit runs the labor check on the resulting week (week_check.h) before it is saved; an
//   edit that adds a denied finding is refused (kDenied, nothing saved) unless every such finding
//   is overridable and a reason is given, which is recorded with it.
// - A saved edit commits the draft, its edit record and an audit entry (schedule.draft_edit)
//   together, in one batch of the audit log.
// - publish(): see week_publish.cpp's comment in the header below.
//
// Threading: the writer (the engine thread in the daemon); not synchronised. `now` is passed in.
// Errors are values: kInvalid for a bad edit or week (named), kNotFound for an unknown shift,
// person, station or template, anything else a store or rule-table error.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "base/result.h"
#include "base/time_point.h"
#include "domain/labor/labor_engine.h"
#include "domain/labor/rule_table.h"
#include "domain/labor/schedule_change.h"
#include "domain/week/draft_edit.h"
#include "domain/week/draft_store.h"
#include "domain/week/week_check.h"
#include "domain/week/week_plan.h"
#include "sms/conversation/outreach.h"
#include "store/site_store.h"

namespace atoms::week {

// The rule tables for a site (its jurisdictions); the daemon loads them from labor.dir.
using RulesSource = std::function<Result<labor::RuleBook>(const site::SiteModel& site)>;
// Sends one text inside the publication's batch through the outreach rules (consent, opt-out,
// quiet hours, caps, freeze): Outreach::sendIn in the daemon. Empty: the box has no SMS running,
// and publication says the people were not texted.
using ScheduleTexter = std::function<Result<sms::conversation::OutreachResult>(
    AuditLog::Batch& batch, const sms::conversation::OutreachRequest& request)>;

enum class DeskStatus {
  kDone,      // saved / published
  kStale,     // the version named is not the draft's: reload
  kDenied,    // the labor check denies it (no override, or one not allowed)
  kConflict,  // publication: the published week changed outside the draft on the same shift
};
std::string_view deskStatusName(DeskStatus s);  // "done", "stale", "denied", "conflict"

// Who made the draft's current version, for a stale refusal.
struct NewerVersion {
  std::int64_t version = 0;
  std::string by;
  TimePoint at{};
  std::string kind;  // the edit that made it
};

struct DraftView {
  WeekDraft draft;
  WeekCheck check;
  std::vector<DraftOverride> overrides;
};

struct EditOutcome {
  DeskStatus status = DeskStatus::kDone;
  std::string message;  // one line a manager can read
  DraftView view;       // after the edit when saved, else as it stands
  AppliedEdit applied;  // empty when stale
  // The findings about the shifts and people the edit touched (inline on the grid).
  std::vector<WeekFinding> findings;
  std::vector<WeekFinding> newDenials;    // what the edit would add that is denied
  std::optional<NewerVersion> newer;      // kStale
  std::vector<DraftOverride> overridden;  // recorded with this edit
};

// What a publication told one person.
struct PersonNotice {
  std::string personId;
  std::vector<std::string> shiftIds;    // new or changed shifts of theirs
  std::vector<std::string> removedIds;  // shifts they no longer have
  std::string outcome;                  // "queued", "held", "refused", "not_sent"
  std::string reason;                   // the outreach reason, or why it was not sent
};

struct PublishOutcome {
  DeskStatus status = DeskStatus::kDone;
  std::string message;
  DraftView view;
  std::string versionId;                      // the new schedule version
  std::optional<std::uint64_t> receiptSeq;    // its signed receipt in the audit log
  std::vector<WeekFinding> denials;           // kDenied: what blocks it
  std::vector<labor::RuleEvaluation> notice;  // advance-notice findings of the version
  std::vector<labor::ChangeVerdict> changes;  // changes to what was published before
  std::int64_t premiumCents = 0;              // the changes' premiums (predictability pay)
  std::vector<std::string> consentFrom;       // people whose consent the changes need
  std::vector<PersonNotice> notices;
  std::vector<std::string> conflicts;  // kConflict: the shifts changed on both sides
  std::optional<NewerVersion> newer;   // kStale
  std::vector<std::string> gaps;
};

// "Fill open shifts" or "build the week" (week_builder.h) on a draft version.
struct FillRequest {
  BuildMode mode = BuildMode::kFillOpen;
  std::vector<Requirement> requirements;  // kBuild only
  BuildLimits limits;
};

struct FillOutcome {
  // kDone with the new version saved (edit kind "plan"), or the draft as it was when the plan
  // changes nothing (no new version); kStale as for any edit.
  EditOutcome edit;
  WeekPlan plan;  // empty when stale
};

class WeekDesk {
 public:
  // `store` must outlive the desk.
  WeekDesk(SiteStore& store, RulesSource rules, labor::LaborOptions options = {},
           ScheduleTexter texter = {});

  void setTexter(ScheduleTexter texter) { texter_ = std::move(texter); }

  // The draft of `week`, opened now from the published week when there is none (audited as
  // schedule.draft_opened), with its labor check.
  Result<DraftView> open(Week week, const std::string& actor, TimePoint now);
  // One edit made on `version`. `overrideReason`: why denied findings that allow it are
  // overridden (ignored when the edit adds none).
  Result<EditOutcome> edit(Week week, std::int64_t version, const DraftEdit& edit,
                           const std::string& actor, TimePoint now,
                           const std::optional<std::string>& overrideReason = std::nullopt);
  // Fills the draft of `week` from another week (its draft when there is one, else its published
  // shifts), as an edit made on `version`.
  Result<EditOutcome> copyWeek(Week week, std::int64_t version, Week from, const std::string& actor,
                               TimePoint now,
                               const std::optional<std::string>& overrideReason = std::nullopt);
  // Fills the draft from a saved template, as an edit made on `version`.
  Result<EditOutcome> applyTemplate(
      Week week, std::int64_t version, const std::string& name, const std::string& actor,
      TimePoint now, const std::optional<std::string>& overrideReason = std::nullopt);
  // Fills the open shifts of the draft of `week`, or builds the week (week_fill.cpp), as an edit
  // made on `version`: the plan is made by the roster engine, every assignment in it is one the
  // labor engine allows, and it is saved only when it changes something.
  Result<FillOutcome> fill(Week week, std::int64_t version, const FillRequest& request,
                           const std::string& actor, TimePoint now);
  // Saves the draft of `week` as template `name` (audited as schedule.template_saved).
  Result<WeekTemplate> saveTemplate(Week week, const std::string& name, const std::string& actor,
                                    TimePoint now);
  Result<std::vector<std::string>> templateNames();
  Result<std::vector<EditRecord>> history(Week week, int limit);

  // Publishes the draft of `week` made on `version` (week_publish.cpp):
  // 1. stale version: kStale; 2. the published week as it is now merged with the draft against
  //    the base the draft was opened on: a shift changed outside the draft (a call-out cover)
  //    and not in the draft is taken as it is now; one changed on both sides is kConflict;
  // 3. the labor check of the week: denied findings not overridden (edit overrides) are kDenied;
  // 4. the version's advance notice (fair_workweek.h): a late posting is denied unless
  //    `overrideReason` is given (recorded); changes to shifts published before are judged by
  //    the change engine (schedule_change.h): premiums and consent are reported and receipted;
  // 5. in one batch: the site's shifts of the week replaced and the schedule version added
  //    (site_repository.h), the draft marked published (version + 1), an audit entry
  //    (schedule.published), the signed receipt (schedule.publish) with every shift of the
  //    version, and one text per person whose shifts are new, changed or gone (Outreach).
  Result<PublishOutcome> publish(Week week, std::int64_t version, const std::string& actor,
                                 TimePoint now,
                                 const std::optional<std::string>& overrideReason = std::nullopt);

 private:
  struct Loaded;
  Result<Loaded> load(Week week);
  Result<DraftView> openIn(Loaded& loaded, const std::string& actor, TimePoint now);
  Result<EditOutcome> editLoaded(Loaded& loaded, std::int64_t version, const DraftEdit& edit,
                                 const std::string& actor, TimePoint now,
                                 const std::optional<std::string>& overrideReason);
  Result<std::optional<NewerVersion>> staleCheck(const WeekDraft& draft, std::int64_t version);

  SiteStore& store_;
  RulesSource rules_;
  labor::LaborOptions options_;
  ScheduleTexter texter_;
};

// The text telling a person their week (plain and kind; a way to reach a human).
std::string weekNoticeText(const site::SiteModel& site, const site::Person& person, Week week,
                           const std::vector<const site::Shift*>& shifts,
                           const std::vector<const site::Shift*>& removed);

}  // namespace atoms::week
