#include "tests/api/served_api.h"

#include <sys/stat.h>

#include <boost/test/unit_test.hpp>

#include "base/writer_call.h"
#include "daemon/service/api_subsystem.h"
#include "daemon/service/engine_subsystem.h"
#include "daemon/service/store_subsystem.h"
#include "domain/site/site_file.h"
#include "domain/site/site_repository.h"
#include "drivers/http/bearer_tokens.h"
#include "store/site_store.h"
#include "store/state_dir.h"
#include "tests/site/site_test_util.h"
#include "tests/support/audit_entries.h"
#include "tests/support/build_paths.h"

namespace atoms::test {

ServedApi::ServedApi(const std::string& smsDriver, const std::map<std::string, std::string>& tokens,
                     const std::map<std::string, std::string>& config,
                     std::optional<TimePoint> simulatedStart)
    : stateDir(tmp.file("state")),
      ownedClock(simulatedStart ? std::unique_ptr<Clock>(new SimulatedClock(*simulatedStart))
                                : std::unique_ptr<Clock>(new SystemClock())),
      clock(*ownedClock) {
  Status s = initStateDir(stateDir, InitOptions{"site-api-served"});
  BOOST_REQUIRE_MESSAGE(s.ok(), s.message());
  auto model = site::parseSiteFile(site::testing::readText(site::testing::demoSitePath()));
  BOOST_REQUIRE_MESSAGE(model, model.message());
  {
    auto store = SiteStore::open(stateDir);
    BOOST_REQUIRE_MESSAGE(store, store.message());
    Status imported = site::importSite((*store)->db(), *model);
    BOOST_REQUIRE_MESSAGE(imported.ok(), imported.message());
  }
  std::string lines;
  for (const auto& [person, token] : tokens) {
    lines += person + " " + drivers::BearerTokens::hashHex(token) + "\n";
  }
  const std::string tokensFile = tmp.write("api-tokens", lines);
  BOOST_REQUIRE(::chmod(tokensFile.c_str(), 0600) == 0);
  std::map<std::string, std::string> settings{
      {"state.dir", stateDir},
      {"sms.driver", smsDriver},
      {"labor.rules_dir", atoms::testing::sourceDir() + "/etc/labor"},
      {"api.listen", "127.0.0.1:0"},
      {"api.tokens_file", tokensFile}};
  for (const auto& [key, value] : config) settings[key] = value;
  app = std::make_unique<TestApp>(settings);
  services = std::make_unique<EdgeServices>(*app, clock);
  Status started = services->start();
  BOOST_REQUIRE_MESSAGE(started.ok(), services->failedService() << ": " << started.message());
}

ServedApi::~ServedApi() { services->stop(); }

std::uint16_t ServedApi::port() { return services->api().port(); }

namespace {
std::map<std::string, std::string> withOwners(std::map<std::string, std::string> config) {
  config.emplace("policy.owners", "p-marco");
  return config;
}
}  // namespace

RolesSite::RolesSite(const std::map<std::string, std::string>& config,
                     std::optional<TimePoint> simulatedStart)
    : ServedApi("simulated",
                {{"p-gm", kManagerToken}, {"p-marco", kOwnerToken}, {"p-jamal", kStaffToken}},
                withOwners(config), simulatedStart) {}

std::vector<Entry> RolesSite::entries(std::string_view kind) {
  auto found = callOnWriter(services->engine().engine(), [this, kind] {
    return atoms::testing::entriesOfKind(services->store().store().log(), kind);
  });
  BOOST_REQUIRE(found);
  BOOST_REQUIRE_MESSAGE(*found, found->message());
  return **found;
}

}  // namespace atoms::test
