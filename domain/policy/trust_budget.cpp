#include "domain/policy/trust_budget.h"

#include <algorithm>
#include <array>
#include <cstdlib>
#include <initializer_list>
#include <utility>

#include "base/name_table.h"
#include "domain/policy/state_reader.h"

namespace atoms::policy {

namespace {

using std::chrono::milliseconds;

constexpr NameTable<TrustOutcome, 8> kTrustOutcomeNames{{
    {TrustOutcome::kAutonomousVerified, "autonomous_verified"},
    {TrustOutcome::kProposalApprovedUnedited, "proposal_approved_unedited"},
    {TrustOutcome::kProposalEdited, "proposal_edited"},
    {TrustOutcome::kProposalDeclined, "proposal_declined"},
    {TrustOutcome::kShadowAgreed, "shadow_agreed"},
    {TrustOutcome::kShadowDisagreed, "shadow_disagreed"},
    {TrustOutcome::kUsefulTap, "useful_tap"},
    {TrustOutcome::kVerificationMismatch, "verification_mismatch"},
}};

constexpr NameTable<OverrideReason, 4> kReasonNames{{
    {OverrideReason::kBadTiming, "BAD_TIMING"},
    {OverrideReason::kTone, "TONE"},
    {OverrideReason::kWrongFacts, "WRONG_FACTS"},
    {OverrideReason::kWrongJudgment, "WRONG_JUDGMENT"},
}};

constexpr NameTable<GraduationCause, 7> kCauseNames{{
    {GraduationCause::kStarted, "started"},
    {GraduationCause::kConfigured, "configured"},
    {GraduationCause::kRegression, "regression"},
    {GraduationCause::kOwnerRegression, "owner_regression"},
    {GraduationCause::kAdvance, "advance"},
    {GraduationCause::kInactivityHold, "inactivity_hold"},
    {GraduationCause::kHoldEnded, "hold_ended"},
}};

// The capped credits, indexed by TrustBudget::Cap: the name in the stored state and the cap.
constexpr std::array<std::pair<std::string_view, int>, 3> kCaps{{
    {"autonomous_verified", 20},  // +10 a day
    {"shadow_agreed", 20},        // +10 a day
    {"useful_tap", 10},           // +5 a day
}};

Graduation below(Graduation g) {
  return g == Graduation::kAutonomous ? Graduation::kPropose : Graduation::kShadow;
}

std::string daysText(TimePoint::duration d) {
  const auto days = std::chrono::floor<std::chrono::days>(d).count();
  return std::to_string(std::max<std::int64_t>(days, 0)) + (days == 1 ? " day" : " days");
}

// "82%", "82.5%" (floored to the tenth), "none" without a decision.
std::string percentText(int part, int whole) {
  if (whole == 0) return "none";
  const long tenths = 1000L * part / whole;
  std::string s = std::to_string(tenths / 10);
  if (tenths % 10 != 0) s += "." + std::to_string(tenths % 10);
  return s + "% (" + std::to_string(part) + " of " + std::to_string(whole) + ")";
}

GraduationCondition condition(std::string name, std::string required, std::string actual,
                              bool met) {
  return {std::move(name), std::move(required), std::move(actual),
          met ? GraduationCondition::Status::kMet : GraduationCondition::Status::kUnmet};
}

std::string_view statusName(GraduationCondition::Status s) {
  switch (s) {
    case GraduationCondition::Status::kMet:
      return "met";
    case GraduationCondition::Status::kUnmet:
      return "unmet";
    case GraduationCondition::Status::kNotApplicable:
      return "not_applicable";
  }
  return "unknown";
}

std::string bits(const std::deque<bool>& window) {
  std::string s;
  for (bool b : window) s += b ? '1' : '0';
  return s;
}

void push(std::deque<bool>& window, bool value, int limit) {
  window.push_back(value);
  while (static_cast<int>(window.size()) > limit) window.pop_front();
}

int count(const std::deque<bool>& window) {
  return static_cast<int>(std::count(window.begin(), window.end(), true));
}

}  // namespace

int entryTrustHalves(Graduation level) {
  return level == Graduation::kAutonomous ? kAutonomousTrustHalves
         : level == Graduation::kPropose  ? kProposeTrustHalves
                                          : 0;
}

std::string trustText(int halves) {
  const std::string whole = std::to_string(halves / 2);
  return halves % 2 == 0 ? whole : whole + ".5";
}

std::string signedTrustText(int halves) {
  return (halves > 0 ? "+" : halves < 0 ? "-" : "") + trustText(std::abs(halves));
}

std::string_view trustOutcomeName(TrustOutcome o) { return nameOf(kTrustOutcomeNames, o); }
std::optional<TrustOutcome> trustOutcomeFromName(std::string_view name) {
  return fromName(kTrustOutcomeNames, name);
}
std::string_view overrideReasonName(OverrideReason r) { return nameOf(kReasonNames, r); }
std::optional<OverrideReason> overrideReasonFromName(std::string_view name) {
  return fromName(kReasonNames, name);
}
std::string_view graduationCauseName(GraduationCause c) { return nameOf(kCauseNames, c); }

std::string TrustChange::describe() const {
  std::string s = "trust " + trustText(beforeHalves) + " -> " + trustText(afterHalves) + " (" +
                  event + (detail.empty() ? "" : " " + detail) + " ";
  if (appliedHalves == requestedHalves) return s + signedTrustText(appliedHalves) + ")";
  s += signedTrustText(appliedHalves) + " of " + signedTrustText(requestedHalves);
  return s + (capped ? ": daily cap reached)" : ": trust is bounded to 0..100)");
}

std::string GraduationChange::describe() const {
  std::string s = std::string(graduationCauseName(cause)) + " " +
                  std::string(graduationName(from)) + " -> " + std::string(graduationName(to));
  if (earnedFrom != from || earnedTo != to) {
    s += " (earned " + std::string(graduationName(earnedFrom)) + " -> " +
         std::string(graduationName(earnedTo)) + ")";
  }
  return s + ": " + reason;
}

json::Value GraduationCondition::toJson() const {
  return json::Object{
      {"name", name}, {"required", required}, {"actual", actual}, {"status", statusName(status)}};
}

std::string Eligibility::describe() const {
  if (!to) return function + " is AUTONOMOUS: no higher level";
  std::string s = function + " " + std::string(graduationName(from)) + " -> " +
                  std::string(graduationName(*to)) + ": ";
  if (eligible) return s + "eligible";
  std::string unmet;
  for (const GraduationCondition& c : conditions) {
    if (c.status != GraduationCondition::Status::kUnmet) continue;
    unmet += (unmet.empty() ? "" : "; ") + c.name + " " + c.actual + ", needs " + c.required;
  }
  return s + "not eligible (" + unmet + ")";
}

json::Value Eligibility::toJson() const {
  json::Array conds;
  for (const GraduationCondition& c : conditions) conds.push_back(c.toJson());
  json::Object o{{"function", function},
                 {"from", graduationName(from)},
                 {"eligible", eligible},
                 {"conditions", std::move(conds)}};
  if (to) o.emplace("to", graduationName(*to));
  return o;
}

Result<TrustBudget> TrustBudget::start(std::string_view function, TimePoint start,
                                       Graduation level) {
  if (!isManagementFunction(function)) {
    return makeError("trust budget: \"" + std::string(function) +
                     "\" is not a management function (seed 000)");
  }
  TrustBudget b;
  b.function_ = std::string(function);
  start = std::chrono::floor<milliseconds>(start);
  b.since_ = b.listeningEnded_ = b.latest_ = start;
  b.earned_ = level;
  b.trustHalves_ = entryTrustHalves(level);
  return b;
}

Graduation TrustBudget::effective() const { return hold_ ? below(earned_) : earned_; }

TimePoint TrustBudget::clampTime(TimePoint at) {
  latest_ = std::max(latest_, TimePoint(std::chrono::floor<milliseconds>(at)));
  return latest_;
}

void TrustBudget::prune(TimePoint at) {
  std::erase_if(overrides_, [&](const OverrideRecord& o) { return o.at <= at - kSevWindow; });
  std::erase_if(sevs_, [&](const Sev& s) { return s.closedAt && s.at <= at - kSevWindow; });
  for (auto& grants : grants_) {
    std::erase_if(grants, [&](const Grant& g) { return g.at <= at - kCapWindow; });
  }
}

void TrustBudget::move(TimePoint at, std::string event, std::string detail, int halves,
                       std::optional<Cap> cap, TrustUpdate& out) {
  int applied = halves;
  bool capped = false;
  if (halves > 0) {
    if (cap) {
      int granted = 0;
      for (const Grant& g : grants_[static_cast<int>(*cap)]) granted += g.halves;
      const int room = std::max(kCaps[static_cast<int>(*cap)].second - granted, 0);
      if (applied > room) {
        applied = room;
        capped = true;
      }
    }
    applied = std::min(applied, kTrustMaxHalves - trustHalves_);
  } else {
    applied = std::max(halves, -trustHalves_);
  }
  if (applied == 0) return;
  if (cap) grants_[static_cast<int>(*cap)].push_back({at, applied});
  out.trust = TrustChange{std::move(event), std::move(detail),      halves, applied,
                          trustHalves_,     trustHalves_ + applied, capped};
  trustHalves_ += applied;
}

void TrustBudget::enter(Graduation level, TimePoint at) {
  earned_ = level;
  since_ = at;
  hold_.reset();
  if (level == Graduation::kShadow) shadow_.clear();
  if (level == Graduation::kPropose) proposals_.clear();
}

void TrustBudget::regress(TimePoint at, Graduation to, GraduationCause cause, std::string reason,
                          TrustUpdate& out) {
  GraduationChange c{cause, effective(), to, earned_, to, std::move(reason), at, {}};
  enter(to, at);
  lastRegression_ = at;
  c.to = effective();
  out.graduation.push_back(std::move(c));
}

void TrustBudget::regressOnTrust(TimePoint at, TrustUpdate& out) {
  if (earned_ == Graduation::kAutonomous && trustHalves_ < kAutonomousFloorHalves) {
    regress(at, Graduation::kPropose, GraduationCause::kRegression,
            "trust " + trustText(trustHalves_) + " < " + trustText(kAutonomousFloorHalves), out);
  }
  if (earned_ == Graduation::kPropose && trustHalves_ < kProposeFloorHalves) {
    regress(at, Graduation::kShadow, GraduationCause::kRegression,
            "trust " + trustText(trustHalves_) + " < " + trustText(kProposeFloorHalves), out);
  }
}

void TrustBudget::cleanDecision(TimePoint at, TrustUpdate& out) {
  if (!hold_ || ++hold_->cleanDecisions < kCleanDecisionsToResume) return;
  const Graduation from = effective();
  hold_.reset();
  out.graduation.push_back(
      {GraduationCause::kHoldEnded,
       from,
       earned_,
       earned_,
       earned_,
       std::to_string(kCleanDecisionsToResume) + " clean decisions since resuming after inactivity",
       at,
       {}});
}

void TrustBudget::debitDuringHold() {
  if (hold_) hold_->cleanDecisions = 0;
}

TrustUpdate TrustBudget::recordDecision(TimePoint at) {
  at = clampTime(at);
  prune(at);
  TrustUpdate out;
  // A budget younger than the window is new, not inactive: its quiet start does not count.
  // Only AUTONOMOUS is held lower (decision 0010): at PROPOSE a person already confirms each
  // step, and a hold down to SHADOW would stop a quiet site's call-outs with nothing to end it
  // (SHADOW's clean decisions need a person's agreement the box does not receive).
  if (!hold_ && earned_ == Graduation::kAutonomous && at - listeningEnded_ >= kInactivityWindow) {
    const auto recent = std::count_if(recentDecisions_.begin(), recentDecisions_.end(),
                                      [&](TimePoint t) { return t > at - kInactivityWindow; });
    if (recent < kInactiveBelowDecisions) {
      hold_ = InactivityHold{at, 0};
      out.graduation.push_back(
          {GraduationCause::kInactivityHold,
           earned_,
           effective(),
           earned_,
           earned_,
           std::to_string(recent) + " decisions in the 30 days before, fewer than " +
               std::to_string(kInactiveBelowDecisions) + ": one level lower until " +
               std::to_string(kCleanDecisionsToResume) + " clean decisions",
           at,
           {}});
    }
  }
  ++decisionCount_;
  recentDecisions_.push_back(at);
  while (static_cast<int>(recentDecisions_.size()) > kInactiveBelowDecisions) {
    recentDecisions_.pop_front();
  }
  return out;
}

TrustUpdate TrustBudget::noteEligibleNoticed(TimePoint at) {
  eligibleNoticed_ = clampTime(at);
  return {};
}

TrustUpdate TrustBudget::recordOutcome(TimePoint at, TrustOutcome outcome) {
  at = clampTime(at);
  prune(at);
  TrustUpdate out;
  const std::string event(trustOutcomeName(outcome));
  switch (outcome) {
    case TrustOutcome::kAutonomousVerified:
      move(at, event, {}, 2, Cap::kAutonomousVerified, out);
      cleanDecision(at, out);
      break;
    case TrustOutcome::kProposalApprovedUnedited:
      push(proposals_, true, kProposalWindow);
      move(at, event, {}, 4, std::nullopt, out);
      cleanDecision(at, out);
      break;
    case TrustOutcome::kProposalEdited:
    case TrustOutcome::kProposalDeclined:
      push(proposals_, false, kProposalWindow);
      break;
    case TrustOutcome::kShadowAgreed:
      push(shadow_, true, kShadowWindow);
      move(at, event, {}, 2, Cap::kShadowAgreed, out);
      cleanDecision(at, out);
      break;
    case TrustOutcome::kShadowDisagreed:
      push(shadow_, false, kShadowWindow);
      break;
    case TrustOutcome::kUsefulTap:
      move(at, event, {}, 1, Cap::kUsefulTap, out);
      break;
    case TrustOutcome::kVerificationMismatch:
      move(at, event, {}, -10, std::nullopt, out);
      debitDuringHold();
      regressOnTrust(at, out);
      break;
  }
  return out;
}

TrustUpdate TrustBudget::recordOverride(TimePoint at, OverrideReason reason) {
  at = clampTime(at);
  prune(at);
  TrustUpdate out;
  overrides_.push_back({at, reason});
  const bool wrong =
      reason == OverrideReason::kWrongFacts || reason == OverrideReason::kWrongJudgment;
  move(at, "override", std::string(overrideReasonName(reason)), wrong ? -6 : -2, std::nullopt, out);
  debitDuringHold();
  regressOnTrust(at, out);
  return out;
}

Result<TrustUpdate> TrustBudget::recordSev(TimePoint at, std::string_view id, int level) {
  if (level < 1 || level > 4) {
    return makeError("SEV level " + std::to_string(level) + " is not one of 1..4");
  }
  if (id.empty()) return makeError("a SEV needs its id");
  if (std::any_of(sevs_.begin(), sevs_.end(), [&](const Sev& s) { return s.id == id; })) {
    return makeError("SEV " + std::string(id) + " is already recorded for " + function_);
  }
  at = clampTime(at);
  prune(at);
  TrustUpdate out;
  if (level == 4) return out;
  sevs_.push_back({std::string(id), level, at, std::nullopt});
  out.sev = sevs_.back();
  const std::string event = "sev" + std::to_string(level);
  const std::string why = "SEV" + std::to_string(level) + " " + std::string(id);
  if (level == 3) move(at, event, std::string(id), -20, std::nullopt, out);
  if (level == 2) {
    move(at, event, std::string(id), -50, std::nullopt, out);
    if (earned_ == Graduation::kAutonomous) {
      regress(at, Graduation::kPropose, GraduationCause::kRegression, why, out);
    }
  }
  if (level == 1) {
    move(at, event, std::string(id), -trustHalves_, std::nullopt, out);
    if (earned_ != Graduation::kShadow) {
      regress(at, Graduation::kShadow, GraduationCause::kRegression, why, out);
    }
  }
  debitDuringHold();
  regressOnTrust(at, out);
  return out;
}

Result<TrustUpdate> TrustBudget::closeSev(TimePoint at, std::string_view id) {
  auto sev = std::find_if(sevs_.begin(), sevs_.end(), [&](const Sev& s) { return s.id == id; });
  if (sev == sevs_.end()) {
    return makeError("SEV " + std::string(id) + " is not recorded for " + function_);
  }
  if (sev->closedAt) return makeError("SEV " + std::string(id) + " is already closed");
  sev->closedAt = clampTime(at);
  TrustUpdate out;
  out.sev = *sev;
  prune(*sev->closedAt);
  return out;
}

TrustUpdate TrustBudget::breakerTripped(TimePoint at, std::string_view breaker) {
  at = clampTime(at);
  prune(at);
  TrustUpdate out;
  if (earned_ == Graduation::kAutonomous) {
    regress(at, Graduation::kPropose, GraduationCause::kRegression,
            "breaker " + std::string(breaker) + " tripped", out);
  }
  return out;
}

Result<TrustUpdate> TrustBudget::ownerRegress(TimePoint at, Graduation to,
                                              std::string_view reason) {
  if (reason.find_first_not_of(' ') == std::string_view::npos) {
    return makeError("regressing " + function_ + " needs a reason");
  }
  if (to >= earned_) {
    return makeError("the owner can only narrow " + function_ + ": it is " +
                     std::string(graduationName(earned_)) + ", " + std::string(graduationName(to)) +
                     " is not lower (advancing is " + "graduation.advance, on the evidence)");
  }
  at = clampTime(at);
  prune(at);
  TrustUpdate out;
  regress(at, to, GraduationCause::kOwnerRegression, "by the owner: " + std::string(reason), out);
  return out;
}

Eligibility TrustBudget::eligibility(TimePoint at) const {
  at = std::max(latest_, TimePoint(std::chrono::floor<milliseconds>(at)));
  Eligibility e;
  e.function = function_;
  e.from = earned_;
  if (earned_ == Graduation::kAutonomous) return e;
  e.to = earned_ == Graduation::kShadow ? Graduation::kPropose : Graduation::kAutonomous;
  auto& c = e.conditions;
  if (earned_ == Graduation::kShadow) {
    c.push_back(condition("trust", ">= " + trustText(kProposeTrustHalves), trustText(trustHalves_),
                          trustHalves_ >= kProposeTrustHalves));
    c.push_back(condition("days_since_listening_ended", ">= 14 days",
                          daysText(at - listeningEnded_), at - listeningEnded_ >= kMinDaysAtLevel));
    const int n = static_cast<int>(shadow_.size());
    const int agreed = count(shadow_);
    c.push_back(condition("shadow_decisions", ">= " + std::to_string(kMinShadowDecisions),
                          std::to_string(n), n >= kMinShadowDecisions));
    c.push_back(condition("shadow_agreement", ">= " + std::to_string(kShadowAgreementPercent) + "%",
                          percentText(agreed, n),
                          n > 0 && agreed * 100 >= kShadowAgreementPercent * n));
    std::string open;
    for (const Sev& s : sevs_) {
      if (s.level <= 2 && !s.closedAt) {
        open += (open.empty() ? "" : ", ") + s.id + " (SEV" + std::to_string(s.level) + ")";
      }
    }
    c.push_back(condition("open_sev_1_2", "none", open.empty() ? "none" : open, open.empty()));
  } else {
    c.push_back(condition("trust", ">= " + trustText(kAutonomousTrustHalves),
                          trustText(trustHalves_), trustHalves_ >= kAutonomousTrustHalves));
    const int n = static_cast<int>(proposals_.size());
    const int unedited = count(proposals_);
    c.push_back(condition("proposals", ">= " + std::to_string(kProposalWindow), std::to_string(n),
                          n >= kProposalWindow));
    c.push_back(condition("approved_without_edit",
                          ">= " + std::to_string(kApprovedUneditedPercent) + "% of the last " +
                              std::to_string(kProposalWindow),
                          percentText(unedited, n),
                          n > 0 && unedited * 100 >= kApprovedUneditedPercent * n));
    const auto recent = std::count_if(sevs_.begin(), sevs_.end(), [&](const Sev& s) {
      return s.level <= 2 && s.at > at - kSevWindow;
    });
    c.push_back(condition("sev_1_2_in_30_days", "0", std::to_string(recent), recent == 0));
    c.push_back({"calibration_ece", "< 0.10",
                 "not applicable: no decision of this box comes from a model with a calibration "
                 "(docs/decisions/0009-trust-budget-on-the-box.md)",
                 GraduationCondition::Status::kNotApplicable});
    c.push_back(condition("days_at_level", ">= 14 days at PROPOSE", daysText(at - since_),
                          at - since_ >= kMinDaysAtLevel));
  }
  // Hysteresis: the level began with a regression (a later advance would have moved `since`).
  if (lastRegression_ && *lastRegression_ >= since_) {
    c.push_back(
        condition("hysteresis",
                  ">= 14 days at " + std::string(graduationName(earned_)) + " since the regression",
                  daysText(at - *lastRegression_), at - *lastRegression_ >= kMinDaysAtLevel));
  } else {
    c.push_back({"hysteresis", ">= 14 days at the level after a regression",
                 "not applicable: the level did not begin with a regression",
                 GraduationCondition::Status::kNotApplicable});
  }
  if (hold_) {
    c.push_back(condition("inactivity", "not resuming after inactivity",
                          std::to_string(hold_->cleanDecisions) + " of " +
                              std::to_string(kCleanDecisionsToResume) +
                              " clean decisions since resuming",
                          false));
  } else {
    c.push_back(condition("inactivity", "not resuming after inactivity", "active", true));
  }
  e.eligible = std::none_of(c.begin(), c.end(), [](const GraduationCondition& k) {
    return k.status == GraduationCondition::Status::kUnmet;
  });
  return e;
}

Result<TrustUpdate> TrustBudget::advance(TimePoint at, bool ownerConfirmed) {
  Eligibility e = eligibility(at);
  if (!e.to) return makeError(e.describe());
  if (!e.eligible) return makeError(e.describe());
  if (!ownerConfirmed) {
    return makeError("advancing " + function_ + " to " + std::string(graduationName(*e.to)) +
                     " needs the owner's confirmation (graduation.advance is PROPOSE_CONFIRM)");
  }
  at = clampTime(at);
  prune(at);
  TrustUpdate out;
  out.graduation.push_back({GraduationCause::kAdvance, earned_, *e.to, earned_, *e.to,
                            "every condition met; confirmed by the owner", at,
                            std::move(e.conditions)});
  enter(*e.to, at);
  return out;
}

json::Value TrustBudget::toJson() const {
  json::Array decisions;
  for (TimePoint t : recentDecisions_) decisions.push_back(millis(t));
  json::Array overrides;
  for (const OverrideRecord& o : overrides_) {
    overrides.push_back(
        json::Object{{"at", millis(o.at)}, {"reason", overrideReasonName(o.reason)}});
  }
  json::Array sevs;
  for (const Sev& s : sevs_) {
    sevs.push_back(
        json::Object{{"id", s.id},
                     {"level", s.level},
                     {"at", millis(s.at)},
                     {"closedAt", s.closedAt ? json::Value(millis(*s.closedAt)) : json::Value()}});
  }
  json::Object grants;
  for (std::size_t i = 0; i < kCaps.size(); ++i) {
    json::Array list;
    for (const Grant& g : grants_[i]) {
      list.push_back(json::Object{{"at", millis(g.at)}, {"halves", g.halves}});
    }
    grants.emplace(std::string(kCaps[i].first), std::move(list));
  }
  json::Value hold;
  if (hold_) {
    hold = json::Object{{"since", millis(hold_->since)}, {"clean", hold_->cleanDecisions}};
  }
  return json::Object{
      {"function", function_},
      {"trustHalves", trustHalves_},
      {"earned", graduationName(earned_)},
      {"since", millis(since_)},
      {"listeningEnded", millis(listeningEnded_)},
      {"latest", millis(latest_)},
      {"lastRegression", lastRegression_ ? json::Value(millis(*lastRegression_)) : json::Value()},
      {"hold", std::move(hold)},
      {"eligibleNoticed",
       eligibleNoticed_ ? json::Value(millis(*eligibleNoticed_)) : json::Value()},
      {"decisions", decisionCount_},
      {"recentDecisions", std::move(decisions)},
      {"shadow", bits(shadow_)},
      {"proposals", bits(proposals_)},
      {"overrides", std::move(overrides)},
      {"sevs", std::move(sevs)},
      {"grants", std::move(grants)},
  };
}

Result<TrustBudget> TrustBudget::fromJson(const json::Value& state) {
  StateReader r(state, "trust budget state: state");
  r.only({"function", "trustHalves", "earned", "since", "listeningEnded", "latest",
          "lastRegression", "hold", "eligibleNoticed", "decisions", "recentDecisions", "shadow",
          "proposals", "overrides", "sevs", "grants"});
  TrustBudget b;
  b.function_ = r.text("function");
  if (r.error().empty() && !isManagementFunction(b.function_)) {
    r.fail("field \"function\" is not a management function: " + b.function_);
  }
  b.trustHalves_ = static_cast<int>(r.integer("trustHalves", 0, kTrustMaxHalves));
  const std::string earned = r.text("earned");
  if (auto g = graduationFromName(earned)) {
    b.earned_ = *g;
  } else {
    r.fail("field \"earned\" is not a graduation: " + earned);
  }
  b.since_ = r.time("since");
  b.listeningEnded_ = r.time("listeningEnded");
  b.latest_ = r.time("latest");
  b.lastRegression_ = r.optionalTime("lastRegression");
  if (const json::Value* hold = r.field("hold"); hold && !hold->isNull()) {
    StateReader h = r.member("hold", *hold);
    h.only({"since", "clean"});
    b.hold_ = InactivityHold{h.time("since"),
                             static_cast<int>(h.integer("clean", 0, kCleanDecisionsToResume - 1))};
    r.adopt(h);
  }
  // Rows written before the field existed lack it: never noticed.
  if (state.isObject() && state.find("eligibleNoticed")) {
    b.eligibleNoticed_ = r.optionalTime("eligibleNoticed");
  }
  b.decisionCount_ = r.integer("decisions", 0, json::kMaxSafeInteger);
  for (const json::Value& t : r.array("recentDecisions")) {
    if (!t.isInt() || t.asInt() < 0) r.fail("field \"recentDecisions\" must hold times");
    if (t.isInt()) b.recentDecisions_.push_back(fromMillis(t.asInt()));
  }
  if (static_cast<int>(b.recentDecisions_.size()) > kInactiveBelowDecisions) {
    r.fail("field \"recentDecisions\" holds more than " + std::to_string(kInactiveBelowDecisions));
  }
  b.shadow_ = r.window("shadow", kShadowWindow);
  b.proposals_ = r.window("proposals", kProposalWindow);
  for (const json::Value& o : r.array("overrides")) {
    StateReader e = r.member("overrides[]", o);
    e.only({"at", "reason"});
    const TimePoint at = e.time("at");
    const auto reason = overrideReasonFromName(e.text("reason"));
    if (!reason) e.fail("field \"reason\" is not an override reason");
    r.adopt(e);
    b.overrides_.push_back({at, reason.value_or(OverrideReason::kBadTiming)});
  }
  for (const json::Value& s : r.array("sevs")) {
    StateReader e = r.member("sevs[]", s);
    e.only({"id", "level", "at", "closedAt"});
    Sev sev{e.text("id"), static_cast<int>(e.integer("level", 1, 3)), e.time("at"),
            e.optionalTime("closedAt")};
    r.adopt(e);
    b.sevs_.push_back(std::move(sev));
  }
  if (const json::Value* grants = r.field("grants")) {
    StateReader g = r.member("grants", *grants);
    g.only({kCaps[0].first, kCaps[1].first, kCaps[2].first});
    for (std::size_t i = 0; i < kCaps.size(); ++i) {
      for (const json::Value& v : g.array(kCaps[i].first)) {
        StateReader e = g.member(kCaps[i].first, v);
        e.only({"at", "halves"});
        b.grants_[i].push_back({e.time("at"), static_cast<int>(e.integer("halves", 1, 20))});
        g.adopt(e);
      }
    }
    r.adopt(g);
  }
  if (!r.error().empty()) return makeError(r.error());
  return b;
}

}  // namespace atoms::policy
