#include "drivers/pos/push_request.h"

#include <initializer_list>

#include "base/canonical_json.h"
#include "drivers/http/bearer_tokens.h"
#include "drivers/http/printable.h"

namespace atoms::drivers::pos {
namespace {

Error pushError(const std::string& field, const std::string& what) {
  return makeError(field + ": " + what, ErrorKind::kInvalid);
}

std::string pushShown(const json::Value& v) {
  switch (v.type()) {
    case json::Type::kString:
      return "'" + printable(v.asString()) + "'";
    case json::Type::kInt:
      return std::to_string(v.asInt());
    case json::Type::kNull:
      return "null";
    case json::Type::kBool:
      return v.asBool() ? "true" : "false";
    case json::Type::kArray:
      return "an array";
    case json::Type::kObject:
      return "an object";
  }
  return "a value";
}

Status pushOnlyFields(const json::Object& o, const std::string& where,
                      std::initializer_list<std::string_view> allowed) {
  for (const auto& [key, value] : o) {
    bool known = false;
    for (std::string_view a : allowed) known = known || key == a;
    if (!known) return pushError(where + "." + printable(key), "is not a field of this object");
  }
  return Status::success();
}

Result<std::string> pushString(const json::Object& o, const std::string& where,
                               const std::string& key, bool required) {
  auto it = o.find(key);
  if (it == o.end()) {
    if (required) return pushError(where + "." + key, "is missing");
    return std::string();
  }
  if (!it->second.isString())
    return pushError(where + "." + key, pushShown(it->second) + " is not a string");
  return it->second.asString();
}

Result<std::int64_t> pushInt(const json::Object& o, const std::string& where,
                             const std::string& key, bool required, std::int64_t fallback,
                             const std::string& what) {
  auto it = o.find(key);
  if (it == o.end()) {
    if (required) return pushError(where + "." + key, "is missing");
    return fallback;
  }
  if (!it->second.isInt())
    return pushError(where + "." + key, pushShown(it->second) + " is not " + what);
  return it->second.asInt();
}

Result<PosTime> pushTime(const json::Object& o, const std::string& where, const std::string& key,
                         bool required) {
  auto text = pushString(o, where, key, required);
  if (!text) return text.error();
  if (text->empty() && !required) return PosTime{};
  const std::optional<PosTime> t = parsePosTime(*text);
  if (!t) return pushError(where + "." + key, "'" + printable(*text) + "' is not an RFC 3339 time");
  return *t;
}

Result<PosOrder> parsePushOrder(const json::Value& v, const std::string& where) {
  if (!v.isObject()) return pushError(where, "is not an object");
  const json::Object& o = v.asObject();
  if (Status s =
          pushOnlyFields(o, where,
                         {"id", "closed_at", "updated_at", "net_cents", "covers", "revenue_center",
                          "version", "state", "return_of", "returned_cents"});
      !s) {
    return s.error();
  }
  PosOrder order;
  auto id = pushString(o, where, "id", true);
  if (!id) return id.error();
  order.id = *id;
  auto closed = pushTime(o, where, "closed_at", true);
  if (!closed) return closed.error();
  order.at = *closed;
  auto updated = pushTime(o, where, "updated_at", false);
  if (!updated) return updated.error();
  order.updatedAt = o.count("updated_at") != 0 ? *updated : order.at;
  auto net = pushInt(o, where, "net_cents", true, 0, "an integer number of cents");
  if (!net) return net.error();
  order.netCents = *net;
  auto covers = pushInt(o, where, "covers", false, 0, "an integer");
  if (!covers) return covers.error();
  order.covers = *covers;
  auto version = pushInt(o, where, "version", false, 1, "an integer");
  if (!version) return version.error();
  order.version = *version;
  auto returned = pushInt(o, where, "returned_cents", false, 0, "an integer number of cents");
  if (!returned) return returned.error();
  order.returnedCents = *returned;
  auto center = pushString(o, where, "revenue_center", false);
  if (!center) return center.error();
  if (o.count("revenue_center") != 0) order.revenueCenter = *center;
  auto returnOf = pushString(o, where, "return_of", false);
  if (!returnOf) return returnOf.error();
  order.returnOf = *returnOf;
  auto state = pushString(o, where, "state", false);
  if (!state) return state.error();
  if (o.count("state") != 0) {
    const std::optional<OrderState> parsed = parseOrderState(*state);
    if (!parsed) {
      return pushError(where + ".state",
                       "'" + printable(*state) + "' is not one of completed, canceled, open");
    }
    order.state = *parsed;
  }
  if (Status valid = validateOrder(order, where); !valid) return valid.error();
  return order;
}

}  // namespace

Result<PushRequest> parsePushRequest(std::string_view body) {
  if (body.size() > kMaxPushBytes) return pushError("body", "is over 1 MiB");
  auto parsed = json::parse(body);
  if (!parsed) return pushError("body", parsed.message());
  if (!parsed->isObject()) return pushError("body", "is not a JSON object");
  const json::Object& o = parsed->asObject();
  if (Status s = pushOnlyFields(o, "body", {"pos", "orders"}); !s) return s.error();
  PushRequest request;
  auto pos = pushString(o, "body", "pos", true);
  if (!pos) return pos.error();
  if (!isValidTokenId(*pos)) {
    return pushError("pos", "'" + printable(*pos) + "' is not 1-64 letters, digits, '-', '_', '.'");
  }
  request.pos = *pos;
  auto orders = o.find("orders");
  if (orders == o.end()) return pushError("orders", "is missing");
  if (!orders->second.isArray()) return pushError("orders", "is not an array");
  const json::Array& list = orders->second.asArray();
  if (list.empty() || list.size() > kMaxOrdersPerPush) {
    return pushError("orders", "must hold 1 to " + std::to_string(kMaxOrdersPerPush) + " orders");
  }
  for (std::size_t i = 0; i < list.size(); ++i) {
    auto order = parsePushOrder(list[i], "orders[" + std::to_string(i) + "]");
    if (!order) return order.error();
    request.orders.push_back(std::move(*order));
  }
  return request;
}

std::string encodePushRequest(const PushRequest& request) {
  json::Array orders;
  for (const PosOrder& o : request.orders) {
    json::Object j{{"id", o.id},
                   {"closed_at", formatPosTime(o.at)},
                   {"updated_at", formatPosTime(o.updatedAt)},
                   {"net_cents", o.netCents},
                   {"covers", o.covers},
                   {"revenue_center", o.revenueCenter},
                   {"version", o.version},
                   {"state", std::string(orderStateName(o.state))}};
    if (!o.returnOf.empty()) {
      j["return_of"] = o.returnOf;
      j["returned_cents"] = o.returnedCents;
    }
    orders.emplace_back(std::move(j));
  }
  return json::canonical(json::Object{{"pos", request.pos}, {"orders", std::move(orders)}});
}

std::string encodePushResponse(const std::string& pos, const std::vector<PosOrder>& orders,
                               const std::vector<OrderOutcome>& outcomes) {
  json::Array results;
  for (std::size_t i = 0; i < orders.size() && i < outcomes.size(); ++i) {
    results.emplace_back(json::Object{{"id", orders[i].id},
                                      {"outcome", std::string(orderOutcomeName(outcomes[i]))}});
  }
  return json::canonical(json::Object{{"pos", pos}, {"results", std::move(results)}});
}

}  // namespace atoms::drivers::pos
