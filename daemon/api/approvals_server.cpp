#include "daemon/api/approvals_server.h"

#include <Poco/Net/HTTPServerRequest.h>
#include <Poco/Net/HTTPServerResponse.h>

#include <algorithm>
#include <optional>
#include <utility>

#include "daemon/api/approval_json.h"
#include "drivers/http/http_service.h"
#include "drivers/http/printable.h"

namespace atoms::api {
namespace {

using callout::ApprovalBook;
using callout::ApprovalFilter;
using callout::ApprovalState;
using callout::DecisionOutcome;
using drivers::jsonError;
using drivers::printable;

enum class ApprovalRoute { kList, kOne, kDecision };

struct ApprovalTarget {
  ApprovalRoute route = ApprovalRoute::kList;
  std::int64_t id = 0;
};

// "/v1/approvals", "/v1/approvals/12", "/v1/approvals/12/decision"; nullopt for anything else.
std::optional<ApprovalTarget> approvalRoute(std::string_view path) {
  const std::string_view base = kApprovalsPath;
  if (path == base) return ApprovalTarget{ApprovalRoute::kList, 0};
  if (path.substr(0, base.size()) != base || path.size() <= base.size() + 1 ||
      path[base.size()] != '/') {
    return std::nullopt;
  }
  std::string_view rest = path.substr(base.size() + 1);
  const std::size_t slash = rest.find('/');
  const std::optional<std::int64_t> id = parseIdSegment(rest.substr(0, slash));
  if (!id) return std::nullopt;
  if (slash == std::string_view::npos) return ApprovalTarget{ApprovalRoute::kOne, *id};
  if (rest.substr(slash) == "/decision") return ApprovalTarget{ApprovalRoute::kDecision, *id};
  return std::nullopt;
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

// Runs on the writer.
ApiAnswer handle(const BookSource& books, const ApprovalTarget& target, const std::string& person,
                 ApprovalFilter filter, const callout::ApprovalAnswer& request) {
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
    case ApprovalRoute::kList: {
      auto listed = book->list(filter);
      if (!listed) return apiStoreFailed("read the approvals", listed.error());
      json::Array approvals;
      for (const callout::ApprovalView& v : *listed) approvals.push_back(approvalJson(v));
      return apiOk(json::Object{{"approvals", std::move(approvals)},
                                {"state", filter == ApprovalFilter::kPending ? "pending" : "all"}});
    }
    case ApprovalRoute::kOne: {
      auto found = book->get(target.id);
      if (!found) return apiStoreFailed("read the approval", found.error());
      if (!*found) {
        const std::string name = "approval " + std::to_string(target.id);
        return apiRefusal(404, "no " + name, "no " + name);
      }
      return apiOk(approvalJson(**found));
    }
    case ApprovalRoute::kDecision:
      return decision(*book, person, target.id, request);
  }
  return apiRefusal(404, "not found", "no such route");
}

}  // namespace

ApprovalsServer::ApprovalsServer(drivers::BearerTokens tokens, BookSource books, Writer& writer,
                                 ApprovalsServerOptions options)
    : tokens_(std::move(tokens)),
      books_(std::move(books)),
      writer_(writer),
      options_(std::move(options)) {}

ApprovalsServer::~ApprovalsServer() { stop(); }

Status ApprovalsServer::start() {
  if (server_ && server_->running()) return makeError("the approvals API is already running");
  server_ = std::make_unique<drivers::HttpService>(
      "atoms-edge api",
      [this](Poco::Net::HTTPServerRequest& req, Poco::Net::HTTPServerResponse& resp) {
        serve(req, resp);
      },
      options_.readiness);
  return server_->start(options_.address, options_.port, options_.threads);
}

void ApprovalsServer::stop() {
  if (server_) server_->stop();
}

std::uint16_t ApprovalsServer::port() const { return server_ ? server_->boundPort() : 0; }

void ApprovalsServer::serve(Poco::Net::HTTPServerRequest& request,
                            Poco::Net::HTTPServerResponse& response) {
  RefusedApiRequest event;
  const std::string& uri = request.getURI();
  const std::size_t question = uri.find('?');
  const std::string path = uri.substr(0, question);
  const std::string query = question == std::string::npos ? "" : uri.substr(question + 1);
  event.method = printable(request.getMethod(), 20);
  event.path = printable(path, 100);
  event.peer = request.clientAddress().toString();
  bool bodyRead = false;
  auto answer = [&](const ApiAnswer& a) {
    drivers::sendJson(response, a.status, a.body, bodyRead);
    if (a.status == 200 || a.audited || !options_.onRefused) return;
    event.httpStatus = a.status;
    event.reason = a.reason;
    try {
      options_.onRefused(event);
    } catch (...) {
      // An auditing hook must not turn an answered request into a 500.
    }
  };

  const std::optional<ApprovalTarget> target = approvalRoute(path);
  ApiResource* resource = nullptr;
  std::vector<std::string> allowed;
  if (target) {
    allowed.push_back(target->route == ApprovalRoute::kDecision ? "POST" : "GET");
  } else {
    for (const std::shared_ptr<ApiResource>& r : options_.resources) {
      allowed = r->methods(path);
      if (!allowed.empty()) {
        resource = r.get();
        break;
      }
    }
  }
  if (allowed.empty()) return answer(apiRefusal(404, "not found", "no such path"));
  if (std::find(allowed.begin(), allowed.end(), request.getMethod()) == allowed.end()) {
    std::string allow;
    for (const std::string& m : allowed) allow += (allow.empty() ? "" : ", ") + m;
    response.set("Allow", allow);
    return answer(apiRefusal(405, "method not allowed", "method " + event.method + " not allowed"));
  }
  const std::string token = drivers::bearerToken(request);
  const std::optional<std::string> person = tokens_.lookup(token);
  if (!person) {
    // No detail to the caller: whether the token was missing or wrong is for the audit only.
    return answer(
        apiRefusal(401, "unauthorized", token.empty() ? "no bearer token" : "unknown token"));
  }
  event.person = *person;

  // Runs `work` on the writer with the deadline and answers.
  auto onWriter = [&](const std::function<ApiAnswer()>& work) {
    ApiAnswer result;
    const WriterCall call = runOnWriter(writer_, options_.writerTimeout, [&] { result = work(); });
    switch (call) {
      case WriterCall::kDone:
        return answer(result);
      case WriterCall::kThrew:
        return answer(apiRefusal(503, "the request failed; try again", "the handler threw"));
      case WriterCall::kTimedOut:
        return answer(apiRefusal(503, "the box is busy; nothing was done, try again",
                                 "the engine did not take the request in time"));
      case WriterCall::kRefused:
      case WriterCall::kDropped:
        break;
    }
    answer(apiRefusal(503, "the box is stopping; nothing was done, try again",
                      "the engine is stopping"));
  };

  // The query: only the approvals list takes one.
  const bool list = target && target->route == ApprovalRoute::kList;
  ApprovalFilter filter = ApprovalFilter::kPending;
  if (list && query == "state=all") {
    filter = ApprovalFilter::kRecent;
  } else if (!query.empty() && !(list && query == "state=pending")) {
    const std::string error =
        list ? "query: expected state=pending or state=all" : "query: this path takes no query";
    return answer(apiRefusal(400, error, error + " (got '" + printable(query, 60) + "')"));
  }
  std::string body;
  if (request.getMethod() == "POST") {
    std::optional<std::string> read = drivers::readRequestBody(request, options_.maxBodyBytes);
    if (!read) {
      const std::string limit = std::to_string(options_.maxBodyBytes);
      return answer(
          apiRefusal(413, "body too large", "body over the limit of " + limit + " bytes"));
    }
    bodyRead = true;
    body = std::move(*read);
  } else {
    bodyRead = !request.hasContentLength() || request.getContentLength64() == 0;
  }

  if (resource != nullptr) {
    ApiRequest call{request.getMethod(), path, *person, std::move(body)};
    return onWriter([&] { return resource->handle(call); });
  }
  callout::ApprovalAnswer decisionRequest;
  if (target->route == ApprovalRoute::kDecision) {
    Result<callout::ApprovalAnswer> parsed = parseDecisionRequest(body);
    if (!parsed) return answer(apiRefusal(400, parsed.message(), parsed.message()));
    decisionRequest = std::move(*parsed);
  }
  onWriter([&] { return handle(books_, *target, *person, filter, decisionRequest); });
}

}  // namespace atoms::api
