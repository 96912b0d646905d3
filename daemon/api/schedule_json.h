// The schedule's JSON in the API (docs/api.md, "Schedule"): the request bodies of the week's
// edits parsed into domain/week/ values, and the draft, findings and outcomes written out.
//
// Times in requests are the site's local wall-clock times "YYYY-MM-DDTHH:MM" (seconds may follow,
// ":SS"); in answers they are written the same way with seconds. Errors are one line of
// printable ASCII naming the field ("edit.start: not a local time YYYY-MM-DDTHH:MM"). Pure.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "base/canonical_json.h"
#include "base/result.h"
#include "domain/week/week_desk.h"

namespace atoms::api {

// A POST body that names the draft version it was made on, and maybe an override reason.
struct VersionedBody {
  std::int64_t version = 0;
  std::optional<std::string> overrideReason;
  json::Object fields;  // the rest, for the caller to read
};
// {"version": N, "overrideReason"?: "...", ...}: `allowed` are the other fields the caller reads.
Result<VersionedBody> parseVersionedBody(std::string_view body,
                                         std::initializer_list<std::string_view> allowed);

// The "edit" member of an edit request: {"kind":"add"|"move"|"extend"|"cut"|"swap"|"delete"|
// "assign"|"unassign", ...} with "shift", "other", "person", "station", "start", "end",
// "assignee", "certification" as the kind needs.
Result<week::DraftEdit> parseDraftEdit(const json::Value& edit);

std::optional<site::LocalTime> parseLocalMinute(std::string_view text);

json::Value draftViewJson(const week::DraftView& view);
json::Value editOutcomeJson(const week::EditOutcome& outcome);
json::Value publishOutcomeJson(const week::PublishOutcome& outcome);
json::Value editRecordJson(const week::EditRecord& edit);

}  // namespace atoms::api
