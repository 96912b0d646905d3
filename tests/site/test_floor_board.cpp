// The floor board (domain/site/floor_board.h): each shift near now, and what the time clock says of
// its assignee, at the boundaries of each state: the early clock-in window, the grace for
// lateness, a break, a clock-out, an open shift, and the window of shifts shown.
#include <boost/test/unit_test.hpp>
#include <map>

#include "base/secret.h"
#include "domain/site/floor_board.h"
#include "domain/site/site_repository.h"
#include "store/migrations.h"
#include "tests/site/site_test_util.h"
#include "tests/support/temp_dir.h"

namespace atoms::site {
namespace {

using atoms::testing::TempDir;
using testing::parseMutated;
using testing::utc;

struct FloorFixture {
  FloorFixture() {
    BOOST_REQUIRE(initSodium());
    auto opened = Database::open(dir.file("atoms.db"), SecretBytes(32), OpenMode::Create);
    BOOST_REQUIRE_MESSAGE(opened.ok(), opened.message());
    db = std::make_unique<Database>(std::move(opened).value());
    BOOST_REQUIRE(migrate(*db, storeMigrations()).ok());
    // s-1 10:00-16:00 PDT (17:00-23:00 UTC) for Avery; s-open at the same time for nobody; s-late
    // the next morning.
    auto site = parseMutated([](json::Object& o) {
      json::Array& shifts = o["shifts"].asArray();
      shifts.push_back(json::Object{{"id", "s-open"},
                                    {"station", "line"},
                                    {"start", "2026-06-01T10:00"},
                                    {"end", "2026-06-01T16:00"}});
      shifts.push_back(json::Object{{"id", "s-next"},
                                    {"station", "line"},
                                    {"start", "2026-06-02T10:00"},
                                    {"end", "2026-06-02T16:00"},
                                    {"assignee", "p-ana"}});
    });
    BOOST_REQUIRE_MESSAGE(site.ok(), site.message());
    BOOST_REQUIRE(importSite(*db, *site).ok());
  }
  void punch(const std::string& person, const std::string& kind, Instant at) {
    static int position = 0;
    auto stmt = db->cached("INSERT INTO site_punch(position, person_id, kind, at) VALUES(?,?,?,?)");
    BOOST_REQUIRE(stmt.ok());
    stmt->bind(1, static_cast<std::int64_t>(1000 + ++position))
        .bind(2, person)
        .bind(3, kind)
        .bind(4, static_cast<std::int64_t>(at.time_since_epoch().count()));
    BOOST_REQUIRE(stmt->run().ok());
  }
  // shift id -> state name at `now`.
  std::map<std::string, std::string> board(Instant now) {
    auto rows = floorBoard(*db, now, std::chrono::minutes(10));
    BOOST_REQUIRE_MESSAGE(rows.ok(), rows.message());
    std::map<std::string, std::string> out;
    for (const FloorShift& s : *rows) out[s.shiftId] = std::string(floorStateName(s.state));
    return out;
  }

  TempDir dir;
  std::unique_ptr<Database> db;
};

BOOST_FIXTURE_TEST_SUITE(floor_board, FloorFixture)

BOOST_AUTO_TEST_CASE(withoutPunchesAShiftIsUpcomingThenLateThenMissing) {
  BOOST_TEST(board(utc(2026, 6, 1, 16, 59))["s-1"] == "upcoming");
  BOOST_TEST(board(utc(2026, 6, 1, 17, 0))["s-1"] == "late");
  BOOST_TEST(board(utc(2026, 6, 1, 17, 9))["s-1"] == "late");
  BOOST_TEST(board(utc(2026, 6, 1, 17, 10))["s-1"] == "missing");
  BOOST_TEST(board(utc(2026, 6, 1, 17, 0))["s-open"] == "open");
}

BOOST_AUTO_TEST_CASE(punchesMoveTheAssigneeOnToABreakBackAndOut) {
  punch("p-a", "clock_in", utc(2026, 6, 1, 16, 0));  // an hour early: counts
  BOOST_TEST(board(utc(2026, 6, 1, 16, 30))["s-1"] == "on");
  punch("p-a", "break_start", utc(2026, 6, 1, 19, 0));
  BOOST_TEST(board(utc(2026, 6, 1, 19, 5))["s-1"] == "on_break");
  punch("p-a", "break_end", utc(2026, 6, 1, 19, 30));
  BOOST_TEST(board(utc(2026, 6, 1, 19, 31))["s-1"] == "on");
  punch("p-a", "clock_out", utc(2026, 6, 1, 23, 0));
  BOOST_TEST(board(utc(2026, 6, 1, 23, 30))["s-1"] == "done");
}

BOOST_AUTO_TEST_CASE(aClockInBeforeTheEarlyWindowDoesNotCount) {
  punch("p-a", "clock_in", utc(2026, 6, 1, 15, 59));
  BOOST_TEST(board(utc(2026, 6, 1, 17, 30))["s-1"] == "missing");
}

BOOST_AUTO_TEST_CASE(theBoardShowsShiftsStartingWithinTwelveHoursUntilAnHourAfterTheirEnd) {
  // s-next starts 2026-06-02 17:00 UTC.
  BOOST_TEST(board(utc(2026, 6, 2, 4, 59)).count("s-next") == 0u);
  BOOST_TEST(board(utc(2026, 6, 2, 5, 0)).count("s-next") == 1u);
  BOOST_TEST(board(utc(2026, 6, 2, 0, 0)).count("s-1") == 1u);  // ended 23:00, an hour ago
  BOOST_TEST(board(utc(2026, 6, 2, 0, 1)).count("s-1") == 0u);
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace
}  // namespace atoms::site
