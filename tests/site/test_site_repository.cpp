#include <algorithm>
#include <boost/test/unit_test.hpp>
#include <span>
#include <string>

#include "base/secret.h"
#include "domain/site/site_file.h"
#include "domain/site/site_repository.h"
#include "store/migrations.h"
#include "store/state_dir.h"
#include "tests/site/site_test_util.h"
#include "tests/support/temp_dir.h"

using namespace atoms;
using namespace atoms::site;
using namespace atoms::site::testing;
using atoms::testing::TempDir;

namespace {

SiteModel demoModel() {
  auto m = parseSiteFile(readText(demoSitePath()));
  BOOST_REQUIRE_MESSAGE(m.ok(), m.message());
  return *m;
}

// A fresh state directory with the store's schema applied.
struct StoreFixture {
  TempDir dir;
  Database db;
  StoreFixture() {
    Status s = initStateDir(dir.sub("state"), {"bistro-sf"});
    BOOST_REQUIRE_MESSAGE(s.ok(), s.message());
    auto state = openStateDir(dir.sub("state"), OpenMode::ReadWrite);
    BOOST_REQUIRE_MESSAGE(state.ok(), state.message());
    db = std::move(state->db);
  }
  std::int64_t count(const std::string& table) {
    auto stmt = db.prepare("SELECT count(*) FROM " + table);
    BOOST_REQUIRE(stmt.ok());
    BOOST_REQUIRE(stmt->step().ok());
    return stmt->columnInt64(0);
  }
};

}  // namespace

BOOST_AUTO_TEST_SUITE(site_repository)

BOOST_AUTO_TEST_CASE(loadingBeforeAnyImportIsAClearError) {
  StoreFixture f;
  auto m = loadSite(f.db);
  BOOST_REQUIRE(!m.ok());
  BOOST_TEST(m.message().find("no site has been imported") != std::string::npos, m.message());
}

BOOST_AUTO_TEST_CASE(exportEqualsImport) {
  StoreFixture f;
  const SiteModel model = demoModel();
  Status s = importSite(f.db, model);
  BOOST_REQUIRE_MESSAGE(s.ok(), s.message());
  auto loaded = loadSite(f.db);
  BOOST_REQUIRE_MESSAGE(loaded.ok(), loaded.message());
  BOOST_TEST((*loaded == model));
  BOOST_TEST(writeSiteFile(*loaded) == writeSiteFile(model));
}

BOOST_AUTO_TEST_CASE(importingTwiceReplacesAndDoesNotDuplicate) {
  StoreFixture f;
  SiteModel first = demoModel();
  BOOST_REQUIRE(importSite(f.db, first).ok());
  BOOST_REQUIRE(importSite(f.db, first).ok());
  BOOST_TEST(f.count("site_person") == static_cast<std::int64_t>(first.people.size()));
  BOOST_TEST(f.count("site_shift") == static_cast<std::int64_t>(first.shifts.size()));

  // A smaller site: nobody punched yet, the last shift dropped.
  SiteModel second = first;
  second.punches.clear();
  second.scheduleVersions.clear();
  second.shifts.pop_back();
  Status s = importSite(f.db, second);
  BOOST_REQUIRE_MESSAGE(s.ok(), s.message());
  auto loaded = loadSite(f.db);
  BOOST_REQUIRE_MESSAGE(loaded.ok(), loaded.message());
  BOOST_TEST((*loaded == second));
  BOOST_TEST(f.count("site_punch") == 0);
  BOOST_TEST(f.count("site_shift") == static_cast<std::int64_t>(second.shifts.size()));
}

BOOST_AUTO_TEST_CASE(anInvalidModelIsRefusedAndLeavesThePreviousSite) {
  StoreFixture f;
  const SiteModel first = demoModel();
  BOOST_REQUIRE(importSite(f.db, first).ok());
  SiteModel bad = first;
  bad.people[3].phone = "555-1234";
  Status s = importSite(f.db, bad);
  BOOST_REQUIRE(!s.ok());
  BOOST_TEST(s.message().find("is not E.164") != std::string::npos, s.message());
  auto loaded = loadSite(f.db);
  BOOST_REQUIRE(loaded.ok());
  BOOST_TEST((*loaded == first));
}

