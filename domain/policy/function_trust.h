// FunctionTrust: one function's trust as the owner's console shows it (the API's GET /v1/trust,
// docs/policy-gate.md "Trust budget"): the owner's setting (its ceiling, docs/decisions/0010), the
// level its budget earned, the level the gate uses, the trust and the evidence of the next step.
// Built by PolicyService::trustBudgets() (policy_service.h).
//
// Threading: none (a value). No errors.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "base/canonical_json.h"
#include "domain/policy/action_classes.h"
#include "domain/policy/trust_budget.h"

namespace atoms::policy {

struct FunctionTrust {
  std::string function;
  Graduation ceiling = Graduation::kPropose;    // policy.graduation.<function>
  Graduation earned = Graduation::kPropose;     // the start level until it began
  Graduation effective = Graduation::kPropose;  // what the gate uses
  int trustHalves = 0;
  bool begun = false;          // false: no decision recorded yet
  bool held = false;           // an inactivity hold: acting one level below its earned level
  Eligibility eligibility;     // the next step and every condition of it now
  bool withinCeiling = false;  // there is a next step and it is not above the ceiling
  // {"function", "ceiling", "earned", "effective", "trust", "begun", "held", "withinCeiling",
  //  "eligibility": {...}}.
  json::Value toJson() const;
};

// The ceiling a policy.graduation.<function> setting names: "shadow", "propose" or "autonomous"
// in any case; PROPOSE (the setting's default) for anything else, which the configuration's check
// refuses at load.
Graduation ceilingFromSetting(std::string_view setting);

}  // namespace atoms::policy
