// PanelServer over real sockets on loopback: the shell over TLS with every security header (on
// errors and health checks too), page names as the shell, 404 for unknown and traversing paths,
// 405 for other methods, ETag revalidation, gzip; the plain listener redirects every path,
// health checks included, and nothing else; a key that is not the certificate's, or a missing
// file, stops start() with a line naming it.
#include <Poco/InflatingStream.h>
#include <Poco/Net/NetException.h>
#include <Poco/Net/SSLException.h>

#include <boost/test/unit_test.hpp>
#include <chrono>
#include <sstream>
#include <string>

#include "daemon/panel/box_certificate.h"
#include "daemon/panel/panel_server.h"
#include "tests/panel/panel_client.h"
#include "tests/support/temp_dir.h"

namespace atoms::test {
namespace {

using panel::PanelServer;
using panel::PanelServerOptions;

// A running server with the box's certificate from a temporary state directory.
struct ServedPanel {
  explicit ServedPanel(bool withRedirect = true) {
    Status made = panel::createBoxCertificate(paths, {"localhost", "127.0.0.1"},
                                              std::chrono::system_clock::now());
    BOOST_REQUIRE_MESSAGE(made, made.message());
    PanelServerOptions o;
    o.certFile = paths.cert;
    o.keyFile = paths.key;
    if (withRedirect) o.redirectAddress = "127.0.0.1";
    server = std::make_unique<PanelServer>(o);
    Status started = server->start();
    BOOST_REQUIRE_MESSAGE(started, started.message());
  }
  PanelReply get(const std::string& path, const std::map<std::string, std::string>& headers = {},
                 const std::string& method = "GET") {
    return httpsRequest(server->port(), path, paths.cert, method, headers);
  }

