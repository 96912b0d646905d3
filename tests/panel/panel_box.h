// A box as `atoms-edge serve` runs it (EdgeServices on a simulated clock) with the panel on and
// a small site: an owner (p-olga, policy.owners), a manager of record (p-maya, Leo's and Carl's
// manager), a shift lead (p-leo) and a cook with no panel role (p-carl). Tests sign people in
// through invites and call the panel's JSON API over TLS as the browser does: the session
// cookie, and on a state change the CSRF token and the panel's Origin.
#pragma once

#include <map>
#include <memory>
#include <set>
#include <string>

#include "base/canonical_json.h"
#include "base/clock.h"
#include "daemon/service/edge_services.h"
#include "tests/panel/panel_client.h"
#include "tests/support/temp_dir.h"
#include "tests/support/test_app.h"

namespace atoms::test {

inline constexpr char kServedOrigin[] = "https://box.bistro.lan:8443";

// Imports PanelBox's site (above) into the state directory `stateDir` (initialised, not open).
void importPanelSite(const std::string& stateDir);

struct PanelSignIn {
  std::string cookie;  // "__Host-atoms-session=..."
  std::string csrf;
};

class PanelBox {
 public:
  // `more` adds to or overrides the config (sms.driver, api.listen...).
  explicit PanelBox(const std::map<std::string, std::string>& more = {});
  ~PanelBox();

  // Signs `person` in: the first time through an invite accepted over the API, then with the
  // password set then.
  PanelSignIn signIn(const std::string& person);
  // A request as the browser sends it: the session's cookie; on anything but GET the CSRF token
  // and the panel's Origin (unless `csrf` is false), and `body` as JSON.
  PanelReply call(const std::string& method, const std::string& path, const PanelSignIn& who,
                  const std::string& body = "", bool csrf = true);
  // The body of a 200 answer as JSON (fails the test otherwise).
  json::Value okJson(const PanelReply& reply);
  // Runs the engine's queued work (audits of refusals...) to its end.
  void drain();
  // Every audit entry of `kind`, their texts joined by newlines.
  std::string entriesOf(const std::string& kind);

  atoms::testing::TempDir tmp;
  std::string stateDir;
  std::string cert;
  SimulatedClock clock;
  std::unique_ptr<TestApp> app;
  std::unique_ptr<EdgeServices> services;
  std::uint16_t port = 0;

 private:
  PanelSignIn signedInBy(const PanelReply& reply);
  std::set<std::string> enrolled_;
};

}  // namespace atoms::test
