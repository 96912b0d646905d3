// ApiSubsystem in-process with the real store and engine subsystems: off without api.listen; a
// tokens file others can read stops the start with one line naming the key; requests reach the
// book on the engine thread; refused requests are audited as api.refused; without a book (SMS or
// call-outs off) every request is 503.
#include <sys/stat.h>

#include <atomic>
#include <boost/test/unit_test.hpp>
#include <map>
#include <memory>

#include "daemon/service/api_subsystem.h"
#include "daemon/service/engine_subsystem.h"
#include "daemon/service/listen_address.h"
#include "daemon/service/store_subsystem.h"
#include "domain/callout/approval_book.h"
#include "drivers/http/bearer_tokens.h"
#include "store/site_store.h"
#include "store/state_dir.h"
#include "tests/support/api_client.h"
#include "tests/support/audit_entries.h"
#include "tests/support/temp_dir.h"
#include "tests/support/test_app.h"

namespace atoms::test {
namespace {

using atoms::testing::apiRequest;
using callout::ApprovalBook;
using callout::ApprovalView;

const std::string kToken = "kwame-token-3f9a1c7e5b2d4086";

// A book with nothing in it that notes whether it was ever called off the engine thread.
class EmptyBook final : public ApprovalBook {
 public:
  explicit EmptyBook(EngineSubsystem& engine) : engine_(engine) {}
  Result<bool> knowsPerson(std::string_view person) override {
    check();
    return person == "p-kwame";
  }
  Result<std::vector<ApprovalView>> list(callout::ApprovalFilter) override {
    check();
    return std::vector<ApprovalView>{};
  }
  Result<std::optional<ApprovalView>> get(std::int64_t) override {
    check();
    return std::optional<ApprovalView>();
  }
  Result<callout::ApprovalDecision> decide(std::string_view, std::int64_t,
                                           const callout::ApprovalAnswer&) override {
    check();
    return callout::ApprovalDecision{};
  }
  std::atomic<int> calls{0};
  std::atomic<bool> offEngine{false};

 private:
  void check() {
    ++calls;
    if (!engine_.engine().onWriterThread()) offEngine = true;
  }
  EngineSubsystem& engine_;
};

struct Services {
  explicit Services(std::map<std::string, std::string> keys)
      : stateDir(tmp.file("state")),
        app((keys.emplace("state.dir", stateDir), keys)),
        store(std::make_unique<StoreSubsystem>(Poco::Logger::get("store"))),
        engine(std::make_unique<EngineSubsystem>(Poco::Logger::get("engine"))),
        api(std::make_unique<ApiSubsystem>(Poco::Logger::get("api"), *store, *engine)),
        book(*engine) {
    Status s = initStateDir(stateDir, InitOptions{"site-api"});
    BOOST_REQUIRE_MESSAGE(s.ok(), s.message());
    for (ServiceSubsystem* service : {static_cast<ServiceSubsystem*>(store.get()),
                                      static_cast<ServiceSubsystem*>(engine.get())}) {
      Status started = service->startService(app);
      BOOST_REQUIRE_MESSAGE(started, service->name() << ": " << started.message());
    }
  }
  ~Services() {
    api->stopService();
    engine->stopService();
    store->stopService();
  }
  std::vector<Entry> audited(std::string_view kind) {
    api->stopService();
    engine->stopService();
    store->stopService();
    auto opened = SiteStore::open(stateDir);
    BOOST_REQUIRE_MESSAGE(opened, opened.message());
    auto entries = atoms::testing::entriesOfKind((*opened)->log(), kind);
    BOOST_REQUIRE_MESSAGE(entries, entries.message());
    return *entries;
  }

