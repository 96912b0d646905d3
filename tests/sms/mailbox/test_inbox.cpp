#include <boost/test/unit_test.hpp>
#include <thread>

#include "store/state_dir.h"
#include "tests/sms/mailbox/mailbox_fixture.h"

namespace atoms::sms::mailbox {
namespace {

using testing::MailboxFixture;

drivers::InboundSms text(std::string providerId, std::string body,
                         std::string from = "+15551230002") {
  drivers::InboundSms m;
  m.providerId = std::move(providerId);
  m.from = std::move(from);
  m.to = "+15559990000";
  m.body = std::move(body);
  return m;
}

// Rows as a second connection sees them: what is committed, nothing else.
std::int64_t committedRows(const std::string& stateDir, std::string_view where) {
  auto reader = openStateDir(stateDir, OpenMode::ReadOnly);
  BOOST_TEST_REQUIRE(reader.ok(), reader.message());
  auto stmt = reader->db.prepare("SELECT count(*) FROM sms_inbox WHERE " + std::string(where));
  BOOST_TEST_REQUIRE(stmt.ok(), stmt.message());
  auto row = stmt->step();
  BOOST_TEST_REQUIRE(row.ok());
  return stmt->columnInt64(0);
}

BOOST_AUTO_TEST_SUITE(inbox)

BOOST_AUTO_TEST_CASE(commitsTheMessageBeforeReturning) {
  MailboxFixture f;
  BOOST_TEST_REQUIRE(f.gateway.deliverInbound(text("SMa1", "I can't make it tonight")).ok());
  BOOST_TEST(committedRows(f.stateDir, "provider_id = 'SMa1' AND state = 'new'") == 1);
  auto rows = f.inbox->unhandled(10);
  BOOST_TEST_REQUIRE(rows.ok());
  BOOST_TEST_REQUIRE(rows->size() == 1u);
  BOOST_TEST((*rows)[0].body == "I can't make it tonight");
  BOOST_TEST((*rows)[0].from == "+15551230002");
  BOOST_TEST((*rows)[0].gateway == "simulated");
  BOOST_TEST(f.entries("sms.in").size() == 1u);
}

BOOST_AUTO_TEST_CASE(aRedeliveryIsOkAndStoredOnce) {
  MailboxFixture f;
  BOOST_TEST(f.gateway.deliverInbound(text("SMdup", "first")).ok());
  BOOST_TEST(f.gateway.deliverInbound(text("SMdup", "first")).ok());
  BOOST_TEST(f.gateway.deliverInbound(text("SMdup", "a replay with other text")).ok());
  BOOST_TEST(committedRows(f.stateDir, "provider_id = 'SMdup'") == 1);
  auto rows = f.inbox->unhandled(10);
  BOOST_TEST_REQUIRE(rows->size() == 1u);
  BOOST_TEST((*rows)[0].body == "first");
  BOOST_TEST(f.entries("sms.in").size() == 1u);
}

BOOST_AUTO_TEST_CASE(theSameProviderIdThroughAnotherGatewayIsAnotherMessage) {
  MailboxFixture f;
  Inbox modemInbox(*f.runner, *f.outbox, "modem", [&] { return f.clock.now(); });
  BOOST_TEST(f.inbox->acceptInbound(text("17", "from the provider")).ok());
  BOOST_TEST(modemInbox.acceptInbound(text("17", "from the modem")).ok());
  BOOST_TEST(committedRows(f.stateDir, "provider_id = '17'") == 2);
}

BOOST_AUTO_TEST_CASE(badInputIsRefusedForGoodAuditedAndNeverProcessedTwice) {
  struct Case {
    std::string name;
    std::string body;
    std::string problem;
    std::string state;  // too long: `new` without its text, to be answered once
  };
  const Case cases[] = {
      {"too long", std::string(1601, 'x'), "1601 characters, over the limit of 1600", "new"},
      {"far too long", std::string(7000, 'x'), "7000 bytes, over the limit of 1600", "new"},
      {"invalid UTF-8", "hi \xFF there", "not valid UTF-8 (at byte 3)", "refused"},
      {"NUL byte", std::string("hi\0there", 8), "NUL byte (at byte 2)", "refused"},
  };
  MailboxFixture f;
  int n = 0;
  for (const Case& c : cases) {
    BOOST_TEST_CONTEXT(c.name) {
      const std::string id = "SMbad" + std::to_string(n++);
      // Ok: the refusal is what got committed, so the driver acknowledges and the peer stops.
      BOOST_TEST(f.gateway.deliverInbound(text(id, c.body)).ok());
      BOOST_TEST(f.gateway.deliverInbound(text(id, c.body)).ok());
      BOOST_TEST(committedRows(f.stateDir, "provider_id = '" + id + "' AND state = '" + c.state +
                                               "' AND body IS NULL AND refusal IS NOT NULL") == 1);
      const auto refused = f.entries("sms.in.refused");
      BOOST_TEST_REQUIRE(refused.size() == static_cast<std::size_t>(n));  // once per message
      const std::string reason = refused.back().body.find("reason")->asString();
      BOOST_TEST(reason.find(c.problem) != std::string::npos, reason);
      BOOST_TEST(refused.back().body.find("provider_id")->asString() == id);
    }
  }
  BOOST_TEST(f.entries("sms.in").empty());
  // For the conversation layer: only the two too long, without a word of their text.
  auto pending = f.inbox->unhandled(10);
  BOOST_REQUIRE_EQUAL(pending->size(), 2u);
  for (const InboxRow& row : *pending) {
    BOOST_TEST(row.body.empty());
    BOOST_TEST(row.refusal.find("over the limit of 1600") != std::string::npos, row.refusal);
  }
}

BOOST_AUTO_TEST_CASE(aSenderThatIsNotAnAddressIsRefused) {
  MailboxFixture f;
  BOOST_TEST(f.gateway.deliverInbound(text("SMfrom", "hello", "")).ok());
  BOOST_TEST(f.gateway.deliverInbound(text("SMfrom2", "hello", "+1 555 ; DROP")).ok());
  BOOST_TEST(committedRows(f.stateDir, "state = 'refused'") == 2);
  BOOST_TEST(f.entries("sms.in.refused").size() == 2u);
}

BOOST_AUTO_TEST_CASE(acceptsEmojiAndMixedScriptsByteForByte) {
  MailboxFixture f;
  const std::string body =
      "\xF0\x9F\x98\x85 sorry! Je suis malade \xE2\x80\x94 \xE6\x98\x8E\xE5\xA4\xA9 "
      "\xD8\xBA\xD8\xAF\xD8\xA7\xD9\x8B \xF0\x9F\x91\xA9\xE2\x80\x8D\xF0\x9F\x8D\xB3";
  BOOST_TEST_REQUIRE(f.gateway.deliverInbound(text("SMemoji", body)).ok());
  auto rows = f.inbox->unhandled(10);
  BOOST_TEST_REQUIRE(rows->size() == 1u);
  BOOST_TEST((*rows)[0].body == body);
  BOOST_TEST((*rows)[0].state == InboxState::kNew);
}

BOOST_AUTO_TEST_CASE(aMessageWithoutProviderIdIsNotStoredButAudited) {
  MailboxFixture f;
  drivers::InboundSms m = text("", "hello");
  Status s = f.inbox->acceptInbound(m);
  BOOST_TEST(!s.ok());
  BOOST_TEST(s.message().find("provider id is missing") != std::string::npos, s.message());
  BOOST_TEST(committedRows(f.stateDir, "1") == 0);
  BOOST_TEST(f.entries("sms.in.refused").size() == 1u);
}

BOOST_AUTO_TEST_CASE(theAuditLogHoldsNoBodyAndNoFullNumber) {
  MailboxFixture f;
  BOOST_TEST(f.gateway.deliverInbound(text("SMpriv", "my kid is sick, cannot come")).ok());
  BOOST_TEST(f.gateway.deliverInbound(text("SMpriv2", std::string(1700, 'y'))).ok());
  const std::string log = f.allEntryTexts();
  BOOST_TEST(log.find("kid is sick") == std::string::npos);
  BOOST_TEST(log.find("yyyy") == std::string::npos);
  BOOST_TEST(log.find("5551230002") == std::string::npos);
  const auto in = f.entries("sms.in");
  BOOST_TEST_REQUIRE(in.size() == 1u);
  BOOST_TEST(in[0].body.find("from")->asString() == "***0002");
  BOOST_TEST(in[0].actor == "sms:simulated");
}

BOOST_AUTO_TEST_CASE(handledRowsLeaveTheQueueAndHandlingTwiceIsOk) {
  MailboxFixture f;
  std::int64_t lastStored = 0;
  f.inbox->setOnStored([&](const InboxRow& row) { lastStored = row.id; });
  for (int i = 0; i < 3; ++i) {
    BOOST_TEST(f.gateway.deliverInbound(text("SMh" + std::to_string(i), "m")).ok());
  }
  BOOST_TEST(f.gateway.deliverInbound(text("SMh-bad", std::string("\0", 1))).ok());
  const std::int64_t refusedId = lastStored;
  auto rows = f.inbox->unhandled(10);
  BOOST_TEST_REQUIRE(rows->size() == 3u);
  BOOST_TEST((*rows)[0].providerId == "SMh0");  // arrival order
  BOOST_TEST(f.inbox->markHandled((*rows)[0].id).ok());
  BOOST_TEST(f.inbox->markHandled((*rows)[0].id).ok());
  auto left = f.inbox->unhandled(10);
  BOOST_TEST(left->size() == 2u);
  auto handled = f.inbox->find((*rows)[0].id);
  BOOST_TEST_REQUIRE(handled->has_value());
  BOOST_TEST((*handled)->state == InboxState::kHandled);
  BOOST_TEST((*handled)->handledAt.has_value());

  BOOST_TEST(!f.inbox->markHandled(9999).ok());
  BOOST_TEST(f.inbox->markHandled(refusedId).message().find("was refused") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(theStoredListenerRunsAfterTheCommit) {
  MailboxFixture f;
  std::vector<std::int64_t> seen;
  std::vector<bool> visible;
  f.inbox->setOnStored([&](const InboxRow& row) {
    seen.push_back(row.id);
    visible.push_back(committedRows(f.stateDir, "id = " + std::to_string(row.id)) == 1);
  });
  BOOST_TEST(f.gateway.deliverInbound(text("SMl1", "one")).ok());
  BOOST_TEST(f.gateway.deliverInbound(text("SMl1", "one")).ok());  // duplicate: no call
  BOOST_TEST(f.gateway.deliverInbound(text("SMl2", std::string(2000, 'z'))).ok());
  BOOST_TEST(seen.size() == 2u);
  BOOST_TEST(visible == std::vector<bool>({true, true}));
}

BOOST_AUTO_TEST_CASE(concurrentRedeliveriesStoreEachMessageOnce) {
  MailboxFixture f;
  constexpr int kThreads = 4;
  constexpr int kMessages = 15;
  std::vector<std::thread> threads;
  std::atomic<int> failures{0};
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < kMessages; ++i) {
        if (!f.gateway.deliverInbound(text("SMc" + std::to_string(i), "msg")).ok()) ++failures;
      }
    });
  }
  for (auto& t : threads) t.join();
  BOOST_TEST(failures.load() == 0);
  BOOST_TEST(committedRows(f.stateDir, "1") == kMessages);
  BOOST_TEST(f.entries("sms.in").size() == static_cast<std::size_t>(kMessages));
}

BOOST_AUTO_TEST_CASE(deliveringBeforeStartOrAfterStopIsAnError) {
  drivers::SimulatedSmsGateway gateway;
  BOOST_TEST(gateway.deliverInbound(text("SMx", "hi")).message() ==
             "the simulated SMS gateway is not started");
  MailboxFixture f;
  f.gateway.stop();
  BOOST_TEST(!f.gateway.deliverInbound(text("SMy", "hi")).ok());
  BOOST_TEST(committedRows(f.stateDir, "1") == 0);
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace
}  // namespace atoms::sms::mailbox
