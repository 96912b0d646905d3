// Shared pieces of the Twilio driver tests: a recording SmsSink, a refusal log, and a gateway
// configuration pointing at a FakeTwilio.
#pragma once

#include <chrono>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <string>
#include <vector>

#include "base/bytes.h"
#include "drivers/sms/sms_gateway.h"
#include "drivers/sms/twilio/twilio_config.h"
#include "drivers/sms/twilio/twilio_gateway.h"
#include "tests/support/event_log.h"
#include "tests/support/fake_twilio.h"
#include "tests/support/recording_sms_sink.h"

namespace atoms::drivers::twilio::testing {

using RecordingSink = atoms::test::RecordingSmsSink;

// Thread-safe list of the refusals a gateway reported.
using RefusalLog = atoms::testing::EventLog<RefusedWebhook>;

inline const std::string kTestToken = "fake-auth-token-0123456789abcdef";
inline const std::string kTestAccount = "AC0123456789abcdef0123456789abcdef";
inline const std::string kSiteNumber = "+15550100000";

inline FakeTwilioOptions fakeOptions() {
  FakeTwilioOptions o;
  o.accountSid = kTestAccount;
  o.authToken = kTestToken;
  return o;
}

// Where the tests' gateways are reached "from the internet": the proxy in front of the box strips
// the /atoms prefix and forwards to the webhook server (FakeTwilio::routeWebhooks).
inline const std::string kPublicUrl = "https://shop-42.example.net/atoms";

// A config for a gateway whose API is `apiBase` and whose webhook server listens on a port the
// system picks (port 0: no race with other processes for a "free" port).
inline TwilioConfig gatewayConfig(const std::string& apiBase, std::uint16_t port = 0) {
  TwilioConfig c;
  c.accountSid = kTestAccount;
  c.authToken = SecretBytes(asBytes(kTestToken));
  c.apiBaseUrl = apiBase;
  c.from = kSiteNumber;
  c.publicUrl = kPublicUrl;
  c.listenAddress = "127.0.0.1";
  c.listenPort = port;
  c.connectTimeout = std::chrono::milliseconds(2000);
  c.requestTimeout = std::chrono::milliseconds(5000);
  c.webhookThreads = 4;
  return c;
}

}  // namespace atoms::drivers::twilio::testing
