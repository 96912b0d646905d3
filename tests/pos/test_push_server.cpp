// The local push server over real HTTP on loopback into a real sales book: a POS's orders stored
// under its own source, a retry answered "duplicate", a correction "updated"; refusals for a
// missing or unknown token, a body naming another POS, a bad field (named), nothing stored; and
// the parser's strictness.
#include <boost/test/unit_test.hpp>

#include "drivers/pos/push_request.h"
#include "drivers/pos/push_server.h"
#include "tests/pos/sales_site.h"
#include "tests/support/api_client.h"

namespace atoms::pos::test {
namespace {

using namespace std::chrono;
using atoms::testing::apiRequest;
using drivers::BearerTokens;
using drivers::pos::PushRequest;
using drivers::pos::PushServer;
using drivers::pos::PushServerOptions;
using drivers::pos::RefusedPush;
using drivers::pos::SourceStatus;

const std::string kRegisterToken = "register-1-token-8a7f3c2d1e";
const std::string kBarToken = "bar-token-55e1c0ffee";

struct PushSite : SalesSite {
  PushSite() {
    auto tokens = BearerTokens::parse("register-1 " + BearerTokens::hashHex(kRegisterToken) +
                                          "\nbar " + BearerTokens::hashHex(kBarToken) + "\n",
                                      "test", "pos");
    BOOST_TEST_REQUIRE(tokens.ok(), tokens.message());
    PushServerOptions options;
    options.onRefused = [this](const RefusedPush& r) {
      std::lock_guard lock(mutex);
      refused.push_back(r);
    };
    options.onStatus = [this](const SourceStatus& s) {
      std::lock_guard lock(mutex);
      statuses.push_back(s);
    };
    server = std::make_unique<PushServer>(std::move(*tokens), *book, options);
    BOOST_TEST_REQUIRE(server->start().ok());
  }
  atoms::testing::ApiReply push(const std::string& body,
                                const std::optional<std::string>& token = kRegisterToken) {
    return apiRequest(server->port(), "POST", "/v1/pos/orders", token, body);
  }
  std::mutex mutex;
  std::vector<RefusedPush> refused;
  std::vector<SourceStatus> statuses;
  std::unique_ptr<PushServer> server;
};

const std::string kTwoOrders =
    R"({"pos":"register-1","orders":[{"id":"T-1","closed_at":"2026-11-30T19:05:00Z",)"
    R"("net_cents":1250,"covers":2,"revenue_center":"bar"},{"id":"T-2","closed_at":)"
    R"("2026-11-30T11:20:00-08:00","net_cents":800}]})";

BOOST_AUTO_TEST_SUITE(push_server)

BOOST_AUTO_TEST_CASE(storesAPushAndAnswersEachOrder) {
  PushSite site;
  const auto reply = site.push(kTwoOrders);
  BOOST_TEST(reply.status == 200);
  BOOST_TEST(reply.body == R"({"pos":"register-1","results":[{"id":"T-1","outcome":"stored"},)"
                           R"({"id":"T-2","outcome":"stored"}]})");
  const sys_seconds day{sys_days(2026y / 11 / 30)};
  const auto rows = site.intervals(day, day + days(1));
  BOOST_TEST_REQUIRE(rows.size() == 2u);
  BOOST_TEST(rows[0].revenueCenter == "bar");
  BOOST_TEST(rows[0].covers == 2);
  BOOST_TEST((rows[1].start == day + hours(19) + minutes(15)));
  BOOST_TEST(site.book->cursor("push:register-1").ok());
  BOOST_TEST(site.imports() == 1u);
  BOOST_TEST((site.statuses.back().kind == SourceStatus::Kind::kOk));
  BOOST_TEST(site.statuses.back().source == "push:register-1");
}

BOOST_AUTO_TEST_CASE(aRetryIsADuplicateAndACorrectionAnUpdate) {
  PushSite site;
  BOOST_TEST(site.push(kTwoOrders).status == 200);
  const auto again = site.push(kTwoOrders);
  BOOST_TEST(again.body.find(R"("outcome":"duplicate")") != std::string::npos);
  BOOST_TEST(again.body.find(R"("outcome":"stored")") == std::string::npos);
  const auto fixed =
      site.push(R"({"pos":"register-1","orders":[{"id":"T-2","closed_at":"2026-11-30T19:20:00Z",)"
                R"("net_cents":0,"version":2,"state":"canceled"}]})");
  BOOST_TEST(fixed.body.find(R"("outcome":"updated")") != std::string::npos);
  const sys_seconds day{sys_days(2026y / 11 / 30)};
  BOOST_TEST(site.netCents(day, day + days(1)) == 1250);
  BOOST_TEST(site.imports() == 2u);
}

BOOST_AUTO_TEST_CASE(refusesBadTokensOtherPosAndBadBodiesStoringNothing) {
  PushSite site;
  BOOST_TEST(site.push(kTwoOrders, std::nullopt).status == 401);
  BOOST_TEST(site.push(kTwoOrders, std::string("guess")).status == 401);
  const auto other = site.push(kTwoOrders, kBarToken);
  BOOST_TEST(other.status == 403);
  BOOST_TEST(other.error() == "the token is not for POS 'register-1'");
  const auto bad =
      site.push(R"({"pos":"register-1","orders":[{"id":"T-1","closed_at":"2026-11-30T19:05:00Z",)"
                R"("net_cents":"12.50"}]})");
  BOOST_TEST(bad.status == 400);
  BOOST_TEST(bad.error() == "orders[0].net_cents: '12.50' is not an integer number of cents");
  BOOST_TEST(apiRequest(site.server->port(), "GET", "/v1/pos/orders", kRegisterToken).status ==
             405);
  const sys_seconds day{sys_days(2026y / 11 / 30)};
  BOOST_TEST(site.intervals(day, day + days(1)).empty());
  std::lock_guard lock(site.mutex);
  BOOST_TEST_REQUIRE(site.refused.size() == 5u);
  BOOST_TEST(site.refused[0].reason == "no bearer token");
  BOOST_TEST(site.refused[2].pos == "bar");
  for (const RefusedPush& r : site.refused) {
    BOOST_TEST(r.reason.find(kRegisterToken) == std::string::npos);
  }
}

BOOST_AUTO_TEST_CASE(theParserRefusesUnknownFieldsAndNamesThem) {
  auto typo = drivers::pos::parsePushRequest(
      R"({"pos":"r","orders":[{"id":"1","closed_at":"2026-11-30T19:05:00Z","net_cents":1,)"
      R"("cover":2}]})");
  BOOST_TEST(typo.message() == "orders[0].cover: is not a field of this object");
  auto state = drivers::pos::parsePushRequest(
      R"({"pos":"r","orders":[{"id":"1","closed_at":"2026-11-30T19:05:00Z","net_cents":1,)"
      R"("state":"done"}]})");
  BOOST_TEST(state.message() == "orders[0].state: 'done' is not one of completed, canceled, open");
  BOOST_TEST(!drivers::pos::parsePushRequest(R"({"pos":"r","orders":[]})").ok());
  PushRequest request{"r", {}};
  PosOrder o;
  o.id = "A";
  o.at = o.updatedAt = drivers::pos::parsePosTime("2026-11-30T19:05:00Z").value();
  o.netCents = 5;
  o.returnOf = "Z";
  o.returnedCents = 2;
  request.orders.push_back(o);
  auto back = drivers::pos::parsePushRequest(drivers::pos::encodePushRequest(request));
  BOOST_TEST_REQUIRE(back.ok(), back.message());
  BOOST_TEST((back->orders == request.orders));
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace
}  // namespace atoms::pos::test