  atoms::testing::TempDir tmp;
  std::string stateDir;
  TestApp app;
  std::unique_ptr<StoreSubsystem> store;
  std::unique_ptr<EngineSubsystem> engine;
  std::unique_ptr<ApiSubsystem> api;
  EmptyBook book;
};

std::string tokensFile(const atoms::testing::TempDir& dir, mode_t mode) {
  const std::string path =
      dir.write("api-tokens", "p-kwame " + drivers::BearerTokens::hashHex(kToken) + "\n");
  BOOST_REQUIRE(::chmod(path.c_str(), mode) == 0);
  return path;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(api_subsystem)

BOOST_AUTO_TEST_CASE(listenAddressesAreHostPortOrABarePortOnLoopback) {
  BOOST_TEST(parseListenAddress("8480", kApiBareHost)->host == "127.0.0.1");
  BOOST_TEST(parseListenAddress("8480", kApiBareHost)->port == 8480);
  BOOST_TEST(parseListenAddress("0.0.0.0:8480", kApiBareHost)->host == "0.0.0.0");
  BOOST_TEST(parseListenAddress("[::1]:8480", kApiBareHost)->host == "::1");
  for (const char* bad : {"", "x", "70000", "127.0.0.1", "127.0.0.1:", "::1:8480", "a b:1"}) {
    BOOST_TEST(!parseListenAddress(bad, kApiBareHost).has_value(), bad);
  }
  BOOST_TEST(!parseListenAddress("8480").has_value());  // terminal.listen: host:port only
}

BOOST_AUTO_TEST_CASE(offWithoutApiListen) {
  Services s({});
  BOOST_TEST(s.api->startService(s.app).ok());
  BOOST_TEST(s.api->port() == 0);
}

BOOST_AUTO_TEST_CASE(aTokensFileOthersCanReadStopsTheStartNamingTheKey) {
  atoms::testing::TempDir dir;
  const std::string file = tokensFile(dir, 0644);
  Services s({{"api.listen", "127.0.0.1:0"}, {"api.tokens_file", file}});
  Status started = s.api->startService(s.app);
  BOOST_REQUIRE(!started);
  BOOST_TEST(started.message() == "api.tokens_file " + file +
                                      " is accessible by group or others (mode 0644); run "
                                      "chmod 600 " +
                                      file);
}

BOOST_AUTO_TEST_CASE(aListenWithoutATokensFileStopsTheStart) {
  Services none(std::map<std::string, std::string>{{"api.listen", "127.0.0.1:0"}});
  Status missing = none.api->startService(none.app);
  BOOST_REQUIRE(!missing);
  BOOST_TEST(missing.message() == "api.tokens_file must be set when api.listen is");
}

BOOST_AUTO_TEST_CASE(requestsReachTheBookOnTheEngineAndRefusalsAreAudited) {
  atoms::testing::TempDir dir;
  Services s({{"api.listen", "127.0.0.1:0"}, {"api.tokens_file", tokensFile(dir, 0600)}});
  s.api->setApprovals(&s.book);
  BOOST_REQUIRE(s.api->startService(s.app));
  BOOST_REQUIRE(s.api->port() != 0);
  auto listed = apiRequest(s.api->port(), "GET", "/v1/approvals", kToken);
  BOOST_TEST(listed.status == 200);
  BOOST_TEST(listed.object().at("approvals").asArray().empty());
  BOOST_TEST(apiRequest(s.api->port(), "GET", "/v1/approvals/4", kToken).status == 404);
  BOOST_TEST(apiRequest(s.api->port(), "GET", "/v1/approvals", "stolen-token").status == 401);
  BOOST_TEST(s.book.calls == 4);  // knowsPerson and list, knowsPerson and get
  BOOST_TEST(!s.book.offEngine);
  const std::vector<Entry> refused = s.audited("api.refused");
  BOOST_REQUIRE(refused.size() == 2u);
  const json::Object& notFound = refused[0].body.asObject();
  BOOST_TEST(refused[0].actor == "api:p-kwame");
  BOOST_TEST(notFound.at("status").asInt() == 404);
  BOOST_TEST(notFound.at("reason").asString() == "no approval 4");
  BOOST_TEST(notFound.at("path").asString() == "/v1/approvals/4");
  BOOST_TEST(notFound.at("method").asString() == "GET");
  BOOST_TEST(refused[1].actor == "api");
  BOOST_TEST(refused[1].body.asObject().at("reason").asString() == "unknown token");
  BOOST_TEST(refused[1].body.asObject().count("person") == 0u);
}

BOOST_AUTO_TEST_CASE(withoutACalloutDeskEveryRequestIs503) {
  atoms::testing::TempDir dir;
  Services s({{"api.listen", "127.0.0.1:0"}, {"api.tokens_file", tokensFile(dir, 0600)}});
  BOOST_REQUIRE(s.api->startService(s.app));
  auto r = apiRequest(s.api->port(), "GET", "/v1/approvals", kToken);
  BOOST_TEST(r.status == 503);
  BOOST_TEST(r.error() == "approvals are not available: call-outs are off on this box");
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace atoms::test
