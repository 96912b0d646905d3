#include "tests/sms/mailbox/mailbox_fixture.h"

#include <boost/test/unit_test.hpp>

#include "store/state_dir.h"
#include "tests/support/audit_entries.h"

namespace atoms::sms::mailbox::testing {

RetryPolicy testPolicy() {
  RetryPolicy p;
  p.initialDelay = std::chrono::seconds(10);
  p.maxDelay = std::chrono::seconds(80);
  p.maxAttempts = 5;
  p.jitter = 0.2;
  return p;
}

MailboxFixture::MailboxFixture(RetryPolicy retry) : stateDir(tmp.sub("state")), policy(retry) {
  BOOST_TEST_REQUIRE(initStateDir(stateDir, {"mailbox-site"}).ok());
  openStore();
}

MailboxFixture::~MailboxFixture() { gateway.stop(); }

void MailboxFixture::closeStore() {
  gateway.stop();
  inbox.reset();
  outbox.reset();
  runner.reset();
  store.reset();
}

void MailboxFixture::openStore() {
  auto opened = SiteStore::open(stateDir);
  BOOST_TEST_REQUIRE(opened.ok(), opened.message());
  store = std::move(*opened);
  runner = std::make_unique<LockedStoreRunner>(*store);
  outbox = std::make_unique<Outbox>(
      *runner, [this] { return clock.now(); }, [this] { return unit.load(); }, policy);
  inbox = std::make_unique<Inbox>(*runner, *outbox, std::string(gateway.name()),
                                  [this] { return clock.now(); });
  BOOST_TEST_REQUIRE(gateway.start(*inbox).ok());
}

OutboundRequest MailboxFixture::request(std::string id, std::string body) {
  OutboundRequest r;
  r.id = std::move(id);
  r.to = "+15551230001";
  r.body = std::move(body);
  return r;
}

OutboxRow MailboxFixture::row(const std::string& id) {
  auto found = outbox->find(id);
  BOOST_TEST_REQUIRE(found.ok(), found.message());
  BOOST_TEST_REQUIRE(found->has_value(), "no outbox row " << id);
  return **found;
}

std::vector<Entry> MailboxFixture::entries(std::string_view kind) {
  auto found = atoms::testing::entriesOfKindVia(*runner, kind);
  BOOST_TEST_REQUIRE(found.ok(), found.message());
  return std::move(*found);
}

std::string MailboxFixture::allEntryTexts() {
  auto all = atoms::testing::allEntryTextsVia(*runner);
  BOOST_TEST_REQUIRE(all.ok(), all.message());
  return std::move(*all);
}

std::unique_ptr<Dispatcher> MailboxFixture::dispatcher() {
  DispatcherOptions options;
  options.followsSystemTime = false;
  return std::make_unique<Dispatcher>(*outbox, gateway, options);
}

}  // namespace atoms::sms::mailbox::testing
