// The signed receipt of one call-out decision (DESIGN.md section 4; seed 000 section 5.3): the
// sources it stood on (the report, the shift, the people considered, the rule tables, the policy
// gate), every rule evaluation (labor findings and the gate's decision), a short rationale, and
// the action and outcome as extra fields. WHY reads the sources' labels.
//
// A value builder; add() then sign with the batch (AuditLog::Batch::addReceipt). Not synchronised.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "base/canonical_json.h"
#include "base/result.h"
#include "base/unix_time.h"
#include "domain/labor/rule_evaluation.h"
#include "domain/policy/policy_gate.h"
#include "store/audit_log.h"

namespace atoms::callout {

class CalloutReceipt {
 public:
  // `id`: unique per decision ("callout-12-assign"); `action`: the policy kind ("shift.assign").
  CalloutReceipt(std::string id, std::string action, atoms::TimePoint now);

  CalloutReceipt& source(std::string_view kind, std::string_view ref, std::string_view label);
  CalloutReceipt& labor(const std::vector<labor::RuleEvaluation>& evaluations);
  CalloutReceipt& gate(const policy::GateDecision& decision);
  CalloutReceipt& rule(std::string_view ruleId, json::Object input, std::string_view result,
                       std::string_view detail);
  CalloutReceipt& field(const std::string& name, json::Value value);
  CalloutReceipt& gap(std::string text);

  // Signs it into `batch`; returns the entry's seq.
  Result<std::uint64_t> addTo(AuditLog::Batch& batch, std::string_view rationale,
                              std::string_view outcome);

 private:
  std::string ts_;
  json::Object receipt_;
  json::Array sources_;
  json::Array evaluations_;
  json::Array gaps_;
};

}  // namespace atoms::callout
