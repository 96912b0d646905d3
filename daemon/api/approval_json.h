// The approvals API's JSON (docs/api.md): an approval as the panel reads it, and the body of a
// decision. Field names are camelCase like the receipts'; instants are UTC
// "YYYY-MM-DDTHH:MM:SS.mmmZ", shift times are given in UTC and in the site's wall-clock time.
//
// Pure functions; thread-safe.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "base/canonical_json.h"
#include "base/result.h"
#include "domain/callout/approval_book.h"

namespace atoms::api {

// At most this many bytes of remark (UTF-8) with a decision.
inline constexpr std::size_t kMaxRemarkBytes = 500;

// One approval: id, kind, state, summary, requestedAt, expiresAt, decidedAt, decidedBy, remark,
// approver and subject ({id, name}), shift ({id, station, stationName, timeZone, start and end
// as {utc, local}}), callout, offer, receiptSeq, evidence (from the signed request receipt: its
// id, ruleEvaluations, premiumMinutes, premiumCents, gaps, rationale; null when unknown) and
// smsReply ({approve: "APPROVE 12", deny: "DENY 12"}).
json::Value approvalJson(const callout::ApprovalView& approval);

// {"decision":"approve"|"deny","remark":"...","reason":"WRONG_FACTS"} (remark and reason
// optional): strict JSON, no other fields; the remark at most kMaxRemarkBytes of text without
// control characters; the reason, with a deny only, one of BAD_TIMING, TONE, WRONG_FACTS,
// WRONG_JUDGMENT (the override reason: callout::ApprovalAnswer). Errors are one line of printable
// ASCII naming the field, e.g. "decision: 'maybe' is not one of approve, deny".
Result<callout::ApprovalAnswer> parseDecisionRequest(std::string_view body);

// A request body that must be a JSON object: the object, or one line (the parser's error with its
// byte offset, or "the body is not a JSON object").
Result<json::Object> parseBodyObject(std::string_view body);

// The longest free text (a reason, a note) a request body may carry.
inline constexpr std::size_t kMaxFreeTextBytes = 500;

// nullopt when `text` (the field `field` of a request body) is at most `maxBytes` without control
// characters; else the problem, one line naming the field.
std::optional<std::string> freeTextProblem(std::string_view field, const std::string& text,
                                           std::size_t maxBytes);

}  // namespace atoms::api
