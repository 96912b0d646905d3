// The JSON of "fill open shifts" and "build the week" (docs/api.md, "Fill and build"): the
// staffing requirements a build is asked with, and the outcome with the plan's score and
// explanations. Used by the API and by `atoms-edge schedule fill --requirements FILE`.
// Errors name the field ("requirements[1].start: not a time HH:MM"). Pure.
#pragma once

#include <vector>

#include "base/canonical_json.h"
#include "base/result.h"
#include "domain/week/week_desk.h"

namespace atoms::api {

// [{"station":"line","day":0..6,"start":"HH:MM","end":"HH:MM","heads":N,"certification"?:ID}]:
// `day` counts from the week's first day, an `end` at or before `start` is after midnight,
// `heads` defaults to 1. The values' ranges are checked by the builder (week_plan.h).
Result<std::vector<week::Requirement>> parseRequirements(const json::Value& value);

// {"outcome","message","plan":{score, draftScore, choices, summary...},"draft":...} as the other
// edits' outcomes (schedule_json.h editOutcomeJson) with the plan beside them.
json::Value fillOutcomeJson(const week::FillOutcome& outcome);

}  // namespace atoms::api
