#include <boost/test/unit_test.hpp>
#include <thread>

#include "drivers/sms/twilio/twilio_gateway.h"
#include "drivers/sms/twilio/twilio_webhook.h"
#include "tests/drivers/twilio/twilio_test_support.h"
#include "tests/support/fake_twilio.h"

namespace atoms::drivers::twilio {
namespace {

using namespace testing;

// A fake Twilio and a started gateway pointed at it, webhooks on a free loopback port.
struct Rig {
  explicit Rig(std::function<void(TwilioConfig&)> tweak = {}, bool autoDeliver = false) {
    FakeTwilioOptions o = fakeOptions();
    o.autoDeliver = autoDeliver;
    fake = std::make_unique<FakeTwilio>(o);
    BOOST_TEST_REQUIRE(fake->start().ok());
    TwilioConfig config = gatewayConfig(fake->baseUrl());
    if (tweak) tweak(config);
    publicUrl = config.publicUrl;
    TwilioGatewayOptions options;
    options.onRefused = refusals.hook();
    gateway = std::make_unique<TwilioGateway>(std::move(config), options);
    const Status started = gateway->start(sink);
    BOOST_TEST_REQUIRE(started.ok(), started.message());
    fake->setInboundUrl(publicUrl + std::string(kInboundPath));
    fake->routeWebhooks(publicUrl, "http://127.0.0.1:" + std::to_string(gateway->webhookPort()));
  }
  ~Rig() {
    // Each Poco server takes up to a quarter second to notice it is stopping; stop both at once.
    std::thread stopFake([this] { fake->stop(); });
    gateway->stop();
    stopFake.join();
  }

  SendResult send(const std::string& key, const std::string& to, const std::string& body) {
    return gateway->send(OutboundSms{key, to, body});
  }

