#include <sys/stat.h>

#include <boost/test/unit_test.hpp>
#include <map>

#include "drivers/sms/twilio/twilio_config.h"
#include "tests/support/temp_dir.h"

namespace atoms::drivers::twilio {
namespace {

const std::string kConfigToken = "f00dfacef00dfacef00dfacef00dface";

struct Keys {
  std::map<std::string, std::string> values{
      {"sms.twilio.account-sid", "AC0123456789abcdef0123456789abcdef"},
      {"sms.twilio.from", "+15550100000"},
      {"sms.twilio.public-url", "https://shop-42.example.net/atoms"},
  };
  ConfigLookup lookup() const {
    return [this](const std::string& key) -> std::optional<std::string> {
      auto it = values.find(key);
      if (it == values.end()) return std::nullopt;
      return it->second;
    };
  }
};

std::string tokenFile(const atoms::testing::TempDir& dir, const std::string& text, mode_t mode) {
  const std::string path = dir.write("twilio-auth-token", text);
  ::chmod(path.c_str(), mode);
  return path;
}

std::string loadError(const Keys& keys, const std::optional<std::string>& credentials = {}) {
  Result<TwilioConfig> c = loadTwilioConfig(keys.lookup(), credentials);
  BOOST_TEST_REQUIRE(!c.ok());
  BOOST_TEST(c.message().find(kConfigToken) == std::string::npos);
  return c.message();
}

}  // namespace

BOOST_AUTO_TEST_SUITE(config)

BOOST_AUTO_TEST_CASE(loadsAConfigWithTheTokenFromAFile) {
  atoms::testing::TempDir dir;
  Keys keys;
  keys.values["sms.twilio.auth-token-file"] = tokenFile(dir, kConfigToken + "\n", 0600);
  keys.values["sms.twilio.listen-port"] = "9090";
  Result<TwilioConfig> c = loadTwilioConfig(keys.lookup(), std::nullopt);
  BOOST_TEST_REQUIRE(c.ok(), c.message());
  BOOST_TEST(std::string(c->authToken.view().begin(), c->authToken.view().end()) == kConfigToken);
  BOOST_TEST(c->apiBaseUrl == "https://api.twilio.com");
  BOOST_TEST(c->listenPort == 9090);
  BOOST_TEST(c->listenAddress == "127.0.0.1");
  BOOST_TEST(c->requestTimeout.count() == 15000);
}

BOOST_AUTO_TEST_CASE(readsTheTokenFromSystemdCredentials) {
  atoms::testing::TempDir dir;
  tokenFile(dir, kConfigToken, 0400);
  Keys keys;
  Result<TwilioConfig> c = loadTwilioConfig(keys.lookup(), dir.path());
  BOOST_TEST_REQUIRE(c.ok(), c.message());
  BOOST_TEST(c->authToken.size() == kConfigToken.size());
}

BOOST_AUTO_TEST_CASE(refusesATokenFileOthersCanRead) {
  atoms::testing::TempDir dir;
  Keys keys;
  const std::string path = tokenFile(dir, kConfigToken, 0644);
  keys.values["sms.twilio.auth-token-file"] = path;
  BOOST_TEST(loadError(keys) == "auth token file " + path +
                                    " is accessible by group or others (mode 0644); run chmod "
                                    "600 " +
                                    path);
}

BOOST_AUTO_TEST_CASE(refusesToStartWithoutAToken) {
  Keys keys;
  BOOST_TEST(loadError(keys) ==
             "no Twilio auth token: set sms.twilio.auth-token-file or supply the systemd "
             "credential twilio-auth-token");
}

BOOST_AUTO_TEST_CASE(refusesTwoTokenSources) {
  atoms::testing::TempDir dir;
  Keys keys;
  keys.values["sms.twilio.auth-token-file"] = tokenFile(dir, kConfigToken, 0600);
  keys.values["sms.twilio.auth-token"] = kConfigToken;
  BOOST_TEST(loadError(keys).find("both set") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(neverEchoesAnInlineToken) {
  Keys keys;
  keys.values["sms.twilio.auth-token"] = kConfigToken + " trailing";
  const std::string error = loadError(keys);
  BOOST_TEST(error.find("whitespace") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(refusesPlainHttpExceptToLoopback) {
  Keys keys;
  keys.values["sms.twilio.auth-token"] = kConfigToken;
  keys.values["sms.twilio.api-base-url"] = "http://api.twilio.com";
  BOOST_TEST(loadError(keys).starts_with("sms.twilio.api-base-url: bad value"));
  keys.values["sms.twilio.api-base-url"] = "http://127.0.0.1:8080";
  keys.values["sms.twilio.public-url"] = "http://shop.example.net";
  BOOST_TEST(loadError(keys).starts_with("sms.twilio.public-url: bad value"));
  keys.values["sms.twilio.public-url"] = "http://[::1]:9000";
  Result<TwilioConfig> c = loadTwilioConfig(keys.lookup(), std::nullopt);
  BOOST_TEST(c.ok(), c.message());
}

BOOST_AUTO_TEST_CASE(refusesUrlsWithATrailingSlashQueryOrCredentials) {
  Keys keys;
  keys.values["sms.twilio.auth-token"] = kConfigToken;
  for (const std::string url :
       {"https://shop.example.net/", "https://shop.example.net/?a=1",
        "https://user:pw@shop.example.net", "https://shop.example.net#x", "shop.example.net"}) {
    keys.values["sms.twilio.public-url"] = url;
    BOOST_TEST(loadError(keys).starts_with("sms.twilio.public-url: bad value"), url);
  }
}

BOOST_AUTO_TEST_CASE(needsASenderOrAMessagingService) {
  Keys keys;
  keys.values["sms.twilio.auth-token"] = kConfigToken;
  keys.values.erase("sms.twilio.from");
  BOOST_TEST(loadError(keys) == "sms.twilio.from or sms.twilio.messaging-service-sid must be set");
  keys.values["sms.twilio.messaging-service-sid"] = "MG0123456789abcdef0123456789abcdef";
  BOOST_TEST(loadTwilioConfig(keys.lookup(), std::nullopt).ok());
}

BOOST_AUTO_TEST_CASE(checksIdentifiersAndNumbers) {
  Keys keys;
  keys.values["sms.twilio.auth-token"] = kConfigToken;
  const std::vector<std::pair<std::string, std::string>> bad{
      {"sms.twilio.account-sid", "AC0123"},
      {"sms.twilio.account-sid", "AC0123456789ABCDEF0123456789ABCDEF"},
      {"sms.twilio.messaging-service-sid", "AC0123456789abcdef0123456789abcdef"},
      {"sms.twilio.from", "+1-555-0100"},
      {"sms.twilio.listen-port", "70000"},
      {"sms.twilio.listen-address", "shop.local"},
      {"sms.twilio.request-timeout-ms", "10"},
      {"sms.twilio.webhook-threads", "0"},
  };
  for (const auto& [key, value] : bad) {
    Keys k = keys;
    k.values[key] = value;
    BOOST_TEST(loadError(k).starts_with(key + ": bad value '" + value + "'"), key);
  }
  for (const std::string sender : {"+442071838750", "12345", "AtomsShop"}) {
    Keys k = keys;
    k.values["sms.twilio.from"] = sender;
    BOOST_TEST(loadTwilioConfig(k.lookup(), std::nullopt).ok(), sender);
  }
}

BOOST_AUTO_TEST_CASE(everyDefaultPassesItsValidator) {
  for (const TwilioConfigKey& k : twilioConfigKeys()) {
    BOOST_TEST(!k.validate(k.defaultValue).has_value(), k.key);
    BOOST_TEST(k.key.starts_with("sms.twilio."));
    BOOST_TEST(!k.description.empty());
  }
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace atoms::drivers::twilio
