#include "daemon/api/approvals_resource.h"

#include <optional>
#include <utility>

#include "daemon/api/approval_json.h"
#include "drivers/http/printable.h"

namespace atoms::api {
namespace {

using callout::ApprovalBook;
using callout::ApprovalFilter;
using callout::ApprovalState;
using callout::DecisionOutcome;

// "/v1/approvals", "/v1/approvals/12", "/v1/approvals/12/decision"; nullopt for anything else.
std::optional<ItemTarget> approvalRoute(std::string_view path) {
  return itemRoute(path, kApprovalsPath, "decision");
}

std::string stateWords(const callout::ApprovalRow& a) {
  switch (a.state) {
    case ApprovalState::kApproved:
      return "was approved already";
    case ApprovalState::kDenied:
      return "was denied already";
    case ApprovalState::kExpired:
      return "has expired";
    case ApprovalState::kWithdrawn:
      return "was withdrawn (the shift was covered, or the offer declined)";
    case ApprovalState::kPending:
      break;
  }
  return "is not open";
}

ApiAnswer decision(ApprovalBook& book, const std::string& person, std::int64_t id,
                   const callout::ApprovalAnswer& request) {
  auto decided = book.decide(person, id, request);
  if (!decided) return apiStoreFailed("record the decision", decided.error());
  const std::string name = "approval " + std::to_string(id);
  const std::string outcome(callout::decisionOutcomeName(decided->outcome));
  json::Object body{{"outcome", outcome}, {"message", decided->message}};
  if (decided->approval) body["approval"] = approvalJson(*decided->approval);
  switch (decided->outcome) {
    case DecisionOutcome::kApproved:
    case DecisionOutcome::kApprovedTooLate:
    case DecisionOutcome::kApprovedDeniedOnRecheck:
    case DecisionOutcome::kDenied:
      return apiOk(std::move(body));
    case DecisionOutcome::kRefusedSelf:
      body["error"] = name + " is about you: your manager of record decides it";
      return {403, json::canonical(body), "self-approval", true};
    case DecisionOutcome::kRefusedNotApprover:
      body["error"] = "only the approver named on " + name + " decides it";
      return {403, json::canonical(body), "not the approver", true};
    case DecisionOutcome::kRefusedPolicy:
      body["error"] = "approvals are paused by the policy gate (kill switch or graduation); " +
                      name + " is unchanged";
      return {409, json::canonical(body), "paused by the policy gate", true};
    case DecisionOutcome::kClosed: {
      const std::string words =
          decided->approval ? stateWords(decided->approval->row) : std::string("is not open");
      body["error"] = name + " " + words;
      return {409, json::canonical(body), name + " " + words, false};
    }
    case DecisionOutcome::kUnknown:
      break;
  }
  return apiRefusal(404, "no " + name, "no " + name);
}

ApiAnswer answerApproval(const BookSource& books, const ItemTarget& target,
                         const std::string& person, ApprovalFilter filter,
                         const callout::ApprovalAnswer& request) {
  ApprovalBook* book = books ? books() : nullptr;
  if (book == nullptr) {
    return apiRefusal(503, "approvals are not available: call-outs are off on this box",
                      "no approval book (call-outs off)");
  }
  auto known = book->knowsPerson(person);
  if (!known) return apiStoreFailed("read the site", known.error());
  if (!*known) {
    return apiRefusal(403, "the token's person is not a person of this site",
                      "person '" + person + "' is not on the site");
  }
  switch (target.route) {
    case ItemRoute::kList: {
      auto listed = book->list(filter);
      if (!listed) return apiStoreFailed("read the approvals", listed.error());
      json::Array approvals;
      for (const callout::ApprovalView& v : *listed) approvals.push_back(approvalJson(v));
      return apiOk(json::Object{{"approvals", std::move(approvals)},
                                {"state", filter == ApprovalFilter::kPending ? "pending" : "all"}});
    }
    case ItemRoute::kOne: {
      auto found = book->get(target.id);
      if (!found) return apiStoreFailed("read the approval", found.error());
      if (!*found) {
        const std::string name = "approval " + std::to_string(target.id);
        return apiRefusal(404, "no " + name, "no " + name);
      }
      return apiOk(approvalJson(**found));
    }
    case ItemRoute::kAction:
      return decision(*book, person, target.id, request);
  }
  return apiRefusal(404, "not found", "no such route");
}

}  // namespace

std::vector<std::string> ApprovalsResource::methods(std::string_view path) const {
  const std::optional<ItemTarget> target = approvalRoute(path);
  if (!target) return {};
  return {target->route == ItemRoute::kAction ? "POST" : "GET"};
}

bool ApprovalsResource::takesQuery(std::string_view path) const {
  const std::optional<ItemTarget> target = approvalRoute(path);
  return target && target->route == ItemRoute::kList;
}

ApiAnswer ApprovalsResource::handle(const ApiRequest& request) {
  const std::optional<ItemTarget> target = approvalRoute(request.path);
  if (!target) return apiRefusal(404, "not found", "no such path");
  ApprovalFilter filter = ApprovalFilter::kPending;
  if (request.query == "state=all") {
    filter = ApprovalFilter::kRecent;
  } else if (!request.query.empty() && request.query != "state=pending") {
    const std::string error = "query: expected state=pending or state=all";
    return apiRefusal(400, error, error + " (got '" + drivers::printable(request.query, 60) + "')");
  }
  callout::ApprovalAnswer decisionRequest;
  if (target->route == ItemRoute::kAction) {
    Result<callout::ApprovalAnswer> parsed = parseDecisionRequest(request.body);
    if (!parsed) return apiRefusal(400, parsed.message(), parsed.message());
    decisionRequest = std::move(*parsed);
  }
  return answerApproval(books_, *target, request.person, filter, decisionRequest);
}

}  // namespace atoms::api
