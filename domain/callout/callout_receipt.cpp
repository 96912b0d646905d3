#include "domain/callout/callout_receipt.h"

#include <utility>

#include "store/audit_entry.h"

namespace atoms::callout {

CalloutReceipt::CalloutReceipt(std::string id, std::string action, atoms::TimePoint now)
    : ts_(formatTimestamp(now)) {
  receipt_.emplace("id", std::move(id));
  receipt_.emplace("action", std::move(action));
}

CalloutReceipt& CalloutReceipt::source(std::string_view kind, std::string_view ref,
                                       std::string_view label) {
  const std::int64_t n = static_cast<std::int64_t>(sources_.size()) + 1;
  sources_.push_back(
      json::Object{{"n", n}, {"kind", kind}, {"ref", ref}, {"label", label}, {"asOf", ts_}});
  return *this;
}

CalloutReceipt& CalloutReceipt::labor(const std::vector<labor::RuleEvaluation>& evaluations) {
  for (const labor::RuleEvaluation& e : evaluations) {
    evaluations_.push_back(json::Object{{"ruleId", e.ruleId},
                                        {"input", e.input.toObject()},
                                        {"result", labor::evalResultName(e.result)},
                                        {"detail", e.detail}});
  }
  return *this;
}

CalloutReceipt& CalloutReceipt::gate(const policy::GateDecision& decision) {
  json::Value input = decision.toJson();
  evaluations_.push_back(json::Object{{"ruleId", "policy.gate"},
                                      {"input", input.isObject() ? input : json::Object{}},
                                      {"result", decision.executes() ? "pass" : "fail"},
                                      {"detail", decision.describe()}});
  return *this;
}

CalloutReceipt& CalloutReceipt::rule(std::string_view ruleId, json::Object input,
                                     std::string_view result, std::string_view detail) {
  evaluations_.push_back(json::Object{
      {"ruleId", ruleId}, {"input", std::move(input)}, {"result", result}, {"detail", detail}});
  return *this;
}

CalloutReceipt& CalloutReceipt::field(const std::string& name, json::Value value) {
  receipt_[name] = std::move(value);
  return *this;
}

CalloutReceipt& CalloutReceipt::gap(std::string text) {
  gaps_.push_back(std::move(text));
  return *this;
}

Result<std::uint64_t> CalloutReceipt::addTo(AuditLog::Batch& batch, std::string_view rationale,
                                            std::string_view outcome) {
  json::Object body = receipt_;
  body["createdAt"] = ts_;
  body["sources"] = sources_;
  body["snapshot"] = json::Array{};
  body["ruleEvaluations"] = evaluations_;
  body["rationale"] = rationale;
  body["confidence"] = "1";
  body["gaps"] = gaps_;
  body["visibility"] = "self_mor";
  body["outcome"] = outcome;
  return batch.addReceipt(ts_, "engine", json::Value(std::move(body)));
}

}  // namespace atoms::callout
