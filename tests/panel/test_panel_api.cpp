// The sign-in API (daemon/panel/panel_api.h) over real TLS on loopback: PanelServer with the
// accounts of PanelFixture (real store, real outbox, simulated clock). Sign-in with a password set
// through an invite, the cookie's flags, who-am-I with and without the cookie, sign-out behind
// CSRF (token and Origin), throttling as 429 with Retry-After, code sign-in through the outbox,
// invites accepted over the API, strict bodies, and names sent back JSON-escaped.
#include <Poco/Net/HTTPSClientSession.h>

#include <boost/test/unit_test.hpp>
#include <chrono>
#include <map>
#include <memory>
#include <string>

#include "base/canonical_json.h"
#include "daemon/panel/box_certificate.h"
#include "daemon/panel/panel_api.h"
#include "daemon/panel/panel_server.h"
#include "tests/panel/panel_client.h"
#include "tests/panel/panel_fixture.h"

namespace atoms::test {
namespace {

using Headers = std::map<std::string, std::string>;
using panel::testing::kLead;
using panel::testing::kLeadPhone;
using panel::testing::kOrigin;
using panel::testing::kPassword;

// PanelFixture's accounts behind a running PanelServer with the API.
struct ApiPanel : panel::testing::PanelFixture {
  ApiPanel() {
    Status made = panel::createBoxCertificate(paths, {"localhost", "127.0.0.1"},
                                              std::chrono::system_clock::now());
    BOOST_REQUIRE_MESSAGE(made, made.message());
    api = std::make_unique<panel::PanelApi>(*auth, *runner, clock);
    panel::PanelServerOptions o;
    o.certFile = paths.cert;
    o.keyFile = paths.key;
    o.api = api.get();
    server = std::make_unique<panel::PanelServer>(o);
    Status started = server->start();
    BOOST_REQUIRE_MESSAGE(started, started.message());
  }
  ~ApiPanel() { server->stop(); }

