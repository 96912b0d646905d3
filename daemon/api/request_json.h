// The requests API's JSON (docs/api.md, "Requests"): a worker's request by text as the panel reads
// it, and the body of a decision. Field names are camelCase; instants are UTC
// "YYYY-MM-DDTHH:MM:SS.mmmZ"; shift and time-off times are given in UTC and in the site's
// wall-clock time.
//
// Pure functions; thread-safe.
#pragma once

#include <string>
#include <string_view>

#include "base/canonical_json.h"
#include "base/result.h"
#include "domain/requests/request_desk.h"

namespace atoms::api {

// One request: id, label ("R3"), kind, state, summary (its words), person and approver
// ({id, name}), createdAt, from, to (local dates, time off), part, weekdays and change
// (availability), timeOff ([{start, end}] each {utc, local}) or windows ([{day, start, end}] as
// "HH:MM"), touchedShifts ([{id, station, start, end}]), decidedAt, decidedBy, decidedVia, remark,
// and smsReply ({approve: "APPROVE R3", deny: "DENY R3"}).
json::Value requestJson(const requests::RequestView& request);

struct RequestDecisionBody {
  bool approve = false;
  std::string reason;  // optional, the manager's own words
};

// {"decision":"approve"|"deny","reason":"..."} (reason optional, at most 500 bytes of text without
// control characters): strict JSON, no other fields. Errors: one line naming the field.
Result<RequestDecisionBody> parseRequestDecision(std::string_view body);

}  // namespace atoms::api
