// ApprovalsResource: the PROPOSE_CONFIRM items in the JSON API (docs/api.md, "Approvals"):
//   GET  /v1/approvals[?state=pending|all]   pending ones (soonest expiry first), or all recent
//   GET  /v1/approvals/{id}
//   POST /v1/approvals/{id}/decision         {"decision":"approve"|"deny","remark":"..."}
// A decision goes through ApprovalBook::decide, i.e. the call-out desk's own decision path, so
// only the approver named on the approval decides it, never the person it is about, the policy
// gate is asked and expiry is respected.
//
// Answers: 503 when there is no book (call-outs off) or the store failed; 403 for a caller who is
// not a person of the site; 404 for an unknown approval; 400 for a bad query or body. A decision
// answers 200 with its outcome, the desk's message and the approval as it now stands; 403 when the
// desk refused the caller (not the approver, or the person it is about; the desk audits those as
// approval.refused), 409 when the approval is no longer pending or approvals are paused by the
// policy gate.
//
// Threading: as ApiResource; the book source and every book call run on the writer.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "daemon/api/api_resource.h"
#include "domain/callout/approval_book.h"

namespace atoms::api {

inline constexpr char kApprovalsPath[] = "/v1/approvals";

// The book, asked on the writer for each request; nullptr when there is none (call-outs off).
using BookSource = std::function<callout::ApprovalBook*()>;

class ApprovalsResource final : public ApiResource {
 public:
  explicit ApprovalsResource(BookSource books) : books_(std::move(books)) {}
  std::vector<std::string> methods(std::string_view path) const override;
  bool takesQuery(std::string_view path) const override;
  ApiAnswer handle(const ApiRequest& request) override;

 private:
  BookSource books_;
};

}  // namespace atoms::api
