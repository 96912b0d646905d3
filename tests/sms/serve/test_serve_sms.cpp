#include <boost/test/unit_test.hpp>
// `atoms-edge serve` with SMS on, the real binary as a child process: Twilio against the fake
// provider over loopback sockets, a GSM modem played by SimulatedModem on a pty, the simulated
// gateway, and every misconfiguration refused with one line naming the key.
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sms/mailbox/outbox_row.h"
#include "tests/drivers/modem/simulated_modem.h"
#include "tests/sms/serve/serve_support.h"
#include "tests/support/fake_twilio.h"

namespace atoms::test {
namespace {

using drivers::twilio::FakeMessage;
using drivers::twilio::FormFields;
using drivers::twilio::WebhookReply;

const std::string kStaff = "+15550101234";

int replyStatus(const Result<WebhookReply>& reply) {
  BOOST_REQUIRE_MESSAGE(reply, reply.message());
  return reply->status;
}

// A TCP port on loopback that is taken for as long as the object lives.
class TakenPort {
 public:
  TakenPort() {
    fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
    BOOST_REQUIRE(fd_ >= 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    BOOST_REQUIRE(::bind(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0);
    BOOST_REQUIRE(::listen(fd_, 1) == 0);
    socklen_t len = sizeof addr;
    BOOST_REQUIRE(::getsockname(fd_, reinterpret_cast<sockaddr*>(&addr), &len) == 0);
    port_ = ntohs(addr.sin_port);
  }
  ~TakenPort() { ::close(fd_); }
  int port() const { return port_; }

 private:
  int fd_ = -1;
  int port_ = 0;
};

}  // namespace

BOOST_AUTO_TEST_SUITE(serve_sms)

BOOST_AUTO_TEST_CASE(twilioInboundIsAnswered200OnlyOnceCommittedAndAReplayIsStoredOnce) {
  TwilioSite t;
  ChildProcess serve({edgeBinary(), "serve", "--config", t.config()});
  t.connect(serve);

  std::string sid;
  BOOST_TEST(replyStatus(t.fake.sendInbound(kStaff, kBoxNumber, "Jamal didn't show, I'm alone",
                                            {{"FromCity", "OAKLAND"}}, "", &sid)) == 200);
  // Twilio redelivers with the same MessageSid (a timeout on its side): acknowledged again.
  BOOST_TEST(replyStatus(t.fake.sendInbound(kStaff, kBoxNumber, "Jamal didn't show, I'm alone", {},
                                            sid)) == 200);
  // A 200 means committed: the store has it even when the process dies right after.
  serve.signal(SIGKILL);
  BOOST_REQUIRE(serve.wait(kDeadline).value_or(0) == 128 + SIGKILL);

  const StoredSms stored = readStore(t.site.stateDir);
  BOOST_TEST(stored.inboxRows == 1u);
  BOOST_REQUIRE_EQUAL(stored.inbound.size(), 1u);
  BOOST_TEST(stored.inbound[0].providerId == sid);
  BOOST_TEST(stored.inbound[0].gateway == "twilio");
  BOOST_TEST(stored.inbound[0].from == kStaff);
  BOOST_TEST(stored.inbound[0].body == "Jamal didn't show, I'm alone");
  BOOST_TEST(stored.count("sms.in") == 1u);
}

// The conversation layer runs inside serve: with no site imported every sender is an unknown
// number, answered once a day; an opt-out in words is confirmed by the box (a bare STOP Twilio
// confirms itself: docs/sms-twilio.md). Replies leave through the provider's API.
BOOST_AUTO_TEST_CASE(serveAnswersTextsThroughTheConversationLayer) {
  TwilioSite t;
  ChildProcess serve({edgeBinary(), "serve", "--config", t.config()});
  t.connect(serve);

  BOOST_TEST(replyStatus(t.fake.sendInbound(kStaff, kBoxNumber, "HELP")) == 200);
  BOOST_TEST(replyStatus(t.fake.sendInbound(kStaff, kBoxNumber, "help?")) == 200);
  BOOST_TEST(replyStatus(t.fake.sendInbound(kStaff, kBoxNumber, "please stop texting me")) == 200);
  // Messages are handled in order, so when the opt-out confirmation is out, the second HELP has
  // been handled too (and got nothing: one reply a day to a number the site does not know).
  BOOST_REQUIRE_MESSAGE(t.waitForCreated(2), serve.err());
  const std::vector<FakeMessage> created = t.stopAndCollect(serve);
  BOOST_REQUIRE_EQUAL(created.size(), 2u);
  BOOST_TEST(created[0].to == kStaff);
  BOOST_TEST(contains(created[0].body, "automated staffing assistant"));
  BOOST_TEST(contains(created[0].body, "STOP"));
  BOOST_TEST(created[1].to == kStaff);
  BOOST_TEST(!contains(created[1].body, "automated staffing assistant"));

  const StoredSms stored = readStore(t.site.stateDir);
  BOOST_REQUIRE_EQUAL(stored.inbound.size(), 3u);
  for (const sms::mailbox::InboxRow& row : stored.inbound) {
    BOOST_TEST(sms::mailbox::inboxStateName(row.state) == "handled");
  }
  BOOST_TEST(stored.outbox.size() == 2u);
  BOOST_TEST(stored.count("sms.opt_out") == 1u);
  BOOST_TEST(stored.count("sms.conversation") == 3u);
}

// A safety report through the real provider path: the site contact (the only human a store without
// a site knows) is alerted, and the reporter is answered with the emergency number first.
BOOST_AUTO_TEST_CASE(serveAlertsTheSiteContactOfASafetyReportAndAnswersWithTheEmergencyNumber) {
  TwilioSite t;
  const std::string manager = "+15550100777";
  ChildProcess serve({edgeBinary(), "serve", "--config",
                      t.config("sms.contact.name = Dana\nsms.contact.phone = " + manager + "\n")});
  t.connect(serve);
  BOOST_TEST(replyStatus(t.fake.sendInbound(kStaff, kBoxNumber, "FIRE in the back!!")) == 200);
  BOOST_REQUIRE_MESSAGE(t.waitForCreated(2), serve.err());
  const std::vector<FakeMessage> created = t.stopAndCollect(serve);
  BOOST_REQUIRE_EQUAL(created.size(), 2u);
  const auto to = [&](const std::string& number) {
    for (const FakeMessage& m : created) {
      if (m.to == number) return m.body;
    }
    return std::string("(none)");
  };
  BOOST_TEST(to(manager).rfind("Safety alert at ", 0) == 0u, to(manager));
  BOOST_TEST(contains(to(manager), std::string(kStaff) + " reported fire or smoke"), to(manager));
  BOOST_TEST(to(kStaff).rfind("If anyone is in danger, call 911 now. I've alerted Dana", 0) == 0u,
             to(kStaff));
  const StoredSms stored = readStore(t.site.stateDir);
  BOOST_TEST(stored.count("safety.packet") == 1u);
  BOOST_TEST(stored.count("safety.alert") == 1u);
}

BOOST_AUTO_TEST_CASE(twilioForgedWebhooksGet403AreAuditedAndStoreNothingWhileOutboundFlows) {
  TwilioSite t;
  enqueueBeforeServe(t.site.stateDir, "reply:42", kStaff, "Thanks, we're finding cover now.");
  ChildProcess serve({edgeBinary(), "serve", "--config", t.config()});
  t.connect(serve);

  const FormFields forged = {{"MessageSid", "SM0123456789abcdef0123456789abcdef"},
                             {"AccountSid", t.fake.options().accountSid},
                             {"From", kStaff},
                             {"To", kBoxNumber},
                             {"Body", "STOP"}};
  BOOST_TEST(replyStatus(t.fake.postWebhook(kPublicUrl + "/sms/inbound", forged,
                                            std::string("bm90IGEgc2lnbmF0dXJl"))) == 403);
  BOOST_TEST(replyStatus(t.fake.postWebhook(kPublicUrl + "/sms/inbound", forged, "")) == 403);

  // The message stored before serve started goes out, and its delivery report comes back.
  BOOST_REQUIRE_MESSAGE(t.waitForCreated(1), serve.err());
  const FakeMessage sent = t.created.at(0);
  BOOST_TEST(sent.to == kStaff);
  BOOST_TEST(sent.from == kBoxNumber);
  BOOST_TEST(sent.body == "Thanks, we're finding cover now.");
  BOOST_TEST(sent.statusCallback == kPublicUrl + "/sms/status?k=reply%3A42");
  BOOST_TEST(replyStatus(t.fake.deliver(sent.sid, "delivered")) == 204);

  serve.signal(SIGTERM);
  BOOST_REQUIRE_MESSAGE(serve.wait(kDeadline).value_or(-1) == 0, serve.err());
  const std::string& log = serve.err();
  BOOST_TEST(!contains(log, t.fake.options().authToken), "the auth token was logged");
  BOOST_TEST(contains(log, "msg=\"stopped sms\""));
  BOOST_TEST(log.find("msg=\"stopped sms\"") < log.find("msg=\"stopped engine\""));

  const StoredSms stored = readStore(t.site.stateDir);
  BOOST_TEST(stored.inboxRows == 0u);
  BOOST_TEST(stored.count("sms.in") == 0u);
  BOOST_TEST(stored.count("sms.webhook.refused") == 2u);
  for (const std::string& text : stored.auditTexts) {
    if (!contains(text, "\"kind\":\"sms.webhook.refused\"")) continue;
    BOOST_TEST(contains(text, "\"status\":403"), text);
    BOOST_TEST(contains(text, "\"authenticated\":false"), text);
    BOOST_TEST(!contains(text, kStaff), text);
  }
  BOOST_REQUIRE_EQUAL(stored.outbox.size(), 1u);
  BOOST_TEST(sms::mailbox::outboxStateName(stored.outbox[0].state) == "delivered");
  BOOST_TEST(stored.outbox[0].providerId == sent.sid);
  BOOST_TEST(t.fake.createRequests() == 1);
}

BOOST_AUTO_TEST_CASE(twilioUnreachableIsNotAStartFailureTheMessageWaitsAndIsRetried) {
  TwilioSite t;
  const std::string config = t.config();
  const std::string base = t.fake.baseUrl();
  t.fake.stop();  // nothing listens at the API base URL any more
  enqueueBeforeServe(t.site.stateDir, "reply:43", kStaff, "We got your message.");
  ChildProcess serve({edgeBinary(), "serve", "--config", config});
  BOOST_REQUIRE_MESSAGE(serve.waitForStderr("msg=\"ready\"", kDeadline), serve.err());
  serve.signal(SIGTERM);
  BOOST_REQUIRE_MESSAGE(serve.wait(kDeadline).value_or(-1) == 0, serve.err());
  BOOST_TEST(contains(serve.err(), "messages wait in the outbox and are retried"));
  const StoredSms stored = readStore(t.site.stateDir);
  BOOST_REQUIRE_EQUAL(stored.outbox.size(), 1u);
  // Still to be sent (or in doubt, if the stop caught it mid-send); never failed, never lost.
  const auto state = stored.outbox[0].state;
  BOOST_TEST(
      (state == sms::mailbox::OutboxState::kQueued || state == sms::mailbox::OutboxState::kSending),
      sms::mailbox::outboxStateName(state) << " " << base);
}

namespace {

// serve's config for the modem driver on the simulated modem's pty, with short timeouts.
std::string modemConfig(const SmsSite& site, const drivers::modem::testing::SimulatedModem& modem) {
  return site.config("sms.driver = modem\nsms.modem.device = " + modem.devicePath() +
                     "\nsms.modem.own-number = " + kBoxNumber +
                     "\nsms.modem.command-timeout-ms = 2000\nsms.modem.backoff-min-ms = 20\n"
                     "sms.modem.backoff-max-ms = 200\n");
}

}  // namespace

BOOST_AUTO_TEST_CASE(modemInboundSmsReachesTheStoreAndOutboundLeavesThroughTheModem) {
  SmsSite site;
  drivers::modem::testing::SimulatedModem modem;
  enqueueBeforeServe(site.stateDir, "reply:44", kStaff, "Got it, thanks Ana.");
  const std::string config = modemConfig(site, modem);
  ChildProcess serve({edgeBinary(), "serve", "--config", config});
  BOOST_REQUIRE_MESSAGE(serve.waitForStderr("msg=\"modem ready\"", kDeadline), serve.err());

  modem.injectDeliver(gsm7Deliver(kStaff, "Can't make my 6am, fever"));
  // The driver deletes a message from the SIM only after the store committed it.
  BOOST_REQUIRE_MESSAGE(modem.waitFor([&] { return modem.deletes() >= 1; }, kDeadline),
                        serve.err());
  // The message queued before start, and the conversation layer's answer to the inbound one (no
  // site is imported, so the sender is an unknown number: one polite reply).
  BOOST_REQUIRE_MESSAGE(modem.waitFor([&] { return modem.sent().size() >= 2; }, kDeadline),
                        serve.err());

  serve.signal(SIGTERM);
  BOOST_REQUIRE_MESSAGE(serve.wait(kDeadline).value_or(-1) == 0, serve.err());
  const StoredSms stored = readStore(site.stateDir);
  BOOST_REQUIRE_EQUAL(stored.inbound.size(), 1u);
  BOOST_TEST(stored.inbound[0].gateway == "modem");
  BOOST_TEST(stored.inbound[0].from == kStaff);
  BOOST_TEST(stored.inbound[0].to == kBoxNumber);
  BOOST_TEST(stored.inbound[0].body == "Can't make my 6am, fever");
  BOOST_TEST(stored.inbound[0].providerId.starts_with("gsm:"));
  BOOST_TEST(sms::mailbox::inboxStateName(stored.inbound[0].state) == "handled");
  BOOST_REQUIRE_EQUAL(stored.outbox.size(), 2u);
  BOOST_TEST((stored.outbox[0].id == "reply:44" || stored.outbox[1].id == "reply:44"));
  for (const sms::mailbox::OutboxRow& row : stored.outbox) {
    BOOST_TEST(sms::mailbox::outboxStateName(row.state) == "sent");
    BOOST_TEST(row.providerId.starts_with("mr:"));
  }
  BOOST_REQUIRE_EQUAL(modem.sent().size(), 2u);
  BOOST_TEST(modem.sent()[0].pdu->destination == kStaff);
  BOOST_TEST(modem.sent()[1].pdu->destination == kStaff);
}

// Through the modem (the issue "Call-outs and texts", defects 7 and 10): a long text of 12 parts,
// over 1,600 characters, is refused for its length and answered once; a part of it that the
// network delivers again after it was handled is recognised, deleted and dropped, never stored
// or answered as a message of its own.
BOOST_AUTO_TEST_CASE(modemTooLongTextIsAnsweredOnceAndARepeatedPartIsDropped) {
  SmsSite site;
  drivers::modem::testing::SimulatedModem modem;
  const std::string config = modemConfig(site, modem);
  ChildProcess serve({edgeBinary(), "serve", "--config", config});
  BOOST_REQUIRE_MESSAGE(serve.waitForStderr("msg=\"modem ready\"", kDeadline), serve.err());

  constexpr int kParts = 12;  // 12 x 150 = 1,800 characters
  const auto part = [&](int n) {
    const std::string text(150, static_cast<char>('a' + n));
    return gsm7DeliverPart(kStaff, text,
                           drivers::modem::ConcatInfo{77, kParts, static_cast<std::uint8_t>(n)});
  };
  for (int n = 1; n <= kParts; ++n) modem.injectDeliver(part(n));
  BOOST_REQUIRE_MESSAGE(modem.waitFor([&] { return modem.sent().size() >= 1; }, kDeadline),
                        serve.err());
  modem.injectDeliver(part(3));  // again, after the message was handled
  BOOST_REQUIRE_MESSAGE(
      serve.waitForStderr("a part of a text already handled came again from the network",
                          kDeadline),
      serve.err());
  BOOST_REQUIRE_MESSAGE(modem.waitFor([&] { return modem.storage().empty(); }, kDeadline),
                        serve.err());

  serve.signal(SIGTERM);
  BOOST_REQUIRE_MESSAGE(serve.wait(kDeadline).value_or(-1) == 0, serve.err());
  const StoredSms stored = readStore(site.stateDir);
  BOOST_REQUIRE_EQUAL(stored.inbound.size(), 1u);  // the repeated part made no message
  const sms::mailbox::InboxRow& row = stored.inbound[0];
  BOOST_TEST(row.body.empty());  // nothing of the text is kept
  BOOST_TEST(row.refusal.find("1800 characters, over the limit of 1600") != std::string::npos,
             row.refusal);
  BOOST_TEST(sms::mailbox::inboxStateName(row.state) == "handled");
  BOOST_TEST(stored.count("sms.in.refused") == 1u);
  BOOST_REQUIRE_EQUAL(modem.sent().size(), 1u);  // one answer (to a number not on the roster)
  BOOST_TEST(modem.sent()[0].pdu->destination == kStaff);
}

BOOST_AUTO_TEST_CASE(anAbsentModemIsNotAStartFailureAndIsSaidOnce) {
  SmsSite site;
  const std::string config = site.config(
      "sms.driver = modem\n"
      "sms.modem.device = " +
      site.tmp.file("ttyUSB-unplugged") +
      "\n"
      "sms.modem.backoff-min-ms = 10\n"
      "sms.modem.backoff-max-ms = 20\n");
  ChildProcess serve({edgeBinary(), "serve", "--config", config});
  BOOST_REQUIRE_MESSAGE(serve.waitForStderr("msg=\"ready\"", kDeadline), serve.err());
  BOOST_REQUIRE_MESSAGE(serve.waitForStderr("msg=\"modem not available", kDeadline), serve.err());
  serve.signal(SIGTERM);
  BOOST_REQUIRE_MESSAGE(serve.wait(kDeadline).value_or(-1) == 0, serve.err());
  const std::string& log = serve.err();
  BOOST_TEST(contains(lineWith(log, "msg=\"modem not available"), "ttyUSB-unplugged"), log);
  // Many reopen attempts at 10-20 ms, one warning for the outage.
  const std::string warning = "msg=\"modem not available";
  BOOST_TEST(log.find(warning) == log.rfind(warning), log);
}

BOOST_AUTO_TEST_CASE(theSimulatedGatewayStartsAndStopsCleanly) {
  SmsSite site;
  ChildProcess serve({edgeBinary(), "serve", "--config", site.config("sms.driver = simulated\n")});
  BOOST_REQUIRE_MESSAGE(serve.waitForStderr("msg=\"ready\"", kDeadline), serve.err());
  serve.signal(SIGTERM);
  BOOST_REQUIRE_MESSAGE(serve.wait(kDeadline).value_or(-1) == 0, serve.err());
  const std::string& log = serve.err();
  BOOST_TEST(contains(lineWith(log, "msg=\"SMS started\""), "driver=simulated"), log);
  std::size_t last = 0;
  for (const std::string step : {"msg=\"starting engine\"", "msg=\"starting sms\"", "msg=\"ready\"",
                                 "msg=\"stopped sms\"", "msg=\"stopped engine\""}) {
    const std::size_t at = log.find(step);
    BOOST_TEST_CONTEXT(step) {
      BOOST_REQUIRE(at != std::string::npos);
      BOOST_TEST(at >= last);
    }
    last = at;
  }
  BOOST_TEST(!contains(log, "level=error"), log);
}

BOOST_AUTO_TEST_CASE(eachMisconfigurationRefusesToStartWithOneLineNamingTheKey) {
  SmsSite site;
  const std::string token = "tok-0123456789abcdef-never-logged";
  const std::string openToken = site.tmp.write("open-token", token + "\n");
  BOOST_REQUIRE(::chmod(openToken.c_str(), 0644) == 0);
  const std::string privateToken = site.tmp.write("private-token", token + "\n");
  BOOST_REQUIRE(::chmod(privateToken.c_str(), 0600) == 0);
  const TakenPort taken;
  const std::string twilio =
      "sms.driver = twilio\nsms.twilio.account-sid = AC0123456789abcdef0123456789abcdef\n"
      "sms.twilio.from = +15550100000\n";
  struct Case {
    std::string config;
    std::string expected;
  };
  const std::vector<Case> cases = {
      {"sms.driver = pigeon\n", "bad value 'pigeon' for sms.driver"},
      {"sms.driver = twilio\n", "sms.twilio.account-sid must be set"},
      {twilio + "sms.twilio.auth-token-file = " + openToken + "\n", "run chmod 600 " + openToken},
      {twilio + "sms.twilio.auth-token-file = " + site.tmp.file("absent") + "\n",
       "auth token file " + site.tmp.file("absent") + " does not exist"},
      {twilio + "sms.twilio.auth-token-file = " + privateToken + "\n",
       "sms.twilio.public-url must be set"},
      {twilio + "sms.twilio.auth-token-file = " + privateToken +
           "\nsms.twilio.public-url = http://shop.example.net\n",
       "bad value 'http://shop.example.net' for sms.twilio.public-url"},
      {twilio + "sms.twilio.auth-token-file = " + privateToken +
           "\nsms.twilio.public-url = https://shop.example.net\nsms.twilio.listen-port = " +
           std::to_string(taken.port()) + "\n",
       "sms.twilio.listen-port"},
      {"sms.driver = modem\n", "sms.modem.device must be set"},
      {"sms.driver = modem\nsms.modem.device = /dev/ttyUSB0\nsms.modem.baud = 1234\n",
       "bad value '1234' for sms.modem.baud"},
      {"sms.driver = modem\nsms.modem.device = /dev/ttyUSB0\nsms.modem.sim-pin-file = " +
           site.tmp.file("absent-pin") + "\n",
       "sms.modem.sim-pin-file " + site.tmp.file("absent-pin") + " cannot be read"},
      {"sms.driver = simulated\nsms.retry.initial-delay-ms = 5000\n"
       "sms.retry.max-delay-ms = 1000\n",
       "sms.retry.max-delay-ms is below sms.retry.initial-delay-ms"},
      {"sms.driver = simulated\nsms.retry.max-attempts = 0\n",
       "bad value '0' for sms.retry.max-attempts"},
  };
  for (const Case& c : cases) {
    BOOST_TEST_CONTEXT(c.expected) {
      auto r = runEdge({"serve", "--config", site.config(c.config)});
      BOOST_TEST(r.status == kExitConfig, r.err);
      const std::string line = lineWith(r.err, "refusing to start");
      BOOST_TEST(contains(line, "level=fatal"), r.err);
      BOOST_TEST(contains(line, c.expected), r.err);
      BOOST_TEST(fatalLines(r.err) == 1u, r.err);
      BOOST_TEST(!contains(r.err, token), "a token was logged");
    }
  }
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace atoms::test
