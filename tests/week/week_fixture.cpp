#include "tests/week/week_fixture.h"

#include <boost/test/unit_test.hpp>

#include "domain/labor/rule_table.h"
#include "domain/site/site_repository.h"
#include "store/audit_entry.h"
#include "store/state_dir.h"
#include "tests/support/build_paths.h"

namespace atoms::week::testing {

namespace chr = std::chrono;

namespace {

const char* kZone = "America/Los_Angeles";

site::Stamp stampAt(Week day, int offsetDays, int hour, int minute = 0) {
  auto zone = site::TimeZone::locate(kZone);
  BOOST_TEST_REQUIRE(zone.ok());
  const site::LocalTime local = WeekFixture::local(day, offsetDays, hour, minute);
  auto utc = zone->toUtc(local);
  BOOST_TEST_REQUIRE(utc.ok(), utc.message());
  return {*utc, local};
}

site::Person cook(std::string id, std::string name, std::string phone) {
  site::Person p;
  p.id = std::move(id);
  p.name = std::move(name);
  p.phone = std::move(phone);
  p.roles = {"line"};
  p.certifications = {{"food-handler", std::nullopt}};
  p.birthDate = site::Date{chr::year{1995} / 5 / 5};
  p.hireDate = site::Date{chr::year{2024} / 1 / 8};
  p.smsConsent = {true, chr::sys_days{chr::year{2025} / 1 / 1}};
  p.managerOfRecord = "p-kwame";
  p.hourlyRateCents = 2200;
  return p;
}

}  // namespace

site::SiteModel weekRestaurant() {
  site::SiteModel m;
  m.site = {"week-site",
            "Bistro Maree",
            kZone,
            {"us", "us-ca", "us-ca-san-francisco"},
            "full_service_restaurant"};
  m.certifications = {{"food-handler", "Food handler card"}};
  m.stations = {{"line", "line cook", {"food-handler"}, std::nullopt, {}}};
  m.people = {cook("p-ana", "Ana Lima", "+15552000001"), cook("p-ben", "Ben Ode", "+15552000002"),
              cook("p-tom", "Tom Gray", "+15552000003"),
              cook("p-kwame", "Kwame Asante", "+15552000009")};
  m.people[2].minor = true;
  m.people[2].birthDate = site::Date{chr::year{2010} / 9 / 1};  // 15
  m.people[1].timeOff = {{stampAt(kWeek2, 2, 0), stampAt(kWeek2, 3, 0)}};
  m.people[3].managerOfRecord.reset();
  m.shifts = {
      {"s-1", "line", stampAt(kWeek1, 1, 9), stampAt(kWeek1, 1, 17), std::nullopt, "p-ana"},
      {"s-2", "line", stampAt(kWeek1, 3, 9), stampAt(kWeek1, 3, 17), std::nullopt, "p-ana"}};
  m.scheduleVersions = {{"site-v1", stampAt(kToday, -28, 9).utc, {"s-1", "s-2"}}};
  return m;
}

site::LocalTime WeekFixture::local(Week day, int offsetDays, int hour, int minute) {
  return site::LocalTime(day + chr::days(offsetDays)) + chr::hours(hour) + chr::minutes(minute);
}

TimePoint WeekFixture::at(Week day, int offsetDays, int hour, int minute) {
  return stampAt(day, offsetDays, hour, minute).utc;
}

WeekFixture::WeekFixture() : stateDir(tmp.sub("state")), now(at(kToday, 0, 10)) {
  BOOST_TEST_REQUIRE(initStateDir(stateDir, {"week-site"}).ok());
  auto opened = SiteStore::open(stateDir);
  BOOST_TEST_REQUIRE(opened.ok(), opened.message());
  store = std::move(*opened);
  Status imported = site::importSite(store->db(), weekRestaurant());
  BOOST_TEST_REQUIRE(imported.ok(), imported.message());
  const std::string laborDir = atoms::testing::sourceDir() + "/etc/labor";
  desk = std::make_unique<WeekDesk>(
      *store,
      [laborDir](const site::SiteModel& site) {
        return labor::loadRuleBook(laborDir, site.site.jurisdictions);
      },
      labor::LaborOptions{},
      [this](AuditLog::Batch&, const sms::conversation::OutreachRequest& request)
          -> Result<sms::conversation::OutreachResult> {
        texts.push_back(request);
        sms::conversation::OutreachResult r;
        r.id = request.id;
        r.outcome = sms::conversation::OutreachOutcome::kQueued;
        r.reason = "outreach.allowed";
        return r;
      });
}

std::vector<site::Shift> WeekFixture::storedShifts() {
  auto model = site::loadSite(store->db());
  BOOST_TEST_REQUIRE(model.ok(), model.message());
  return model->shifts;
}

std::int64_t WeekFixture::count(const std::string& sql) {
  auto stmt = store->db().prepare(sql);
  BOOST_TEST_REQUIRE(stmt.ok(), stmt.message());
  auto row = stmt->step();
  BOOST_TEST_REQUIRE((row.ok() && *row));
  return stmt->columnInt64(0);
}

std::vector<json::Value> WeekFixture::audits(std::string_view kind) {
  std::vector<json::Value> out;
  for (std::uint64_t seq = 0; seq < store->log().size(); ++seq) {
    auto text = store->log().entryText(seq);
    BOOST_TEST_REQUIRE(text.ok());
    auto entry = json::parse(*text);
    BOOST_TEST_REQUIRE(entry.ok());
    const json::Value* k = entry->find("kind");
    if (k != nullptr && k->asString() == kind) out.push_back(*entry->find("body"));
  }
  return out;
}

}  // namespace atoms::week::testing
