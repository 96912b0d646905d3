// The call-out site of callout_fixture.h run through the real service wiring (EdgeServices, as
// `atoms-edge serve` builds it) in-process on a SimulatedClock: texts come in as signed Twilio
// webhooks over loopback HTTP (FakeTwilio plays the provider), are committed by the Twilio driver,
// handled by the conversation layer and the call-out desk on the engine thread, and leave through
// the outbox, the dispatcher and the Twilio driver to the provider, where textsTo() reads them.
// Timers (waves, escalations, expiries, retries) fire when advance() moves the clock.
//
// Every call returns once the service is quiet: the engine has run what was due, no inbound text
// waits, and the dispatcher has handed the provider every message due (waiting on conditions with
// a deadline, never sleeping). close() and open() stop and start the services on the same
// directory, as a restart does.
#pragma once

#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "base/clock.h"
#include "daemon/service/edge_services.h"
#include "domain/policy/kill_switch.h"
#include "domain/policy/policy_gate.h"
#include "domain/site/site_model.h"
#include "drivers/terminal/simulated_terminal.h"
#include "store/audit_entry.h"
#include "store/store_runner.h"
#include "tests/support/fake_twilio.h"
#include "tests/support/temp_dir.h"
#include "tests/support/test_app.h"

namespace atoms::callout::testing {

// API tokens the served scenarios give (addApi) to Kwame, everyone's manager of record, and Rosa,
// the lead (neither role).
inline const std::string kKwameToken = "kwame-token-3f9a1c7e5b2d4086";
inline const std::string kRosaToken = "rosa-token-5a7c9e1b3d0f2864";

class ServedSite {
 public:
  ServedSite();
  ~ServedSite();

  void open();
  void close();

  TimePoint now() const { return clock_.now(); }
  void advance(std::chrono::minutes by);

  void text(const std::string& from, const std::string& body);
  // Several webhooks, one right after the other, before waiting for the service (the same second).
  void textsTogether(const std::vector<std::pair<std::string, std::string>>& texts);
  // Timers run as the clock moves; this only waits until the service is quiet.
  int due();

  // A time clock at the door (terminal.listen, a token for "door"), then a restart; punch() sends
  // a punch to it over HTTP as the simulated terminal does and requires it stored.
  void addTimeClock();
  void punch(const std::string& personId, drivers::terminal::PunchKind kind, TimePoint at);

  // The JSON API on a loopback port with a token per person (`tokens`: person id -> token), then
  // a restart; apiPort() is where it listens.
  void addApi(const std::map<std::string, std::string>& tokens);
  std::uint16_t apiPort();
  std::uint16_t webhookPort();   // the Twilio driver's webhook server
  std::uint16_t terminalPort();  // after addTimeClock()

  // A person changes the site with `site import` while the service is stopped (close, import the
  // stored site with `change` applied, open).
  void importChange(const std::function<void(site::SiteModel&)>& change);
  // importChange() giving `shiftId` to `personId`.
  void reassignByImport(const std::string& shiftId, const std::string& personId);

  void setLevel(policy::KillSwitchLevel level);
  // Runs `fn` on the engine thread with the policy subsystem (its breakers, its state), then
  // waits until the service is quiet.
  void withPolicy(const std::function<void(PolicySubsystem&)>& fn);
  void setGraduation(policy::Graduation graduation);  // policy.graduation.*, then a restart
  void setWaveSize(int size);                         // callout.wave_size, then a restart
  void setChecklists(const std::string& json);        // sms.checklists.file, then a restart
  void configure(const std::string& key, const std::string& value);  // any key, then a restart

  // Bodies the provider was handed for `to`, oldest first.
  std::vector<std::string> textsTo(const std::string& to);
  std::string lastTo(const std::string& to);
  std::string codeFor(const std::string& to);
  int heldTo(const std::string& to);
  std::string storedAssignee(const std::string& shiftId);
  // Runs `sql` on the store as a tool outside the service would (a `site import`): the service's
  // site snapshot is not told.
  void writeToStore(const std::string& sql);
  std::vector<Entry> entries(std::string_view kind);
  std::uint64_t auditSize();  // entries in the audit log
  json::Value receiptWithId(const std::string& id);

  drivers::twilio::FakeTwilio provider;

 private:
  void settle();
  atoms::StoreRunner& runner();

  atoms::testing::TempDir tmp_;
  std::string stateDir_;
  std::map<std::string, std::string> config_;
  SimulatedClock clock_;
  std::unique_ptr<atoms::test::TestApp> app_;
  std::unique_ptr<EdgeServices> services_;
  std::unique_ptr<atoms::StoreRunner> runner_;
  std::unique_ptr<drivers::terminal::SimulatedTerminal> terminal_;
};

}  // namespace atoms::callout::testing