  RecordingSink sink;
  RefusalLog refusals;
  std::unique_ptr<FakeTwilio> fake;
  std::unique_ptr<TwilioGateway> gateway;
  std::string publicUrl;
};

const std::string kAlex = "+15550100101";

void requireNoSecret(const std::string& text) {
  BOOST_TEST(text.find(kTestToken) == std::string::npos, text);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(gateway)

BOOST_AUTO_TEST_CASE(sendsAMessageThatTwilioAccepts) {
  Rig rig;
  const SendResult r = rig.send("outbox-1", kAlex, "Can you cover 5-9pm today? Reply 4821.");
  BOOST_TEST_REQUIRE(r.ok(), r.error().message);
  const std::vector<FakeMessage> sent = rig.fake->messages();
  BOOST_TEST_REQUIRE(sent.size() == 1u);
  BOOST_TEST(r.accepted().providerId == sent[0].sid);
  BOOST_TEST(r.accepted().providerId.starts_with("SM"));
  BOOST_TEST(r.accepted().segments == 1);
  BOOST_TEST(sent[0].to == kAlex);
  BOOST_TEST(sent[0].from == kSiteNumber);
  BOOST_TEST(sent[0].body == "Can you cover 5-9pm today? Reply 4821.");
  BOOST_TEST(sent[0].statusCallback == rig.publicUrl + "/sms/status?k=outbox-1");
  BOOST_TEST(sent[0].statusCallback == rig.gateway->statusCallbackUrl("outbox-1"));
}

BOOST_AUTO_TEST_CASE(reportsTheSegmentCountTwilioGives) {
  Rig rig;
  std::string longText;
  for (int i = 0; i < 20; ++i) longText += "Shift swap request ";
  const SendResult r = rig.send("k", kAlex, longText);
  BOOST_TEST_REQUIRE(r.ok(), r.error().message);
  BOOST_TEST(r.accepted().segments == rig.fake->messages()[0].numSegments);
  BOOST_TEST(r.accepted().segments == 3);
}

BOOST_AUTO_TEST_CASE(sendsThroughAMessagingService) {
  Rig rig([](TwilioConfig& c) {
    c.from.clear();
    c.messagingServiceSid = "MG0123456789abcdef0123456789abcdef";
  });
  const SendResult r = rig.send("k", kAlex, "hello");
  BOOST_TEST_REQUIRE(r.ok(), r.error().message);
  const FakeMessage m = rig.fake->messages().at(0);
  BOOST_TEST(m.from.empty());
  BOOST_TEST(m.messagingServiceSid == "MG0123456789abcdef0123456789abcdef");
}

BOOST_AUTO_TEST_CASE(classifiesProviderRefusals) {
  Rig rig;
  using Cause = SendErrorCause;
  struct Case {
    FakeFailure failure;
    bool retryable;
    std::string mentions;
    Cause cause;
    bool maybeAccepted = false;
  };
  const std::vector<Case> cases{
      {FakeFailure::tooManyRequests(), true, "HTTP 429, Twilio error 20429", Cause::kTransport},
      {FakeFailure::serverError(), true, "HTTP 500, Twilio error 20500", Cause::kTransport},
      {{503, 20503, "Service Unavailable"}, true, "HTTP 503", Cause::kTransport},
      {{504, 20504, "Gateway Timeout"}, true, "HTTP 504", Cause::kTransport, true},
      {FakeFailure::invalidTo(), false, "HTTP 400, Twilio error 21211", Cause::kRecipient},
      {{400, 21610, "Attempt to send to unsubscribed recipient"},
       false,
       "21610",
       Cause::kRecipient},
      {{400, 21614, "'To' number is not a valid mobile number"}, false, "21614", Cause::kRecipient},
      {{400, 21617, "The concatenated message body exceeds the 1600 character limit"},
       false,
       "21617",
       Cause::kContent},
      {{400, 21408, "Permission to send an SMS has not been enabled for the region"},
       false,
       "21408",
       Cause::kAccount},
      {{401, 20003, "Authenticate"}, true, "HTTP 401", Cause::kAccount},
      {{400, 21611, "This 'From' number has exceeded the maximum number of queued messages"},
       true,
       "21611",
       Cause::kTransport},
  };
  for (const Case& c : cases) {
    rig.fake->failNext(c.failure);
    const SendResult r = rig.send("k", kAlex, "hello");
    BOOST_TEST_REQUIRE(!r.ok());
    BOOST_TEST(r.error().retryable == c.retryable, c.mentions);
    BOOST_TEST(r.error().maybeAccepted == c.maybeAccepted, c.mentions);
    BOOST_TEST(sendErrorCauseName(r.error().cause) == sendErrorCauseName(c.cause), c.mentions);
    BOOST_TEST(r.error().message.find(c.mentions) != std::string::npos, r.error().message);
    requireNoSecret(r.error().message);
  }
  BOOST_TEST(rig.fake->messages().empty());
  BOOST_TEST(rig.fake->createRequests() == static_cast<int>(cases.size()));
}

BOOST_AUTO_TEST_CASE(doesNotRetryWhatTwilioRefusesForTheMessageItself) {
  Rig rig;
  const SendResult badNumber = rig.send("k", "+1555", "hello");
  BOOST_TEST_REQUIRE(!badNumber.ok());
  BOOST_TEST(!badNumber.error().retryable);
  BOOST_TEST(badNumber.error().message ==
             "Twilio refused the message (HTTP 400, Twilio error 21211: The 'To' number +1555 is "
             "not a valid phone number.)");
  rig.fake->unsubscribe(kAlex);
  const SendResult stopped = rig.send("k", kAlex, "hello");
  BOOST_TEST_REQUIRE(!stopped.ok());
  BOOST_TEST(!stopped.error().retryable);
  BOOST_TEST(stopped.error().message.find("21610") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(keepsWrongCredentialsRetryableAndOutOfTheMessage) {
  Rig rig([](TwilioConfig& c) { c.authToken = SecretBytes(asBytes(std::string("wrong-token"))); });
  const SendResult r = rig.send("k", kAlex, "hello");
  BOOST_TEST_REQUIRE(!r.ok());
  BOOST_TEST(r.error().retryable);
  BOOST_TEST(r.error().message.find("HTTP 401, Twilio error 20003") != std::string::npos);
  BOOST_TEST(r.error().message.find("wrong-token") == std::string::npos);
}

BOOST_AUTO_TEST_CASE(refusesEmptyOrUnreadableMessagesWithoutCallingTwilio) {
  Rig rig;
  BOOST_TEST(!rig.send("k", "", "hello").error().retryable);
  BOOST_TEST(!rig.send("k", kAlex, "").error().retryable);
  BOOST_TEST(!rig.send("k", kAlex, "bad \xFF").error().retryable);
  BOOST_TEST(rig.fake->createRequests() == 0);
}

BOOST_AUTO_TEST_CASE(reportsAnUnreachableProviderAsRetryable) {
  // Port 1 (tcpmux) has no listener on a normal machine: the connection is refused.
  Rig rig([](TwilioConfig& c) { c.apiBaseUrl = "http://127.0.0.1:1"; });
  const SendResult r = rig.send("k", kAlex, "hello");
  BOOST_TEST_REQUIRE(!r.ok());
  BOOST_TEST(r.error().retryable);
  BOOST_TEST(r.error().message.starts_with("cannot reach Twilio at http://127.0.0.1:1: "),
             r.error().message);
  BOOST_TEST(r.error().message.find("may have been accepted") == std::string::npos);
  BOOST_TEST(!r.error().maybeAccepted);
}

BOOST_AUTO_TEST_CASE(saysATimedOutSendMayHaveBeenAccepted) {
  Rig rig([](TwilioConfig& c) { c.requestTimeout = std::chrono::milliseconds(300); });
  rig.fake->holdRequests(true);
  const SendResult r = rig.send("k", kAlex, "hello");
  rig.fake->holdRequests(false);
  BOOST_TEST_REQUIRE(!r.ok());
  BOOST_TEST(r.error().retryable);
  BOOST_TEST(r.error().maybeAccepted);
  BOOST_TEST(r.error().message.find("may have been accepted") != std::string::npos,
             r.error().message);
}

BOOST_AUTO_TEST_CASE(handsStatusCallbacksToTheSinkWithTheKey) {
  Rig rig;
  const SendResult r = rig.send("outbox-7", kAlex, "hello");
  BOOST_TEST_REQUIRE(r.ok(), r.error().message);
  const std::string sid = r.accepted().providerId;
  Result<WebhookReply> sent = rig.fake->deliver(sid, "sent");
  BOOST_TEST_REQUIRE(sent.ok(), sent.message());
  BOOST_TEST(sent->status == 204);
  Result<WebhookReply> failed = rig.fake->deliver(sid, "undelivered", "30003");
  BOOST_TEST_REQUIRE(failed.ok(), failed.message());
  BOOST_TEST(failed->status == 204);
  const std::vector<DeliveryReport> reports = rig.sink.reports();
  BOOST_TEST_REQUIRE(reports.size() == 2u);
  BOOST_TEST(reports[0].providerId == sid);
  BOOST_TEST((reports[0].state == DeliveryState::kSent));
  BOOST_TEST(reports[0].idempotencyKey == "outbox-7");
  BOOST_TEST(reports[0].errorCode.empty());
  BOOST_TEST((reports[1].state == DeliveryState::kUndelivered));
  BOOST_TEST(reports[1].errorCode == "30003");
  BOOST_TEST(rig.refusals.events().empty());
}

BOOST_AUTO_TEST_CASE(followsAMessageToDeliveredWhenTheProviderCallsBackOnItsOwn) {
  Rig rig({}, /*autoDeliver=*/true);
  const SendResult r = rig.send("outbox-8", kAlex, "hello");
  BOOST_TEST_REQUIRE(r.ok(), r.error().message);
  BOOST_TEST_REQUIRE(rig.sink.waitForReports(2));
  const std::vector<DeliveryReport> reports = rig.sink.reports();
  BOOST_TEST((reports.back().state == DeliveryState::kDelivered));
  BOOST_TEST(reports.back().providerId == r.accepted().providerId);
}

BOOST_AUTO_TEST_CASE(storesAnInboundMessageWithUnknownFieldsAndAnswersEmptyTwiml) {
  Rig rig;
  std::string sid;
  Result<WebhookReply> reply =
      rig.fake->sendInbound(kAlex, kSiteNumber, "Running 10 min late 🚌",
                            {{"AddOns", "{\"status\":\"successful\"}"}}, "", &sid);
  BOOST_TEST_REQUIRE(reply.ok(), reply.message());
  BOOST_TEST(reply->status == 200);
  BOOST_TEST(reply->body == std::string(kEmptyTwiml));
  BOOST_TEST(reply->contentType.starts_with("text/xml"));
  const std::vector<InboundSms> got = rig.sink.inbound();
  BOOST_TEST_REQUIRE(got.size() == 1u);
  BOOST_TEST(got[0].providerId == sid);
  BOOST_TEST(got[0].from == kAlex);
  BOOST_TEST(got[0].to == kSiteNumber);
  BOOST_TEST(got[0].body == "Running 10 min late 🚌");
}

BOOST_AUTO_TEST_CASE(refusesBadOrMissingSignaturesWith403AndStoresNothing) {
  Rig rig;
  const FormFields fields{{"MessageSid", "SMdeadbeef"},
                          {"From", kAlex},
                          {"To", kSiteNumber},
                          {"Body", "fire everyone"},
                          {"AccountSid", kTestAccount}};
  const std::string url = rig.publicUrl + "/sms/inbound";
  Result<WebhookReply> forged = rig.fake->postWebhook(url, fields, "bm90IGEgc2lnbmF0dXJl");
  Result<WebhookReply> unsigned_ = rig.fake->postWebhook(url, fields, "");
  BOOST_TEST_REQUIRE(forged.ok(), forged.message());
  BOOST_TEST_REQUIRE(unsigned_.ok(), unsigned_.message());
  BOOST_TEST(forged->status == 403);
  BOOST_TEST(unsigned_->status == 403);
  BOOST_TEST(rig.sink.calls() == 0);
  const std::vector<RefusedWebhook> events = rig.refusals.events();
  BOOST_TEST_REQUIRE(events.size() == 2u);
  BOOST_TEST(events[0].httpStatus == 403);
  BOOST_TEST(events[0].reason == "invalid X-Twilio-Signature");
  BOOST_TEST(events[0].path == "/sms/inbound");
  BOOST_TEST(events[0].peer.starts_with("127.0.0.1:"), events[0].peer);
  BOOST_TEST(!events[0].authenticated);
  BOOST_TEST(events[0].from.empty());
  BOOST_TEST(events[1].reason == "missing X-Twilio-Signature");
}

BOOST_AUTO_TEST_CASE(answers503WhenTheSinkCannotStoreAndTakesTheRetry) {
  Rig rig;
  rig.sink.failNext(1);
  std::string sid;
  Result<WebhookReply> first =
      rig.fake->sendInbound(kAlex, kSiteNumber, "sick today", {}, "", &sid);
  BOOST_TEST_REQUIRE(first.ok(), first.message());
  BOOST_TEST(first->status == 503);
  BOOST_TEST(rig.sink.inbound().empty());
  const std::vector<RefusedWebhook> events = rig.refusals.events();
  BOOST_TEST_REQUIRE(events.size() == 1u);
  BOOST_TEST(events[0].reason == "not stored: disk full (test)");
  BOOST_TEST(events[0].authenticated);
  BOOST_TEST(events[0].providerId == sid);
  Result<WebhookReply> retry = rig.fake->sendInbound(kAlex, kSiteNumber, "sick today", {}, sid);
  BOOST_TEST_REQUIRE(retry.ok(), retry.message());
  BOOST_TEST(retry->status == 200);
  BOOST_TEST(rig.sink.inbound().size() == 1u);
}

BOOST_AUTO_TEST_CASE(passesAReplayedMessageSidToTheSinkWhichDeduplicates) {
  Rig rig;
  const std::string sid = rig.fake->newSid("SM");
  for (int i = 0; i < 2; ++i) {
    Result<WebhookReply> reply = rig.fake->sendInbound(kAlex, kSiteNumber, "yes 4821", {}, sid);
    BOOST_TEST_REQUIRE(reply.ok(), reply.message());
    BOOST_TEST(reply->status == 200);
  }
  const std::vector<InboundSms> got = rig.sink.inbound();
  BOOST_TEST_REQUIRE(got.size() == 2u);
  BOOST_TEST(got[0].providerId == sid);
  BOOST_TEST(got[1].providerId == sid);
}

BOOST_AUTO_TEST_CASE(handsAnOverlongOrBrokenTextToTheSinkAndAnswersWhatItSays) {
  // The sink (the inbox) refuses such text for good and returns ok; the driver then acknowledges.
  Rig rig;
  const std::vector<std::string> texts{std::string(1601, 'x'), std::string("nul\0here", 8),
                                       std::string("bad \xFF utf8")};
  for (const std::string& text : texts) {
    Result<WebhookReply> reply = rig.fake->sendInbound(kAlex, kSiteNumber, text);
    BOOST_TEST_REQUIRE(reply.ok(), reply.message());
    BOOST_TEST(reply->status == 200);
  }
  const std::vector<InboundSms> got = rig.sink.inbound();
  BOOST_TEST_REQUIRE(got.size() == texts.size());
  for (std::size_t i = 0; i < texts.size(); ++i) BOOST_TEST(got[i].body == texts[i]);
  BOOST_TEST(rig.refusals.events().empty());
}

BOOST_AUTO_TEST_CASE(refusesAMessageWithoutASidAndTellsTheAuditorWhoSentIt) {
  Rig rig;
  Result<WebhookReply> reply = rig.fake->postWebhook(
      rig.publicUrl + "/sms/inbound",
      {{"From", kAlex}, {"To", kSiteNumber}, {"Body", "hi"}, {"AccountSid", kTestAccount}});
  BOOST_TEST_REQUIRE(reply.ok(), reply.message());
  BOOST_TEST(reply->status == 400);
  BOOST_TEST(rig.sink.calls() == 0);
  const std::vector<RefusedWebhook> events = rig.refusals.events();
  BOOST_TEST_REQUIRE(events.size() == 1u);
  BOOST_TEST(events[0].authenticated);
  BOOST_TEST(events[0].reason == "missing field MessageSid");
}

BOOST_AUTO_TEST_CASE(answers413ToABodyOverTheLimitWithoutReadingIt) {
  Rig rig([](TwilioConfig& c) { c.maxWebhookBytes = 4096; });
  Result<WebhookReply> reply =
      rig.fake->postWebhook(rig.publicUrl + "/sms/inbound", {{"Body", std::string(5000, 'a')}});
  BOOST_TEST_REQUIRE(reply.ok(), reply.message());
  BOOST_TEST(reply->status == 413);
  BOOST_TEST(rig.sink.calls() == 0);
  BOOST_TEST(rig.refusals.events().at(0).httpStatus == 413);
}

BOOST_AUTO_TEST_CASE(refusesToShareItsPortWithAnotherServer) {
  Rig rig;
  TwilioGateway second(gatewayConfig(rig.fake->baseUrl(), rig.gateway->webhookPort()));
  RecordingSink otherSink;
  const Status started = second.start(otherSink);
  BOOST_TEST_REQUIRE(!started.ok());
  BOOST_TEST(
      started.message().starts_with("atoms-edge twilio webhooks cannot listen on 127.0.0.1:"),
      started.message());
}

BOOST_AUTO_TEST_CASE(refusesToStartWithAnInvalidConfiguration) {
  TwilioConfig config = gatewayConfig("http://api.twilio.com");
  TwilioGateway gateway(std::move(config));
  RecordingSink sink;
  const Status started = gateway.start(sink);
  BOOST_TEST_REQUIRE(!started.ok());
  BOOST_TEST(started.message().starts_with("sms.twilio.api-base-url: expected"));
  const SendResult sent = gateway.send(OutboundSms{"k", kAlex, "hello"});
  BOOST_TEST_REQUIRE(!sent.ok());
  BOOST_TEST(sent.error().message == started.message());
}

BOOST_AUTO_TEST_CASE(makesNoSinkCallAfterStop) {
  Rig rig;
  rig.gateway->stop();
  Result<WebhookReply> reply = rig.fake->sendInbound(kAlex, kSiteNumber, "hello?");
  BOOST_TEST(!reply.ok());
  BOOST_TEST(rig.sink.calls() == 0);
}

BOOST_AUTO_TEST_CASE(reconcileFindsAMessageStillQueuedAtTwilio) {
  Rig rig;
  const SmsClock::time_point since = SmsClock::now();
  const OutboundSms message{"outbox-9", kAlex, "Shift 7-3 tomorrow is yours. Thanks!"};
  const SendResult r = rig.gateway->send(message);
  BOOST_TEST_REQUIRE(r.ok(), r.error().message);
  const ReconcileResult queued = rig.gateway->reconcile(message, since);
  BOOST_TEST((queued.kind == ReconcileResult::Kind::kAccepted));
  BOOST_TEST(queued.providerId == r.accepted().providerId);
  BOOST_TEST_REQUIRE(rig.fake->deliver(r.accepted().providerId, "delivered").ok());
  const ReconcileResult sent = rig.gateway->reconcile(message, since);
  BOOST_TEST((sent.kind == ReconcileResult::Kind::kAccepted));
  BOOST_TEST(sent.providerId == r.accepted().providerId);
}

BOOST_AUTO_TEST_CASE(reconcileSaysNotFoundWhenTwilioNeverGotIt) {
  Rig rig;
  const SmsClock::time_point since = SmsClock::now();
  BOOST_TEST_REQUIRE(rig.send("other", kAlex, "A different text").ok());
  BOOST_TEST_REQUIRE(rig.send("other2", "+15550100102", "Shift 7-3 tomorrow is yours.").ok());
  const ReconcileResult r =
      rig.gateway->reconcile(OutboundSms{"k", kAlex, "Shift 7-3 tomorrow is yours."}, since);
  BOOST_TEST((r.kind == ReconcileResult::Kind::kNotFound));
  BOOST_TEST(r.providerId.empty());
}

BOOST_AUTO_TEST_CASE(reconcileIgnoresTheSameTextSentBeforeTheWindow) {
  Rig rig;
  const SmsClock::time_point since = SmsClock::now();
  FakeMessage old;
  old.to = kAlex;
  old.from = kSiteNumber;
  old.body = "Reminder: shift at 9";
  old.status = "delivered";
  old.dateCreated = since - std::chrono::hours(3);
  old.dateSent = old.dateCreated;
  rig.fake->addMessage(old);
  const ReconcileResult r =
      rig.gateway->reconcile(OutboundSms{"k", kAlex, "Reminder: shift at 9"}, since);
  BOOST_TEST((r.kind == ReconcileResult::Kind::kNotFound));
}

BOOST_AUTO_TEST_CASE(reconcileCannotTellWhenTheSameTextWentTwiceInTheWindow) {
  Rig rig;
  const SmsClock::time_point since = SmsClock::now();
  BOOST_TEST_REQUIRE(rig.send("a", kAlex, "Reminder: shift at 9").ok());
  BOOST_TEST_REQUIRE(rig.send("b", kAlex, "Reminder: shift at 9").ok());
  const ReconcileResult r =
      rig.gateway->reconcile(OutboundSms{"b", kAlex, "Reminder: shift at 9"}, since);
  BOOST_TEST((r.kind == ReconcileResult::Kind::kUnknown));
}

BOOST_AUTO_TEST_CASE(reconcileReadsEveryPageOfALongHistory) {
  Rig rig;
  const SmsClock::time_point since = SmsClock::now();
  const OutboundSms message{"k", kAlex, "The one we look for"};
  const SendResult r = rig.gateway->send(message);
  BOOST_TEST_REQUIRE(r.ok(), r.error().message);
  BOOST_TEST_REQUIRE(rig.fake->deliver(r.accepted().providerId, "delivered").ok());
  for (int i = 0; i < 250; ++i) {
    FakeMessage m;
    m.to = kAlex;
    m.from = kSiteNumber;
    m.body = "filler " + std::to_string(i);
    m.status = "delivered";
    m.dateCreated = since + std::chrono::seconds(5);
    m.dateSent = m.dateCreated;
    rig.fake->addMessage(m);
  }
  const int listsBefore = rig.fake->listRequests();
  const ReconcileResult found = rig.gateway->reconcile(message, since);
  BOOST_TEST((found.kind == ReconcileResult::Kind::kAccepted));
  BOOST_TEST(found.providerId == r.accepted().providerId);
  BOOST_TEST(rig.fake->listRequests() - listsBefore >= 3);
}

BOOST_AUTO_TEST_CASE(reconcileIsUnavailableWhenTwilioCannotBeAsked) {
  Rig rig;
  const SmsClock::time_point since = SmsClock::now();
  rig.fake->stop();
  const ReconcileResult r = rig.gateway->reconcile(OutboundSms{"k", kAlex, "hello"}, since);
  BOOST_TEST((r.kind == ReconcileResult::Kind::kUnavailable));
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace atoms::drivers::twilio
