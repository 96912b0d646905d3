// Sessions (daemon/panel/sessions.h, PanelAuth::session/signOut/sweepExpired): the cookie, the
// stored hash, idle and absolute expiry on the simulated clock, rotation at sign-in (fixation),
// sign-out.
#include <boost/test/unit_test.hpp>
#include <cctype>
#include <chrono>

#include "base/bytes.h"
#include "daemon/panel/panel_secrets.h"
#include "daemon/panel/sessions.h"
#include "tests/panel/panel_fixture.h"
#include "tests/support/fields.h"

namespace atoms::panel {

using namespace std::chrono_literals;
using atoms::testing::field;
using testing::kManager;
using testing::PanelFixture;

BOOST_AUTO_TEST_SUITE(sessions)

BOOST_AUTO_TEST_CASE(theCookieIsHostOnlySecureHttpOnlyStrict) {
  const std::string value = newSessionValue(systemRandom());
  BOOST_TEST(value.size() == 43u);
  BOOST_TEST(sessionCookie(value) ==
             "__Host-atoms_session=" + value + "; Path=/; Secure; HttpOnly; SameSite=Strict");
  BOOST_TEST(clearedSessionCookie() ==
             "__Host-atoms_session=; Max-Age=0; Path=/; Secure; HttpOnly; SameSite=Strict");
  BOOST_TEST(sessionValueFromCookieHeader("theme=dark; __Host-atoms_session=" + value +
                                          "; lang=en") == value);
  BOOST_TEST(sessionValueFromCookieHeader("atoms_session=x").empty());
  BOOST_TEST(!sessionIdHash("short").has_value());
  BOOST_TEST(!sessionIdHash(std::string(43, '*')).has_value());
}

BOOST_AUTO_TEST_CASE(theStoreKeepsOnlyTheHashOfTheSessionId) {
  PanelFixture f;
  const SignInResult r = f.enroll(kManager);
  BOOST_TEST(r.setCookie == sessionCookie(r.cookieValue));
  const std::string stored = f.queryText("SELECT hex(id_hash) FROM panel_session");
  const auto id = fromBase64Url(r.cookieValue);
  BOOST_TEST_REQUIRE(id.has_value());
  std::string expected = toHex(sha256(*id));
  for (char& c : expected) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  BOOST_TEST(stored == expected);
  BOOST_TEST(f.queryInt("SELECT count(*) FROM panel_session WHERE hex(id_hash) = '" + toHex(*id) +
                        "'") == 0);
  BOOST_TEST(f.allEntryTexts().find(r.cookieValue) == std::string::npos);
}

BOOST_AUTO_TEST_CASE(aSessionLooksUpToItsPersonRoleAndToken) {
  PanelFixture f;
  const SignInResult r = f.enroll(kManager);
  auto s = f.auth->session(r.cookieValue);
  BOOST_TEST_REQUIRE(s.ok(), s.message());
  BOOST_TEST_REQUIRE(s->has_value());
  BOOST_TEST((*s)->personId == kManager);
  BOOST_TEST(((*s)->role == PanelRole::kManager));
  BOOST_TEST((*s)->csrfToken == r.session.csrfToken);
  auto none = f.auth->session(newSessionValue(systemRandom()));
  BOOST_TEST_REQUIRE(none.ok());
  BOOST_TEST(!none->has_value());
  auto junk = f.auth->session("'; DROP TABLE panel_session; --");
  BOOST_TEST_REQUIRE(junk.ok());
  BOOST_TEST(!junk->has_value());
}

BOOST_AUTO_TEST_CASE(aSessionEndsAfterThirtyIdleMinutes) {
  PanelFixture f;
  const SignInResult r = f.enroll(kManager);
  // Used every 20 minutes, it lives on.
  for (int i = 0; i < 3; ++i) {
    f.clock.advance(20min);
    auto s = f.auth->session(r.cookieValue);
    BOOST_TEST_REQUIRE(s.ok());
    BOOST_TEST(s->has_value());
  }
  f.clock.advance(30min);
  auto s = f.auth->session(r.cookieValue);
  BOOST_TEST_REQUIRE(s.ok());
  BOOST_TEST(!s->has_value());
  const auto expired = f.entries("panel.session.expired");
  BOOST_TEST_REQUIRE(expired.size() == 1u);
  BOOST_TEST(field(expired[0], "reason") == "idle");
  BOOST_TEST(field(expired[0], "person") == kManager);
  BOOST_TEST(f.queryInt("SELECT count(*) FROM panel_session") == 0);
}

BOOST_AUTO_TEST_CASE(aSessionEndsTwelveHoursAfterSignInHoweverBusy) {
  PanelFixture f;
  const SignInResult r = f.enroll(kManager);
  for (int i = 0; i < 47; ++i) {  // a request every 15 minutes for 11 h 45
    f.clock.advance(15min);
    auto s = f.auth->session(r.cookieValue);
    BOOST_TEST_REQUIRE(s.ok());
    BOOST_TEST_REQUIRE(s->has_value(), "ended early, after " << (i + 1) * 15 << " minutes");
  }
  f.clock.advance(15min);
  auto s = f.auth->session(r.cookieValue);
  BOOST_TEST_REQUIRE(s.ok());
  BOOST_TEST(!s->has_value());
  const auto expired = f.entries("panel.session.expired");
  BOOST_TEST_REQUIRE(expired.size() == 1u);
  BOOST_TEST(field(expired[0], "reason") == "absolute");
}

BOOST_AUTO_TEST_CASE(theSweepEndsExpiredSessionsNobodyAsksAbout) {
  PanelFixture f;
  const SignInResult r = f.enroll(kManager);
  f.clock.advance(10min);
  auto none = f.auth->sweepExpired();
  BOOST_TEST_REQUIRE(none.ok());
  BOOST_TEST(*none == 0);
  f.clock.advance(25min);
  auto one = f.auth->sweepExpired();
  BOOST_TEST_REQUIRE(one.ok(), one.message());
  BOOST_TEST(*one == 1);
  BOOST_TEST(f.entries("panel.session.expired").size() == 1u);
  auto s = f.auth->session(r.cookieValue);
  BOOST_TEST_REQUIRE(s.ok());
  BOOST_TEST(!s->has_value());
}

BOOST_AUTO_TEST_CASE(signingInRotatesTheSessionIdSoAFixedOneIsWorthless) {
  PanelFixture f;
  const SignInResult first = f.enroll(kManager);
  // An attacker planted a cookie value (their own session, or one they made up) before sign-in.
  f.client.currentCookieValue = first.cookieValue;
  auto second = f.auth->signInWithPassword(kManager, testing::kPassword, f.client);
  BOOST_TEST_REQUIRE(second.ok(), second.message());
  BOOST_TEST_REQUIRE((second->outcome == SignInOutcome::kSignedIn));
  BOOST_TEST(second->cookieValue != first.cookieValue);
  BOOST_TEST(second->session.csrfToken != first.session.csrfToken);
  auto old = f.auth->session(first.cookieValue);
  BOOST_TEST_REQUIRE(old.ok());
  BOOST_TEST(!old->has_value());
  auto fresh = f.auth->session(second->cookieValue);
  BOOST_TEST_REQUIRE(fresh.ok());
  BOOST_TEST(fresh->has_value());

  // A value the box never issued is never accepted, before or after a sign-in.
  const std::string planted = newSessionValue(systemRandom());
  f.client.currentCookieValue = planted;
  auto third = f.auth->signInWithPassword(kManager, testing::kPassword, f.client);
  BOOST_TEST_REQUIRE(third.ok());
  BOOST_TEST(third->cookieValue != planted);
  auto p = f.auth->session(planted);
  BOOST_TEST_REQUIRE(p.ok());
  BOOST_TEST(!p->has_value());
}

BOOST_AUTO_TEST_CASE(signOutEndsTheSessionAndIsAudited) {
  PanelFixture f;
  const SignInResult r = f.enroll(kManager);
  BOOST_TEST(f.auth->signOut(r.cookieValue, f.client).ok());
  auto s = f.auth->session(r.cookieValue);
  BOOST_TEST_REQUIRE(s.ok());
  BOOST_TEST(!s->has_value());
  const auto out = f.entries("panel.signout");
  BOOST_TEST_REQUIRE(out.size() == 1u);
  BOOST_TEST(field(out[0], "person") == kManager);
  // Again, or with nonsense: fine, nothing more recorded.
  BOOST_TEST(f.auth->signOut(r.cookieValue, f.client).ok());
  BOOST_TEST(f.auth->signOut("nonsense", f.client).ok());
  BOOST_TEST(f.entries("panel.signout").size() == 1u);
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace atoms::panel
