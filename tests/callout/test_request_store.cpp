// The requests' rows (domain/requests/request_store.h, migration 27) and what an approval means
// for the site's data (request_effect.h): time-off periods in the site's zone, the weekly windows
// an availability change leaves, and the shifts a request touches.
#include <algorithm>
#include <boost/test/unit_test.hpp>
#include <chrono>
#include <string>
#include <vector>

#include "domain/requests/request_effect.h"
#include "domain/requests/request_store.h"
#include "domain/requests/request_texts.h"
#include "sms/text/content_lint.h"
#include "store/migrations.h"
#include "store/row_reader.h"
#include "tests/callout/callout_fixture.h"

using namespace atoms;
using namespace atoms::callout::testing;
using namespace std::chrono_literals;

namespace {

using requests::RequestRow;
using requests::RequestState;
using requests::RequestStore;

RequestRow timeOffRow(std::string from, std::string to, sms::DayPart part = sms::DayPart::kAllDay) {
  RequestRow r;
  r.id = 1;
  r.personId = "p-ana";
  r.kind = sms::RequestKind::kTimeOff;
  r.fromDate = std::move(from);
  r.toDate = std::move(to);
  r.part = part;
  r.approverId = "p-kwame";
  return r;
}

RequestRow availabilityRow(sms::AvailabilityChange change, std::vector<unsigned> weekdays,
                           sms::DayPart part) {
  RequestRow r;
  r.id = 2;
  r.personId = "p-ana";
  r.kind = sms::RequestKind::kAvailability;
  r.change = change;
  r.weekdays = std::move(weekdays);
  r.part = part;
  return r;
}

site::TimeZone losAngeles() {
  auto zone = site::TimeZone::locate("America/Los_Angeles");
  BOOST_TEST_REQUIRE(zone.ok(), zone.message());
  return *zone;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(request_store)

BOOST_AUTO_TEST_CASE(storesARequestAndItsDecisionAndListsThem) {
  CalloutFixture f;
  Status s = f.runner->run([&](SiteStore& store) -> Status {
    RequestStore rows(store.db());
    RequestRow a = timeOffRow("2026-03-07", "2026-03-08", sms::DayPart::kNight);
    a.createdAt = f.now();
    a.inboxId = 42;
    auto id = rows.insert(a);
    BOOST_TEST_REQUIRE(id.ok(), id.message());
    RequestRow b = availabilityRow(sms::AvailabilityChange::kOnly, {0, 6}, sms::DayPart::kAllDay);
    b.createdAt = f.now() - std::chrono::days{40};
    auto second = rows.insert(b);
    BOOST_TEST_REQUIRE(second.ok(), second.message());

    auto got = rows.get(*id);
    BOOST_TEST_REQUIRE(got.ok(), got.message());
    BOOST_TEST_REQUIRE(got->has_value());
    BOOST_TEST((*got)->fromDate == "2026-03-07");
    BOOST_TEST(sms::dayPartName((*got)->part) == "night");
    BOOST_TEST(((*got)->inboxId == 42));
    auto other = rows.get(*second);
    BOOST_TEST_REQUIRE((other.ok() && other->has_value()));
    BOOST_TEST((*other)->weekdays == (std::vector<unsigned>{0, 6}),
               boost::test_tools::per_element());
    BOOST_TEST(sms::availabilityChangeName((*other)->change) == "only");

    RequestRow decided = **got;
    decided.state = RequestState::kApproved;
    decided.decidedBy = "p-kwame";
    decided.decidedVia = "api";
    decided.decidedAt = f.now();
    decided.remark = "enjoy";
    BOOST_TEST_REQUIRE(rows.update(decided).ok());
    auto pending = rows.list(requests::RequestFilter::kPending, f.now());
    BOOST_TEST_REQUIRE(pending.ok(), pending.message());
    BOOST_REQUIRE_EQUAL(pending->size(), 1u);
    BOOST_TEST((*pending)[0].id == *second);
    auto recent = rows.list(requests::RequestFilter::kRecent, f.now());
    BOOST_TEST_REQUIRE(recent.ok(), recent.message());
    BOOST_REQUIRE_EQUAL(recent->size(), 2u);  // the old one is still pending
    BOOST_TEST((*recent)[0].id == *second);   // newest first
    BOOST_TEST((*recent)[1].remark == "enjoy");
    BOOST_TEST(requests::requestStateName((*recent)[1].state) == "approved");
    BOOST_TEST(!rows.get(99)->has_value());
    return Status::success();
  });
  BOOST_TEST(s.ok(), s.message());
}

BOOST_AUTO_TEST_CASE(aDamagedRowIsAnErrorNamingIt) {
  CalloutFixture f;
  Status s = f.runner->run([&](SiteStore& store) -> Status {
    RequestStore rows(store.db());
    auto id = rows.insert(timeOffRow("2026-03-07", "2026-03-07"));
    BOOST_TEST_REQUIRE(id.ok());
    BOOST_TEST_REQUIRE(store.db().exec("UPDATE staff_request SET weekdays = '9'").ok());
    auto got = rows.get(*id);
    BOOST_TEST(!got.ok());
    BOOST_TEST(got.message() == "staff request 1: damaged weekdays");
    return Status::success();
  });
  BOOST_TEST(s.ok(), s.message());
}

BOOST_AUTO_TEST_CASE(migration27IsListedAndRecorded) {
  CalloutFixture f;
  const std::span<const Migration> list = storeMigrations();
  const auto found =
      std::find_if(list.begin(), list.end(), [](const Migration& m) { return m.version == 27; });
  BOOST_TEST_REQUIRE((found != list.end()));
  BOOST_TEST(found->name == "staff_requests");
  std::vector<std::int64_t> versions;
  Status s = f.runner->run([&](SiteStore& store) -> Status {
    auto stmt = store.db().prepare("SELECT version FROM schema_migrations ORDER BY version");
    if (!stmt) return stmt.error();
    auto rows = readRows(*stmt, [](RowReader& r) { return r.int64(); });
    if (!rows) return rows.error();
    versions = *rows;
    return Status::success();
  });
  BOOST_TEST_REQUIRE(s.ok(), s.message());
  BOOST_TEST((std::find(versions.begin(), versions.end(), 27) != versions.end()));
  BOOST_TEST(versions.back() == list.back().version);
}

BOOST_AUTO_TEST_CASE(timeOffIsWholeLocalDaysOrOnePartOfEachDay) {
  const site::TimeZone zone = losAngeles();
  auto whole = requests::timeOffPeriods(timeOffRow("2026-03-07", "2026-03-09"), zone);
  BOOST_TEST_REQUIRE(whole.ok(), whole.message());
  BOOST_REQUIRE_EQUAL(whole->size(), 1u);
  BOOST_TEST(site::formatLocal((*whole)[0].start.local) == "2026-03-07T00:00:00");
  BOOST_TEST(site::formatLocal((*whole)[0].end.local) == "2026-03-10T00:00:00");
  // Daylight saving starts on 2026-03-08: the UTC span is an hour shorter than three days.
  BOOST_TEST(((*whole)[0].end.utc - (*whole)[0].start.utc == std::chrono::hours{71}));
  auto nights =
      requests::timeOffPeriods(timeOffRow("2026-03-06", "2026-03-07", sms::DayPart::kNight), zone);
  BOOST_TEST_REQUIRE(nights.ok(), nights.message());
  BOOST_REQUIRE_EQUAL(nights->size(), 2u);
  BOOST_TEST(site::formatLocal((*nights)[1].start.local) == "2026-03-07T22:00:00");
  BOOST_TEST(site::formatLocal((*nights)[1].end.local) == "2026-03-08T06:00:00");
  auto bad = requests::timeOffPeriods(timeOffRow("2026-13-01", "2026-13-01"), zone);
  BOOST_TEST(!bad.ok());
}

BOOST_AUTO_TEST_CASE(availabilityChangesStartFromTheWholeWeekWhenNoneIsSet) {
  const auto noMornings = requests::availabilityAfter(
      {}, availabilityRow(sms::AvailabilityChange::kCannot, {}, sms::DayPart::kMorning));
  BOOST_REQUIRE_EQUAL(noMornings.size(), 14u);  // each day: before 05:00 and from 12:00
  BOOST_TEST(noMornings[0].weekday == 0u);
  BOOST_TEST(noMornings[0].startMinute == 0);
  BOOST_TEST(noMornings[0].endMinute == 300);
  BOOST_TEST(noMornings[1].startMinute == 720);
  BOOST_TEST(noMornings[1].endMinute == 1440);

  const auto onlyEvenings = requests::availabilityAfter(
      {{1, 600, 1200}},
      availabilityRow(sms::AvailabilityChange::kOnly, {}, sms::DayPart::kEvening));
  BOOST_REQUIRE_EQUAL(onlyEvenings.size(), 7u);
  BOOST_TEST(onlyEvenings[3].startMinute == 1020);

  // No Saturday nights, from windows that run past midnight: Saturday 18:00-02:00.
  const auto noSaturdayNights = requests::availabilityAfter(
      {{6, 1080, 120}},
      availabilityRow(sms::AvailabilityChange::kCannot, {6}, sms::DayPart::kNight));
  BOOST_REQUIRE_EQUAL(noSaturdayNights.size(), 1u);
  BOOST_TEST(noSaturdayNights[0].weekday == 6u);
  BOOST_TEST(noSaturdayNights[0].startMinute == 1080);
  BOOST_TEST(noSaturdayNights[0].endMinute == 1320);
}

BOOST_AUTO_TEST_CASE(touchedShiftsAreTheAssignedOnesTheRequestCovers) {
  const site::SiteModel model = calloutRestaurant(kCalloutDay);
  const site::TimeZone zone = losAngeles();
  const site::Instant now = site::toInstant(CalloutFixture::localTime(0, 16, 55));
  auto tomorrow = requests::touchedShifts(model, timeOffRow("2026-03-05", "2026-03-05"), zone, now);
  BOOST_TEST_REQUIRE(tomorrow.ok(), tomorrow.message());
  BOOST_REQUIRE_EQUAL(tomorrow->size(), 1u);  // Ana's 08:00-12:00
  auto evenings = requests::touchedShifts(
      model, timeOffRow("2026-03-05", "2026-03-05", sms::DayPart::kEvening), zone, now);
  BOOST_TEST_REQUIRE(evenings.ok());
  BOOST_TEST(evenings->empty());
  auto mornings = requests::touchedShifts(
      model, availabilityRow(sms::AvailabilityChange::kCannot, {}, sms::DayPart::kMorning), zone,
      now);
  BOOST_TEST_REQUIRE(mornings.ok());
  BOOST_REQUIRE_EQUAL(mornings->size(), 1u);  // the past shifts do not count
  auto sundays = requests::touchedShifts(
      model, availabilityRow(sms::AvailabilityChange::kCannot, {0}, sms::DayPart::kAllDay), zone,
      now);
  BOOST_TEST_REQUIRE(sundays.ok());
  BOOST_TEST(sundays->empty());
}

BOOST_AUTO_TEST_CASE(everyRequestTextPassesTheContentLintAndNamesAHumanWhereItShould) {
  const sms::ContentLint lint;
  for (const bool spanish : {false, true}) {
    requests::ReplyContext c;
    c.language =
        spanish ? sms::conversation::Language::kSpanish : sms::conversation::Language::kEnglish;
    c.site = "Bistro Maree";
    c.human = {"Kwame", kKwame};
    const RequestRow off = timeOffRow("2026-03-06", "2026-03-08", sms::DayPart::kNight);
    const RequestRow only =
        availabilityRow(sms::AvailabilityChange::kOnly, {0, 6}, sms::DayPart::kAllDay);
    const std::string what = requests::requestWords(off, spanish);
    std::vector<std::string> texts = {
        requests::requestReceivedText(c, what, 3),
        requests::requestApprovedText(c, requests::requestWords(only, spanish)),
        requests::requestDeniedText(c, what),
        requests::requestWithdrawnText(c, 3),
        requests::requestForManagerText(c, "Ana", what, 3, 2),
        requests::requestRecordedText(c, 3, true, 2),
        requests::requestRecordedText(c, 3, false, 0),
        requests::requestClosedText(c, 3),
        requests::requestNotYoursText(c, 3),
        requests::requestSelfText(c, 3),
        requests::requestPausedText(c)};
    for (const char* q : {"which_day", "one_range", "too_long", "which_times", "can_or_cannot"}) {
      texts.push_back(requests::requestQuestionText(c, q));
    }
    for (const std::string& t : texts) {
      BOOST_TEST_CONTEXT(t) {
        BOOST_TEST(lint.check(t).empty());
        BOOST_TEST(t.size() <= 320u);  // short
      }
    }
    BOOST_TEST(texts[2].find("Kwame") != std::string::npos);  // a denial names who to talk to
  }
}

BOOST_AUTO_TEST_SUITE_END()
