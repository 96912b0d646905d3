// The POS drivers in `serve`: PosSubsystem in-process with the real store and engine, from the
// configuration: the Square poller against the fake Square over loopback, the push server over
// real HTTP and HTTPS, the CSV folder; health on the way; refusals of a bad configuration naming
// the key.
#include <Poco/Net/Context.h>
#include <Poco/Net/HTTPRequest.h>
#include <Poco/Net/HTTPResponse.h>
#include <Poco/Net/HTTPSClientSession.h>
#include <Poco/StreamCopier.h>
#include <sys/stat.h>

#include <boost/test/unit_test.hpp>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <thread>

#include "daemon/api/pos_health_json.h"
#include "daemon/service/engine_subsystem.h"
#include "daemon/service/pos_subsystem.h"
#include "daemon/service/store_subsystem.h"
#include "domain/pos/sales_book.h"
#include "domain/site/site_file.h"
#include "domain/site/site_repository.h"
#include "drivers/http/bearer_tokens.h"
#include "store/site_store.h"
#include "store/state_dir.h"
#include "tests/support/api_client.h"
#include "tests/support/audit_entries.h"
#include "tests/support/build_paths.h"
#include "tests/support/fake_square.h"
#include "tests/support/temp_dir.h"
#include "tests/support/test_app.h"

