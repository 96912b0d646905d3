// Configuration of the Twilio driver (docs/sms-twilio.md lists every key with an example).
//
// Keys live under "sms.twilio." in atoms-edge.conf. twilioConfigKeys() is the table (key, default,
// description, validator) the service's config schema takes its rows from, so defaults are written
// once. loadTwilioConfig() builds a TwilioConfig from any key lookup and checks the whole of it;
// validateTwilioConfig() checks one built in code (tests, the demo).
//
// The auth token is a secret: it comes from a file (sms.twilio.auth-token-file, mode 0600, or the
// systemd credential "twilio-auth-token" in $CREDENTIALS_DIRECTORY) or, discouraged, from the key
// sms.twilio.auth-token; it is held in guarded memory and no error message or log line contains
// it. Pure functions; thread-safe.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "base/result.h"
#include "base/secret.h"

namespace atoms::drivers::twilio {

struct TwilioConfig {
  std::string accountSid;  // "AC" + 32 hex digits
  SecretBytes authToken;
  // Where the REST API lives. https with certificate and host name verification; http only to a
  // loopback host (the fake provider of the tests, tests/support/fake_twilio.h).
  std::string apiBaseUrl = "https://api.twilio.com";
  std::string from;                 // E.164 number, short code or alphanumeric sender id; or empty
  std::string messagingServiceSid;  // "MG" + 32 hex digits; or empty (one of the two is required)
  // The URL at which Twilio reaches the root of the webhook server (through a tunnel or reverse
  // proxy that terminates TLS), without a trailing '/': "https://shop-42.example.net/atoms".
  // Signatures are checked over it plus the path and query the server received, and status
  // callbacks are requested at publicUrl + "/sms/status?k=<idempotency key>".
  std::string publicUrl;
  std::string listenAddress = "127.0.0.1";
  std::uint16_t listenPort = 8089;  // 0: any free port (tests)
  std::chrono::milliseconds connectTimeout{5000};
  std::chrono::milliseconds requestTimeout{15000};
  int webhookThreads = 32;
  std::size_t maxWebhookBytes = 64 * 1024;
  // sms.twilio.opt-out-replies: Twilio's own keyword handling is on (its default on long codes,
  // and Advanced Opt-Out): it blocks a number that sends STOP (or one of its standard opt-out
  // words), unblocks one that sends START, and confirms both itself; the box records the change
  // without sending a second confirmation (docs/sms.md, "STOP and START"). False ("box"): the
  // account's keyword handling is off and the box confirms every STOP and START itself.
  bool providerConfirmsKeywords = true;
};

// A validator returns nullopt when the value is acceptable, else what was expected.
using TwilioKeyValidator = std::function<std::optional<std::string>(const std::string& value)>;

struct TwilioConfigKey {
  std::string key;           // "sms.twilio.account-sid"
  std::string defaultValue;  // "" when the key has no default
  std::string description;
  TwilioKeyValidator validate;  // accepts "" for keys that may stay unset
};

std::vector<TwilioConfigKey> twilioConfigKeys();

// The value of a key, or nullopt when it is not set.
using ConfigLookup = std::function<std::optional<std::string>(const std::string& key)>;

// Builds and checks the configuration. credentialsDir is $CREDENTIALS_DIRECTORY (nullopt or empty:
// none). Errors are one line naming the key: "sms.twilio.account-sid: expected AC followed by 32
// hex digits", "no Twilio auth token: set sms.twilio.auth-token-file ...", "auth token file F is
// accessible by group or others (mode 0644); run chmod 600 F".
Result<TwilioConfig> loadTwilioConfig(const ConfigLookup& lookup,
                                      const std::optional<std::string>& credentialsDir);

// The checks loadTwilioConfig applies, for a configuration built in code.
Status validateTwilioConfig(const TwilioConfig& config);

// Reads a secret from a file into guarded memory: regular file, not accessible by group or others,
// non-empty after removing one trailing newline (and a '\r' before it).
Result<SecretBytes> readSecretFile(const std::string& path);

// True for 127.0.0.0/8, ::1 and "localhost".
bool isLoopbackHost(const std::string& host);

}  // namespace atoms::drivers::twilio
