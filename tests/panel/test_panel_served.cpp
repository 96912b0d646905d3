// The panel through serve's own wiring (EdgeServices, as `atoms-edge serve` runs it, on a
// simulated clock): with panel.listen set it starts after the store, serves the shell over TLS
// with the box's certificate, answers /readyz from the service's checks, and stops with the rest;
// sign-in works end to end (an invite from `atoms-edge panel invite`, accepted over the API), and
// the engine's sweep ends a session past its idle limit.
#include <Poco/Net/HTTPSClientSession.h>
#include <Poco/Net/ServerSocket.h>
#include <Poco/Net/SocketAddress.h>

#include <boost/test/unit_test.hpp>
#include <chrono>
#include <map>
#include <memory>
#include <sstream>
#include <string>

#include "base/canonical_json.h"
#include "base/clock.h"
#include "daemon/cli/cli.h"
#include "daemon/cli/commands.h"
#include "daemon/engine/engine.h"
#include "daemon/panel/box_certificate.h"
#include "daemon/service/edge_services.h"
#include "daemon/service/engine_subsystem.h"
#include "daemon/service/panel_subsystem.h"
#include "daemon/service/store_subsystem.h"
#include "domain/site/site_repository.h"
#include "store/site_store.h"
#include "store/state_dir.h"
#include "store/store_runner.h"
#include "tests/panel/panel_box.h"
#include "tests/panel/panel_client.h"
#include "tests/support/audit_entries.h"
#include "tests/support/build_paths.h"
#include "tests/support/temp_dir.h"
#include "tests/support/test_app.h"

namespace atoms::test {
namespace {

PanelReply servedPost(std::uint16_t port, const std::string& cert, const std::string& path,
                      const std::string& body, const std::string& origin) {
  Poco::Net::HTTPSClientSession session("127.0.0.1", port, trustingOnly(cert));
  session.setTimeout(Poco::Timespan(10, 0));
  Poco::Net::HTTPRequest request("POST", path, Poco::Net::HTTPMessage::HTTP_1_1);
  request.setContentType("application/json");
  request.set("Origin", origin);
  request.setContentLength(static_cast<std::streamsize>(body.size()));
  session.sendRequest(request) << body;
  Poco::Net::HTTPResponse response;
  std::istream& in = session.receiveResponse(response);
  PanelReply reply;
  reply.status = response.getStatus();
  for (const auto& [k, v] : response) reply.headers.add(k, v);
  std::ostringstream text;
  Poco::StreamCopier::copyStream(in, text);
  reply.body = text.str();
  return reply;
}

BOOST_AUTO_TEST_SUITE(panel_served)

BOOST_AUTO_TEST_CASE(serveRunsThePanelWithTheOtherServicesAndStopsIt) {
  testing::TempDir tmp;
  const std::string stateDir = tmp.file("state");
  BOOST_REQUIRE(initStateDir(stateDir, InitOptions{"site-served-panel"}));
  SimulatedClock clock;
  auto app = std::make_unique<TestApp>(std::map<std::string, std::string>{
      {"state.dir", stateDir},
      {"labor.rules_dir", atoms::testing::sourceDir() + "/etc/labor"},
      {"panel.listen", "127.0.0.1:0"}});
  auto services = std::make_unique<EdgeServices>(*app, clock);
  Status started = services->start();
  BOOST_REQUIRE_MESSAGE(started, services->failedService() + ": " + started.message());
  const std::uint16_t port = services->panel().port();
  BOOST_REQUIRE(port != 0);
  const std::string cert = panel::BoxCertificatePaths::under(stateDir).cert;

  const PanelReply page = httpsRequest(port, "/today", cert);
  BOOST_TEST(page.status == 200);
  BOOST_TEST(page.body.find("<nav id=\"pages-nav\" aria-label=\"Panel\" hidden>") !=
             std::string::npos);
  BOOST_TEST(page.peerFingerprint == services->panel().fingerprint());
  const PanelReply ready = httpsRequest(port, "/readyz", cert);
  BOOST_TEST(ready.status == 200, ready.body);
  BOOST_TEST(ready.body.find("\"engine\":\"ok\"") != std::string::npos, ready.body);

  // No panel.origin and port 0: no origin to check sign-ins against, so no sign-in.
  BOOST_TEST(!services->panel().signInServed());
  BOOST_TEST(httpsRequest(port, "/api/session", cert).status == 404);

  services->stop();
  BOOST_TEST(services->panel().port() == 0);
  BOOST_CHECK_THROW(httpsRequest(port, "/", cert), Poco::Exception);
  services.reset();
  app.reset();
}

BOOST_AUTO_TEST_CASE(signsInWithAnInviteFromTheCommandLineAndTheEngineEndsIdleSessions) {
  testing::TempDir tmp;
  const std::string stateDir = tmp.file("state");
  BOOST_REQUIRE(initStateDir(stateDir, InitOptions{"site-served-panel"}));
  importPanelSite(stateDir);
  const std::string origin = "https://box.served.lan:8443";
  const std::string config = tmp.write("atoms-edge.conf", "policy.owners = p-olga\n");
  SimulatedClock clock;
  auto app = std::make_unique<TestApp>(std::map<std::string, std::string>{
      {"state.dir", stateDir},
      {"labor.rules_dir", atoms::testing::sourceDir() + "/etc/labor"},
      {"policy.owners", "p-olga"},
      {"panel.listen", "127.0.0.1:0"},
      {"panel.origin", origin}});
  auto services = std::make_unique<EdgeServices>(*app, clock);
  Status started = services->start();
  BOOST_REQUIRE_MESSAGE(started, services->failedService() + ": " + started.message());
  BOOST_TEST(services->panel().signInServed());
  BOOST_TEST(services->panel().origin() == origin);
  const std::uint16_t port = services->panel().port();
  const std::string cert = panel::BoxCertificatePaths::under(stateDir).cert;

  std::ostringstream out, err;
  cli::Io io{out, err};
  const int code =
      cli::runCli({"panel", "invite", "p-olga", "--state-dir", stateDir, "--config", config},
                  cli::allCommands(), io);
  BOOST_TEST_REQUIRE(code == 0, err.str());
  std::string token;
  std::istringstream lines(out.str());
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("  ", 0) == 0) token = line.substr(2);
  }
  BOOST_TEST_REQUIRE(!token.empty(), out.str());

