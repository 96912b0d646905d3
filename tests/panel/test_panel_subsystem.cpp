// PanelSubsystem in-process with the real store: off without panel.listen; the box's own
// certificate, made at start when init's is missing, served with the fingerprint it logs; the
// operator's certificate served when configured; start errors that name the key. And the
// command line: init makes the certificate and prints the fingerprint identity prints too.
#include <Poco/Net/ServerSocket.h>
#include <Poco/Net/SocketAddress.h>

#include <algorithm>
#include <boost/test/unit_test.hpp>
#include <chrono>
#include <map>
#include <memory>
#include <sstream>
#include <string>

#include "daemon/cli/cli.h"
#include "daemon/cli/commands.h"
#include "daemon/panel/box_certificate.h"
#include "daemon/service/panel_subsystem.h"
#include "daemon/service/store_subsystem.h"
#include "store/state_dir.h"
#include "tests/panel/panel_client.h"
#include "tests/support/temp_dir.h"
#include "tests/support/test_app.h"

namespace atoms::test {
namespace {

using Keys = std::map<std::string, std::string>;

// The store (for the state directory) and the panel, started in serve's order.
struct PanelServices {
  explicit PanelServices(std::map<std::string, std::string> keys)
      : stateDir(tmp.file("state")),
        app((keys.emplace("state.dir", stateDir), keys)),
        store(std::make_unique<StoreSubsystem>(Poco::Logger::get("store"))),
        panel(std::make_unique<PanelSubsystem>(Poco::Logger::get("panel"), *store)) {
    Status s = initStateDir(stateDir, InitOptions{"site-panel"});
    BOOST_REQUIRE_MESSAGE(s.ok(), s.message());
    Status started = store->startService(app);
    BOOST_REQUIRE_MESSAGE(started, started.message());
  }
  ~PanelServices() {
    panel->stopService();
    store->stopService();
  }
  Status start() { return panel->startService(app); }

