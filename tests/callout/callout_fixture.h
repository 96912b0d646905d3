// A site with the whole call-out flow on top, for the scenario tests: a state directory holding a
// small restaurant (one line station needing a food handler card, a lead, a general manager,
// cooks: one 15 years old, one without consent, one without the card, one already at 36 hours
// this week) in San Francisco (Fair Workweek rules), the SMS layer over a simulated gateway, the
// real labor rules (etc/labor), the policy gate with the shipped action table, and a clock that
// moves only when the test says. close() and open() drop and rebuild everything on the same
// directory, as a crash and restart would.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "daemon/sms/site_roster.h"
#include "daemon/sms/zone_site_time.h"
#include "domain/callout/callout_desk.h"
#include "domain/callout/callout_handler.h"
#include "domain/callout/site_snapshot.h"
#include "domain/policy/policy_gate.h"
#include "domain/requests/request_desk.h"
#include "domain/requests/request_handler.h"
#include "domain/site/site_model.h"
#include "drivers/sms/simulated/simulated_gateway.h"
#include "sms/conversation/conversation.h"
#include "sms/conversation/outreach.h"
#include "sms/conversation/safety_desk.h"
#include "sms/mailbox/inbox.h"
#include "sms/mailbox/outbox.h"
#include "store/audit_entry.h"
#include "store/site_store.h"
#include "store/store_runner.h"
#include "tests/support/temp_dir.h"

namespace atoms::callout::testing {

inline constexpr char kRosa[] = "+15551000001";   // shift lead, texts the no-show
inline constexpr char kJamal[] = "+15551000002";  // the absent cook
inline constexpr char kAna[] = "+15551000003";    // cook, 16 h this week
inline constexpr char kBen[] = "+15551000004";    // cook, no shifts this week
inline constexpr char kCleo[] = "+15551000005";   // cook, 24 h this week
inline constexpr char kMia[] = "+15551000006";    // cook, 36 h this week: overtime
inline constexpr char kTom[] = "+15551000007";    // cook, 15 years old
inline constexpr char kLea[] = "+15551000008";    // cook, no consent to texts
inline constexpr char kZed[] = "+15551000010";    // line role, no food handler card
inline constexpr char kKwame[] = "+15551000009";  // general manager, everyone's manager

// The restaurant above around `today` (the fixture's: Wednesday 2026-03-04), its week running
// from the Sunday before; Jamal's shift is "s-jamal", today 17:00-23:00.
inline constexpr std::chrono::local_days kCalloutDay{std::chrono::year{2026} / 3 / 4};
site::SiteModel calloutRestaurant(std::chrono::local_days today = kCalloutDay);

// Reads shared by this fixture and the served one (tests/callout/served_site.h), through the
// store runner each of them has.
int heldToVia(atoms::StoreRunner& runner, const std::string& to);
std::string storedAssigneeVia(atoms::StoreRunner& runner, const std::string& shiftId);
json::Value receiptWithIdVia(atoms::StoreRunner& runner, const std::string& id);
// The 4-digit reply code in the last offer among `bodies` ("" if none).
std::string offerCodeIn(const std::vector<std::string>& bodies);

// The desk and the conversation layer in-process, without the services around them: `due()` runs
// the desk's timer work when the test says.
class CalloutFixture {
 public:
  CalloutFixture();
  ~CalloutFixture();

  void open();
  void close();

  // The UTC instant of local time hour:minute on Wednesday 2026-03-04 + `day`
  // (America/Los_Angeles).
  static TimePoint localTime(int day, int hour, int minute = 0);
  void setLocal(int day, int hour, int minute = 0) {
    millis_ = toMillis(localTime(day, hour, minute));
  }
  void advance(std::chrono::minutes by) { millis_ += by.count() * 60000; }
  TimePoint now() const { return atoms::fromUnixMillis(millis_.load()); }

  // One inbound text, handled at once (must succeed).
  void text(const std::string& from, const std::string& body);
  // Several texts stored first, then handled in one pass (replies "in the same second").
  void textsTogether(const std::vector<std::pair<std::string, std::string>>& texts);
  // The desk's timer work at now(); returns the steps taken.
  int due();
  // What the owner or the cloud changes, as the service would apply it: the kill switch (outreach
  // frozen from L1, released back at L0), the function's graduation, the wave size (a restart).
  void setLevel(policy::KillSwitchLevel level);
  void setGraduation(policy::Graduation graduation);
  void setWaveSize(int size);

  // Outbox bodies to `to`, oldest first.
  std::vector<std::string> textsTo(const std::string& to);
  std::string lastTo(const std::string& to);
  // The 4-digit reply code in the last offer to `to` ("" if none).
  std::string codeFor(const std::string& to);
  // Messages held by Outreach (not in the outbox) to `to`.
  int heldTo(const std::string& to);
  // Who works the Jamal's shift now, as stored.
  std::string storedAssignee(const std::string& shiftId);
  std::vector<Entry> entries(std::string_view kind);
  json::Value receiptWithId(const std::string& id);

  atoms::testing::TempDir tmp;
  std::string stateDir;
  site::SiteModel model;
  policy::PolicyState policy;  // what the gate sees; tests change the level
  callout::CalloutSettings settings;
  sms::conversation::ConversationSettings conversationSettings;
  drivers::SimulatedSmsGateway gateway;

  std::unique_ptr<SiteStore> store;
  std::unique_ptr<atoms::LockedStoreRunner> runner;
  std::unique_ptr<sms::mailbox::Outbox> outbox;
  std::unique_ptr<sms::mailbox::Inbox> inbox;
  std::unique_ptr<sms_site::SiteRoster> roster;
  std::unique_ptr<sms_site::ZoneSiteTime> siteTime;
  std::unique_ptr<sms::conversation::Outreach> outreach;
  std::unique_ptr<SiteSnapshot> site;
  std::unique_ptr<policy::PolicyGate> gate;
  std::unique_ptr<CalloutDesk> desk;
  std::unique_ptr<CalloutHandler> handler;
  std::unique_ptr<requests::RequestDesk> requestDesk;
  std::unique_ptr<requests::RequestHandler> requestHandler;
  std::unique_ptr<sms::conversation::Conversation> conversation;

 private:
  static std::int64_t toMillis(TimePoint t) { return atoms::toUnixMillis(t); }
  std::atomic<std::int64_t> millis_{0};
  std::uint32_t random_ = 12345;
};

}  // namespace atoms::callout::testing
