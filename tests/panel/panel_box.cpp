#include "tests/panel/panel_box.h"

#include <boost/test/unit_test.hpp>
#include <chrono>
#include <sstream>

#include "base/writer_call.h"
#include "daemon/cli/cli.h"
#include "daemon/panel/box_certificate.h"
#include "daemon/panel/panel_auth.h"
#include "daemon/service/engine_subsystem.h"
#include "daemon/service/panel_subsystem.h"
#include "daemon/service/store_subsystem.h"
#include "domain/site/site_repository.h"
#include "store/site_store.h"
#include "store/state_dir.h"
#include "store/store_runner.h"
#include "tests/support/audit_entries.h"
#include "tests/support/build_paths.h"

namespace atoms::test {
namespace {

site::Person servedPerson(const std::string& id, const std::string& name, const std::string& phone,
                          const std::string& station, std::optional<std::string> manager) {
  site::Person p;
  p.id = id;
  p.name = name;
  p.phone = phone;
  p.roles = {station};
  p.birthDate = site::Date{std::chrono::year{1990} / 5 / 5};
  p.smsConsent = {true, std::chrono::sys_days{std::chrono::year{2025} / 1 / 1}};
  p.hourlyRateCents = 2500;
  p.managerOfRecord = std::move(manager);
  return p;
}

}  // namespace

void importPanelSite(const std::string& stateDir) {
  auto opened = SiteStore::open(stateDir);
  BOOST_TEST_REQUIRE(opened.ok(), opened.message());
  site::SiteModel m;
  m.site = {"site-served-panel",
            "Bistro Served",
            "America/Los_Angeles",
            {"us", "us-ca"},
            "full_service_restaurant"};
  m.stations = {{"line", "line cook", {}, std::nullopt, {}},
                {"lead", "shift lead", {}, std::nullopt, {"shift_lead"}}};
  m.people = {servedPerson("p-olga", "Olga Berg", "+14155550101", "line", std::nullopt),
              servedPerson("p-maya", "Maya Ortiz", "+14155550102", "line", std::nullopt),
              servedPerson("p-leo", "Leo Park", "+14155550103", "lead", "p-maya"),
              servedPerson("p-carl", "Carl Diaz", "+14155550104", "line", "p-maya")};
  Status imported = site::importSite((*opened)->db(), m);
  BOOST_TEST_REQUIRE(imported.ok(), imported.message());
}

PanelBox::PanelBox(const std::map<std::string, std::string>& more) {
  stateDir = tmp.file("state");
  BOOST_REQUIRE(initStateDir(stateDir, InitOptions{"site-served-panel"}));
  importPanelSite(stateDir);
  std::map<std::string, std::string> config{
      {"state.dir", stateDir},
      {"labor.rules_dir", atoms::testing::sourceDir() + "/etc/labor"},
      {"policy.owners", "p-olga"},
      {"panel.listen", "127.0.0.1:0"},
      {"panel.origin", kServedOrigin}};
  for (const auto& [k, v] : more) config[k] = v;
  app = std::make_unique<TestApp>(config);
  services = std::make_unique<EdgeServices>(*app, clock);
  Status started = services->start();
  BOOST_REQUIRE_MESSAGE(started, services->failedService() + ": " + started.message());
  port = services->panel().port();
  cert = panel::BoxCertificatePaths::under(stateDir).cert;
}

PanelBox::~PanelBox() {
  services->stop();
  services.reset();
  app.reset();
}

PanelSignIn PanelBox::signIn(const std::string& person) {
  if (enrolled_.count(person) != 0) {
    // The account exists: sign in with its password.
    const std::string body =
        json::canonical(json::Object{{"login", person}, {"password", "correct horse battery"}});
    return signedInBy(httpsRequest(
        port, "/api/session", cert, "POST",
        {{"Origin", kServedOrigin}, {"Content-Type", "application/json"}}, "127.0.0.1", body));
  }
  enrolled_.insert(person);
  SiteStore& store = services->store().store();
  auto invite = callOnWriter(services->engine().engine(), [&] {
    return panel::prepareInvite(store.db(), store.identity(), {"p-olga"}, person, clock.now(),
                                std::chrono::hours(72));
  });
  BOOST_TEST_REQUIRE(invite.has_value());
  BOOST_TEST_REQUIRE(invite->ok(), invite->message());
  const std::string body = json::canonical(
      json::Object{{"token", (*invite)->token}, {"password", "correct horse battery"}});
  return signedInBy(httpsRequest(port, "/api/invite/accept", cert, "POST",
                                 {{"Origin", kServedOrigin}, {"Content-Type", "application/json"}},
                                 "127.0.0.1", body));
}

PanelSignIn PanelBox::signedInBy(const PanelReply& accepted) {
  BOOST_TEST_REQUIRE(accepted.status == 200, accepted.body);
  const std::string setCookie = accepted.headers.get("Set-Cookie", "");
  auto who = json::parse(accepted.body);
  BOOST_TEST_REQUIRE(who.ok());
  return {setCookie.substr(0, setCookie.find(';')), who->asObject().at("csrf").asString()};
}

PanelReply PanelBox::call(const std::string& method, const std::string& path,
                          const PanelSignIn& who, const std::string& body, bool csrf) {
  std::map<std::string, std::string> headers{{"Cookie", who.cookie}};
  if (method != "GET" && csrf) {
    headers["X-CSRF-Token"] = who.csrf;
    headers["Origin"] = kServedOrigin;
  }
  if (!body.empty()) headers["Content-Type"] = "application/json";
  return httpsRequest(port, path, cert, method, headers, "127.0.0.1", body);
}

json::Value PanelBox::okJson(const PanelReply& reply) {
  BOOST_TEST_REQUIRE(reply.status == 200, reply.body);
  auto parsed = json::parse(reply.body);
  BOOST_TEST_REQUIRE(parsed.ok(), reply.body);
  return *parsed;
}

void PanelBox::drain() {
  BOOST_TEST_REQUIRE(services->engine().engine().drain(std::chrono::seconds(10)));
}

std::string PanelBox::entriesOf(const std::string& kind) {
  drain();
  PostingStoreRunner runner(services->store().store(), services->engine().engine());
  auto found = atoms::testing::entriesOfKindVia(runner, kind);
  BOOST_TEST_REQUIRE(found.ok(), found.message());
  std::string out;
  for (const Entry& e : *found) out += e.actor + " " + json::canonical(e.body) + "\n";
  return out;
}

}  // namespace atoms::test
