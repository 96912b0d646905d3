// RequestBook: workers' requests by text as the requests API and the panel see them, and the way
// a signed-in manager decides one (docs/api.md, "Requests"). StoreRequests is the book over the
// RequestDesk: it decides through RequestDesk::decide, the very function APPROVE Rn / DENY Rn
// texts go through, so both paths apply the same rules, write the same rows and send the same
// texts.
//
// Threading: every method runs on the store's writer (the engine thread in the daemon), through
// the StoreRunner it was given. Errors: store errors, one line; a failed decision changes nothing
// (its batch is rolled back).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"
#include "domain/requests/request_desk.h"
#include "domain/requests/request_store.h"
#include "store/store_runner.h"

namespace atoms::requests {

struct BookDecision {
  callout::DecisionOutcome outcome = callout::DecisionOutcome::kUnknown;
  std::string message;                 // what the desk would have texted back to the decider
  std::optional<RequestView> request;  // as it stands after the decision; none when unknown
};

class RequestBook {
 public:
  virtual ~RequestBook() = default;

  // Whether `personId` is a person of the site.
  virtual Result<bool> knowsPerson(std::string_view personId) = 0;
  virtual Result<std::vector<RequestView>> list(RequestFilter filter) = 0;
  // nullopt: no such request.
  virtual Result<std::optional<RequestView>> get(std::int64_t id) = 0;
  // `personId` approves or denies request `id` (via "api"), committed before it returns;
  // `reason` (optional) is kept as the decision's remark. Refusals are audited and change nothing.
  virtual Result<BookDecision> decide(std::string_view personId, std::int64_t id, bool approve,
                                      std::string reason) = 0;
};

class StoreRequests final : public RequestBook {
 public:
  // Both must outlive the book.
  StoreRequests(RequestDesk& desk, atoms::StoreRunner& store);

  Result<bool> knowsPerson(std::string_view personId) override;
  Result<std::vector<RequestView>> list(RequestFilter filter) override;
  Result<std::optional<RequestView>> get(std::int64_t id) override;
  Result<BookDecision> decide(std::string_view personId, std::int64_t id, bool approve,
                              std::string reason) override;

 private:
  RequestDesk& desk_;
  atoms::StoreRunner& store_;
};

}  // namespace atoms::requests
