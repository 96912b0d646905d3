// The daemon's adapters for the SMS conversation layer (daemon/sms/): the site clock over the
// site's time zone, and the roster over the site model.
#include <boost/test/unit_test.hpp>
#include <chrono>

#include "daemon/sms/site_roster.h"
#include "daemon/sms/zone_site_time.h"
#include "domain/site/site_model.h"
#include "domain/site/time_zone.h"

namespace atoms {
namespace {

using std::chrono::hours;
using std::chrono::minutes;

std::chrono::sys_seconds utc(int month, int day, int hour, int minute) {
  return std::chrono::sys_days{std::chrono::year{2026} / month / day} + hours{hour} +
         minutes{minute};
}

std::chrono::local_seconds local(int month, int day, int hour, int minute) {
  return std::chrono::local_days{std::chrono::year{2026} / month / day} + hours{hour} +
         minutes{minute};
}

template <class Clock>
long long secs(std::chrono::time_point<Clock, std::chrono::seconds> t) {
  return t.time_since_epoch().count();
}

sms_site::ZoneSiteTime losAngeles() {
  auto zone = site::TimeZone::locate("America/Los_Angeles");
  BOOST_REQUIRE_MESSAGE(zone, zone.message());
  return sms_site::ZoneSiteTime(*zone);
}

site::Person person(std::string id, std::string name, std::string phone,
                    std::optional<std::string> manager, bool consent) {
  site::Person p;
  p.id = std::move(id);
  p.name = std::move(name);
  p.phone = std::move(phone);
  p.managerOfRecord = std::move(manager);
  p.smsConsent.granted = consent;
  return p;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(zone_site_time)

BOOST_AUTO_TEST_CASE(anOrdinaryTimeRoundTrips) {
  const auto t = losAngeles();
  BOOST_TEST(secs(t.toUtc(local(11, 30, 8, 0))) == secs(utc(11, 30, 16, 0)));  // PST, -08:00
  BOOST_TEST(secs(t.toLocal(utc(11, 30, 16, 0))) == secs(local(11, 30, 8, 0)));
  BOOST_TEST(secs(t.toUtc(local(7, 1, 8, 0))) == secs(utc(7, 1, 15, 0)));  // PDT, -07:00
}

BOOST_AUTO_TEST_CASE(aTimeInTheSpringForwardGapIsTheEndOfTheGap) {
  // 2026-03-08: clocks jump from 02:00 PST to 03:00 PDT (10:00 UTC). "Hold until 02:30" must not
  // send before the local time named, and nothing exists before 03:00: the jump itself.
  const auto t = losAngeles();
  BOOST_TEST(secs(t.toUtc(local(3, 8, 2, 30))) == secs(utc(3, 8, 10, 0)));
  BOOST_TEST(secs(t.toUtc(local(3, 8, 2, 0))) == secs(utc(3, 8, 10, 0)));
  BOOST_TEST(secs(t.toUtc(local(3, 8, 3, 0))) == secs(utc(3, 8, 10, 0)));
  BOOST_TEST(secs(t.toUtc(local(3, 8, 1, 59))) == secs(utc(3, 8, 9, 59)));
}

BOOST_AUTO_TEST_CASE(anAmbiguousTimeIsItsEarlierOccurrence) {
  // 2026-11-01: 01:00-02:00 happens twice (PDT, then PST).
  const auto t = losAngeles();
  BOOST_TEST(secs(t.toUtc(local(11, 1, 1, 30))) == secs(utc(11, 1, 8, 30)));
  BOOST_TEST(secs(t.toLocal(utc(11, 1, 9, 30))) ==
             secs(local(11, 1, 1, 30)));  // the second one exists too
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(site_roster)

BOOST_AUTO_TEST_CASE(findsPeopleByPhoneWithTheirConsent) {
  site::SiteModel model;
  model.site.name = "Bistro Marée";
  model.people = {person("p-gm", "Renée Dubois", "+15550100101", std::nullopt, true),
                  person("p-ben", "Ben Okafor", "+15550100103", "p-gm", false)};
  sms_site::SiteRoster roster({"the front desk", "+15550100100"});
  BOOST_TEST(!roster.findByPhone("+15550100103").has_value());  // nothing until reset
  roster.reset(model);

  const auto ben = roster.findByPhone("+15550100103");
  BOOST_REQUIRE(ben.has_value());
  BOOST_TEST(ben->personId == "p-ben");
  BOOST_TEST(ben->name == "Ben Okafor");
  BOOST_TEST(!ben->smsConsent);
  BOOST_TEST(roster.findByPhone("+15550100101")->smsConsent);
  BOOST_TEST(!roster.findByPhone("+15550100999").has_value());
  BOOST_TEST(roster.siteName() == "Bistro Marée");
}

BOOST_AUTO_TEST_CASE(theHumanToReachIsTheManagerOfRecordElseTheSiteContact) {
  site::SiteModel model;
  model.people = {person("p-gm", "Renée Dubois", "+15550100101", std::nullopt, true),
                  person("p-ben", "Ben Okafor", "+15550100103", "p-gm", true),
                  person("p-solo", "Sam Lee", "+15550100104", "p-gone", true),
                  person("p-self", "Kim Ng", "+15550100105", "p-self", true)};
  sms_site::SiteRoster roster({"the front desk", "+15550100100"});
  roster.reset(model);

  BOOST_TEST(roster.humanContact("p-ben").name == "Renée Dubois");
  BOOST_TEST(roster.humanContact("p-ben").phone == "+15550100101");
  BOOST_TEST(roster.humanContact("p-gm").name == "the front desk");    // no manager of record
  BOOST_TEST(roster.humanContact("p-solo").name == "the front desk");  // manager not on the site
  BOOST_TEST(roster.humanContact("p-self").name == "the front desk");  // never themselves
  BOOST_TEST(roster.humanContact("").phone == "+15550100100");         // a number not on it
  BOOST_TEST(roster.siteName() == "this workplace");                   // a site without a name
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace atoms