  testing::TempDir dir;
  panel::BoxCertificatePaths paths = panel::BoxCertificatePaths::under(dir.path());
  std::unique_ptr<PanelServer> server;
};

void checkSecurityHeaders(const PanelReply& r, const std::string& what) {
  BOOST_TEST(r.headers.get("Content-Security-Policy", "") ==
                 "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
                 "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
             what);
  BOOST_TEST(r.headers.get("Strict-Transport-Security", "").starts_with("max-age="), what);
  BOOST_TEST(r.headers.get("X-Content-Type-Options", "") == "nosniff", what);
  BOOST_TEST(r.headers.get("Referrer-Policy", "") == "no-referrer", what);
  BOOST_TEST(r.headers.get("Cross-Origin-Opener-Policy", "") == "same-origin", what);
}

std::string inflate(const std::string& z) {
  std::istringstream in(z);
  Poco::InflatingInputStream unzip(in, Poco::InflatingStreamBuf::STREAM_GZIP);
  std::ostringstream out;
  out << unzip.rdbuf();
  return out.str();
}

BOOST_AUTO_TEST_SUITE(panel_server)

BOOST_AUTO_TEST_CASE(servesTheShellOverTlsWithEverySecurityHeader) {
  ServedPanel p;
  const panel::PanelAssets assets;
  for (const std::string path : {"/", "/index.html", "/today", "/call-outs", "/settings"}) {
    const PanelReply r = p.get(path);
    BOOST_TEST(r.status == 200, path);
    BOOST_TEST(r.headers.get("Content-Type", "") == "text/html; charset=utf-8", path);
    BOOST_TEST(r.body == assets.find("/index.html")->body, path);
    BOOST_TEST(r.headers.get("Cache-Control", "") == "no-cache", path);
    checkSecurityHeaders(r, path);
  }
  const PanelReply css = p.get("/panel.css");
  BOOST_TEST(css.status == 200);
  BOOST_TEST(css.headers.get("Content-Type", "") == "text/css; charset=utf-8");
  checkSecurityHeaders(css, "/panel.css");
}

BOOST_AUTO_TEST_CASE(errorsAndHealthChecksCarryTheHeadersToo) {
  ServedPanel p;
  for (const auto& [path, status] :
       {std::pair<std::string, int>{"/nothing-here", 404}, {"/healthz", 200}, {"/readyz", 200}}) {
    const PanelReply r = p.get(path);
    BOOST_TEST(r.status == status, path);
    checkSecurityHeaders(r, path);
  }
  const PanelReply post = p.get("/index.html", {}, "POST");
  BOOST_TEST(post.status == 405);
  BOOST_TEST(post.headers.get("Allow", "") == "GET, HEAD");
  checkSecurityHeaders(post, "POST");
}

BOOST_AUTO_TEST_CASE(traversingAndEncodedPathsAreNotFound) {
  ServedPanel p;
  for (const char* path :
       {"/../index.html", "/../../etc/passwd", "/%2e%2e/%2e%2e/etc/passwd", "/%2E%2E/index.html",
        "/vendor%2fpreact.module.js", "/vendor/..%2fpanel.js", "/vendor/../panel.js",
        "/./index.html", "//index.html", "/index.html%00", "/..%5cindex.html", "/today/",
        "/unknown.js"}) {
    const PanelReply r = p.get(path);
    BOOST_TEST(r.status == 404, path);
    BOOST_TEST(r.body == "not found\n", path);
  }
}

BOOST_AUTO_TEST_CASE(queryDoesNotChangeTheAssetAndHeadSendsNoBody) {
  ServedPanel p;
  const PanelReply plain = p.get("/panel.js");
  const PanelReply withQuery = p.get("/panel.js?v=2");
  BOOST_TEST(withQuery.status == 200);
  BOOST_TEST(withQuery.body == plain.body);
  const PanelReply head = p.get("/panel.js", {}, "HEAD");
  BOOST_TEST(head.status == 200);
  BOOST_TEST(head.body.empty());
  BOOST_TEST(head.headers.get("Content-Length", "") == std::to_string(plain.body.size()));
}

BOOST_AUTO_TEST_CASE(matchingEtagIsAnsweredNotModified) {
  ServedPanel p;
  const PanelReply first = p.get("/panel.css");
  const std::string etag = first.headers.get("ETag", "");
  BOOST_REQUIRE(!etag.empty());
  const PanelReply again = p.get("/panel.css", {{"If-None-Match", etag}});
  BOOST_TEST(again.status == 304);
  BOOST_TEST(again.body.empty());
  BOOST_TEST(again.headers.get("ETag", "") == etag);
  const PanelReply stale = p.get("/panel.css", {{"If-None-Match", "\"0000\""}});
  BOOST_TEST(stale.status == 200);
}

BOOST_AUTO_TEST_CASE(gzipIsSentOnlyToClientsThatAcceptIt) {
  ServedPanel p;
  const PanelReply plain = p.get("/vendor/preact.module.js");
  BOOST_TEST(!plain.headers.has("Content-Encoding"));
  BOOST_TEST(plain.headers.get("Vary", "") == "Accept-Encoding");
  const PanelReply zipped = p.get("/vendor/preact.module.js", {{"Accept-Encoding", "br, gzip"}});
  BOOST_TEST(zipped.headers.get("Content-Encoding", "") == "gzip");
  BOOST_TEST(zipped.body.size() < plain.body.size());
  BOOST_TEST(inflate(zipped.body) == plain.body);
  BOOST_TEST(zipped.headers.get("ETag", "") != plain.headers.get("ETag", ""));
  const PanelReply refused = p.get("/vendor/preact.module.js", {{"Accept-Encoding", "gzip;q=0"}});
  BOOST_TEST(!refused.headers.has("Content-Encoding"));
}

BOOST_AUTO_TEST_CASE(plainHttpOnlyRedirectsToTheSamePathOverHttps) {
  ServedPanel p;
  const std::string https = std::to_string(p.server->port());
  for (const std::string path : {"/", "/today?x=1", "/healthz", "/../etc/passwd"}) {
    const PanelReply r = httpRequest(p.server->redirectPort(), path, {{"Host", "box.lan:8080"}});
    BOOST_TEST(r.status == 308, path);
    BOOST_TEST(r.headers.get("Location", "") == "https://box.lan:" + https + path, path);
    BOOST_TEST(r.body.empty(), path);
  }
  const PanelReply v6 = httpRequest(p.server->redirectPort(), "/a", {{"Host", "[fd00::1]:80"}});
  BOOST_TEST(v6.headers.get("Location", "") == "https://[fd00::1]:" + https + "/a");
  const PanelReply bad = httpRequest(p.server->redirectPort(), "/", {{"Host", "evil\"host"}});
  BOOST_TEST(bad.status == 400);
  BOOST_TEST(!bad.headers.has("Location"));
}

BOOST_AUTO_TEST_CASE(plainHttpToTheTlsPortIsNotServed) {
  ServedPanel p(false);
  BOOST_TEST(p.server->redirectPort() == 0);
  BOOST_CHECK_THROW(httpRequest(p.server->port(), "/"), Poco::Exception);
}

BOOST_AUTO_TEST_CASE(clientThatDoesNotTrustTheCertificateIsRefused) {
  ServedPanel p(false);
  testing::TempDir other;
  const auto otherPaths = panel::BoxCertificatePaths::under(other.path());
  BOOST_REQUIRE(panel::createBoxCertificate(otherPaths, {"localhost", "127.0.0.1"},
                                            std::chrono::system_clock::now()));
  BOOST_CHECK_THROW(httpsRequest(p.server->port(), "/", otherPaths.cert), Poco::Exception);
}

BOOST_AUTO_TEST_CASE(missingFileOrForeignKeyStopsStartNamingIt) {
  testing::TempDir dir;
  const auto a = panel::BoxCertificatePaths::under(dir.sub("a"));
  std::filesystem::create_directories(dir.sub("a"));
  std::filesystem::create_directories(dir.sub("b"));
  const auto b = panel::BoxCertificatePaths::under(dir.sub("b"));
  const auto now = std::chrono::system_clock::now();
  BOOST_REQUIRE(panel::createBoxCertificate(a, {"localhost"}, now));
  BOOST_REQUIRE(panel::createBoxCertificate(b, {"localhost"}, now));

  PanelServerOptions missing;
  missing.certFile = dir.file("none.crt");
  missing.keyFile = a.key;
  Status s = PanelServer(missing).start();
  BOOST_TEST(!s);
  BOOST_TEST(s.message().find("panel.cert_file") != std::string::npos, s.message());
  BOOST_TEST(s.message().find(dir.file("none.crt")) != std::string::npos, s.message());

  PanelServerOptions foreign;
  foreign.certFile = a.cert;
  foreign.keyFile = b.key;
  s = PanelServer(foreign).start();
  BOOST_TEST(!s);
  BOOST_TEST(s.message().find("panel.key_file") != std::string::npos, s.message());

  PanelServerOptions notPem;
  notPem.certFile = dir.write("junk.crt", "junk\n");
  notPem.keyFile = a.key;
  s = PanelServer(notPem).start();
  BOOST_TEST(!s);
  BOOST_TEST(s.message().find("panel.cert_file") != std::string::npos, s.message());
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace
}  // namespace atoms::test
