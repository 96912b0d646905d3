#include "drivers/pos/square_orders.h"

#include "base/canonical_json.h"
#include "drivers/http/printable.h"

namespace atoms::drivers::pos::square {
namespace {

const json::Value* squareMember(const json::Value& o, std::string_view key) {
  const json::Value* v = o.find(key);
  return v == nullptr || v->isNull() ? nullptr : v;
}

Result<std::string> squareText(const json::Value& o, std::string_view key, const std::string& where,
                               bool required) {
  const json::Value* v = squareMember(o, key);
  if (v == nullptr) {
    if (required) return makeError(where + ": " + std::string(key) + " is missing");
    return std::string();
  }
  if (!v->isString()) return makeError(where + ": " + std::string(key) + " is not a string");
  return v->asString();
}

// A Money object's amount; 0 when absent.
Result<std::int64_t> squareMoney(const json::Value& o, std::string_view key,
                                 std::string_view currency, const std::string& where) {
  const json::Value* m = squareMember(o, key);
  if (m == nullptr) return std::int64_t{0};
  const std::string field(key);
  if (!m->isObject()) return makeError(where + ": " + field + " is not an object");
  const json::Value* amount = squareMember(*m, "amount");
  if (amount == nullptr) return std::int64_t{0};
  if (!amount->isInt()) return makeError(where + ": " + field + ".amount is not an integer");
  if (const json::Value* c = squareMember(*m, "currency"); c != nullptr) {
    if (!c->isString() || c->asString() != currency) {
      return makeError(where + ": " + field + " is in " +
                       (c->isString() ? "'" + printable(c->asString(), 8) + "'" : "no currency") +
                       ", not " + std::string(currency));
    }
  }
  if (amount->asInt() < -kMaxOrderCents || amount->asInt() > kMaxOrderCents) {
    return makeError(where + ": " + field + ".amount is out of range");
  }
  return amount->asInt();
}

// total less tax, tip and service charge, with the given field names' prefix.
Result<std::int64_t> squareNet(const json::Value& o, bool orderLevel, std::string_view currency,
                               const std::string& where) {
  const std::string p = orderLevel ? "total_" : "";
  auto total = squareMoney(o, "total_money", currency, where);
  if (!total) return total.error();
  auto tax = squareMoney(o, p + "tax_money", currency, where);
  if (!tax) return tax.error();
  auto tip = squareMoney(o, p + "tip_money", currency, where);
  if (!tip) return tip.error();
  auto service = squareMoney(o, p + "service_charge_money", currency, where);
  if (!service) return service.error();
  return *total - *tax - *tip - *service;
}

}  // namespace

std::string searchRequestBody(const std::vector<std::string>& locationIds, const FeedQuery& query,
                              int limit) {
  json::Array locations;
  for (const std::string& l : locationIds) locations.emplace_back(l);
  json::Object filter{
      {"date_time_filter",
       json::Object{{"updated_at", json::Object{{"start_at", formatPosTime(query.from)},
                                                {"end_at", formatPosTime(query.to)}}}}},
      {"state_filter", json::Object{{"states", json::Array{"OPEN", "COMPLETED", "CANCELED"}}}}};
  json::Object body{
      {"location_ids", std::move(locations)},
      {"limit", limit},
      {"return_entries", false},
      {"query",
       json::Object{{"filter", std::move(filter)},
                    {"sort", json::Object{{"sort_field", "UPDATED_AT"}, {"sort_order", "ASC"}}}}}};
  if (!query.page.empty()) body["cursor"] = query.page;
  return json::canonical(json::Value(std::move(body)));
}

Result<PosOrder> parseOrder(const json::Value& v, std::string_view currency,
                            const std::string& at) {
  if (!v.isObject()) return makeError(at + " is not an object");
  auto id = squareText(v, "id", at, true);
  if (!id) return id.error();
  const std::string where = at + " (id '" + printable(*id) + "')";
  PosOrder o;
  o.id = *id;
  auto location = squareText(v, "location_id", where, false);
  if (!location) return location.error();
  if (!location->empty()) o.revenueCenter = *location;
  if (const json::Value* version = squareMember(v, "version"); version != nullptr) {
    if (!version->isInt() || version->asInt() < 0) {
      return makeError(where + ": version is not a non-negative integer");
    }
    o.version = version->asInt();
  }
  auto state = squareText(v, "state", where, true);
  if (!state) return state.error();
  if (*state == "COMPLETED") {
    o.state = OrderState::kCompleted;
  } else if (*state == "CANCELED") {
    o.state = OrderState::kCanceled;
  } else if (*state == "OPEN" || *state == "DRAFT") {
    o.state = OrderState::kOpen;
  } else {
    return makeError(where + ": state '" + printable(*state) + "' is not one Square documents");
  }
  auto updated = squareText(v, "updated_at", where, true);
  if (!updated) return updated.error();
  auto closed = squareText(v, "closed_at", where, false);
  if (!closed) return closed.error();
  auto created = squareText(v, "created_at", where, false);
  if (!created) return created.error();
  const std::optional<PosTime> updatedAt = parsePosTime(*updated);
  if (!updatedAt)
    return makeError(where + ": updated_at '" + printable(*updated) + "' is not a time");
  o.updatedAt = *updatedAt;
  const std::string& when = closed->empty() ? *created : *closed;
  const std::optional<PosTime> at2 = parsePosTime(when);
  if (!at2) {
    return makeError(where + ": " + (closed->empty() ? "created_at" : "closed_at") + " '" +
                     printable(when) + "' is not a time");
  }
  o.at = *at2;
  auto net = squareNet(v, true, currency, where);
  if (!net) return net.error();
  o.netCents = *net;
  if (const json::Value* returns = squareMember(v, "returns"); returns != nullptr) {
    if (!returns->isArray()) return makeError(where + ": returns is not an array");
    for (const json::Value& r : returns->asArray()) {
      if (!r.isObject()) return makeError(where + ": returns[] is not an object");
      auto source = squareText(r, "source_order_id", where + ": returns[]", false);
      if (!source) return source.error();
      if (o.returnOf.empty()) o.returnOf = *source;
    }
    if (const json::Value* amounts = squareMember(v, "return_amounts"); amounts != nullptr) {
      if (!amounts->isObject()) return makeError(where + ": return_amounts is not an object");
      auto returned = squareNet(*amounts, false, currency, where + ": return_amounts");
      if (!returned) return returned.error();
      o.returnedCents = *returned < 0 ? -*returned : *returned;
    }
    // A return whose sale Square does not name (an unlinked refund) counts where it happened.
    if (o.returnOf.empty()) {
      o.netCents -= o.returnedCents;
      o.returnedCents = 0;
    }
  }
  if (Status valid = validateOrder(o, where); !valid) return valid.error();
  return o;
}

Result<FeedPage> parseSearchResponse(std::string_view body, std::string_view currency) {
  if (body.size() > kMaxReplyBytes) return makeError("Square answer is over 16 MiB");
  auto parsed = json::parse(body);
  if (!parsed) return makeError("Square answer is not JSON: " + parsed.message());
  if (!parsed->isObject()) return makeError("Square answer is not a JSON object");
  FeedPage page;
  if (const json::Value* orders = squareMember(*parsed, "orders"); orders != nullptr) {
    if (!orders->isArray()) return makeError("Square answer: orders is not an array");
    std::size_t i = 0;
    for (const json::Value& v : orders->asArray()) {
      auto o = parseOrder(v, currency, "Square order " + std::to_string(i++));
      if (!o) return o.error();
      page.orders.push_back(std::move(*o));
    }
  }
  if (const json::Value* cursor = squareMember(*parsed, "cursor"); cursor != nullptr) {
    if (!cursor->isString()) return makeError("Square answer: cursor is not a string");
    page.next = cursor->asString();
  }
  return page;
}

std::string describeErrors(std::string_view body) {
  auto parsed = json::parse(body);
  if (!parsed || !parsed->isObject()) return {};
  const json::Value* errors = squareMember(*parsed, "errors");
  if (errors == nullptr || !errors->isArray() || errors->asArray().empty()) return {};
  const json::Value& first = errors->asArray().front();
  const json::Value* code = squareMember(first, "code");
  const json::Value* detail = squareMember(first, "detail");
  std::string out = code != nullptr && code->isString() ? printable(code->asString(), 60) : "";
  if (detail != nullptr && detail->isString()) {
    out += (out.empty() ? "" : ": ") + printable(detail->asString(), 200);
  }
  return out;
}

}  // namespace atoms::drivers::pos::square
