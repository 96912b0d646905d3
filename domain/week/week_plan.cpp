#include "domain/week/week_plan.h"

#include <chrono>

namespace atoms::week {

namespace {

// What each line of the score weighs in PlanScore::total(), in cents of pay or what the manager
// would trade for them: a shift left open outweighs everything; a change to the draft costs as
// much as ten dollars of premium, so nothing moves for less.
constexpr std::int64_t kShortfallWeight = 100000;
constexpr std::int64_t kWageDivisor = 10;
constexpr std::int64_t kUndesirableWeight = 300;
constexpr std::int64_t kPreferenceWeight = 500;
constexpr std::int64_t kChangeWeight = 1000;

Error badRequirement(std::size_t i, const std::string& what) {
  return makeError("requirements[" + std::to_string(i) + "]: " + what, ErrorKind::kInvalid);
}

}  // namespace

std::string_view buildModeName(BuildMode mode) {
  return mode == BuildMode::kBuild ? "build" : "fill";
}

Status checkRequirements(const std::vector<Requirement>& requirements) {
  if (requirements.size() > 2000) {
    return makeError("requirements: at most 2000", ErrorKind::kInvalid);
  }
  for (std::size_t i = 0; i < requirements.size(); ++i) {
    const Requirement& r = requirements[i];
    if (r.stationId.empty()) return badRequirement(i, "station is missing");
    if (r.day < 0 || r.day > 6) return badRequirement(i, "day must be 0..6");
    if (r.startMinute < 0 || r.startMinute > 1439) {
      return badRequirement(i, "start must be 00:00..23:59");
    }
    if (r.minutes < 1 || r.minutes > 1440) return badRequirement(i, "length must be 1..1440 min");
    if (r.heads < 1 || r.heads > 50) return badRequirement(i, "heads must be 1..50");
  }
  return Status::success();
}

std::vector<Requirement> requirementsFromBlocks(Week week,
                                                const std::vector<forecast::ShiftBlock>& blocks) {
  std::vector<Requirement> out;
  for (const forecast::ShiftBlock& b : blocks) {
    const auto day = (b.day - week).count();
    if (day < 0 || day > 6 || b.endMinute <= b.startMinute) continue;
    out.push_back({b.station, static_cast<int>(day), b.startMinute, b.endMinute - b.startMinute, 1,
                   std::nullopt});
  }
  return out;
}

std::int64_t PlanScore::total() const {
  return shortfallShifts * kShortfallWeight + premiumCents + wageCents / kWageDivisor +
         hoursSpreadMinutes + undesirableSpread * kUndesirableWeight +
         preferenceMisses * kPreferenceWeight + changes * kChangeWeight;
}

json::Value planScoreJson(const PlanScore& s) {
  return json::Object{{"shortfallShifts", s.shortfallShifts},
                      {"shortfallMinutes", s.shortfallMinutes},
                      {"premiumCents", s.premiumCents},
                      {"wageCents", s.wageCents},
                      {"hoursSpreadMinutes", s.hoursSpreadMinutes},
                      {"undesirableSpread", s.undesirableSpread},
                      {"preferenceMisses", s.preferenceMisses},
                      {"changes", s.changes},
                      {"total", s.total()}};
}

json::Value planChoiceJson(const PlanChoice& c) {
  json::Array others;
  for (const PassedOver& o : c.others) {
    others.push_back(json::Object{{"person", o.personId},
                                  {"reason", o.reason},
                                  {"rules", json::Array(o.rules.begin(), o.rules.end())},
                                  {"detail", o.detail}});
  }
  return json::Object{{"shift", c.shiftId},
                      {"person", c.personId ? json::Value(*c.personId) : json::Value()},
                      {"why", c.why},
                      {"others", std::move(others)}};
}

json::Value weekPlanJson(const WeekPlan& plan) {
  json::Array choices;
  for (const PlanChoice& c : plan.choices) choices.push_back(planChoiceJson(c));
  return json::Object{{"mode", buildModeName(plan.mode)},
                      {"score", planScoreJson(plan.score)},
                      {"draftScore", planScoreJson(plan.draftScore)},
                      {"keptDraft", plan.keptDraft},
                      {"added", plan.added},
                      {"feasible", plan.feasible},
                      {"summary", plan.summary},
                      {"choices", std::move(choices)}};
}

}  // namespace atoms::week
