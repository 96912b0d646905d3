// SquareFeed: the Square Orders API as an OrderFeed (docs/pos.md "Square"). Each fetch() is one
// POST /v2/orders/search (square_orders.h) with `Authorization: Bearer <access token>` and the
// Square-Version header, over HTTPS with certificate and host name verification (system CAs,
// TLS 1.2+), or plain HTTP to a loopback base URL (the fake in the tests).
//
// Answers: 200 -> the page (an unreadable one is kInvalid, naming the order and field); 429 ->
// kRateLimited with Retry-After (seconds) when given; 401 and 403 -> kAuth ("Square refused the
// access token (HTTP 401, UNAUTHORIZED: ...): replace pos.square.access_token_file"); 5xx, other
// statuses and transport failures -> kUnavailable; 400 -> kInvalid. The token is never part of an
// error or a log line.
//
// Threading: one fetch at a time per feed (each opens its own connection).
#pragma once

#include <Poco/AutoPtr.h>

#include <chrono>
#include <string>
#include <vector>

#include "base/result.h"
#include "base/secret.h"
#include "drivers/pos/order_feed.h"

namespace Poco::Net {
class Context;
}  // namespace Poco::Net

namespace atoms::drivers::pos {

struct SquareConfig {
  std::string baseUrl = "https://connect.squareup.com";
  std::string squareVersion = "2024-10-17";
  std::vector<std::string> locationIds;  // 1-10
  std::string accessToken;               // moved into guarded memory by the feed
  std::string currency = "USD";
  std::string source = "square";
  int pageLimit = 500;
  std::chrono::milliseconds connectTimeout{10'000};
  std::chrono::milliseconds requestTimeout{30'000};
};

// Checks a configuration: base URL https (or http to 127.0.0.1/::1/localhost), 1-10 location ids,
// a token, a page limit of 1-500. Errors name the setting ("pos.square.location_ids: ...").
Status validateSquareConfig(const SquareConfig& config);

class SquareFeed final : public OrderFeed {
 public:
  // Precondition: validateSquareConfig(config) succeeded. Wipes config.accessToken.
  explicit SquareFeed(SquareConfig config);
  ~SquareFeed() override;
  SquareFeed(const SquareFeed&) = delete;
  SquareFeed& operator=(const SquareFeed&) = delete;

  std::string source() const override { return config_.source; }
  std::variant<FeedPage, FeedError> fetch(const FeedQuery& query) override;

 private:
  SquareConfig config_;
  SecretBytes token_;
  std::string scheme_, host_, basePath_;
  std::uint16_t port_ = 0;
  Poco::AutoPtr<Poco::Net::Context> tls_;
};

}  // namespace atoms::drivers::pos