BOOST_AUTO_TEST_CASE(aFailureHalfWayThroughTheWriteRollsEverythingBack) {
  StoreFixture f;
  const SiteModel first = demoModel();
  BOOST_REQUIRE(importSite(f.db, first).ok());
  // Punches are written after people and shifts: fail there, after the old rows were deleted and
  // most new ones written.
  BOOST_REQUIRE(f.db.exec("CREATE TRIGGER fail_punch BEFORE INSERT ON site_punch"
                          " BEGIN SELECT RAISE(ABORT, 'injected failure'); END")
                    .ok());
  SiteModel second = first;
  second.people.pop_back();
  second.site.name = "Renamed";
  for (Shift& shift : second.shifts) {
    if (shift.assignee == first.people.back().id) shift.assignee.reset();
  }
  std::erase_if(second.punches,
                [&](const Punch& p) { return p.personId == first.people.back().id; });
  BOOST_REQUIRE(!second.punches.empty());
  Status s = importSite(f.db, second);
  BOOST_REQUIRE(!s.ok());
  BOOST_TEST(s.message().find("injected failure") != std::string::npos, s.message());
  BOOST_REQUIRE(f.db.exec("DROP TRIGGER fail_punch").ok());
  auto loaded = loadSite(f.db);
  BOOST_REQUIRE_MESSAGE(loaded.ok(), loaded.message());
  BOOST_TEST((*loaded == first));
}

BOOST_AUTO_TEST_CASE(schoolHoursAndWorkweekSurviveTheStore) {
  StoreFixture f;
  SiteModel model = demoModel();
  model.schoolCalendar.schoolHours = SchoolHours{8 * 60 + 15, 15 * 60 + 5};
  model.site.workweekStart = 3;
  model.site.workdayStartMinute = 4 * 60 + 30;
  BOOST_REQUIRE(importSite(f.db, model).ok());
  auto loaded = loadSite(f.db);
  BOOST_REQUIRE_MESSAGE(loaded.ok(), loaded.message());
  BOOST_TEST((*loaded == model));
  BOOST_TEST(writeSiteFile(*loaded) == writeSiteFile(model));

  model.schoolCalendar.schoolHours.reset();  // a later import without hours clears them
  BOOST_REQUIRE(importSite(f.db, model).ok());
  loaded = loadSite(f.db);
  BOOST_REQUIRE_MESSAGE(loaded.ok(), loaded.message());
  BOOST_TEST(!loaded->schoolCalendar.schoolHours.has_value());
}

// Migrations 21 (site_school_hours) and 22 (site_workweek) are forward-only: a store that held a
// site before them keeps the site, whose calendar then has no school hours until the next import
// gives them, with workweeks from Sunday and workdays from midnight (what the engine used).
BOOST_AUTO_TEST_CASE(aSiteStoredBeforeMigration21LoadsWithDefaults) {
  TempDir dir;
  BOOST_REQUIRE(initSodium());
  auto opened = Database::open(dir.file("atoms.db"), SecretBytes(32), OpenMode::Create);
  BOOST_REQUIRE_MESSAGE(opened.ok(), opened.message());
  Database db = std::move(opened).value();
  const std::span<const Migration> all = storeMigrations();
  const auto before21 =
      std::find_if(all.begin(), all.end(), [](const Migration& m) { return m.version == 21; });
  BOOST_REQUIRE((before21 != all.end()));
  BOOST_REQUIRE(migrate(db, all.first(static_cast<std::size_t>(before21 - all.begin()))).ok());
  BOOST_REQUIRE(db.exec("INSERT INTO site_info(id, site_id, name, time_zone, industry,"
                        " school_week_start) VALUES(1, 'old', 'Old', 'America/Los_Angeles',"
                        " 'retail', 1);"
                        "INSERT INTO site_jurisdiction(position, code) VALUES(0, 'us');"
                        "INSERT INTO site_school_day(day, position) VALUES('2026-10-05', 0);")
                    .ok());
  Status migrated = migrate(db, all);
  BOOST_REQUIRE_MESSAGE(migrated.ok(), migrated.message());
  auto loaded = loadSite(db);
  BOOST_REQUIRE_MESSAGE(loaded.ok(), loaded.message());
  BOOST_TEST(loaded->site.id == "old");
  BOOST_TEST(loaded->schoolCalendar.weekStart == 1u);
  BOOST_TEST(loaded->schoolCalendar.schoolDays.size() == 1u);
  BOOST_TEST(!loaded->schoolCalendar.schoolHours.has_value());
  BOOST_TEST(loaded->site.workweekStart == 0u);
  BOOST_TEST(loaded->site.workdayStartMinute == 0);
}

BOOST_AUTO_TEST_SUITE_END()