  // One request with an optional body (sent as application/json unless headers say otherwise).
  PanelReply call(const std::string& method, const std::string& path, const std::string& body,
                  Headers headers) {
    Poco::Net::HTTPSClientSession session("127.0.0.1", server->port(), trustingOnly(paths.cert));
    session.setTimeout(Poco::Timespan(10, 0));
    Poco::Net::HTTPRequest request(method, path, Poco::Net::HTTPMessage::HTTP_1_1);
    if (!body.empty() && headers.find("Content-Type") == headers.end()) {
      request.setContentType("application/json");
    }
    for (const auto& [k, v] : headers) request.set(k, v);
    if (!body.empty() || method == "POST") {
      request.setContentLength(static_cast<std::streamsize>(body.size()));
    }
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
  // A sign-in form post from the panel's own page.
  PanelReply post(const std::string& path, const json::Object& fields, Headers headers = {}) {
    headers.emplace("Origin", kOrigin);
    return call("POST", path, json::canonical(fields), std::move(headers));
  }
  PanelReply signIn(const std::string& login, const std::string& password) {
    return post("/api/session", json::Object{{"login", login}, {"password", password}});
  }
  PanelReply whoAmI(const std::string& cookie) {
    Headers h;
    if (!cookie.empty()) h["Cookie"] = cookie;
    return call("GET", "/api/session", "", h);
  }

  testing::TempDir certDir;
  panel::BoxCertificatePaths paths = panel::BoxCertificatePaths::under(certDir.path());
  std::unique_ptr<panel::PanelApi> api;
  std::unique_ptr<panel::PanelServer> server;
};

// "name=value" of a Set-Cookie header, for a Cookie header.
std::string cookiePair(const PanelReply& r) {
  const std::string set = r.headers.get("Set-Cookie", "");
  return set.substr(0, set.find(';'));
}

json::Object bodyObject(const PanelReply& r) {
  auto parsed = json::parse(r.body);
  BOOST_TEST_REQUIRE(parsed.ok(), r.body);
  BOOST_TEST_REQUIRE(parsed->isObject(), r.body);
  return parsed->asObject();
}

std::string stringAt(const json::Object& o, const std::string& key) {
  const auto it = o.find(key);
  return it != o.end() && it->second.isString() ? it->second.asString() : "";
}

BOOST_AUTO_TEST_SUITE(panel_api)

BOOST_FIXTURE_TEST_CASE(signsInWithAPasswordSetThroughAnInvite, ApiPanel) {
  enroll(kLead);
  const PanelReply r = signIn(kLead, kPassword);
  BOOST_TEST(r.status == 200, r.body);
  const std::string setCookie = r.headers.get("Set-Cookie", "");
  BOOST_TEST(setCookie.starts_with("__Host-atoms_session="), setCookie);
  for (const char* flag : {"; Path=/", "; Secure", "; HttpOnly", "; SameSite=Strict"}) {
    BOOST_TEST(setCookie.find(flag) != std::string::npos, setCookie << " lacks " << flag);
  }
  BOOST_TEST(setCookie.find("Domain") == std::string::npos, setCookie);
  BOOST_TEST(r.headers.get("Cache-Control", "") == "no-store");
  BOOST_TEST(r.headers.get("Content-Security-Policy", "").starts_with("default-src 'self'"));
  BOOST_TEST(r.headers.get("Content-Type", "").starts_with("application/json"));
  const json::Object body = bodyObject(r);
  BOOST_TEST(stringAt(body, "role") == "lead");
  BOOST_TEST(stringAt(body.at("person").asObject(), "id") == kLead);
  BOOST_TEST(stringAt(body.at("person").asObject(), "name") == "Leo Hart");
  BOOST_TEST(!stringAt(body, "csrf").empty());
  BOOST_TEST(r.body.find(kPassword) == std::string::npos);

  const PanelReply wrong = signIn(kLead, "not the password at all");
  BOOST_TEST(wrong.status == 401, wrong.body);
  BOOST_TEST(wrong.headers.get("Set-Cookie", "").empty());
  BOOST_TEST(!stringAt(bodyObject(wrong), "error").empty());
}

BOOST_FIXTURE_TEST_CASE(acceptsAnInviteAndSignsIn, ApiPanel) {
  auto invite = panel::prepareInvite(store->db(), store->identity(), options.owners, kLead,
                                     clock.now(), options.inviteValidity);
  BOOST_TEST_REQUIRE(invite.ok(), invite.message());
  const PanelReply r =
      post("/api/invite/accept", json::Object{{"token", invite->token}, {"password", kPassword}});
  BOOST_TEST(r.status == 200, r.body);
  BOOST_TEST(whoAmI(cookiePair(r)).status == 200);
  // Spent now.
  const PanelReply again =
      post("/api/invite/accept", json::Object{{"token", invite->token}, {"password", kPassword}});
  BOOST_TEST(again.status == 401, again.body);
  BOOST_TEST(signIn(kLead, kPassword).status == 200);
}

BOOST_FIXTURE_TEST_CASE(answersWhoIsSignedInOnlyWithTheCookie, ApiPanel) {
  enroll(kLead);
  const PanelReply nobody = whoAmI("");
  BOOST_TEST(nobody.status == 401, nobody.body);
  BOOST_TEST(stringAt(bodyObject(nobody), "error") == "not signed in");
  BOOST_TEST(nobody.headers.get("WWW-Authenticate", "").empty());

  const PanelReply signedIn = signIn(kLead, kPassword);
  BOOST_TEST_REQUIRE(signedIn.status == 200, signedIn.body);
  const PanelReply me = whoAmI(cookiePair(signedIn));
  BOOST_TEST(me.status == 200, me.body);
  const json::Object body = bodyObject(me);
  BOOST_TEST(stringAt(body.at("person").asObject(), "id") == kLead);
  BOOST_TEST(stringAt(body, "role") == "lead");
  BOOST_TEST(stringAt(body, "csrf") == stringAt(bodyObject(signedIn), "csrf"));

  // A cookie that stands for nothing: 401, and the browser is told to drop it.
  const PanelReply stale =
      whoAmI("__Host-atoms_session=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA");
  BOOST_TEST(stale.status == 401);
  BOOST_TEST(stale.headers.get("Set-Cookie", "").starts_with("__Host-atoms_session=;"),
             stale.headers.get("Set-Cookie", ""));
}

BOOST_FIXTURE_TEST_CASE(signOutNeedsTheCsrfTokenAndTheOriginThenTheCookieIsDead, ApiPanel) {
  enroll(kLead);
  const PanelReply signedIn = signIn(kLead, kPassword);
  BOOST_TEST_REQUIRE(signedIn.status == 200, signedIn.body);
  const std::string cookie = cookiePair(signedIn);
  const std::string csrf = stringAt(bodyObject(signedIn), "csrf");

  const PanelReply noToken =
      call("DELETE", "/api/session", "", {{"Cookie", cookie}, {"Origin", kOrigin}});
  BOOST_TEST(noToken.status == 403, noToken.body);
  const PanelReply wrongToken =
      call("DELETE", "/api/session", "",
           {{"Cookie", cookie}, {"Origin", kOrigin}, {"X-CSRF-Token", "x" + csrf}});
  BOOST_TEST(wrongToken.status == 403, wrongToken.body);
  const PanelReply wrongOrigin =
      call("DELETE", "/api/session", "",
           {{"Cookie", cookie}, {"Origin", "https://evil.example"}, {"X-CSRF-Token", csrf}});
  BOOST_TEST(wrongOrigin.status == 403, wrongOrigin.body);
  BOOST_TEST(whoAmI(cookie).status == 200);
  BOOST_TEST(entries("panel.csrf.refused").size() == 3u);

  const PanelReply out = call("DELETE", "/api/session", "",
                              {{"Cookie", cookie}, {"Origin", kOrigin}, {"X-CSRF-Token", csrf}});
  BOOST_TEST(out.status == 200, out.body);
  BOOST_TEST(out.headers.get("Set-Cookie", "").starts_with("__Host-atoms_session=;"));
  BOOST_TEST(whoAmI(cookie).status == 401);
  BOOST_TEST(entries("panel.signout").size() == 1u);
}

BOOST_FIXTURE_TEST_CASE(signOutByPostToo, ApiPanel) {
  enroll(kLead);
  const PanelReply signedIn = signIn(kLead, kPassword);
  const std::string cookie = cookiePair(signedIn);
  const std::string csrf = stringAt(bodyObject(signedIn), "csrf");
  const PanelReply out = call("POST", "/api/session/end", "",
                              {{"Cookie", cookie}, {"Origin", kOrigin}, {"X-CSRF-Token", csrf}});
  BOOST_TEST(out.status == 200, out.body);
  BOOST_TEST(whoAmI(cookie).status == 401);
}

BOOST_FIXTURE_TEST_CASE(answersThrottledSignInsWith429AndRetryAfter, ApiPanel) {
  enroll(kLead);
  for (int i = 1; i <= 5; ++i) {
    const PanelReply r = signIn(kLead, "wrong password " + std::to_string(i));
    BOOST_TEST(r.status == 401, "attempt " << i << ": " << r.body);
  }
  const PanelReply throttled = signIn(kLead, kPassword);
  BOOST_TEST(throttled.status == 429, throttled.body);
  BOOST_TEST(throttled.headers.get("Retry-After", "") == "60");
  BOOST_TEST(!stringAt(bodyObject(throttled), "error").empty());
  BOOST_TEST(throttled.headers.get("Set-Cookie", "").empty());

  clock.advance(std::chrono::seconds(61));
  BOOST_TEST(signIn(kLead, kPassword).status == 200);
}

BOOST_FIXTURE_TEST_CASE(textsACodeThroughTheOutboxAndSignsInWithIt, ApiPanel) {
  enroll(kLead);
  const PanelReply asked = post("/api/session/code", json::Object{{"login", kLeadPhone}});
  BOOST_TEST(asked.status == 200, asked.body);
  const auto rows = outboxRows();
  BOOST_TEST_REQUIRE(rows.size() == 1u);
  BOOST_TEST(rows[0].to == kLeadPhone);
  BOOST_TEST(rows[0].ref == "panel.signin");
  const std::string code = lastTextedCode();
  BOOST_TEST(asked.body.find(code) == std::string::npos);

  // Nobody by that login: the same answer, no text.
  const PanelReply nobody = post("/api/session/code", json::Object{{"login", "+14155559999"}});
  BOOST_TEST(nobody.status == asked.status);
  BOOST_TEST(nobody.body == asked.body);
  BOOST_TEST(outboxRows().size() == 1u);

  const PanelReply wrong =
      post("/api/session/code/verify", json::Object{{"login", kLeadPhone}, {"code", "000000"}});
  BOOST_TEST(wrong.status == 401, wrong.body);
  const PanelReply in =
      post("/api/session/code/verify", json::Object{{"login", kLeadPhone}, {"code", code}});
  BOOST_TEST(in.status == 200, in.body);
  BOOST_TEST(stringAt(bodyObject(in), "method") == "code");
  BOOST_TEST(whoAmI(cookiePair(in)).status == 200);
}

BOOST_FIXTURE_TEST_CASE(refusesSignInPostsFromElsewhereAndMalformedBodies, ApiPanel) {
  enroll(kLead);
  const std::string good = json::canonical(json::Object{{"login", kLead}, {"password", kPassword}});
  BOOST_TEST(call("POST", "/api/session", good, {}).status == 403);
  BOOST_TEST(call("POST", "/api/session", good, {{"Origin", "https://evil.example"}}).status ==
             403);
  BOOST_TEST(call("POST", "/api/session", good, {{"Origin", "null"}}).status == 403);
  BOOST_TEST(
      call("POST", "/api/session", good, {{"Origin", kOrigin}, {"Content-Type", "text/plain"}})
          .status == 415);
  BOOST_TEST(call("POST", "/api/session", "{\"login\":", {{"Origin", kOrigin}}).status == 400);
  BOOST_TEST(call("POST", "/api/session", "[]", {{"Origin", kOrigin}}).status == 400);
  const PanelReply extra = post(
      "/api/session", json::Object{{"login", kLead}, {"password", kPassword}, {"admin", true}});
  BOOST_TEST(extra.status == 400, extra.body);
  BOOST_TEST(post("/api/session", json::Object{{"login", kLead}, {"password", 12}}).status == 400);
  const PanelReply big =
      post("/api/session", json::Object{{"login", kLead}, {"password", std::string(5000, 'x')}});
  BOOST_TEST(big.status == 413, big.body);
  // Referer from the panel stands in for a missing Origin.
  BOOST_TEST(
      call("POST", "/api/session", good, {{"Referer", std::string(kOrigin) + "/sign-in"}}).status ==
      200);
  // Nothing of the password reached the audit log.
  BOOST_TEST(allEntryTexts().find(kPassword) == std::string::npos);
}

BOOST_FIXTURE_TEST_CASE(answersUnknownPathsAndMethodsInJson, ApiPanel) {
  const PanelReply missing = call("GET", "/api/nothing", "", {});
  BOOST_TEST(missing.status == 404);
  BOOST_TEST(!stringAt(bodyObject(missing), "error").empty());
  const PanelReply method = call("GET", "/api/session/code", "", {});
  BOOST_TEST(method.status == 405);
  BOOST_TEST(method.headers.get("Allow", "") == "POST");
  BOOST_TEST(call("PUT", "/api/session", "", {}).status == 405);
}

BOOST_FIXTURE_TEST_CASE(sendsANameBackJsonEscaped, ApiPanel) {
  const std::string evil = "<img src=x onerror=alert(1)>";
  Status renamed = runner->run([&](SiteStore& st) -> Status {
    auto stmt = st.db().prepare("UPDATE site_person SET name = ? WHERE id = ?");
    if (!stmt) return stmt.error();
    stmt->bind(1, evil).bind(2, std::string(kLead));
    auto done = stmt->step();
    return done ? Status::success() : Status(done.error());
  });
  BOOST_TEST_REQUIRE(renamed.ok(), renamed.message());
  enroll(kLead);
  const PanelReply signedIn = signIn(kLead, kPassword);
  const PanelReply me = whoAmI(cookiePair(signedIn));
  BOOST_TEST_REQUIRE(me.status == 200, me.body);
  BOOST_TEST(me.body.find('<') == std::string::npos, me.body);
  BOOST_TEST(me.body.find("\\u003cimg src=x onerror=alert(1)\\u003e") != std::string::npos,
             me.body);
  BOOST_TEST(stringAt(bodyObject(me).at("person").asObject(), "name") == evil);
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace
}  // namespace atoms::test