  testing::TempDir tmp;
  std::string stateDir;
  TestApp app;
  std::unique_ptr<StoreSubsystem> store;
  std::unique_ptr<PanelSubsystem> panel;
};

int runCommand(const std::vector<std::string>& args, std::string& out, std::string& err) {
  std::ostringstream o, e;
  cli::Io io{o, e};
  const int code = cli::runCli(args, cli::allCommands(), io);
  out = o.str();
  err = e.str();
  return code;
}

BOOST_AUTO_TEST_SUITE(panel_subsystem)

BOOST_AUTO_TEST_CASE(isOffWithoutPanelListen) {
  PanelServices s(Keys{});
  BOOST_REQUIRE(s.start());
  BOOST_TEST(s.panel->port() == 0);
  BOOST_TEST(s.panel->fingerprint().empty());
}

BOOST_AUTO_TEST_CASE(makesTheBoxCertificateWhenMissingAndServesIt) {
  PanelServices s({{"panel.listen", "127.0.0.1:0"}, {"panel.redirect_listen", "127.0.0.1:0"}});
  const auto paths = panel::BoxCertificatePaths::under(s.stateDir);
  BOOST_REQUIRE(!posixFileSystem().exists(paths.cert));
  Status started = s.start();
  BOOST_REQUIRE_MESSAGE(started, started.message());
  auto info = panel::readCertificate(paths.cert);
  BOOST_REQUIRE(info);
  BOOST_TEST(s.panel->fingerprint() == info->fingerprint);
  const PanelReply r = httpsRequest(s.panel->port(), "/", paths.cert);
  BOOST_TEST(r.status == 200);
  BOOST_TEST(r.peerFingerprint == info->fingerprint);
  const PanelReply redirect = httpRequest(s.panel->redirectPort(), "/audit");
  BOOST_TEST(redirect.status == 308);
  BOOST_TEST(redirect.headers.get("Location", "") ==
             "https://127.0.0.1:" + std::to_string(s.panel->port()) + "/audit");
  // A second start keeps it (same fingerprint), as serve does after a restart.
  s.panel->stopService();
  BOOST_REQUIRE(s.start());
  BOOST_TEST(s.panel->fingerprint() == info->fingerprint);
}

BOOST_AUTO_TEST_CASE(servesTheOperatorsCertificateWhenConfigured) {
  testing::TempDir own;
  const auto theirs = panel::BoxCertificatePaths::under(own.path());
  BOOST_REQUIRE(panel::createBoxCertificate(theirs, {"localhost", "127.0.0.1", "panel.example"},
                                            std::chrono::system_clock::now()));
  PanelServices s({{"panel.listen", "127.0.0.1:0"},
                   {"panel.cert_file", theirs.cert},
                   {"panel.key_file", theirs.key}});
  Status started = s.start();
  BOOST_REQUIRE_MESSAGE(started, started.message());
  const auto expected = panel::readCertificate(theirs.cert)->fingerprint;
  BOOST_TEST(s.panel->fingerprint() == expected);
  const PanelReply r = httpsRequest(s.panel->port(), "/index.html", theirs.cert);
  BOOST_TEST(r.status == 200);
  BOOST_TEST(r.peerFingerprint == expected);
  // The box's own was neither needed nor made.
  BOOST_TEST(!posixFileSystem().exists(panel::BoxCertificatePaths::under(s.stateDir).cert));
}

BOOST_AUTO_TEST_CASE(startErrorsNameTheKey) {
  testing::TempDir own;
  const auto theirs = panel::BoxCertificatePaths::under(own.path());
  BOOST_REQUIRE(
      panel::createBoxCertificate(theirs, {"localhost"}, std::chrono::system_clock::now()));
  const struct {
    std::map<std::string, std::string> keys;
    std::string named;
  } cases[] = {
      {{{"panel.listen", "127.0.0.1:0"},
        {"panel.cert_file", own.file("missing.crt")},
        {"panel.key_file", theirs.key}},
       "panel.cert_file"},
      {{{"panel.listen", "127.0.0.1:0"},
        {"panel.cert_file", theirs.cert},
        {"panel.key_file", own.file("missing.key")}},
       "panel.key_file"},
      {{{"panel.listen", "127.0.0.1:0"}, {"panel.cert_file", theirs.cert}}, "panel.key_file"},
      // A path that cannot be read as a file (as root, a mode 000 file still can be).
      {{{"panel.listen", "127.0.0.1:0"},
        {"panel.cert_file", theirs.cert},
        {"panel.key_file", own.path()}},
       "panel.key_file"},
      {{{"panel.listen", "127.0.0.1:0"},
        {"panel.cert_file", own.path()},
        {"panel.key_file", theirs.key}},
       "panel.cert_file"},
      {{{"panel.listen", "127.0.0.1:0"}, {"panel.redirect_listen", "nowhere"}},
       "panel.redirect_listen"},
  };
  for (const auto& c : cases) {
    PanelServices s(c.keys);
    Status started = s.start();
    BOOST_TEST(!started, c.named);
    BOOST_TEST(started.message().find(c.named) != std::string::npos, started.message());
    BOOST_TEST(s.panel->port() == 0);
  }
}

BOOST_AUTO_TEST_CASE(portTakenIsAStartError) {
  Poco::Net::ServerSocket taken(Poco::Net::SocketAddress("127.0.0.1", 0));
  const std::string address = "127.0.0.1:" + std::to_string(taken.address().port());
  PanelServices second(Keys{{"panel.listen", address}});
  Status started = second.start();
  BOOST_TEST(started.message().find(address) != std::string::npos, started.message());
  BOOST_TEST(!started);
  BOOST_TEST(started.message().find("panel") != std::string::npos, started.message());
}

BOOST_AUTO_TEST_CASE(initMakesTheCertificateAndInitAndIdentityPrintItsFingerprint) {
  testing::TempDir tmp;
  const std::string dir = tmp.file("state");
  std::string out, err;
  BOOST_REQUIRE_EQUAL(runCommand({"init", "--site-id", "site-cert", "--state-dir", dir,
                                  "--panel-names", "box.lan, 192.168.1.20"},
                                 out, err),
                      0);
  auto info = panel::readCertificate(panel::BoxCertificatePaths::under(dir).cert);
  BOOST_REQUIRE(info);
  BOOST_TEST(out.find(info->fingerprint) != std::string::npos, out);
  for (const char* name : {"box.lan", "192.168.1.20", "localhost", "127.0.0.1"}) {
    BOOST_TEST(std::count(info->names.begin(), info->names.end(), name) == 1, name);
  }
  BOOST_REQUIRE_EQUAL(runCommand({"identity", "--state-dir", dir}, out, err), 0);
  BOOST_TEST(out.find("panel-certificate-sha256 " + info->fingerprint + "\n") != std::string::npos,
             out);
}

BOOST_AUTO_TEST_CASE(initRefusesAPanelNameACertificateCannotHoldBeforeMakingAnything) {
  testing::TempDir tmp;
  const std::string dir = tmp.file("state");
  std::string out, err;
  BOOST_TEST(
      runCommand({"init", "--site-id", "site-cert", "--state-dir", dir, "--panel-names", "box_lan"},
                 out, err) != 0);
  BOOST_TEST(err.find("--panel-names") != std::string::npos, err);
  BOOST_TEST(!posixFileSystem().exists(dir));
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace
}  // namespace atoms::test
