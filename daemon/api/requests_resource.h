// RequestsResource: workers' requests by text in the JSON API (docs/api.md, "Requests"):
//   GET  /v1/staff-requests[?state=pending|all]   pending ones (oldest first), or all recent
//   GET  /v1/staff-requests/{id}
//   POST /v1/staff-requests/{id}/decision         {"decision":"approve"|"deny","reason":"..."}
// A decision goes through RequestBook::decide, i.e. the requests desk's own path (the one APPROVE
// Rn / DENY Rn texts take): only the approver named on the request decides it, never the person
// it is about, and an approval asks the policy gate and writes the time off or availability.
//
// Answers: 503 when there is no book (call-outs off) or the store failed; 403 for a caller who is
// not a person of the site; 404 for an unknown request; 400 for a bad query or body. A decision
// answers 200 with its outcome, the desk's message and the request as it now stands; 403 when the
// desk refused the caller (not the approver, or the person it is about; audited as
// request.refused), 409 when the request is no longer pending or approvals are paused by the
// policy gate.
//
// Threading: as ApiResource; the book source and every book call run on the writer.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "daemon/api/api_resource.h"
#include "domain/requests/request_book.h"

namespace atoms::api {

inline constexpr char kStaffRequestsPath[] = "/v1/staff-requests";

// The book, asked on the writer for each call; nullptr when there is none (call-outs off).
using RequestBookSource = std::function<requests::RequestBook*()>;

class RequestsResource final : public ApiResource {
 public:
  explicit RequestsResource(RequestBookSource books) : books_(std::move(books)) {}
  std::vector<std::string> methods(std::string_view path) const override;
  bool takesQuery(std::string_view path) const override;
  ApiAnswer handle(const ApiRequest& request) override;

 private:
  RequestBookSource books_;
};

}  // namespace atoms::api
