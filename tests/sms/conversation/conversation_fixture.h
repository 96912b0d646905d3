// A fresh state directory with the whole conversation layer on top: a LockedStoreRunner, Outbox,
// Inbox (fed by the started simulated gateway), Outreach and Conversation, on a clock that moves
// only when the test says and a site at UTC-08:00 (no DST) so local days differ from UTC days. The
// roster knows three people; the site contact (everyone's manager here) is Dana Lee, the safety
// contact Sam Ortiz. close() and open() drop and reopen
// everything on the same directory, as a restart would.
#pragma once

#include <atomic>
#include <chrono>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "drivers/sms/simulated/simulated_gateway.h"
#include "sms/conversation/conversation.h"
#include "sms/conversation/outreach.h"
#include "sms/conversation/roster.h"
#include "sms/conversation/safety_desk.h"
#include "sms/conversation/site_time.h"
#include "sms/mailbox/dispatcher.h"
#include "sms/mailbox/inbox.h"
#include "sms/mailbox/outbox.h"
#include "store/audit_entry.h"
#include "store/site_store.h"
#include "store/store_runner.h"
#include "tests/support/temp_dir.h"

namespace atoms::sms::conversation::testing {

inline constexpr char kAna[] = "+15551230001";        // on the roster, consent, English
inline constexpr char kLuis[] = "+15551230002";       // on the roster, consent, Spanish
inline constexpr char kNoConsent[] = "+15551230003";  // on the roster, no consent
inline constexpr char kStranger[] = "+15559990000";   // not on the roster
inline constexpr char kDana[] = "+15550100200";       // everyone's manager of record (humanContact)
inline constexpr char kSam[] = "+15550100300";  // the site's safety contact (not on the roster)

class TestRoster final : public Roster {
 public:
  TestRoster();
  std::optional<Contact> findByPhone(std::string_view e164) const override;
  std::string siteName() const override { return "Bistro Maree"; }
  HumanContact humanContact(std::string_view personId) const override;
  std::vector<HumanContact> safetyContacts() const override { return safety; }
  std::map<std::string, Contact, std::less<>> people;
  std::vector<HumanContact> safety{{"Sam Ortiz", kSam}};  // the site's safety contact
};

// A clock that moves only when told; thread-safe.
class ManualClock {
 public:
  TimePoint now() const { return atoms::fromUnixMillis(millis_.load()); }
  void set(TimePoint t) { millis_ = atoms::toUnixMillis(t); }
  void advance(std::chrono::milliseconds by) { millis_ += by.count(); }

 private:
  std::atomic<std::int64_t> millis_{0};
};

class ConversationFixture {
 public:
  ConversationFixture();
  ~ConversationFixture();

  void open();
  void close();

  // The UTC instant of local time `hour:minute` on 2026-03-02 + `day` days (a Monday).
  static TimePoint localTime(int day, int hour, int minute = 0);
  void setLocal(int day, int hour, int minute = 0) { clock.set(localTime(day, hour, minute)); }

  // An inbound text as the provider delivers it (must be acknowledged).
  void receive(const std::string& from, const std::string& body);
  // handlePending(), which must succeed; returns how many it handled.
  int handle();
  // receive() then handle().
  void text(const std::string& from, const std::string& body);

  // Outbox rows to `to`, oldest first.
  std::vector<mailbox::OutboxRow> outboxTo(const std::string& to);
  // Audit entries of `kind`, oldest first.
  std::vector<Entry> entries(std::string_view kind);
  // The receipt body of audit seq `seq` (verified with the site key, or the test fails).
  json::Value receiptAt(std::uint64_t seq);
  // A notice/offer request to `to`.
  static OutreachRequest request(std::string id, std::string to, MessageClass kind,
                                 std::string body = "The schedule for next week is up.");

  atoms::testing::TempDir tmp;
  std::string stateDir;
  ManualClock clock;
  FixedOffsetSiteTime siteTime{std::chrono::hours(-8)};
  TestRoster roster;
  ConversationSettings settings;
  ReplyHandler* handler = nullptr;  // set before open()
  drivers::SimulatedSmsGateway gateway;

  std::unique_ptr<SiteStore> store;
  std::unique_ptr<atoms::LockedStoreRunner> runner;
  std::unique_ptr<mailbox::Outbox> outbox;
  std::unique_ptr<mailbox::Inbox> inbox;
  std::unique_ptr<Outreach> outreach;
  std::unique_ptr<SafetyDesk> safety;
  std::unique_ptr<Conversation> conversation;
};

}  // namespace atoms::sms::conversation::testing
