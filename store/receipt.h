// Receipts (DESIGN.md section 4, seed 000 section 5.3): the record of why the box did something,
// signed by the site key so it can be checked on its own, and appended to the audit log as an
// entry of kind "receipt" so it can be checked in the log (inclusion proof).
//
// Shape (a JSON object; fractions are decimal strings, money integer cents):
//   id            non-empty string
//   createdAt     ISO date-time (RFC 3339, e.g. "2026-09-07T06:02:00Z" or "...00.123+02:00")
//   sources       >= 1 SourceRef {n: integer >= 1, unique; kind: org|mirror|memory|service|policy|
//                 message|decision; ref: non-empty string; label: string; asOf: date-time;
//                 url?: string}
//   snapshot      array of {source: non-empty string, asOf: date-time, staleSince?: date-time,
//                 version?: integer}
//   ruleEvaluations array of {ruleId: non-empty string, input: object,
//                 result: pass|fail|threshold_exceeded|n/a, detail: string}
//   rationale     string of at most 120 words
//   confidence    decimal string in [0, 1], at most 6 decimals: "0", "1", "0.86", "1.0"
//   gaps          array of strings
//   visibility    self|self_mor|self_owner|owner
//   runId?, tenantId?  strings;  modelCalls?  array of {purpose, tier, requestHash: strings}
// Further top-level fields named [a-z][A-Za-z0-9]* (e.g. "action", "outcome") are allowed and
// signed like the rest; nested objects accept exactly their fields.
//
//   sig           base64 Ed25519 signature by the site key over canonical(receipt without sig)
//
// Pure functions, thread-safe. Errors are one line that names the field ("receipt: sources[1].kind
// must be one of ...").
#pragma once

#include "base/canonical_json.h"
#include "base/result.h"
#include "store/signed_note.h"

namespace atoms {

inline constexpr std::size_t kMaxRationaleWords = 120;

// Checks the shape above. A `sig` member is ignored here (signReceipt/verifyReceipt handle it).
Status validateReceipt(const json::Value& receipt);

// Validates `receipt` (json::validate, then the shape) and returns it with `sig` added. Refuses a
// receipt that already has a `sig` (re-signing would hide what was signed before).
Result<json::Value> signReceipt(json::Value receipt, const SigningKey& key);

// Checks that `body` has a well-formed `sig` that verifies with `key` over the canonical JSON of
// body without sig, then the shape. Errors: "receipt: missing sig", "receipt: sig is not base64 of
// 64 bytes", "receipt: signature does not verify with the site key", or a shape error.
Status verifyReceipt(const json::Value& body, const VerifierKey& key);

}  // namespace atoms
