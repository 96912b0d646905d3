#include "daemon/api/requests_resource.h"

#include <optional>
#include <utility>

#include "daemon/api/request_json.h"
#include "drivers/http/printable.h"

namespace atoms::api {
namespace {

using callout::DecisionOutcome;
using requests::RequestBook;
using requests::RequestFilter;

// "/v1/staff-requests", "/v1/staff-requests/12", "/v1/staff-requests/12/decision"; nullopt for
// anything else.
std::optional<ItemTarget> requestRoute(std::string_view path) {
  return itemRoute(path, kStaffRequestsPath, "decision");
}

ApiAnswer requestDecision(RequestBook& book, const std::string& person, std::int64_t id,
                          RequestDecisionBody decision) {
  auto decided = book.decide(person, id, decision.approve, std::move(decision.reason));
  if (!decided) return apiStoreFailed("record the decision", decided.error());
  const std::string name = "request R" + std::to_string(id);
  json::Object body{{"outcome", std::string(callout::decisionOutcomeName(decided->outcome))},
                    {"message", decided->message}};
  if (decided->request) body["request"] = requestJson(*decided->request);
  switch (decided->outcome) {
    case DecisionOutcome::kApproved:
    case DecisionOutcome::kDenied:
      return apiOk(std::move(body));
    case DecisionOutcome::kRefusedSelf:
      body["error"] = name + " is yours: your manager decides it";
      return {403, json::canonical(body), "self-approval", true};
    case DecisionOutcome::kRefusedNotApprover:
      body["error"] = "only the approver named on " + name + " decides it";
      return {403, json::canonical(body), "not the approver", true};
    case DecisionOutcome::kRefusedPolicy:
      body["error"] = "approvals are paused by the policy gate (kill switch or breaker); " + name +
                      " is unchanged";
      return {409, json::canonical(body), "paused by the policy gate", true};
    case DecisionOutcome::kClosed: {
      const std::string state =
          decided->request ? std::string(requests::requestStateName(decided->request->row.state))
                           : std::string("closed");
      body["error"] = name + " is " + state + " already";
      return {409, json::canonical(body), name + " is " + state, false};
    }
    default:
      break;
  }
  return apiRefusal(404, "no " + name, "no " + name);
}

}  // namespace

std::vector<std::string> RequestsResource::methods(std::string_view path) const {
  const std::optional<ItemTarget> target = requestRoute(path);
  if (!target) return {};
  return {target->route == ItemRoute::kAction ? "POST" : "GET"};
}

bool RequestsResource::takesQuery(std::string_view path) const {
  const std::optional<ItemTarget> target = requestRoute(path);
  return target && target->route == ItemRoute::kList;
}

ApiAnswer RequestsResource::handle(const ApiRequest& request) {
  const std::optional<ItemTarget> target = requestRoute(request.path);
  if (!target) return apiRefusal(404, "not found", "no such path");
  RequestFilter filter = RequestFilter::kPending;
  if (request.query == "state=all") {
    filter = RequestFilter::kRecent;
  } else if (!request.query.empty() && request.query != "state=pending") {
    const std::string error = "query: expected state=pending or state=all";
    return apiRefusal(400, error, error + " (got '" + drivers::printable(request.query, 60) + "')");
  }
  RequestDecisionBody decision;
  if (target->route == ItemRoute::kAction) {
    auto parsed = parseRequestDecision(request.body);
    if (!parsed) return apiRefusal(400, parsed.message(), parsed.message());
    decision = std::move(*parsed);
  }
  RequestBook* book = books_ ? books_() : nullptr;
  if (book == nullptr) {
    return apiRefusal(503, "requests are not available: call-outs are off on this box",
                      "no request book (call-outs off)");
  }
  auto known = book->knowsPerson(request.person);
  if (!known) return apiStoreFailed("read the site", known.error());
  if (!*known) {
    return apiRefusal(403, "the token's person is not a person of this site",
                      "person '" + request.person + "' is not on the site");
  }
  switch (target->route) {
    case ItemRoute::kList: {
      auto listed = book->list(filter);
      if (!listed) return apiStoreFailed("read the requests", listed.error());
      json::Array out;
      for (const requests::RequestView& v : *listed) out.push_back(requestJson(v));
      return apiOk(json::Object{{"requests", std::move(out)},
                                {"state", filter == RequestFilter::kPending ? "pending" : "all"}});
    }
    case ItemRoute::kOne: {
      auto found = book->get(target->id);
      if (!found) return apiStoreFailed("read the request", found.error());
      if (!*found) {
        const std::string name = "request R" + std::to_string(target->id);
        return apiRefusal(404, "no " + name, "no " + name);
      }
      return apiOk(requestJson(**found));
    }
    case ItemRoute::kAction:
      return requestDecision(*book, request.person, target->id, std::move(decision));
  }
  return apiRefusal(404, "not found", "no such route");
}

}  // namespace atoms::api
