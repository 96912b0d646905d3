#include "daemon/api/request_json.h"

#include <cstdio>

#include "daemon/api/approval_json.h"
#include "drivers/http/printable.h"
#include "store/audit_entry.h"

namespace atoms::api {

namespace {

json::Value textOrNull(const std::string& s) { return s.empty() ? json::Value() : json::Value(s); }

json::Object who(const std::string& id, const std::string& name) {
  return json::Object{{"id", textOrNull(id)}, {"name", textOrNull(name)}};
}

json::Object stamp(const site::Stamp& s) {
  return json::Object{{"utc", formatTimestamp(s.utc)}, {"local", site::formatLocal(s.local)}};
}

std::string clock(int minute) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "%02d:%02d", minute / 60 % 100, minute % 60);
  return buf;
}

}  // namespace

json::Value requestJson(const requests::RequestView& v) {
  const requests::RequestRow& r = v.row;
  const bool timeOff = r.kind == sms::RequestKind::kTimeOff;
  json::Array periods;
  for (const site::TimeOff& off : v.timeOff) {
    periods.push_back(json::Object{{"start", stamp(off.start)}, {"end", stamp(off.end)}});
  }
  json::Array windows;
  for (const site::AvailabilityWindow& w : v.windows) {
    windows.push_back(json::Object{{"day", static_cast<std::int64_t>(w.weekday)},
                                   {"start", clock(w.startMinute)},
                                   {"end", clock(w.endMinute)}});
  }
  json::Array touched;
  for (const requests::TouchedShift& t : v.touched) {
    touched.push_back(json::Object{{"id", t.shiftId},
                                   {"station", t.stationId},
                                   {"start", stamp(t.start)},
                                   {"end", stamp(t.end)}});
  }
  json::Array weekdays;
  for (unsigned d : r.weekdays) weekdays.push_back(static_cast<std::int64_t>(d));
  const std::string label = "R" + std::to_string(r.id);
  return json::Object{
      {"id", r.id},
      {"label", label},
      {"kind", sms::requestKindName(r.kind)},
      {"state", requests::requestStateName(r.state)},
      {"summary", v.words},
      {"person", who(r.personId, v.personName)},
      {"approver", who(r.approverId, v.approverName)},
      {"createdAt", formatTimestamp(r.createdAt)},
      {"from", timeOff ? json::Value(r.fromDate) : json::Value()},
      {"to", timeOff ? json::Value(r.toDate) : json::Value()},
      {"part", sms::dayPartName(r.part)},
      {"weekdays", timeOff ? json::Value() : json::Value(std::move(weekdays))},
      {"change",
       timeOff ? json::Value() : json::Value(std::string(sms::availabilityChangeName(r.change)))},
      {"timeOff", timeOff ? json::Value(std::move(periods)) : json::Value()},
      {"windows", timeOff ? json::Value() : json::Value(std::move(windows))},
      {"touchedShifts", std::move(touched)},
      {"decidedAt", r.decidedAt ? json::Value(formatTimestamp(*r.decidedAt)) : json::Value()},
      {"decidedBy", textOrNull(r.decidedBy)},
      {"decidedVia", textOrNull(r.decidedVia)},
      {"remark", textOrNull(r.remark)},
      {"smsReply", json::Object{{"approve", "APPROVE " + label}, {"deny", "DENY " + label}}}};
}

Result<RequestDecisionBody> parseRequestDecision(std::string_view body) {
  auto parsed = parseBodyObject(body);
  if (!parsed) return parsed.error();
  RequestDecisionBody out;
  bool decided = false;
  for (const auto& [key, value] : *parsed) {
    if (key == "decision") {
      if (!value.isString()) return makeError("decision: not a string");
      if (value.asString() != "approve" && value.asString() != "deny") {
        return makeError("decision: '" + drivers::printable(value.asString()) +
                         "' is not one of approve, deny");
      }
      out.approve = value.asString() == "approve";
      decided = true;
    } else if (key == "reason") {
      if (!value.isString()) return makeError("reason: not a string");
      if (auto problem = freeTextProblem("reason", value.asString(), kMaxRemarkBytes)) {
        return makeError(*problem);
      }
      out.reason = value.asString();
    } else {
      return makeError("unknown field '" + drivers::printable(key) + "'");
    }
  }
  if (!decided) return makeError("decision: missing");
  return out;
}

}  // namespace atoms::api
