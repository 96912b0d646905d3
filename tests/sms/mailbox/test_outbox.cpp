#include <boost/test/unit_test.hpp>

#include "drivers/sms/encoding/segmentation.h"
#include "tests/sms/mailbox/mailbox_fixture.h"

namespace atoms::sms::mailbox {
namespace {

using drivers::DeliveryReport;
using drivers::DeliveryState;
using testing::MailboxFixture;
using namespace std::chrono_literals;

std::int64_t outboxRows(MailboxFixture& f) {
  auto rows = f.outbox->list(OutboxQuery{std::nullopt, false, 1000});
  BOOST_TEST_REQUIRE(rows.ok(), rows.message());
  return static_cast<std::int64_t>(rows->size());
}

BOOST_AUTO_TEST_SUITE(outbox)

BOOST_AUTO_TEST_CASE(enqueueCommitsAQueuedRowAndAuditsItWithoutTheText) {
  MailboxFixture f;
  const std::string body =
      "Hi Ana, can you cover the 5-9pm line shift today? Reply 4821 to take it.";
  auto id = f.outbox->enqueue(MailboxFixture::request("offer-1", body));
  BOOST_TEST_REQUIRE(id.ok(), id.message());
  BOOST_TEST(*id == "offer-1");
  const OutboxRow row = f.row("offer-1");
  BOOST_TEST(row.state == OutboxState::kQueued);
  BOOST_TEST(row.attempts == 0);
  BOOST_TEST(row.body == body);
  BOOST_TEST(row.segments == *drivers::countSegments(body));
  BOOST_TEST((row.nextAttemptAt == f.clock.now()));

  const auto out = f.entries("sms.out");
  BOOST_TEST_REQUIRE(out.size() == 1u);
  BOOST_TEST(out[0].body.find("id")->asString() == "offer-1");
  BOOST_TEST(out[0].body.find("to")->asString() == "***0001");
  BOOST_TEST(out[0].body.find("segments")->asInt() == row.segments);
  BOOST_TEST(out[0].actor == "engine");
  const std::string log = f.allEntryTexts();
  BOOST_TEST(log.find("cover the 5-9pm") == std::string::npos);
  BOOST_TEST(log.find("5551230001") == std::string::npos);
}

BOOST_AUTO_TEST_CASE(enqueueWithoutIdMakesAFreshOne) {
  MailboxFixture f;
  auto a = f.outbox->enqueue(MailboxFixture::request(""));
  auto b = f.outbox->enqueue(MailboxFixture::request(""));
  BOOST_TEST_REQUIRE((a.ok() && b.ok()));
  BOOST_TEST(*a != *b);
  BOOST_TEST(outboxRows(f) == 2);
}

BOOST_AUTO_TEST_CASE(enqueueRefusesBadInputNamingTheFieldAndAuditsTheRefusal) {
  struct Case {
    std::string name;
    OutboundRequest request;
    std::string error;
  };
  auto with = [](auto change) {
    OutboundRequest r = MailboxFixture::request("bad-1");
    change(r);
    return r;
  };
  MailboxFixture f;
  const Case cases[] = {
      {"number", with([](auto& r) { r.to = "555-1234"; }),
       "outbound SMS bad-1: recipient ***1234 is not an E.164 number (like +15551234567)"},
      {"empty", with([](auto& r) { r.body = ""; }), "outbound SMS bad-1: body is empty"},
      {"long", with([](auto& r) { r.body = std::string(1601, 'a'); }),
       "outbound SMS bad-1: body is 1601 characters, over the limit of 1600"},
      {"utf8", with([](auto& r) { r.body = "caf\xC3"; }),
       "outbound SMS bad-1: body is not valid UTF-8 (at byte 3)"},
      {"nul", with([](auto& r) { r.body = std::string("a\0b", 3); }),
       "outbound SMS bad-1: body contains a NUL byte (at byte 1)"},
      {"id", with([](auto& r) { r.id = "has space"; }),
       "outbound SMS: id must be 1 to 128 printable ASCII characters without spaces"},
      {"expired", with([&](auto& r) { r.expiresAt = f.clock.now(); }),
       "outbound SMS bad-1: expires at 2026-03-02T12:00:00.000Z, before it could be sent"},
  };
  std::size_t refused = 0;
  for (const Case& c : cases) {
    BOOST_TEST_CONTEXT(c.name) {
      auto id = f.outbox->enqueue(c.request);
      BOOST_TEST(!id.ok());
      BOOST_TEST(id.message() == c.error);
      ++refused;
      const auto entries = f.entries("sms.out.refused");
      BOOST_TEST_REQUIRE(entries.size() == refused);
      BOOST_TEST(entries.back().body.find("reason")->asString() == c.error);
    }
  }
  BOOST_TEST(outboxRows(f) == 0);
  BOOST_TEST(f.entries("sms.out").empty());
}

BOOST_AUTO_TEST_CASE(acceptsEmojiAndMixedScriptsAndCountsTheirSegments) {
  MailboxFixture f;
  const std::string body =
      "Merci \xF0\x9F\x99\x8F \xE2\x80\x94 \xE8\xB0\xA2\xE8\xB0\xA2 "
      "\xD8\xB4\xD9\x83\xD8\xB1\xD8\xA7\xD9\x8B " +
      std::string(80, 'x');
  auto id = f.outbox->enqueue(MailboxFixture::request("emoji", body));
  BOOST_TEST_REQUIRE(id.ok(), id.message());
  const OutboxRow row = f.row("emoji");
  BOOST_TEST(row.body == body);
  BOOST_TEST(row.segments == *drivers::countSegments(body));
  BOOST_TEST(row.segments == 2);  // UCS-2: over 70 units
}

BOOST_AUTO_TEST_CASE(enqueueingTheSameIdAgainIsOneMessage) {
  MailboxFixture f;
  BOOST_TEST(f.outbox->enqueue(MailboxFixture::request("reply:inbox-7")).ok());
  auto again = f.outbox->enqueue(MailboxFixture::request("reply:inbox-7"));
  BOOST_TEST_REQUIRE(again.ok(), again.message());
  BOOST_TEST(*again == "reply:inbox-7");
  BOOST_TEST(outboxRows(f) == 1);
  BOOST_TEST(f.entries("sms.out").size() == 1u);

  auto different = f.outbox->enqueue(MailboxFixture::request("reply:inbox-7", "other text"));
  BOOST_TEST(different.message() ==
             "outbound SMS reply:inbox-7: the id is already used for a different message");
}

BOOST_AUTO_TEST_CASE(enqueueInCommitsOrRollsBackWithTheCallersBatch) {
  MailboxFixture f;
  Status dropped = f.runner->run([&](SiteStore& store) -> Status {
    auto batch = store.log().begin();
    if (!batch) return batch.error();
    auto id = f.outbox->enqueueIn(store.db(), *batch, MailboxFixture::request("in-batch"));
    if (!id) return id.error();
    return Status::success();  // the caller gives up: its batch rolls back
  });
  BOOST_TEST_REQUIRE(dropped.ok(), dropped.message());
  BOOST_TEST(outboxRows(f) == 0);
  BOOST_TEST(f.entries("sms.out").empty());

  Status committed = f.runner->run([&](SiteStore& store) -> Status {
    auto batch = store.log().begin();
    if (!batch) return batch.error();
    if (auto id = f.outbox->enqueueIn(store.db(), *batch, MailboxFixture::request("in-batch"));
        !id) {
      return id.error();
    }
    auto note = batch->commit();
    if (!note) return note.error();
    return Status::success();
  });
  BOOST_TEST_REQUIRE(committed.ok(), committed.message());
  BOOST_TEST(f.row("in-batch").state == OutboxState::kQueued);
  BOOST_TEST(f.entries("sms.out").size() == 1u);
}

BOOST_AUTO_TEST_CASE(aSendRecordsTheProvidersIdAndTheGateway) {
  MailboxFixture f;
  BOOST_TEST(f.outbox->enqueue(MailboxFixture::request("m1")).ok());
  auto d = f.dispatcher();
  BOOST_TEST_REQUIRE(d->runPass().ok());
  const auto sent = f.gateway.transmissions();
  BOOST_TEST_REQUIRE(sent.size() == 1u);
  BOOST_TEST(sent[0].message.idempotencyKey == "m1");
  BOOST_TEST(sent[0].message.to == "+15551230001");
  const OutboxRow row = f.row("m1");
  BOOST_TEST(row.state == OutboxState::kSent);
  BOOST_TEST(row.providerId == sent[0].providerId);
  BOOST_TEST(row.gateway == "simulated");
  BOOST_TEST(row.attempts == 1);
  BOOST_TEST(row.sentAt.has_value());
  // Nothing more to do: another pass sends nothing.
  BOOST_TEST_REQUIRE(d->runPass().ok());
  BOOST_TEST(f.gateway.sendCalls() == 1u);
}

BOOST_AUTO_TEST_CASE(reportsMoveAMessageForwardOnly) {
  MailboxFixture f;
  BOOST_TEST(f.outbox->enqueue(MailboxFixture::request("m1")).ok());
  BOOST_TEST_REQUIRE(f.dispatcher()->runPass().ok());
  const std::string sid = f.row("m1").providerId;

  BOOST_TEST(f.gateway.deliverReport({sid, DeliveryState::kDelivered, "", {}}).ok());
  BOOST_TEST(f.row("m1").state == OutboxState::kDelivered);
  BOOST_TEST(f.row("m1").finalAt.has_value());
  // Older news arriving late changes nothing.
  BOOST_TEST(f.gateway.deliverReport({sid, DeliveryState::kSent, "", {}}).ok());
  BOOST_TEST(f.gateway.deliverReport({sid, DeliveryState::kQueued, "", {}}).ok());
  BOOST_TEST(f.gateway.deliverReport({sid, DeliveryState::kUndelivered, "30003", {}}).ok());
  BOOST_TEST(f.row("m1").state == OutboxState::kDelivered);
  BOOST_TEST(f.entries("sms.out.failed").empty());
}

BOOST_AUTO_TEST_CASE(undeliveredIsAuditedAndALaterDeliveryCorrectsIt) {
  MailboxFixture f;
  BOOST_TEST(f.outbox->enqueue(MailboxFixture::request("m1")).ok());
  BOOST_TEST_REQUIRE(f.dispatcher()->runPass().ok());
  const std::string sid = f.row("m1").providerId;

  BOOST_TEST(f.gateway.deliverReport({sid, DeliveryState::kUndelivered, "30003", {}}).ok());
  BOOST_TEST(f.gateway.deliverReport({sid, DeliveryState::kUndelivered, "30003", {}}).ok());
  OutboxRow row = f.row("m1");
  BOOST_TEST(row.state == OutboxState::kUndelivered);
  BOOST_TEST(row.errorCode == "30003");
  auto failed = f.entries("sms.out.failed");
  BOOST_TEST_REQUIRE(failed.size() == 1u);  // the duplicate report changed nothing
  BOOST_TEST(failed[0].body.find("error_code")->asString() == "30003");
  BOOST_TEST(failed[0].body.find("state")->asString() == "undelivered");

  BOOST_TEST(f.gateway.deliverReport({sid, DeliveryState::kFailed, "30008", {}}).ok());
  BOOST_TEST(f.row("m1").state == OutboxState::kUndelivered);  // first failure stands
  BOOST_TEST(f.gateway.deliverReport({sid, DeliveryState::kDelivered, "", {}}).ok());
  BOOST_TEST(f.row("m1").state == OutboxState::kDelivered);
  BOOST_TEST(f.entries("sms.out.delivered").size() == 1u);
  BOOST_TEST(f.entries("sms.out.failed").size() == 1u);
}

BOOST_AUTO_TEST_CASE(aReportThatOvertakesTheSendsAnswerIsAppliedWhenTheSendIsRecorded) {
  MailboxFixture f;
  f.gateway.setAutoReport(DeliveryState::kDelivered);  // reported inside send(), before it returns
  BOOST_TEST(f.outbox->enqueue(MailboxFixture::request("fast")).ok());
  BOOST_TEST_REQUIRE(f.dispatcher()->runPass().ok());
  BOOST_TEST(f.row("fast").state == OutboxState::kDelivered);
}

BOOST_AUTO_TEST_CASE(aReportForAnUnknownMessageIsKeptAndChangesNothing) {
  MailboxFixture f;
  BOOST_TEST(f.outbox->enqueue(MailboxFixture::request("m1")).ok());
  BOOST_TEST(f.gateway.deliverReport({"SMnobody", DeliveryState::kDelivered, "", {}}).ok());
  BOOST_TEST(f.row("m1").state == OutboxState::kQueued);
}

BOOST_AUTO_TEST_CASE(aMalformedReportIsRefusedAndAudited) {
  MailboxFixture f;
  Status s = f.gateway.deliverReport({"", DeliveryState::kDelivered, "", {}});
  BOOST_TEST(s.message() ==
             "delivery report from simulated: provider id is missing or not printable ASCII");
  BOOST_TEST(f.entries("sms.report.refused").size() == 1u);
  Status code = f.gateway.deliverReport({"SM1", DeliveryState::kFailed, "bad code", {}});
  BOOST_TEST(!code.ok());
}

BOOST_AUTO_TEST_CASE(safetyAlertsGoFirstThenOldestFirst) {
  MailboxFixture f;
  OutboundRequest a = MailboxFixture::request("a");
  OutboundRequest b = MailboxFixture::request("b");
  OutboundRequest alert = MailboxFixture::request("alert", "Gas leak reported: leave the kitchen.");
  alert.messageClass = MessageClass::kSafety;
  for (const auto* r : {&a, &b, &alert}) BOOST_TEST(f.outbox->enqueue(*r).ok());
  BOOST_TEST_REQUIRE(f.dispatcher()->runPass().ok());
  std::vector<std::string> order;
  for (const auto& t : f.gateway.transmissions()) order.push_back(t.message.idempotencyKey);
  BOOST_TEST(order == std::vector<std::string>({"alert", "a", "b"}));
}

BOOST_AUTO_TEST_CASE(notBeforeKeepsAMessageUntilItsTime) {
  MailboxFixture f;
  OutboundRequest r = MailboxFixture::request("morning");
  r.notBefore = f.clock.now() + 9h;  // quiet hours
  BOOST_TEST(f.outbox->enqueue(r).ok());
  auto d = f.dispatcher();
  BOOST_TEST_REQUIRE(d->runPass().ok());
  BOOST_TEST(f.gateway.sendCalls() == 0u);
  auto next = f.outbox->nextDue();
  BOOST_TEST_REQUIRE((next.ok() && next->has_value()));
  BOOST_TEST((**next == *r.notBefore));
  f.clock.advance(9h);
  BOOST_TEST_REQUIRE(d->runPass().ok());
  BOOST_TEST(f.row("morning").state == OutboxState::kSent);
}

BOOST_AUTO_TEST_CASE(aMessagePastItsExpiryFailsInsteadOfGoingOutLate) {
  MailboxFixture f;
  OutboundRequest r = MailboxFixture::request("offer");
  r.expiresAt = f.clock.now() + 15s;
  BOOST_TEST(f.outbox->enqueue(r).ok());
  f.gateway.failNextSends(1, true);
  auto d = f.dispatcher();
  BOOST_TEST_REQUIRE(d->runPass().ok());  // fails, retry after 9 s
  f.clock.advance(20s);                   // the provider was down past the offer's expiry
  BOOST_TEST_REQUIRE(d->runPass().ok());
  const OutboxRow row = f.row("offer");
  BOOST_TEST(row.state == OutboxState::kFailed);
  BOOST_TEST(row.lastError.find("expired at") != std::string::npos, row.lastError);
  BOOST_TEST(f.gateway.transmissions().empty());
  BOOST_TEST(f.entries("sms.out.failed").size() == 1u);
}

BOOST_AUTO_TEST_CASE(aBacklogOfExpiredMessagesIsFailedWithoutOverflowingAnAuditBatch) {
  MailboxFixture f;
  constexpr int kMessages = 140;  // more than two transactions' worth
  Status s = f.runner->run([&](SiteStore& store) -> Status {
    auto batch = store.log().begin();
    if (!batch) return batch.error();
    for (int i = 0; i < kMessages; ++i) {
      OutboundRequest r = MailboxFixture::request("x" + std::to_string(i));
      r.expiresAt = f.clock.now() + 1s;
      if (auto id = f.outbox->enqueueIn(store.db(), *batch, r); !id) return id.error();
    }
    auto note = batch->commit();
    if (!note) return note.error();
    return Status::success();
  });
  BOOST_TEST_REQUIRE(s.ok(), s.message());
  f.clock.advance(2s);
  BOOST_TEST_REQUIRE(f.dispatcher()->runPass().ok());
  auto failed = f.outbox->list(OutboxQuery{OutboxState::kFailed, false, 1000});
  BOOST_TEST(failed->size() == static_cast<std::size_t>(kMessages));
  BOOST_TEST(f.entries("sms.out.failed").size() == static_cast<std::size_t>(kMessages));
  BOOST_TEST(f.gateway.sendCalls() == 0u);
}

BOOST_AUTO_TEST_CASE(holdKeepsBackOneClassAndReleaseLetsItGo) {
  MailboxFixture f;
  OutboundRequest reply = MailboxFixture::request("reply");
  reply.messageClass = MessageClass::kReply;
  BOOST_TEST(f.outbox->enqueue(MailboxFixture::request("offer")).ok());
  BOOST_TEST(f.outbox->enqueue(reply).ok());
  auto held = f.outbox->hold(MessageClass::kOutreach, "kill switch L1");
  BOOST_TEST_REQUIRE(held.ok());
  BOOST_TEST(*held == 1);
  auto d = f.dispatcher();
  BOOST_TEST_REQUIRE(d->runPass().ok());
  BOOST_TEST(f.row("reply").state == OutboxState::kSent);
  BOOST_TEST(f.row("offer").state == OutboxState::kHeld);
  BOOST_TEST(f.row("offer").holdReason == "kill switch L1");

  auto released = f.outbox->release(std::nullopt);
  BOOST_TEST_REQUIRE(released.ok());
  BOOST_TEST(*released == 1);
  BOOST_TEST_REQUIRE(d->runPass().ok());
  BOOST_TEST(f.row("offer").state == OutboxState::kSent);
}

BOOST_AUTO_TEST_CASE(aQueuedMessageCanBeWithdrawnASentOneCannot) {
  MailboxFixture f;
  BOOST_TEST(f.outbox->enqueue(MailboxFixture::request("taken")).ok());
  BOOST_TEST(f.outbox->withdraw("taken", "the shift was covered").ok());
  BOOST_TEST(f.outbox->enqueue(MailboxFixture::request("sent")).ok());
  BOOST_TEST_REQUIRE(f.dispatcher()->runPass().ok());
  BOOST_TEST(f.row("taken").state == OutboxState::kWithdrawn);
  BOOST_TEST(f.row("taken").lastError == "the shift was covered");
  BOOST_TEST(f.gateway.transmissions().size() == 1u);
  BOOST_TEST(f.outbox->withdraw("sent", "too late").message() ==
             "SMS sent cannot be withdrawn: it is already sent");
  BOOST_TEST(f.outbox->withdraw("nope", "").message() == "no outbound SMS with id nope");
}

BOOST_AUTO_TEST_CASE(theOutcomeListenerHearsEveryOutcomeAfterItCommitted) {
  MailboxFixture f;
  std::vector<std::pair<std::string, OutboxState>> heard;
  f.outbox->setOnOutcome([&](const OutboxRow& row) {
    // Committed: a read through the outbox sees the same state.
    BOOST_TEST(f.row(row.id).state == row.state);
    heard.emplace_back(row.id, row.state);
  });
  BOOST_TEST(f.outbox->enqueue(MailboxFixture::request("ok")).ok());
  BOOST_TEST(f.outbox->enqueue(MailboxFixture::request("gone")).ok());
  BOOST_TEST(f.outbox->withdraw("gone", "").ok());
  BOOST_TEST_REQUIRE(f.dispatcher()->runPass().ok());
  BOOST_TEST(
      f.gateway.deliverReport({f.row("ok").providerId, DeliveryState::kDelivered, "", {}}).ok());
  const std::vector<std::pair<std::string, OutboxState>> expected = {
      {"gone", OutboxState::kWithdrawn},
      {"ok", OutboxState::kSent},
      {"ok", OutboxState::kDelivered}};
  BOOST_TEST((heard == expected));
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace
}  // namespace atoms::sms::mailbox
