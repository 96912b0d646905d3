// Crash tests: a child process handles an inbound message and dies (_exit, no cleanup, no commit
// of anything in flight) at a chosen point; the parent then reopens the same state directory, as a
// restarted box would, and checks that the message is answered exactly once.
#include <sys/wait.h>
#include <unistd.h>

#include <boost/test/unit_test.hpp>
#include <chrono>

#include "sms/mailbox/dispatcher.h"
#include "tests/sms/conversation/conversation_fixture.h"

namespace atoms::sms::conversation {
namespace {

using testing::ConversationFixture;
using testing::kAna;

// Queues its reply, then dies before the turn's transaction commits.
class DyingHandler final : public ReplyHandler {
 public:
  std::vector<std::string> openOfferCodes(SiteStore&, const Contact&) override { return {}; }
  Status handle(Turn& turn) override {
    auto r = turn.reply("Got it, thanks.");
    if (r && r->outcome == OutreachOutcome::kQueued) ::_exit(3);
    ::_exit(4);
  }
};

// Runs `body` in a child process and returns its exit status.
template <class Body>
int inChild(Body body) {
  const pid_t pid = ::fork();
  BOOST_TEST_REQUIRE(pid >= 0);
  if (pid == 0) {
    body();
    ::_exit(0);
  }
  int status = 0;
  BOOST_TEST_REQUIRE(::waitpid(pid, &status, 0) == pid);
  BOOST_TEST_REQUIRE(WIFEXITED(status));
  return WEXITSTATUS(status);
}

std::size_t sendAll(ConversationFixture& f) {
  mailbox::DispatcherOptions options;
  options.followsSystemTime = false;
  mailbox::Dispatcher dispatcher(*f.outbox, f.gateway, options);
  Status s = dispatcher.runPass();
  BOOST_TEST_REQUIRE(s.ok(), s.message());
  return f.gateway.transmissions().size();
}

}  // namespace

BOOST_AUTO_TEST_SUITE(crash)

BOOST_FIXTURE_TEST_CASE(crashBeforeTheCommitReHandlesAndRepliesOnce, ConversationFixture) {
  receive(kAna, "can I swap Friday?");
  close();
  const int code = inChild([this] {
    DyingHandler dying;
    handler = &dying;
    open();
    (void)conversation->handlePending();
  });
  BOOST_TEST_REQUIRE(code == 3);  // died with the reply queued in the open transaction

  handler = nullptr;
  open();
  BOOST_TEST(outboxTo(kAna).empty());  // nothing of the dead transaction survived
  BOOST_TEST(handle() == 1);
  BOOST_TEST(handle() == 0);
  BOOST_TEST(outboxTo(kAna).size() == 1u);
  BOOST_TEST(sendAll(*this) == 1u);
}

BOOST_FIXTURE_TEST_CASE(crashAfterTheCommitDoesNotReplyAgain, ConversationFixture) {
  receive(kAna, "HELP");
  close();
  const int code = inChild([this] {
    open();
    auto handled = conversation->handlePending();
    ::_exit(handled.ok() && *handled == 1 ? 5 : 6);  // dies before anything is sent
  });
  BOOST_TEST_REQUIRE(code == 5);

  open();
  BOOST_TEST(handle() == 0);
  BOOST_TEST(outboxTo(kAna).size() == 1u);
  BOOST_TEST(sendAll(*this) == 1u);
  // Asking Outreach again for the same reply id decides nothing new.
  auto again =
      outreach->send(request(replyId(1), kAna, MessageClass::kThreadReply, outboxTo(kAna)[0].body));
  BOOST_TEST_REQUIRE(again.ok(), again.message());
  BOOST_TEST(again->repeated);
  BOOST_TEST(sendAll(*this) == 1u);
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace atoms::sms::conversation
