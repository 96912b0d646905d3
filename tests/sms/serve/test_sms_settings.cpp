#include <boost/test/unit_test.hpp>
// The sms.* keys: their rows in the service schema, and loadSmsSettings() turning them into the
// driver's configuration, with one-line errors naming the key and never a secret.
#include <Poco/Util/LayeredConfiguration.h>
#include <Poco/Util/MapConfiguration.h>
#include <sys/stat.h>

#include <algorithm>
#include <map>

#include "daemon/service/config_schema.h"
#include "daemon/service/sms_config.h"
#include "tests/sms/serve/serve_support.h"

namespace atoms::test {
namespace {

const std::string kSid = "AC0123456789abcdef0123456789abcdef";
const std::string kToken = "secret-token-0123456789abcdef";

struct Settings {
  Result<SmsSettings> load(const std::map<std::string, std::string>& keys,
                           const std::optional<std::string>& credentials = std::nullopt) {
    Poco::AutoPtr<Poco::Util::MapConfiguration> file(new Poco::Util::MapConfiguration);
    for (const auto& [k, v] : keys) file->setString(k, v);
    Status valid = validateConfig(*file, serviceConfigSchema(), "test");
    if (!valid) return valid.error();
    Poco::AutoPtr<Poco::Util::LayeredConfiguration> merged(new Poco::Util::LayeredConfiguration);
    merged->add(Poco::AutoPtr<Poco::Util::AbstractConfiguration>(file), 0);
    merged->add(configDefaults(serviceConfigSchema()), 1);
    return loadSmsSettings(*merged, tmp.path(), credentials);
  }
  std::string secretFile(const std::string& name, const std::string& content, mode_t mode) {
    const std::string path = tmp.write(name, content);
    BOOST_REQUIRE(::chmod(path.c_str(), mode) == 0);
    return path;
  }
  TempDir tmp;
};

}  // namespace

BOOST_FIXTURE_TEST_SUITE(sms_settings, Settings)

BOOST_AUTO_TEST_CASE(theSchemaListsEverySmsKeyWithADefaultItAccepts) {
  const auto schema = serviceConfigSchema();
  for (const std::string key :
       {"sms.driver", "sms.retry.max-attempts", "sms.modem.device", "sms.modem.sim-pin-file",
        "sms.twilio.account-sid", "sms.twilio.public-url", "sms.twilio.listen-port"}) {
    auto row = std::find_if(schema.begin(), schema.end(),
                            [&](const ConfigKey& k) { return k.key == key; });
    BOOST_TEST_CONTEXT(key) {
      BOOST_REQUIRE(row != schema.end());
      BOOST_TEST(!row->validate(row->defaultValue).has_value());
    }
  }
}

BOOST_AUTO_TEST_CASE(smsIsOffByDefaultWithTheMailboxRetryPolicy) {
  auto s = load({});
  BOOST_REQUIRE_MESSAGE(s, s.message());
  BOOST_TEST((s->driver == SmsDriver::kOff));
  const sms::mailbox::RetryPolicy defaults;
  BOOST_TEST(s->retry.initialDelay.count() == defaults.initialDelay.count());
  BOOST_TEST(s->retry.maxDelay.count() == defaults.maxDelay.count());
  BOOST_TEST(s->retry.maxAttempts == defaults.maxAttempts);
  BOOST_TEST(!s->twilio.has_value());
  BOOST_TEST(!s->modem.has_value());
}

BOOST_AUTO_TEST_CASE(retryLimitsAreReadAndAContradictionNamesTheKey) {
  auto s = load({{"sms.driver", "simulated"},
                 {"sms.retry.initial-delay-ms", "2000"},
                 {"sms.retry.max-delay-ms", "60000"},
                 {"sms.retry.max-attempts", "3"}});
  BOOST_REQUIRE_MESSAGE(s, s.message());
  BOOST_TEST(s->retry.initialDelay.count() == 2000);
  BOOST_TEST(s->retry.maxDelay.count() == 60000);
  BOOST_TEST(s->retry.maxAttempts == 3);
  auto bad = load({{"sms.retry.initial-delay-ms", "5000"}, {"sms.retry.max-delay-ms", "1000"}});
  BOOST_REQUIRE(!bad);
  BOOST_TEST(bad.message() == "sms.retry.max-delay-ms is below sms.retry.initial-delay-ms");
}

BOOST_AUTO_TEST_CASE(badValuesAreRefusedByTheirRowNamingTheKey) {
  for (const auto& [key, value] :
       std::vector<std::pair<std::string, std::string>>{{"sms.driver", "pigeon"},
                                                        {"sms.modem.baud", "1234"},
                                                        {"sms.modem.mode", "binary"},
                                                        {"sms.modem.device", "ttyUSB0"},
                                                        {"sms.modem.own-number", "0123"},
                                                        {"sms.retry.max-attempts", "0"},
                                                        {"sms.twilio.account-sid", "AC12"},
                                                        {"sms.twilio.listen-port", "70000"}}) {
    auto s = load({{key, value}});
    BOOST_TEST_CONTEXT(key) {
      BOOST_REQUIRE(!s);
      BOOST_TEST(contains(s.message(), "bad value '" + value + "' for " + key), s.message());
    }
  }
}

BOOST_AUTO_TEST_CASE(theModemDriverNeedsADeviceAndKeepsItsJournalInTheStateDirectory) {
  auto missing = load({{"sms.driver", "modem"}});
  BOOST_REQUIRE(!missing);
  BOOST_TEST(missing.message().starts_with("sms.modem.device must be set"), missing.message());

  auto s = load({{"sms.driver", "modem"},
                 {"sms.modem.device", "/dev/ttyUSB2"},
                 {"sms.modem.baud", "9600"},
                 {"sms.modem.mode", "text"},
                 {"sms.modem.inbound", "direct"},
                 {"sms.modem.status-reports", "off"},
                 {"sms.modem.validity-minutes", "0"},
                 {"sms.modem.own-number", "+15550100000"}});
  BOOST_REQUIRE_MESSAGE(s, s.message());
  BOOST_REQUIRE(s->modem.has_value());
  const auto& m = *s->modem;
  BOOST_TEST(m.serial.device == "/dev/ttyUSB2");
  BOOST_TEST(m.serial.baud == 9600);
  BOOST_TEST((m.mode == drivers::modem::ModemConfig::Mode::kText));
  BOOST_TEST((m.inbound == drivers::modem::ModemConfig::Inbound::kDirect));
  BOOST_TEST(!m.requestStatusReports);
  BOOST_TEST(!m.validity.has_value());
  BOOST_TEST(m.ownNumber == "+15550100000");
  BOOST_TEST(m.journalPath == modemJournalPath(tmp.path()));
  BOOST_TEST(m.simPin.empty());

  auto backoff = load({{"sms.driver", "modem"},
                       {"sms.modem.device", "/dev/ttyUSB2"},
                       {"sms.modem.backoff-min-ms", "5000"},
                       {"sms.modem.backoff-max-ms", "1000"}});
  BOOST_REQUIRE(!backoff);
  BOOST_TEST(backoff.message() == "sms.modem.backoff-max-ms is below sms.modem.backoff-min-ms");
}

BOOST_AUTO_TEST_CASE(theModemReassemblyWindowIsASettingOfOneMinuteToADay) {
  auto byDefault = load({{"sms.driver", "modem"}, {"sms.modem.device", "/dev/ttyUSB2"}});
  BOOST_REQUIRE_MESSAGE(byDefault, byDefault.message());
  BOOST_TEST(byDefault->modem->reassemblyTimeout.count() == 10 * 60 * 1000);
  auto set = load({{"sms.driver", "modem"},
                   {"sms.modem.device", "/dev/ttyUSB2"},
                   {"sms.modem.reassembly-minutes", "1440"}});
  BOOST_REQUIRE_MESSAGE(set, set.message());
  BOOST_TEST(set->modem->reassemblyTimeout.count() == 1440LL * 60 * 1000);
  for (const std::string bad : {"0", "1441", "-5", "ten"}) {
    auto s = load({{"sms.driver", "modem"},
                   {"sms.modem.device", "/dev/ttyUSB2"},
                   {"sms.modem.reassembly-minutes", bad}});
    BOOST_TEST_CONTEXT(bad) {
      BOOST_REQUIRE(!s);
      BOOST_TEST(contains(s.message(), "bad value '" + bad + "' for sms.modem.reassembly-minutes"),
                 s.message());
    }
  }
}

BOOST_AUTO_TEST_CASE(theSimPinComesFromAPrivateFileOrACredentialAndIsNeverEchoed) {
  const std::string pin = secretFile("pin", "4711\n", 0600);
  auto s = load({{"sms.driver", "modem"},
                 {"sms.modem.device", "/dev/ttyUSB2"},
                 {"sms.modem.sim-pin-file", pin}});
  BOOST_REQUIRE_MESSAGE(s, s.message());
  BOOST_TEST(s->modem->simPin == "4711");

  const std::string open = secretFile("open-pin", "4711\n", 0644);
  auto readable = load({{"sms.driver", "modem"},
                        {"sms.modem.device", "/dev/ttyUSB2"},
                        {"sms.modem.sim-pin-file", open}});
  BOOST_REQUIRE(!readable);
  BOOST_TEST(readable.message().starts_with("sms.modem.sim-pin-file " + open), readable.message());
  BOOST_TEST(contains(readable.message(), "chmod 600"));

  const std::string junk = secretFile("junk-pin", "47x1-secret\n", 0600);
  auto bad = load({{"sms.driver", "modem"},
                   {"sms.modem.device", "/dev/ttyUSB2"},
                   {"sms.modem.sim-pin-file", junk}});
  BOOST_REQUIRE(!bad);
  BOOST_TEST(contains(bad.message(), "sms.modem.sim-pin-file"));
  BOOST_TEST(!contains(bad.message(), "47x1"), bad.message());

  auto absent = load({{"sms.driver", "modem"},
                      {"sms.modem.device", "/dev/ttyUSB2"},
                      {"sms.modem.sim-pin-file", tmp.file("absent")}});
  BOOST_REQUIRE(!absent);
  BOOST_TEST(absent.message().starts_with("sms.modem.sim-pin-file"), absent.message());

  TempDir credentials;
  BOOST_REQUIRE(::chmod(credentials.write("modem-sim-pin", "1234").c_str(), 0400) == 0);
  auto fromCredential =
      load({{"sms.driver", "modem"}, {"sms.modem.device", "/dev/ttyUSB2"}}, credentials.path());
  BOOST_REQUIRE_MESSAGE(fromCredential, fromCredential.message());
  BOOST_TEST(fromCredential->modem->simPin == "1234");
}

BOOST_AUTO_TEST_CASE(theChecklistFileIsReadAtLoadAndABadOneNamesTheKey) {
  const std::string good = tmp.write(
      "checklists.json",
      R"({"version": 1, "checklists": [{"id": "opening", "name": "Opening", "due": "10:30",)"
      R"( "owner": {"person": "p-ana"}}]})");
  auto s = load({{"sms.checklists.file", good}});
  BOOST_REQUIRE_MESSAGE(s, s.message());
  BOOST_REQUIRE_EQUAL(s->conversation.checklists.all().size(), 1u);
  BOOST_TEST(s->conversation.checklists.all()[0].dueMinute == 10 * 60 + 30);
  BOOST_TEST(load({})->conversation.checklists.empty());

  const std::string bad = tmp.write("bad.json", R"({"version": 1, "checklists": [{"id": "x"}]})");
  auto refused = load({{"sms.checklists.file", bad}});
  BOOST_REQUIRE(!refused);
  BOOST_TEST(refused.message() ==
                 "sms.checklists.file " + bad + ": checklists[0] (x): name must be 1-60 characters",
             refused.message());
  auto missing = load({{"sms.checklists.file", tmp.file("absent.json")}});
  BOOST_REQUIRE(!missing);
  BOOST_TEST(missing.message() ==
             "sms.checklists.file " + tmp.file("absent.json") + " cannot be read");
}

BOOST_AUTO_TEST_CASE(modemFailoverNeedsTwilioAndAModemDevice) {
  auto withoutTwilio = load(
      {{"sms.driver", "modem"}, {"sms.modem.device", "/dev/ttyUSB2"}, {"sms.failover", "modem"}});
  BOOST_REQUIRE(!withoutTwilio);
  BOOST_TEST(withoutTwilio.message() ==
                 "sms.failover = modem needs sms.driver = twilio (the modem is the fallback for "
                 "safety alerts Twilio does not take), not modem",
             withoutTwilio.message());

  TempDir credentials;
  BOOST_REQUIRE(::chmod(credentials.write("twilio-auth-token", kToken + "\n").c_str(), 0400) == 0);
  std::map<std::string, std::string> keys = {
      {"sms.driver", "twilio"},
      {"sms.twilio.account-sid", kSid},
      {"sms.twilio.from", "+15550100000"},
      {"sms.twilio.public-url", "https://shop.example.net/a"},
      {"sms.failover", "modem"}};
  auto noDevice = load(keys, credentials.path());
  BOOST_REQUIRE(!noDevice);
  BOOST_TEST(noDevice.message().starts_with("sms.modem.device must be set"), noDevice.message());

  keys["sms.modem.device"] = "/dev/ttyUSB2";
  auto s = load(keys, credentials.path());
  BOOST_REQUIRE_MESSAGE(s, s.message());
  BOOST_TEST(s->modemFailover);
  BOOST_REQUIRE(s->twilio.has_value());
  BOOST_REQUIRE(s->modem.has_value());
  BOOST_TEST(s->modem->serial.device == "/dev/ttyUSB2");

  keys.erase("sms.failover");
  auto plain = load(keys, credentials.path());
  BOOST_REQUIRE_MESSAGE(plain, plain.message());
  BOOST_TEST(!plain->modemFailover);
  BOOST_TEST(!plain->modem.has_value());
}

BOOST_AUTO_TEST_CASE(theTwilioDriverTakesItsTokenFromACredentialAndNeverEchoesIt) {
  const std::map<std::string, std::string> keys = {
      {"sms.driver", "twilio"},
      {"sms.twilio.account-sid", kSid},
      {"sms.twilio.from", "+15550100000"},
      {"sms.twilio.public-url", "https://shop.example.net/atoms"}};
  auto none = load(keys);
  BOOST_REQUIRE(!none);
  BOOST_TEST(contains(none.message(), "twilio-auth-token"), none.message());

  TempDir credentials;
  BOOST_REQUIRE(::chmod(credentials.write("twilio-auth-token", kToken + "\n").c_str(), 0400) == 0);
  auto s = load(keys, credentials.path());
  BOOST_REQUIRE_MESSAGE(s, s.message());
  BOOST_REQUIRE(s->twilio.has_value());
  BOOST_TEST(s->twilio->accountSid == kSid);
  BOOST_TEST(s->twilio->apiBaseUrl == "https://api.twilio.com");
  const auto token = s->twilio->authToken.view();
  BOOST_TEST(std::string(token.begin(), token.end()) == kToken);

  auto withoutUrl = keys;
  withoutUrl.erase("sms.twilio.public-url");
  auto noUrl = load(withoutUrl, credentials.path());
  BOOST_REQUIRE(!noUrl);
  BOOST_TEST(noUrl.message() == "sms.twilio.public-url must be set");

  const std::string open = secretFile("token", kToken, 0644);
  auto readable = keys;
  readable["sms.twilio.auth-token-file"] = open;
  auto refused = load(readable);
  BOOST_REQUIRE(!refused);
  BOOST_TEST(contains(refused.message(), "chmod 600"), refused.message());
  BOOST_TEST(!contains(refused.message(), kToken));
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace atoms::test
