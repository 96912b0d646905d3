#include "tests/sms/conversation/conversation_fixture.h"

#include <boost/test/unit_test.hpp>

#include "store/receipt.h"
#include "store/state_dir.h"
#include "tests/support/audit_entries.h"

namespace atoms::sms::conversation::testing {

TestRoster::TestRoster() {
  people[kAna] = Contact{"p-ana", "Ana", kAna, true, false, {"en"}};
  people[kLuis] = Contact{"p-luis", "Luis", kLuis, true, false, {"es"}};
  people[kNoConsent] = Contact{"p-kim", "Kim", kNoConsent, false, false, {}};
}

std::optional<Contact> TestRoster::findByPhone(std::string_view e164) const {
  auto it = people.find(e164);
  if (it == people.end()) return std::nullopt;
  return it->second;
}

HumanContact TestRoster::humanContact(std::string_view) const {
  return HumanContact{"Dana Lee", kDana};
}

ConversationFixture::ConversationFixture() : stateDir(tmp.sub("state")) {
  BOOST_TEST_REQUIRE(initStateDir(stateDir, {"conversation-site"}).ok());
  setLocal(0, 12);
  open();
}

ConversationFixture::~ConversationFixture() { close(); }

void ConversationFixture::open() {
  auto opened = SiteStore::open(stateDir);
  BOOST_TEST_REQUIRE(opened.ok(), opened.message());
  store = std::move(*opened);
  runner = std::make_unique<atoms::LockedStoreRunner>(*store);
  const auto now = [this] { return clock.now(); };
  outbox = std::make_unique<mailbox::Outbox>(*runner, now, [] { return 0.5; });
  inbox = std::make_unique<mailbox::Inbox>(*runner, *outbox, std::string(gateway.name()), now);
  outreach = std::make_unique<Outreach>(*runner, *outbox, roster, siteTime, settings, now);
  safety = std::make_unique<SafetyDesk>(*runner, *outreach, settings.safety);
  conversation = std::make_unique<Conversation>(*runner, *inbox, *outreach, handler, safety.get());
  BOOST_TEST_REQUIRE(gateway.start(*inbox).ok());
}

void ConversationFixture::close() {
  gateway.stop();
  conversation.reset();
  safety.reset();
  outreach.reset();
  inbox.reset();
  outbox.reset();
  runner.reset();
  store.reset();
}

TimePoint ConversationFixture::localTime(int day, int hour, int minute) {
  using namespace std::chrono;
  const sys_days monday = year{2026} / March / 2;
  // Local = UTC - 8 h, so UTC = local + 8 h.
  return TimePoint(monday + days(day) + hours(hour + 8) + minutes(minute));
}

void ConversationFixture::receive(const std::string& from, const std::string& body) {
  drivers::InboundSms sms;
  sms.from = from;
  sms.to = "+15550001111";
  sms.body = body;
  sms.receivedAt = clock.now();
  Status s = gateway.deliverInbound(sms);
  BOOST_TEST_REQUIRE(s.ok(), s.message());
}

int ConversationFixture::handle() {
  auto handled = conversation->handlePending();
  BOOST_TEST_REQUIRE(handled.ok(), handled.message());
  return *handled;
}

void ConversationFixture::text(const std::string& from, const std::string& body) {
  receive(from, body);
  BOOST_TEST_REQUIRE(handle() == 1);
}

std::vector<mailbox::OutboxRow> ConversationFixture::outboxTo(const std::string& to) {
  mailbox::OutboxQuery query;
  query.limit = 1000;
  auto rows = outbox->list(query);
  BOOST_TEST_REQUIRE(rows.ok(), rows.message());
  std::vector<mailbox::OutboxRow> out;
  for (auto it = rows->rbegin(); it != rows->rend(); ++it) {
    if (it->to == to) out.push_back(*it);
  }
  return out;
}

std::vector<Entry> ConversationFixture::entries(std::string_view kind) {
  auto found = atoms::testing::entriesOfKindVia(*runner, kind);
  BOOST_TEST_REQUIRE(found.ok(), found.message());
  return std::move(*found);
}

json::Value ConversationFixture::receiptAt(std::uint64_t seq) {
  json::Value body;
  Status s = runner->run([&](SiteStore& st) -> Status {
    auto text = st.log().entryText(seq);
    if (!text) return text.error();
    auto entry = parseEntry(*text);
    if (!entry) return entry.error();
    if (entry->kind != "receipt") return makeError("entry is a " + entry->kind);
    if (Status v = verifyReceipt(entry->body, st.verifierKey()); !v) return v;
    body = entry->body;
    return Status::success();
  });
  BOOST_TEST_REQUIRE(s.ok(), s.message());
  return body;
}

OutreachRequest ConversationFixture::request(std::string id, std::string to, MessageClass kind,
                                             std::string body) {
  OutreachRequest r;
  r.id = std::move(id);
  r.to = std::move(to);
  r.kind = kind;
  r.body = std::move(body);
  return r;
}

}  // namespace atoms::sms::conversation::testing
