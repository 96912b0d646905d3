// A fresh state directory with the mailbox on top of it: a LockedStoreRunner, an Outbox and an
// Inbox on a clock that moves only when the test says, a fixed jitter, and the simulated gateway
// (started, delivering into the Inbox). Dispatchers are made by each test.
#pragma once

#include <atomic>
#include <chrono>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "drivers/sms/simulated/simulated_gateway.h"
#include "sms/mailbox/dispatcher.h"
#include "sms/mailbox/inbox.h"
#include "sms/mailbox/outbox.h"
#include "store/audit_entry.h"
#include "store/site_store.h"
#include "store/store_runner.h"
#include "tests/support/temp_dir.h"

namespace atoms::sms::mailbox {

// So that Boost.Test can print states in failed assertions.
inline std::ostream& operator<<(std::ostream& out, OutboxState s) {
  return out << outboxStateName(s);
}
inline std::ostream& operator<<(std::ostream& out, InboxState s) {
  return out << inboxStateName(s);
}

}  // namespace atoms::sms::mailbox

namespace atoms::sms::mailbox::testing {

// A clock that moves only when told; thread-safe.
class ManualClock {
 public:
  // 2026-03-02T12:00:00Z: a Monday noon, nothing special about it.
  ManualClock() : millis_(1'772'452'800'000) {}
  TimePoint now() const { return fromUnixMillis(millis_.load()); }
  void advance(std::chrono::milliseconds by) { millis_ += by.count(); }

 private:
  std::atomic<std::int64_t> millis_;
};

// A short schedule so tests read easily: 10 s doubling to 80 s, 5 attempts, 20 % jitter.
RetryPolicy testPolicy();

class MailboxFixture {
 public:
  explicit MailboxFixture(RetryPolicy policy = testPolicy());
  ~MailboxFixture();

  // A valid request: id, a roster-style number, a short body.
  static OutboundRequest request(std::string id, std::string body = "Can you cover 5-9pm today?");
  // The row (must exist).
  OutboxRow row(const std::string& id);
  // Audit entries of `kind`, oldest first.
  std::vector<Entry> entries(std::string_view kind);
  // Every audit entry text, for "does not contain" checks.
  std::string allEntryTexts();
  // A dispatcher that waits for wake() (simulated time).
  std::unique_ptr<Dispatcher> dispatcher();

  // A restart: closeStore() stops the gateway's deliveries and closes the inbox, the outbox, the
  // runner and the store (destroy dispatchers first); openStore() opens them again and hands the
  // new inbox to the gateway, whose record of what it sent carries on.
  void closeStore();
  void openStore();

  atoms::testing::TempDir tmp;
  std::string stateDir;
  std::unique_ptr<SiteStore> store;
  std::unique_ptr<LockedStoreRunner> runner;
  ManualClock clock;
  std::atomic<double> unit{0.5};  // what the injected random source answers
  RetryPolicy policy;
  std::unique_ptr<Outbox> outbox;
  drivers::SimulatedSmsGateway gateway;
  std::unique_ptr<Inbox> inbox;
};

}  // namespace atoms::sms::mailbox::testing
