// Support for the SMS serve tests: an initialised state directory with a config file, what the
// store holds once serve has stopped (read through the mailbox's own API), an outbound message
// enqueued before serve starts, and a GSM-7 SMS-DELIVER for the simulated modem.
// Test code: BOOST_REQUIREs on setup failures.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <functional>
#include <mutex>
#include <string>
#include <vector>

#include "drivers/sms/modem/pdu.h"
#include "sms/mailbox/inbox.h"
#include "sms/mailbox/outbox_row.h"
#include "tests/daemon/helpers.h"
#include "tests/support/fake_twilio.h"

namespace atoms::test {

using namespace std::chrono_literals;

// Generous: the sanitizer build starts slowly. A passing run never waits this long.
inline constexpr std::chrono::milliseconds kDeadline = 60s;
inline constexpr int kExitConfig = 78;

struct SmsSite {
  SmsSite();
  // Writes atoms-edge.conf: state.dir and `extra` (lines of keys).
  std::string config(const std::string& extra) const;
  TempDir tmp;
  std::string stateDir;
};

inline const std::string kPublicUrl = "https://shop-42.example.net/atoms";
inline const std::string kBoxNumber = "+15550100000";

// The fake provider, a token file, and a config pointing serve at both.
struct TwilioSite {
  TwilioSite();
  // The config file: `extra` lines, then the Twilio driver's keys.
  std::string config(const std::string& extra = "") const;
  // Waits for serve's "SMS started" line and routes the fake's webhooks to the port it names
  // (what the TLS-terminating proxy in front of a box does).
  void connect(ChildProcess& serve);
  bool waitForCreated(std::size_t n);
  // Waits (kDeadline at most) until `done` holds for the messages created so far.
  bool waitUntil(const std::function<bool(const std::vector<drivers::twilio::FakeMessage>&)>& done);
  // Stops serve (SIGTERM, a clean exit required) and returns the messages the provider created.
  std::vector<drivers::twilio::FakeMessage> stopAndCollect(ChildProcess& serve);

  SmsSite site;
  drivers::twilio::FakeTwilio fake;
  std::string tokenFile;
  std::mutex mutex;
  std::condition_variable changed;
  std::vector<drivers::twilio::FakeMessage> created;
};

// The store's SMS content after serve stopped.
struct StoredSms {
  std::size_t inboxRows = 0;                    // every row, any state
  std::vector<sms::mailbox::InboxRow> inbound;  // every row, any state, oldest first
  std::vector<sms::mailbox::OutboxRow> outbox;  // every row, enqueue order
  std::vector<std::string> auditKinds;          // kind of every audit entry, in order
  std::vector<std::string> auditTexts;
  std::size_t count(const std::string& kind) const;
  std::vector<sms::mailbox::InboxRow> newRows() const;  // state new, oldest first
};
StoredSms readStore(const std::string& stateDir);

// Enqueues one outbound message (id, to, body) into the store while no serve runs.
void enqueueBeforeServe(const std::string& stateDir, const std::string& id, const std::string& to,
                        const std::string& body);

// The line of log that contains needle ("" if none).
std::string lineWith(const std::string& log, const std::string& needle);
// Lines of log with level=fatal.
std::size_t fatalLines(const std::string& log);

// An SMS-DELIVER from `from` with a GSM-7 text (ASCII only).
drivers::modem::DeliverPdu gsm7Deliver(const std::string& from, const std::string& text);
// One part of a concatenated GSM-7 message (a part holds at most 153 characters).
drivers::modem::DeliverPdu gsm7DeliverPart(const std::string& from, const std::string& text,
                                           drivers::modem::ConcatInfo part);

}  // namespace atoms::test
