// A state directory with a small site for the panel's accounts: an owner (p-olga, by
// policy.owners), a manager of record (p-maya), a shift lead (p-leo) and a cook with no panel
// role (p-cook); the real outbox on the store; PanelAuth on a simulated clock. Passwords are
// hashed at libsodium's minimum cost here (test_password.cpp covers the real cost).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "base/clock.h"
#include "daemon/panel/panel_auth.h"
#include "sms/mailbox/outbox.h"
#include "store/audit_entry.h"
#include "store/site_store.h"
#include "store/store_runner.h"
#include "tests/support/temp_dir.h"

namespace atoms::panel::testing {

inline constexpr char kOwner[] = "p-olga";
inline constexpr char kManager[] = "p-maya";
inline constexpr char kLead[] = "p-leo";
inline constexpr char kCook[] = "p-cook";
inline constexpr char kLeadPhone[] = "+14155550103";
inline constexpr char kPassword[] = "correct horse battery";
inline constexpr char kOrigin[] = "https://panel.bistro.lan:8443";

class PanelFixture {
 public:
  PanelFixture();
  ~PanelFixture();

  // An invite for `person` accepted with `password`: the signed-in result.
  SignInResult enroll(const std::string& person, const std::string& password = kPassword);
  // Audit entries of `kind`, oldest first; every entry text.
  std::vector<Entry> entries(std::string_view kind);
  std::string allEntryTexts();
  // Runs `sql` (one value) on the store and returns it as text.
  std::string queryText(const std::string& sql);
  std::int64_t queryInt(const std::string& sql);
  // The outbox rows, oldest first.
  std::vector<sms::mailbox::OutboxRow> outboxRows();
  // The 6 digits of the newest texted code.
  std::string lastTextedCode();

  atoms::testing::TempDir tmp;
  std::string stateDir;
  SimulatedClock clock;
  std::unique_ptr<SiteStore> store;
  std::unique_ptr<LockedStoreRunner> runner;
  std::unique_ptr<sms::mailbox::Outbox> outbox;
  PanelAuthOptions options;
  std::unique_ptr<PanelAuth> auth;
  ClientContext client{"192.0.2.10", ""};
};

}  // namespace atoms::panel::testing
