#include <boost/test/unit_test.hpp>

// Safety alerts while the SMS provider is down (issue 7 item 5): with a modem configured as the
// fallback (drivers/sms/failover_gateway.h), the alert and its reminders leave through the modem
// (and the reporter's answer, 911 first) in the dispatcher's first pass, at night and under the L1
// outreach freeze, each exactly once over both carriers; everything else waits for the provider,
// and a send the provider may have taken is reconciled with it instead of being handed to the
// modem.
#include <chrono>
#include <map>
#include <memory>
#include <string>

#include "drivers/sms/failover_gateway.h"
#include "drivers/sms/simulated/simulated_gateway.h"
#include "sms/mailbox/dispatcher.h"
#include "tests/sms/conversation/conversation_fixture.h"

namespace atoms::sms::conversation {
namespace {

using namespace std::chrono_literals;
using drivers::SimulatedSmsGateway;
using testing::ConversationFixture;
using testing::kAna;
using testing::kDana;
using testing::kSam;

// The fixture's conversation layer with a dispatcher over provider + modem (both simulated).
struct FailoverFixture : ConversationFixture {
  FailoverFixture() {
    auto p = std::make_unique<SimulatedSmsGateway>();
    auto m = std::make_unique<SimulatedSmsGateway>();
    provider = p.get();
    modem = m.get();
    modem->setHonourIdempotencyKeys(false);  // a modem sends every time: duplicates would show
    gateway = std::make_unique<drivers::FailoverGateway>(
        std::move(p), std::move(m),
        [this](const drivers::FailoverEvent& e) { handedOver.push_back(e.idempotencyKey); });
    mailbox::DispatcherOptions options;
    options.followsSystemTime = false;
    dispatcher = std::make_unique<mailbox::Dispatcher>(*outbox, *gateway, options);
  }
  ~FailoverFixture() { dispatcher.reset(); }

  void dispatch() { BOOST_REQUIRE(dispatcher->runPass()); }

  // How many times each message id went on the air, over both carriers.
  std::map<std::string, int> airings() const {
    std::map<std::string, int> n;
    for (const auto* g : {provider, modem}) {
      for (const auto& t : g->transmissions()) ++n[t.message.idempotencyKey];
    }
    return n;
  }
  std::size_t modemTo(const std::string& to) const {
    std::size_t n = 0;
    for (const auto& t : modem->transmissions()) n += t.message.to == to ? 1 : 0;
    return n;
  }

  SimulatedSmsGateway* provider = nullptr;
  SimulatedSmsGateway* modem = nullptr;
  std::unique_ptr<drivers::FailoverGateway> gateway;
  std::unique_ptr<mailbox::Dispatcher> dispatcher;
  std::vector<std::string> handedOver;
};

BOOST_FIXTURE_TEST_CASE(aSafetyAlertLeavesThroughTheModemAtOnceWhileTheProviderIsDown,
                        FailoverFixture) {
  setLocal(0, 23, 30);                // quiet hours
  outreach->setOutreachFrozen(true);  // kill switch L1
  provider->failNextSends(1000, /*retryable=*/true, "connection refused");
  text(kAna, "Fire in the kitchen, the hood is smoking");
  text(testing::kLuis, "HELP");
  dispatch();

  // The alerts and the reporter's answer (911 first) are safety messages: through the modem.
  for (const char* who : {kDana, kSam, kAna}) {
    BOOST_TEST(modemTo(who) == 1u, who);
    const auto rows = outboxTo(who);
    BOOST_REQUIRE_EQUAL(rows.size(), 1u);
    BOOST_TEST(mailbox::outboxStateName(rows[0].state) == "sent");
    BOOST_TEST(rows[0].attempts == 1);  // no wait for the retry schedule
    BOOST_TEST(rows[0].gateway == "simulated+simulated");
  }
  BOOST_TEST(handedOver.size() == 3u);
  // An ordinary reply waits for the provider's retries.
  const auto help = outboxTo(testing::kLuis);
  BOOST_REQUIRE_EQUAL(help.size(), 1u);
  BOOST_TEST(mailbox::outboxStateName(help[0].state) == "queued");
  BOOST_TEST(modemTo(testing::kLuis) == 0u);

  // The reminder five minutes later takes the same way, still at night and frozen.
  clock.advance(5min);
  BOOST_TEST(*safety->realertDue(clock.now()) == 1);
  dispatch();
  BOOST_TEST(modemTo(kDana) == 2u);
  BOOST_TEST(modemTo(kSam) == 2u);

  // The provider is back: the answer goes through it; nothing went on the air twice.
  provider->failNextSends(0, true);
  clock.advance(1h);
  dispatch();
  BOOST_REQUIRE_EQUAL(provider->transmissions().size(), 1u);
  BOOST_TEST(provider->transmissions()[0].message.to == testing::kLuis);
  for (const auto& [id, times] : airings()) BOOST_TEST(times == 1, id);
  BOOST_TEST(airings().size() == 6u);  // two alerts, the answer, two reminders, HELP
}

BOOST_FIXTURE_TEST_CASE(aSafetyAlertTheProviderMayHaveTakenIsReconciledNotSentAgain,
                        FailoverFixture) {
  provider->loseAnswerAfterAccepting(2);  // accepted, then the connection dropped
  text(kAna, "SAFETY broken glass all over the walk-in floor");
  dispatch();
  clock.advance(1h);  // the in-doubt rows fall due for reconciling
  dispatch();

  BOOST_TEST(modem->transmissions().empty());
  BOOST_TEST(handedOver.empty());
  for (const char* who : {kDana, kSam}) {
    const auto rows = outboxTo(who);
    BOOST_REQUIRE_EQUAL(rows.size(), 1u);
    BOOST_TEST(mailbox::outboxStateName(rows[0].state) == "sent");
  }
  for (const auto& [id, times] : airings()) BOOST_TEST(times == 1, id);
}

BOOST_FIXTURE_TEST_CASE(whenNeitherCarrierTakesAnAlertItIsRetriedAndSentOnce, FailoverFixture) {
  provider->failNextSends(1000, true, "connection refused");
  modem->failNextSends(2, true, "no network");
  text(kAna, "Smells like gas in the back");
  dispatch();
  const auto rows = outboxTo(kDana);
  BOOST_REQUIRE_EQUAL(rows.size(), 1u);
  BOOST_TEST(mailbox::outboxStateName(rows[0].state) == "queued");
  BOOST_TEST(rows[0].lastError.find("no network") != std::string::npos, rows[0].lastError);

  clock.advance(1h);  // past the retry delay
  dispatch();
  BOOST_TEST(modemTo(kDana) == 1u);
  BOOST_TEST(modemTo(kSam) == 1u);
  for (const auto& [id, times] : airings()) BOOST_TEST(times == 1, id);
}

}  // namespace
}  // namespace atoms::sms::conversation
