#include "tests/sms/serve/serve_support.h"

#include <signal.h>
#include <sys/stat.h>

#include <boost/test/unit_test.hpp>

#include "drivers/sms/encoding/gsm7.h"
#include "sms/mailbox/outbox.h"
#include "store/audit_entry.h"
#include "store/site_store.h"
#include "store/state_dir.h"
#include "store/store_runner.h"

namespace atoms::test {

using atoms::TimePoint;

SmsSite::SmsSite() : stateDir(tmp.file("state")) {
  Status s = initStateDir(stateDir, InitOptions{"site-sms"});
  BOOST_REQUIRE_MESSAGE(s.ok(), s.message());
}

std::string SmsSite::config(const std::string& extra) const {
  return tmp.write("atoms-edge.conf", "state.dir = " + stateDir + "\n" + extra);
}

TwilioSite::TwilioSite() {
  BOOST_REQUIRE_MESSAGE(fake.start(), "the fake provider did not start");
  fake.setInboundUrl(kPublicUrl + "/sms/inbound");
  fake.setOnMessage([this](const drivers::twilio::FakeMessage& m) {
    std::lock_guard lock(mutex);
    created.push_back(m);
    changed.notify_all();
  });
  tokenFile = site.tmp.write("twilio-auth-token", fake.options().authToken + "\n");
  BOOST_REQUIRE(::chmod(tokenFile.c_str(), 0600) == 0);
}

std::string TwilioSite::config(const std::string& extra) const {
  return site.config(
      extra + "sms.driver = twilio\n" + "sms.twilio.account-sid = " + fake.options().accountSid +
      "\n" + "sms.twilio.auth-token-file = " + tokenFile + "\n" +
      "sms.twilio.api-base-url = " + fake.baseUrl() + "\n" + "sms.twilio.from = " + kBoxNumber +
      "\n" + "sms.twilio.public-url = " + kPublicUrl + "\n" +
      "sms.twilio.listen-port = 0\n"
      "sms.retry.initial-delay-ms = 100\n"
      "sms.retry.max-delay-ms = 1000\n");
}

void TwilioSite::connect(ChildProcess& serve) {
  BOOST_REQUIRE_MESSAGE(serve.waitForStderr("msg=\"ready\"", kDeadline), serve.err());
  const std::string line = lineWith(serve.err(), "msg=\"SMS started\"");
  const std::string marker = "webhook=127.0.0.1:";
  const std::size_t at = line.find(marker);
  BOOST_REQUIRE_MESSAGE(at != std::string::npos, serve.err());
  const int port = std::stoi(line.substr(at + marker.size()));
  BOOST_REQUIRE(port > 0);
  fake.routeWebhooks(kPublicUrl, "http://127.0.0.1:" + std::to_string(port));
}

bool TwilioSite::waitForCreated(std::size_t n) {
  return waitUntil([n](const auto& messages) { return messages.size() >= n; });
}

bool TwilioSite::waitUntil(
    const std::function<bool(const std::vector<drivers::twilio::FakeMessage>&)>& done) {
  std::unique_lock lock(mutex);
  return changed.wait_for(lock, kDeadline, [&] { return done(created); });
}

std::vector<drivers::twilio::FakeMessage> TwilioSite::stopAndCollect(ChildProcess& serve) {
  serve.signal(SIGTERM);
  BOOST_REQUIRE_MESSAGE(serve.wait(kDeadline).value_or(-1) == 0, serve.err());
  std::lock_guard lock(mutex);
  return created;
}

std::size_t StoredSms::count(const std::string& kind) const {
  return static_cast<std::size_t>(std::count(auditKinds.begin(), auditKinds.end(), kind));
}

std::vector<sms::mailbox::InboxRow> StoredSms::newRows() const {
  std::vector<sms::mailbox::InboxRow> rows;
  for (const sms::mailbox::InboxRow& row : inbound) {
    if (row.state == sms::mailbox::InboxState::kNew) rows.push_back(row);
  }
  return rows;
}

StoredSms readStore(const std::string& stateDir) {
  auto store = SiteStore::open(stateDir);
  BOOST_REQUIRE_MESSAGE(store, store.message());
  atoms::LockedStoreRunner runner(**store);
  auto now = [] { return std::chrono::system_clock::now(); };
  sms::mailbox::Outbox outbox(runner, now, [] { return 0.0; });
  sms::mailbox::Inbox inbox(runner, outbox, "reader", now);
  StoredSms out;
  auto ids = (*store)->db().prepare("SELECT id FROM sms_inbox ORDER BY id");
  BOOST_REQUIRE_MESSAGE(ids, ids.message());
  std::vector<std::int64_t> inboxIds;
  for (auto more = ids->step(); more && *more; more = ids->step()) {
    inboxIds.push_back(ids->columnInt64(0));
  }
  for (std::int64_t id : inboxIds) {
    auto row = inbox.find(id);
    BOOST_REQUIRE_MESSAGE(row && *row, "inbox row " << id << ": " << row.message());
    out.inbound.push_back(**row);
  }
  auto sent = outbox.list(sms::mailbox::OutboxQuery{.limit = 1000});
  BOOST_REQUIRE_MESSAGE(sent, sent.message());
  out.outbox = std::move(*sent);
  auto count = (*store)->db().prepare("SELECT COUNT(*) FROM sms_inbox");
  BOOST_REQUIRE_MESSAGE(count, count.message());
  auto more = count->step();
  BOOST_REQUIRE(more && *more);
  out.inboxRows = static_cast<std::size_t>(count->columnInt64(0));
  AuditLog& log = (*store)->log();
  auto texts = log.entryTexts(0, log.size());
  BOOST_REQUIRE_MESSAGE(texts, texts.message());
  for (const std::string& text : *texts) {
    auto entry = parseEntry(text);
    BOOST_REQUIRE_MESSAGE(entry, entry.message());
    out.auditKinds.push_back(entry->kind);
    out.auditTexts.push_back(text);
  }
  return out;
}

void enqueueBeforeServe(const std::string& stateDir, const std::string& id, const std::string& to,
                        const std::string& body) {
  auto store = SiteStore::open(stateDir);
  BOOST_REQUIRE_MESSAGE(store, store.message());
  atoms::LockedStoreRunner runner(**store);
  sms::mailbox::Outbox outbox(
      runner, [] { return std::chrono::system_clock::now(); }, [] { return 0.0; });
  sms::mailbox::OutboundRequest request;
  request.id = id;
  request.to = to;
  request.body = body;
  request.messageClass = sms::mailbox::MessageClass::kReply;
  auto queued = outbox.enqueue(request);
  BOOST_REQUIRE_MESSAGE(queued, queued.message());
}

std::string lineWith(const std::string& log, const std::string& needle) {
  const std::size_t at = log.find(needle);
  if (at == std::string::npos) return "";
  std::size_t start = log.rfind('\n', at);
  start = start == std::string::npos ? 0 : start + 1;
  const std::size_t end = log.find('\n', at);
  return log.substr(start, end == std::string::npos ? std::string::npos : end - start);
}

std::size_t fatalLines(const std::string& log) {
  std::size_t n = 0;
  for (std::size_t at = log.find("level=fatal"); at != std::string::npos;
       at = log.find("level=fatal", at + 1)) {
    ++n;
  }
  return n;
}

drivers::modem::DeliverPdu gsm7Deliver(const std::string& from, const std::string& text) {
  using namespace drivers::modem;
  DeliverPdu d;
  d.originator = Address{from, static_cast<std::uint8_t>(from[0] == '+' ? 0x91 : 0x81)};
  // Sent by the SMSC just now (+01:00): a fixed date would drift out of what the driver accepts.
  d.timestamp = SmscTime::fromUtc(drivers::SmsClock::now(), 4);
  d.dataCodingScheme = 0x00;
  d.userData.coding = DataCoding::kGsm7;
  auto septets = drivers::encodeGsm7(text);
  BOOST_REQUIRE_MESSAGE(septets, "not GSM-7: " + text);
  d.userData.units = *septets;
  return d;
}

drivers::modem::DeliverPdu gsm7DeliverPart(const std::string& from, const std::string& text,
                                           drivers::modem::ConcatInfo part) {
  drivers::modem::DeliverPdu d = gsm7Deliver(from, text);
  d.userData.concat = part;
  return d;
}

}  // namespace atoms::test