namespace atoms::test {
namespace {

using namespace std::chrono;

const std::string kPushToken = "register-token-0a1b2c3d4e5f";

std::string readAll(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

struct PosSite {
  explicit PosSite(bool importSite = true) : stateDir(tmp.file("state")), drop(tmp.file("drop")) {
    BOOST_TEST_REQUIRE(initStateDir(stateDir, InitOptions{"site-pos"}).ok());
    if (importSite) {
      auto model =
          site::parseSiteFile(readAll(atoms::testing::sourceDir() + "/etc/sites/demo-site.json"));
      BOOST_TEST_REQUIRE(model.ok(), model.message());
      auto store = SiteStore::open(stateDir);
      BOOST_TEST_REQUIRE(store.ok(), store.message());
      BOOST_TEST_REQUIRE(site::importSite((*store)->db(), *model).ok());
    }
    std::filesystem::create_directories(drop);
    squareToken = secret("square-token", fake.token() + "\n");
    pushTokens =
        secret("pos-tokens", "register-1 " + drivers::BearerTokens::hashHex(kPushToken) + "\n");
    BOOST_TEST_REQUIRE(fake.start().ok());
  }
  std::string secret(const std::string& name, const std::string& text) const {
    const std::string path = tmp.write(name, text);
    BOOST_TEST_REQUIRE(::chmod(path.c_str(), 0600) == 0);
    return path;
  }
  std::map<std::string, std::string> keys() const {
    return {{"state.dir", stateDir},
            {"pos.square.location_ids", "L-MAIN"},
            {"pos.square.access_token_file", squareToken},
            {"pos.square.base_url", fake.baseUrl()},
            {"pos.push.listen", "127.0.0.1:0"},
            {"pos.push.tokens_file", pushTokens},
            {"pos.push.tls", "off"},
            {"pos.csv.directory", drop}};
  }

  atoms::testing::TempDir tmp;
  std::string stateDir, drop, squareToken, pushTokens;
  drivers::pos::FakeSquare fake;
};

struct PosServices {
  explicit PosServices(const std::map<std::string, std::string>& keys)
      : app(keys),
        store(std::make_unique<StoreSubsystem>(Poco::Logger::get("store"))),
        engine(std::make_unique<EngineSubsystem>(Poco::Logger::get("engine"))),
        pos(std::make_unique<PosSubsystem>(Poco::Logger::get("pos"), *store, *engine)) {}
  ~PosServices() { stop(); }
  Status start() {
    for (ServiceSubsystem* s : {static_cast<ServiceSubsystem*>(store.get()),
                                static_cast<ServiceSubsystem*>(engine.get())}) {
      Status started = s->startService(app);
      BOOST_TEST_REQUIRE(started.ok(), s->name() << ": " << started.message());
    }
    return pos->startService(app);
  }
  void stop() {
    pos->stopService();
    engine->stopService();
    store->stopService();
  }
  TestApp app;
  std::unique_ptr<StoreSubsystem> store;
  std::unique_ptr<EngineSubsystem> engine;
  std::unique_ptr<PosSubsystem> pos;
};

// Waits (with a deadline, never a fixed sleep) until `done` holds.
template <class F>
bool within(seconds deadline, F done) {
  const auto end = steady_clock::now() + deadline;
  while (!done()) {
    if (steady_clock::now() > end) return false;
    std::this_thread::sleep_for(milliseconds(5));
  }
  return true;
}

BOOST_AUTO_TEST_SUITE(pos_serve)

BOOST_AUTO_TEST_CASE(everyDriverStoresThroughServe) {
  PosSite site;
  // A sale an hour ago, seen by the first poll; a file waiting in the folder.
  const auto hourAgo = floor<milliseconds>(system_clock::now()) - hours(1);
  drivers::pos::FakeSquareOrder sale;
  sale.id = "SQ-1";
  sale.closedAt = sale.updatedAt = drivers::pos::formatPosTime(hourAgo);
  sale.totalCents = 1500;
  site.fake.addOrder(sale);
  std::ofstream(site.drop + "/export.csv") << "order_id,closed_at,net_sales\nCSV-1,"
                                           << drivers::pos::formatPosTime(hourAgo) << ",7.25\n";
  {
    PosServices s(site.keys());
    Status started = s.start();
    BOOST_TEST_REQUIRE(started.ok(), started.message());
    BOOST_TEST(std::filesystem::exists(site.drop + "/done/export.csv.result"));
    const auto pushed = atoms::testing::apiRequest(
        s.pos->pushPort(), "POST", "/v1/pos/orders", kPushToken,
        R"({"pos":"register-1","orders":[{"id":"P-1","closed_at":")" +
            drivers::pos::formatPosTime(hourAgo) + R"(","net_cents":300}]})");
    BOOST_TEST(pushed.status == 200);
    const auto refused = atoms::testing::apiRequest(s.pos->pushPort(), "POST", "/v1/pos/orders",
                                                    std::string("wrong"), "{}");
    BOOST_TEST(refused.status == 401);
    BOOST_TEST(within(seconds(20), [&] {
      for (const pos::SourceHealth& h : s.pos->health().sources(system_clock::now())) {
        if (h.source == "square" && h.lastOk) return true;
      }
      return false;
    }));
    BOOST_TEST(s.pos->health().freshness(system_clock::now()).fresh);
  }
  auto store = SiteStore::open(site.stateDir);
  BOOST_TEST_REQUIRE(store.ok(), store.message());
  const auto from = floor<seconds>(hourAgo) - hours(1);
  auto rows = pos::salesIntervals((*store)->db(), from, from + hours(3));
  BOOST_TEST_REQUIRE(rows.ok(), rows.message());
  std::int64_t net = 0;
  for (const pos::SalesInterval& i : *rows) net += i.netCents;
  BOOST_TEST(net == 1500 + 725 + 300);
  auto imports = atoms::testing::entriesOfKind((*store)->log(), "pos.import");
  BOOST_TEST_REQUIRE(imports.ok());
  BOOST_TEST(imports->size() == 3u);
  auto refusals = atoms::testing::entriesOfKind((*store)->log(), "pos.refused");
  BOOST_TEST_REQUIRE(refusals.ok());
  BOOST_TEST_REQUIRE(refusals->size() == 1u);
  BOOST_TEST(json::canonical((*refusals)[0].body).find(R"("reason":"unknown token")") !=
             std::string::npos);
}

