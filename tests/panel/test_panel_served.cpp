// The panel through serve's own wiring (EdgeServices, as `atoms-edge serve` runs it, on a
// simulated clock): with panel.listen set it starts after the store, serves the shell over TLS
// with the box's certificate, answers /readyz from the service's checks, and stops with the rest.
#include <boost/test/unit_test.hpp>
#include <map>
#include <memory>
#include <string>

#include "base/clock.h"
#include "daemon/panel/box_certificate.h"
#include "daemon/service/edge_services.h"
#include "daemon/service/panel_subsystem.h"
#include "store/state_dir.h"
#include "tests/panel/panel_client.h"
#include "tests/support/build_paths.h"
#include "tests/support/temp_dir.h"
#include "tests/support/test_app.h"

namespace atoms::test {
namespace {

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
  BOOST_TEST(page.body.find("<nav aria-label=\"Panel\">") != std::string::npos);
  BOOST_TEST(page.peerFingerprint == services->panel().fingerprint());
  const PanelReply ready = httpsRequest(port, "/readyz", cert);
  BOOST_TEST(ready.status == 200, ready.body);
  BOOST_TEST(ready.body.find("\"engine\":\"ok\"") != std::string::npos, ready.body);

  services->stop();
  BOOST_TEST(services->panel().port() == 0);
  BOOST_CHECK_THROW(httpsRequest(port, "/", cert), Poco::Exception);
  services.reset();
  app.reset();
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace
}  // namespace atoms::test
