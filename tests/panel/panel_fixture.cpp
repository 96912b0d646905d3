#include "tests/panel/panel_fixture.h"

#include <algorithm>
#include <boost/test/unit_test.hpp>
#include <chrono>
#include <regex>

#include "base/unix_time.h"
#include "domain/site/site_repository.h"
#include "store/state_dir.h"
#include "tests/support/audit_entries.h"

namespace atoms::panel::testing {

namespace chr = std::chrono;

namespace {

site::Person panelPerson(std::string id, std::string name, std::string phone,
                         std::vector<std::string> roles, std::optional<std::string> manager) {
  site::Person p;
  p.id = std::move(id);
  p.name = std::move(name);
  p.phone = std::move(phone);
  p.roles = std::move(roles);
  p.birthDate = site::Date{chr::year{1990} / 5 / 5};
  p.smsConsent = {true, chr::sys_days{chr::year{2025} / 1 / 1}};
  p.managerOfRecord = std::move(manager);
  p.hourlyRateCents = 2500;
  return p;
}

site::SiteModel panelSite() {
  site::SiteModel m;
  m.site = {"panel-site",
            "Bistro Maree",
            "America/Los_Angeles",
            {"us", "us-ca"},
            "full_service_restaurant"};
  m.stations = {{"line", "line cook", {}, std::nullopt, {}},
                {"lead", "shift lead", {}, std::nullopt, {"shift_lead"}}};
  m.people = {panelPerson(kOwner, "Olga Berg", "+14155550101", {"line"}, std::nullopt),
              panelPerson(kManager, "Maya Cruz", "+14155550102", {"line"}, std::string(kOwner)),
              panelPerson(kLead, "Leo Hart", kLeadPhone, {"lead", "line"}, std::string(kManager)),
              panelPerson(kCook, "Cai Lund", "+14155550104", {"line"}, std::string(kManager))};
  return m;
}

}  // namespace

PanelFixture::PanelFixture()
    : stateDir(tmp.sub("state")),
      // 2026-03-02T17:00:00Z, a Monday morning at the site.
      clock(fromUnixMillis(1'772'470'800'000)) {
  BOOST_TEST_REQUIRE(initStateDir(stateDir, {"panel-site"}).ok());
  auto opened = SiteStore::open(stateDir);
  BOOST_TEST_REQUIRE(opened.ok(), opened.message());
  store = std::move(*opened);
  Status imported = site::importSite(store->db(), panelSite());
  BOOST_TEST_REQUIRE(imported.ok(), imported.message());
  runner = std::make_unique<LockedStoreRunner>(*store);
  outbox = std::make_unique<sms::mailbox::Outbox>(
      *runner, [this] { return clock.now(); }, [] { return 0.5; });
  options.panelOrigin = kOrigin;
  options.owners = {kOwner};
  options.passwordCost = minimumCost();
  auth = std::make_unique<PanelAuth>(*runner, *outbox, clock, store->identity(), options);
}

PanelFixture::~PanelFixture() = default;

SignInResult PanelFixture::enroll(const std::string& who, const std::string& password) {
  auto invite = prepareInvite(store->db(), store->identity(), options.owners, who, clock.now(),
                              options.inviteValidity);
  BOOST_TEST_REQUIRE(invite.ok(), invite.message());
  auto result = auth->acceptInvite(invite->token, password, client);
  BOOST_TEST_REQUIRE(result.ok(), result.message());
  BOOST_TEST_REQUIRE((result->outcome == SignInOutcome::kSignedIn), result->message);
  return std::move(*result);
}

std::vector<Entry> PanelFixture::entries(std::string_view kind) {
  auto found = atoms::testing::entriesOfKindVia(*runner, kind);
  BOOST_TEST_REQUIRE(found.ok(), found.message());
  return std::move(*found);
}

std::string PanelFixture::allEntryTexts() {
  auto all = atoms::testing::allEntryTextsVia(*runner);
  BOOST_TEST_REQUIRE(all.ok(), all.message());
  return std::move(*all);
}

std::string PanelFixture::queryText(const std::string& sql) {
  std::string out;
  Status s = runner->run([&](SiteStore& st) -> Status {
    auto stmt = st.db().prepare(sql);
    if (!stmt) return stmt.error();
    auto row = stmt->step();
    if (!row) return row.error();
    if (*row) out = stmt->columnText(0);
    return Status::success();
  });
  BOOST_TEST_REQUIRE(s.ok(), s.message());
  return out;
}

std::int64_t PanelFixture::queryInt(const std::string& sql) { return std::stoll(queryText(sql)); }

std::vector<sms::mailbox::OutboxRow> PanelFixture::outboxRows() {
  auto rows = outbox->list({});
  BOOST_TEST_REQUIRE(rows.ok(), rows.message());
  std::sort(rows->begin(), rows->end(),
            [](const auto& a, const auto& b) { return a.seq < b.seq; });  // list() is newest first
  return std::move(*rows);
}

std::string PanelFixture::lastTextedCode() {
  const auto rows = outboxRows();
  BOOST_TEST_REQUIRE(!rows.empty());
  std::smatch m;
  const std::string body = rows.back().body;
  BOOST_TEST_REQUIRE(std::regex_search(body, m, std::regex("is ([0-9]{6})\\.")), body);
  return m[1];
}

}  // namespace atoms::panel::testing