BOOST_AUTO_TEST_CASE(thePushServerSpeaksHttpsWithTheBoxCertificate) {
  PosSite site;
  auto keys = site.keys();
  keys.erase("pos.push.tls");  // on by default
  keys.erase("pos.square.location_ids");
  keys.erase("pos.csv.directory");
  PosServices s(keys);
  Status started = s.start();
  BOOST_TEST_REQUIRE(started.ok(), started.message());
  // The client trusts exactly the box's certificate, as a POS set up by docs/pos.md would.
  Poco::Net::Context::Params params;
  params.caLocation = site.stateDir + "/panel.crt";
  params.verificationMode = Poco::Net::Context::VERIFY_RELAXED;
  params.loadDefaultCAs = false;
  Poco::Net::HTTPSClientSession session(
      "127.0.0.1", s.pos->pushPort(),
      new Poco::Net::Context(Poco::Net::Context::TLS_CLIENT_USE, params));
  const std::string body =
      R"({"pos":"register-1","orders":[{"id":"P-9","closed_at":"2026-11-30T19:05:00Z",)"
      R"("net_cents":300}]})";
  Poco::Net::HTTPRequest request(Poco::Net::HTTPRequest::HTTP_POST, "/v1/pos/orders",
                                 Poco::Net::HTTPMessage::HTTP_1_1);
  request.set("Authorization", "Bearer " + kPushToken);
  request.setContentType("application/json");
  request.setContentLength(static_cast<std::streamsize>(body.size()));
  session.sendRequest(request) << body;
  Poco::Net::HTTPResponse response;
  std::string answer;
  Poco::StreamCopier::copyToString(session.receiveResponse(response), answer);
  BOOST_TEST(static_cast<int>(response.getStatus()) == 200);
  BOOST_TEST(answer == R"({"pos":"register-1","results":[{"id":"P-9","outcome":"stored"}]})");
  // Plain HTTP to the same port gets nowhere.
  Poco::Net::HTTPClientSession plain("127.0.0.1", s.pos->pushPort());
  plain.setTimeout(Poco::Timespan(5, 0));
  BOOST_CHECK_THROW(
      {
        Poco::Net::HTTPRequest get(Poco::Net::HTTPRequest::HTTP_GET, "/v1/pos/orders");
        plain.sendRequest(get);
        Poco::Net::HTTPResponse r;
        plain.receiveResponse(r);
      },
      Poco::Exception);
}

BOOST_AUTO_TEST_CASE(anExpiredSquareTokenIsHaltedAndAudited) {
  PosSite site;
  site.fake.expireToken();
  auto keys = site.keys();
  keys.erase("pos.push.listen");
  keys.erase("pos.csv.directory");
  {
    PosServices s(keys);
    BOOST_TEST_REQUIRE(s.start().ok());
    BOOST_TEST(within(seconds(20), [&] {
      const auto all = s.pos->health().sources(system_clock::now());
      return !all.empty() && all[0].state == pos::SourceState::kHalted;
    }));
    const pos::PosFreshness f = s.pos->health().freshness(system_clock::now());
    BOOST_TEST(!f.fresh);
    BOOST_TEST(f.reason.find("ACCESS_TOKEN_EXPIRED") != std::string::npos);
  }
  auto store = SiteStore::open(site.stateDir);
  BOOST_TEST_REQUIRE(store.ok());
  auto health = atoms::testing::entriesOfKind((*store)->log(), "pos.health");
  BOOST_TEST_REQUIRE(health.ok());
  BOOST_TEST_REQUIRE(health->size() == 1u);
  BOOST_TEST(json::canonical((*health)[0].body).find(R"("state":"halted")") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(theSettingsJsonShowsEachSourceAndSinceWhen) {
  pos::PosHealth health;
  const auto t0 = sys_days(2026y / 11 / 30) + hours(18);
  health.watch("square", minutes(5), t0, t0);
  (void)health.record({"square", drivers::pos::SourceStatus::Kind::kFailing, "HTTP 503"},
                      t0 + minutes(1));
  BOOST_TEST(json::canonical(api::posHealthJson(health, t0 + minutes(2))) ==
             R"({"fresh":false,"on":true,"reason":"POS square is failing: HTTP 503",)"
             R"("sources":[{"detail":"HTTP 503","lastOk":"2026-11-30T18:00:00.000Z",)"
             R"("since":"2026-11-30T18:01:00.000Z","source":"square","state":"failing"}],)"
             R"("staleSince":"2026-11-30T18:01:00.000Z"})");
}

BOOST_AUTO_TEST_CASE(aBadConfigurationIsRefusedNamingTheKey) {
  PosSite site;
  BOOST_TEST_REQUIRE(::chmod(site.squareToken.c_str(), 0644) == 0);
  PosServices open(site.keys());
  Status started = open.start();
  BOOST_TEST(started.message().find("pos.square.access_token_file") != std::string::npos);
  BOOST_TEST(started.message().find("chmod 600") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(aSiteWithoutATimeZoneIsRefused) {
  PosSite site(false);
  PosServices s(site.keys());
  Status started = s.start();
  BOOST_TEST(started.message().find("import the site file first") != std::string::npos);
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace
}  // namespace atoms::test
