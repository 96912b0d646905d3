#include "tests/support/fake_square.h"

#include <Poco/Net/HTTPServerRequest.h>
#include <Poco/Net/HTTPServerResponse.h>

#include <algorithm>

#include "drivers/http/bearer_tokens.h"
#include "drivers/http/http_service.h"
#include "drivers/pos/pos_order.h"

namespace atoms::drivers::pos {
namespace {

json::Value fakeMoney(std::int64_t cents) {
  return json::Object{{"amount", cents}, {"currency", "USD"}};
}

std::string fakeErrors(const std::string& category, const std::string& code,
                       const std::string& detail) {
  return json::canonical(json::Object{
      {"errors",
       json::Array{json::Object{{"category", category}, {"code", code}, {"detail", detail}}}}});
}

std::string fakeText(const json::Value* v) {
  return v != nullptr && v->isString() ? v->asString() : "";
}

}  // namespace

json::Value FakeSquareOrder::toJson() const {
  json::Object o{
      {"id", id},
      {"location_id", location},
      {"state", state},
      {"version", version},
      {"created_at", createdAt.empty() ? closedAt : createdAt},
      {"updated_at", updatedAt},
      {"total_money", fakeMoney(totalCents)},
      {"total_tax_money", fakeMoney(taxCents)},
      {"total_tip_money", fakeMoney(tipCents)},
      {"total_service_charge_money", fakeMoney(0)},
      {"total_discount_money", fakeMoney(0)},
      {"net_amounts", json::Object{{"total_money", fakeMoney(totalCents - returnedTotalCents)}}}};
  if (!closedAt.empty()) o["closed_at"] = closedAt;
  if (!returnOf.empty()) {
    o["returns"] = json::Array{json::Object{{"uid", "ret-" + id}, {"source_order_id", returnOf}}};
    o["return_amounts"] = json::Object{{"total_money", fakeMoney(returnedTotalCents)},
                                       {"tax_money", fakeMoney(returnedTaxCents)}};
  }
  return o;
}

FakeSquare::FakeSquare(FakeSquareOptions options) : options_(std::move(options)) {}
FakeSquare::~FakeSquare() { stop(); }

Status FakeSquare::start() {
  server_ = std::make_unique<HttpService>(
      "fake square", [this](Poco::Net::HTTPServerRequest& req,
                            Poco::Net::HTTPServerResponse& resp) { serve(req, resp); });
  return server_->start("127.0.0.1", 0, 2);
}

void FakeSquare::stop() {
  if (server_) server_->stop();
}

std::string FakeSquare::baseUrl() const {
  return "http://127.0.0.1:" + std::to_string(server_ ? server_->boundPort() : 0);
}

void FakeSquare::addOrder(const FakeSquareOrder& order) { addOrderJson(order.toJson()); }

void FakeSquare::addOrderJson(json::Value order) {
  std::lock_guard lock(mutex_);
  const std::string id = fakeText(order.find("id"));
  auto same = std::find_if(orders_.begin(), orders_.end(),
                           [&](const json::Value& o) { return fakeText(o.find("id")) == id; });
  if (same != orders_.end()) {
    *same = std::move(order);
  } else {
    orders_.push_back(std::move(order));
  }
}

void FakeSquare::failNext(FakeSquareFailure failure, int times) {
  std::lock_guard lock(mutex_);
  for (int i = 0; i < times; ++i) failures_.push_back(failure);
}

void FakeSquare::expireToken() {
  std::lock_guard lock(mutex_);
  expired_ = true;
}

void FakeSquare::setToken(std::string token) {
  std::lock_guard lock(mutex_);
  options_.token = std::move(token);
  expired_ = false;
}

int FakeSquare::searches() const {
  std::lock_guard lock(mutex_);
  return static_cast<int>(requests_.size());
}

std::vector<std::string> FakeSquare::requests() const {
  std::lock_guard lock(mutex_);
  return requests_;
}

void FakeSquare::serve(Poco::Net::HTTPServerRequest& request,
                       Poco::Net::HTTPServerResponse& response) {
  if (request.getURI() != "/v2/orders/search" || request.getMethod() != "POST") {
    return sendJson(response, 404, fakeErrors("INVALID_REQUEST_ERROR", "NOT_FOUND", "no route"),
                    false);
  }
  const std::optional<std::string> body = readRequestBody(request, 1 << 20);
  if (!body)
    return sendJson(response, 413, fakeErrors("INVALID_REQUEST_ERROR", "TOO_BIG", ""), false);
  const std::string token = bearerToken(request);
  std::optional<FakeSquareFailure> failure;
  std::vector<json::Value> orders;
  {
    std::lock_guard lock(mutex_);
    requests_.push_back(*body);
    if (expired_ || token != options_.token) {
      return sendJson(
          response, 401,
          fakeErrors("AUTHENTICATION_ERROR", expired_ ? "ACCESS_TOKEN_EXPIRED" : "UNAUTHORIZED",
                     "This request could not be authorized."),
          true);
    }
    if (!failures_.empty()) {
      failure = failures_.front();
      failures_.pop_front();
    } else {
      orders = orders_;
    }
  }
  if (failure) {
    if (failure->retryAfterSeconds) {
      response.set("Retry-After", std::to_string(*failure->retryAfterSeconds));
    }
    const bool limited = failure->status == 429;
    return sendJson(response, failure->status,
                    fakeErrors(limited ? "RATE_LIMIT_ERROR" : "API_ERROR",
                               limited ? "RATE_LIMITED" : "INTERNAL_SERVER_ERROR", "fake failure"),
                    true);
  }
  auto parsed = json::parse(*body);
  if (!parsed || !parsed->isObject()) {
    return sendJson(response, 400, fakeErrors("INVALID_REQUEST_ERROR", "BAD_REQUEST", "not JSON"),
                    true);
  }
  const json::Value* queryValue = parsed->find("query");
  const std::string query = queryValue ? json::canonical(*queryValue) : "";
  const std::string cursor = fakeText(parsed->find("cursor"));
  std::size_t offset = 0;
  if (!cursor.empty()) {
    std::lock_guard lock(mutex_);
    auto it = cursors_.find(cursor);
    if (it == cursors_.end() || it->second.first != query) {
      return sendJson(response, 400,
                      fakeErrors("INVALID_REQUEST_ERROR", "INVALID_CURSOR",
                                 "the cursor does not belong to this query"),
                      true);
    }
    offset = it->second.second;
  }
  std::vector<std::string> locations;
  if (const json::Value* l = parsed->find("location_ids"); l != nullptr && l->isArray()) {
    for (const json::Value& v : l->asArray()) locations.push_back(fakeText(&v));
  }
  std::optional<PosTime> from, to;
  if (queryValue != nullptr) {
    const json::Value* f = queryValue->find("filter");
    const json::Value* d = f ? f->find("date_time_filter") : nullptr;
    const json::Value* u = d ? d->find("updated_at") : nullptr;
    if (u != nullptr) {
      from = parsePosTime(fakeText(u->find("start_at")));
      to = parsePosTime(fakeText(u->find("end_at")));
    }
  }
  std::size_t limit = options_.pageSize;
  if (const json::Value* l = parsed->find("limit"); l != nullptr && l->isInt() && l->asInt() > 0) {
    limit = std::min(limit, static_cast<std::size_t>(l->asInt()));
  }
  std::vector<std::pair<PosTime, json::Value>> matching;
  for (json::Value& o : orders) {
    const std::optional<PosTime> updated = parsePosTime(fakeText(o.find("updated_at")));
    if (!updated) continue;
    if (from && *updated < *from) continue;
    if (to && *updated >= *to) continue;
    if (!locations.empty() && std::find(locations.begin(), locations.end(),
                                        fakeText(o.find("location_id"))) == locations.end()) {
      continue;
    }
    matching.emplace_back(*updated, std::move(o));
  }
  std::stable_sort(matching.begin(), matching.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  json::Array page;
  const std::size_t end = std::min(matching.size(), offset + limit);
  for (std::size_t i = std::min(offset, matching.size()); i < end; ++i) {
    page.push_back(matching[i].second);
  }
  json::Object answer{{"orders", std::move(page)}};
  if (end < matching.size()) {
    std::lock_guard lock(mutex_);
    const std::string id = "cursor-" + std::to_string(++nextCursor_);
    cursors_[id] = {query, end};
    answer["cursor"] = id;
  }
  sendJson(response, 200, json::canonical(json::Value(std::move(answer))), true);
}

}  // namespace atoms::drivers::pos
