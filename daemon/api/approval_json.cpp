#include "daemon/api/approval_json.h"

#include "drivers/http/printable.h"
#include "store/audit_entry.h"

namespace atoms::api {

namespace {

using drivers::printable;

json::Value instantOrNull(const std::optional<callout::TimePoint>& t) {
  return t ? json::Value(formatTimestamp(*t)) : json::Value();
}

json::Value orNull(const std::string& s) { return s.empty() ? json::Value() : json::Value(s); }

json::Object person(const std::string& id, const std::string& name) {
  return json::Object{{"id", orNull(id)}, {"name", orNull(name)}};
}

json::Object at(callout::TimePoint utc, site::LocalTime local) {
  return json::Object{{"utc", formatTimestamp(utc)}, {"local", site::formatLocal(local)}};
}

// What a manager weighs: the request receipt's evaluations and premium, as signed.
json::Value evidence(const json::Value& receipt) {
  if (!receipt.isObject()) return json::Value();
  const json::Object& r = receipt.asObject();
  json::Object out;
  for (const char* key :
       {"id", "ruleEvaluations", "premiumMinutes", "premiumCents", "gaps", "rationale"}) {
    auto it = r.find(key);
    out[key == std::string_view("id") ? "receipt" : key] =
        it == r.end() ? json::Value() : it->second;
  }
  return out;
}

}  // namespace

json::Value approvalJson(const callout::ApprovalView& v) {
  const callout::ApprovalRow& a = v.row;
  const std::string id = std::to_string(a.id);
  json::Value shift;
  if (!v.shiftId.empty()) {
    shift = json::Object{{"id", v.shiftId},
                         {"station", v.stationId},
                         {"stationName", v.stationName},
                         {"timeZone", v.timeZone},
                         {"start", at(v.shiftStart, v.shiftStartLocal)},
                         {"end", at(v.shiftEnd, v.shiftEndLocal)}};
  }
  return json::Object{
      {"id", a.id},
      {"kind", a.kind},
      {"state", callout::approvalStateName(a.state)},
      {"summary", a.summary},
      {"requestedAt", formatTimestamp(a.requestedAt)},
      {"expiresAt", formatTimestamp(a.expiresAt)},
      {"decidedAt", instantOrNull(a.decidedAt)},
      {"decidedBy", orNull(a.decidedBy)},
      {"remark", a.remark},
      {"approver", person(a.approverId, v.approverName)},
      {"subject", person(a.subjectId, v.subjectName)},
      {"shift", std::move(shift)},
      {"callout", a.calloutId},
      {"offer", a.offerId ? json::Value(*a.offerId) : json::Value()},
      {"receiptSeq",
       a.receiptSeq ? json::Value(static_cast<std::int64_t>(*a.receiptSeq)) : json::Value()},
      {"evidence", evidence(v.receipt)},
      {"smsReply", json::Object{{"approve", "APPROVE " + id}, {"deny", "DENY " + id}}},
  };
}

std::optional<std::string> freeTextProblem(std::string_view field, const std::string& text,
                                           std::size_t maxBytes) {
  if (text.size() > maxBytes) {
    return std::string(field) + ": longer than " + std::to_string(maxBytes) + " bytes";
  }
  for (char c : text) {
    const auto u = static_cast<unsigned char>(c);
    if (u < 0x20 || u == 0x7f) return std::string(field) + ": control characters are not allowed";
  }
  return std::nullopt;
}

Result<json::Object> parseBodyObject(std::string_view body) {
  auto parsed = json::parse(body);
  if (!parsed) return makeError(printable(parsed.message(), 200));
  if (!parsed->isObject()) return makeError("the body is not a JSON object");
  return std::move(parsed->asObject());
}

Result<callout::ApprovalAnswer> parseDecisionRequest(std::string_view body) {
  auto parsed = parseBodyObject(body);
  if (!parsed) return parsed.error();
  callout::ApprovalAnswer request;
  bool decided = false;
  for (const auto& [key, value] : *parsed) {
    if (key == "decision") {
      if (!value.isString()) return makeError("decision: not a string");
      if (value.asString() != "approve" && value.asString() != "deny") {
        return makeError("decision: '" + printable(value.asString()) +
                         "' is not one of approve, deny");
      }
      request.approve = value.asString() == "approve";
      decided = true;
    } else if (key == "remark") {
      if (!value.isString()) return makeError("remark: not a string");
      const std::string& remark = value.asString();
      if (auto problem = freeTextProblem("remark", remark, kMaxRemarkBytes)) {
        return makeError(*problem);
      }
      request.remark = remark;
    } else if (key == "reason") {
      if (!value.isString()) return makeError("reason: not a string");
      request.overrideReason = policy::overrideReasonFromName(value.asString());
      if (!request.overrideReason) {
        return makeError("reason: '" + printable(value.asString()) +
                         "' is not one of BAD_TIMING, TONE, WRONG_FACTS, WRONG_JUDGMENT");
      }
    } else {
      return makeError("unknown field '" + printable(key) + "'");
    }
  }
  if (!decided) return makeError("decision: missing");
  if (request.approve && request.overrideReason) {
    return makeError("reason: only with a deny (it says what was wrong with the proposal)");
  }
  return request;
}

}  // namespace atoms::api