  const PanelReply accepted = servedPost(
      port, cert, "/api/invite/accept",
      json::canonical(json::Object{{"token", token}, {"password", "correct horse battery"}}),
      origin);
  BOOST_TEST_REQUIRE(accepted.status == 200, accepted.body);
  const std::string setCookie = accepted.headers.get("Set-Cookie", "");
  const std::string cookie = setCookie.substr(0, setCookie.find(';'));
  const PanelReply me = httpsRequest(port, "/api/session", cert, "GET", {{"Cookie", cookie}});
  BOOST_TEST(me.status == 200, me.body);
  BOOST_TEST(me.body.find("\"role\":\"owner\"") != std::string::npos, me.body);
  BOOST_TEST(me.body.find("\"name\":\"Olga Berg\"") != std::string::npos, me.body);

  // Past the idle limit (30 minutes): the engine's sweep ends the session without a request.
  clock.advance(std::chrono::minutes(31));
  BOOST_TEST_REQUIRE(services->engine().engine().drain(std::chrono::seconds(10)));
  PostingStoreRunner runner(services->store().store(), services->engine().engine());
  auto expired = atoms::testing::entriesOfKindVia(runner, "panel.session.expired");
  BOOST_TEST_REQUIRE(expired.ok(), expired.message());
  BOOST_TEST(expired->size() == 1u);
  BOOST_TEST(httpsRequest(port, "/api/session", cert, "GET", {{"Cookie", cookie}}).status == 401);

  services->stop();
  services.reset();
  app.reset();
}

BOOST_AUTO_TEST_CASE(takesTheOriginFromASingleListenAddress) {
  testing::TempDir tmp;
  const std::string stateDir = tmp.file("state");
  BOOST_REQUIRE(initStateDir(stateDir, InitOptions{"site-served-panel"}));
  std::uint16_t free = 0;
  {
    Poco::Net::ServerSocket probe(Poco::Net::SocketAddress("127.0.0.1", 0));
    free = probe.address().port();
  }
  SimulatedClock clock;
  auto app = std::make_unique<TestApp>(std::map<std::string, std::string>{
      {"state.dir", stateDir},
      {"labor.rules_dir", atoms::testing::sourceDir() + "/etc/labor"},
      {"panel.listen", "127.0.0.1:" + std::to_string(free)}});
  auto services = std::make_unique<EdgeServices>(*app, clock);
  Status started = services->start();
  BOOST_REQUIRE_MESSAGE(started, services->failedService() + ": " + started.message());
  BOOST_TEST(services->panel().signInServed());
  BOOST_TEST(services->panel().origin() == "https://127.0.0.1:" + std::to_string(free));
  const std::string cert = panel::BoxCertificatePaths::under(stateDir).cert;
  BOOST_TEST(httpsRequest(free, "/api/session", cert).status == 401);
  services->stop();
  services.reset();
  app.reset();
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace
}  // namespace atoms::test
