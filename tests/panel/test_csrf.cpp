// CSRF (daemon/panel/csrf.h): the session-bound token and the Origin/Referer check, alone and
// through PanelAuth (refusals audited).
#include <boost/test/unit_test.hpp>

#include "daemon/panel/csrf.h"
#include "daemon/panel/sessions.h"
#include "tests/panel/panel_fixture.h"
#include "tests/support/fields.h"

namespace atoms::panel {

using testing::kOrigin;

BOOST_AUTO_TEST_SUITE(csrf)

BOOST_AUTO_TEST_CASE(theTokenIsBoundToItsSession) {
  const std::string a = newSessionValue(systemRandom());
  const std::string b = newSessionValue(systemRandom());
  const std::string token = csrfTokenFor(a);
  BOOST_TEST(token.size() == 43u);
  BOOST_TEST(csrfTokenMatches(a, token));
  BOOST_TEST(!csrfTokenMatches(b, token));
  BOOST_TEST(!csrfTokenMatches(a, ""));
  BOOST_TEST(!csrfTokenMatches(a, token.substr(1)));
  BOOST_TEST(csrfTokenFor("not a session").empty());
}

BOOST_AUTO_TEST_CASE(onlyThePanelsOwnOriginPasses) {
  BOOST_TEST(sameOrigin(kOrigin, "", kOrigin));
  BOOST_TEST(sameOrigin("HTTPS://Panel.Bistro.LAN:8443", "", kOrigin));
  BOOST_TEST(!sameOrigin("https://panel.bistro.lan", "", kOrigin));      // port
  BOOST_TEST(!sameOrigin("http://panel.bistro.lan:8443", "", kOrigin));  // scheme
  BOOST_TEST(!sameOrigin("https://evil.example:8443", "", kOrigin));     // host
  BOOST_TEST(!sameOrigin("null", std::string(kOrigin) + "/", kOrigin));  // a sandboxed frame
  // Without Origin, the Referer decides.
  BOOST_TEST(sameOrigin("", std::string(kOrigin) + "/board", kOrigin));
  BOOST_TEST(!sameOrigin("", std::string(kOrigin) + ".evil.example/board", kOrigin));
  BOOST_TEST(!sameOrigin("", "", kOrigin));
}

BOOST_AUTO_TEST_CASE(aStateChangeNeedsTheTokenAndTheOriginAndRefusalsAreAudited) {
  testing::PanelFixture f;
  const SignInResult signedIn = f.enroll(testing::kManager);
  const std::string& cookie = signedIn.cookieValue;
  const std::string& token = signedIn.session.csrfToken;

  BOOST_TEST(f.auth->checkStateChange(cookie, token, kOrigin, "", f.client).ok());

  Status missing = f.auth->checkStateChange(cookie, "", kOrigin, "", f.client);
  BOOST_TEST(!missing.ok());
  BOOST_TEST((missing.kind() == ErrorKind::kRefused));
  Status wrong = f.auth->checkStateChange(cookie, csrfTokenFor(newSessionValue(systemRandom())),
                                          kOrigin, "", f.client);
  BOOST_TEST(!wrong.ok());
  Status crossSite = f.auth->checkStateChange(cookie, token, "https://evil.example", "", f.client);
  BOOST_TEST(!crossSite.ok());

  const auto refused = f.entries("panel.csrf.refused");
  BOOST_TEST_REQUIRE(refused.size() == 3u);
  BOOST_TEST(atoms::testing::field(refused[0], "reason") == "missing_token");
  BOOST_TEST(atoms::testing::field(refused[1], "reason") == "wrong_token");
  BOOST_TEST(atoms::testing::field(refused[2], "reason") == "wrong_origin");
  BOOST_TEST(f.allEntryTexts().find(token) == std::string::npos);
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace atoms::panel
