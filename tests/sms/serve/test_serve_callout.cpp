#include <boost/test/unit_test.hpp>
// The call-out flow in the real `atoms-edge serve`, killed with SIGKILL mid-flow and started again
// on the same state directory: the flow resumes from the store and nobody gets an offer twice.
// Real time here (a child process), so the site is built around today in San Francisco.
#include <signal.h>

#include <algorithm>
#include <chrono>
#include <map>

#include "domain/site/site_repository.h"
#include "domain/site/time_zone.h"
#include "store/site_store.h"
#include "tests/callout/callout_fixture.h"
#include "tests/sms/serve/serve_support.h"
#include "tests/support/build_paths.h"

namespace atoms::test {
namespace {

using callout::testing::kRosa;
namespace chr = std::chrono;

bool isOffer(const drivers::twilio::FakeMessage& m) { return contains(m.body, " to take it"); }

int offersTo(const std::vector<drivers::twilio::FakeMessage>& messages, const std::string& to) {
  return static_cast<int>(std::count_if(messages.begin(), messages.end(),
                                        [&](const auto& m) { return m.to == to && isOffer(m); }));
}

// The day whose 17:00-23:00 shift is still ahead (or running) in San Francisco now: today until
// 16:00 local time, else tomorrow.
chr::local_days shiftDay() {
  auto zone = site::TimeZone::locate("America/Los_Angeles");
  BOOST_REQUIRE(zone.ok());
  const site::LocalTime now = zone->toLocal(chr::floor<chr::seconds>(chr::system_clock::now()));
  const chr::local_days today = chr::floor<chr::days>(now);
  return now - today < chr::hours(16) ? today : today + chr::days(1);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(serve_callout)

BOOST_AUTO_TEST_CASE(serveKilledMidFlowResumesFromTheStoreAndNobodyGetsAnOfferTwice) {
  TwilioSite t;
  {
    auto opened = SiteStore::open(t.site.stateDir);
    BOOST_REQUIRE_MESSAGE(opened.ok(), opened.message());
    Status imported =
        site::importSite((*opened)->db(), callout::testing::calloutRestaurant(shiftDay()));
    BOOST_REQUIRE_MESSAGE(imported.ok(), imported.message());
  }
  const std::string config =
      t.config(std::string("labor.rules_dir = ") + atoms::testing::sourceDir() +
               "/etc/labor\n"
               "callout.lookahead_hours = 48\n"
               "callout.general_manager = p-kwame\n"
               "policy.graduation.staffing_scheduling = autonomous\n"
               // The test runs at any hour: a site without quiet hours.
               "sms.quiet-hours.start = 00:00\n"
               "sms.quiet-hours.end = 00:00\n");
  // Who is offered depends on the day (ages, the week's hours): the test follows the first wave.
  auto firstWaveOut = [](const std::vector<drivers::twilio::FakeMessage>& messages) {
    return std::count_if(messages.begin(), messages.end(), isOffer) == 3;
  };
  std::vector<std::string> offered;
  std::string code;
  {
    ChildProcess serve({edgeBinary(), "serve", "--config", config});
    t.connect(serve);
    auto reply = t.fake.sendInbound(kRosa, kBoxNumber, "Jamal isn't here, I'm alone on the line");
    BOOST_REQUIRE_MESSAGE(reply.ok(), reply.message());
    BOOST_REQUIRE(reply->status == 200);
    BOOST_REQUIRE_MESSAGE(t.waitUntil(firstWaveOut), serve.err());
    serve.signal(SIGKILL);
    BOOST_REQUIRE(serve.wait(kDeadline).value_or(0) == 128 + SIGKILL);
    std::lock_guard lock(t.mutex);
    for (const auto& m : t.created) {
      if (isOffer(m)) offered.push_back(m.to);
    }
    for (const auto& m : t.created) {
      if (m.to == offered.front()) code = callout::testing::offerCodeIn({m.body});
    }
  }
  BOOST_REQUIRE_EQUAL(code.size(), 4u);

  ChildProcess serve({edgeBinary(), "serve", "--config", config});
  t.connect(serve);
  // The first person offered answers the offer the killed process sent.
  auto reply = t.fake.sendInbound(offered.front(), kBoxNumber, code);
  BOOST_REQUIRE_MESSAGE(reply.ok(), reply.message());
  BOOST_REQUIRE(reply->status == 200);
  const std::string taker = offered.front();
  auto sentTo = [](const auto& messages, const std::string& to, const std::string& words) {
    return std::any_of(messages.begin(), messages.end(),
                       [&](const auto& m) { return m.to == to && contains(m.body, words); });
  };
  BOOST_REQUIRE_MESSAGE(t.waitUntil([&](const auto& messages) {
    return sentTo(messages, kRosa, "Covered: ") && sentTo(messages, taker, "You're on");
  }),
                        serve.err());
  const auto messages = t.stopAndCollect(serve);
  for (const std::string& phone : offered) BOOST_TEST(offersTo(messages, phone) == 1, phone);
  std::map<std::string, int> seen;
  for (const auto& m : messages) BOOST_TEST(++seen[m.to + "|" + m.body] == 1, m.to + ": " + m.body);
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace atoms::test
