// Why each choice of a fill or build plan (week_builder.h) was made: who got the shift and on
// what facts (premium or none, main station, kept from the draft, hours in the week), and for
// everyone else who works the station, the first reason they did not get it, in the order the
// call-out ranking uses (domain/callout/candidates.h): the labor engine's denial with its rule
// ids, consent needed, availability, another shift that workday, a premium, the overtime line,
// or, when they could have worked it, that the plan placed them elsewhere.
//
// Pure; the context is only read. Facts, never judgements about a person.
#pragma once

#include <vector>

#include "base/result.h"
#include "domain/labor/labor_engine.h"
#include "domain/week/week_plan.h"

namespace atoms::week {

struct ExplainInput {
  const labor::LaborContext* planned = nullptr;  // built over the site with the plan's week
  Week week{};
  const std::vector<site::Shift>* shifts = nullptr;  // the plan's shifts of the week
  const std::vector<site::Shift>* draft = nullptr;   // the draft's (same order and ids)
};

// One choice per shift whose index is in `which`, in that order. Errors: a labor evaluation
// error naming the shift.
Result<std::vector<PlanChoice>> explainChoices(const ExplainInput& input,
                                               const std::vector<std::size_t>& which);

}  // namespace atoms::week
