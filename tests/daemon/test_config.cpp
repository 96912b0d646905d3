#include <Poco/AutoPtr.h>
#include <Poco/Util/MapConfiguration.h>

#include <boost/test/unit_test.hpp>
#include <stdexcept>
#include <string>

#include "daemon/service/callout_config.h"
#include "daemon/service/config_schema.h"
#include "tests/daemon/helpers.h"
#include "tests/support/build_paths.h"

using namespace atoms;

namespace {

Status validate(const std::string& text) {
  test::TempDir dir;
  auto loaded = loadConfigFile(dir.write("a.conf", text));
  BOOST_REQUIRE_MESSAGE(loaded.ok(), (loaded.ok() ? "" : loaded.message()));
  return validateConfig(**loaded, serviceConfigSchema(), "F");
}

}  // namespace

BOOST_AUTO_TEST_SUITE(config)

BOOST_AUTO_TEST_CASE(everyDefaultPassesItsOwnValidator) {
  for (const ConfigKey& row : serviceConfigSchema()) {
    BOOST_TEST_CONTEXT(row.key) {
      BOOST_TEST(!row.description.empty());
      BOOST_TEST(!row.validate(row.defaultValue).has_value());
    }
  }
}

BOOST_AUTO_TEST_CASE(aFileWithKnownKeysAndGoodValuesIsAccepted) {
  Status s = validate(
      "# comment\n"
      "state.dir = /srv/atoms\n"
      "log.level = debug\n"
      "log.format = json\n");
  BOOST_TEST(s.ok(), s.message());
  BOOST_TEST(validate("").ok());
}

BOOST_AUTO_TEST_CASE(unknownKeysAreNamed) {
  Status s = validate("state.dir = /srv\nlog.levle = debug\n");
  BOOST_REQUIRE(!s.ok());
  BOOST_TEST(s.message() == "F: unknown key 'log.levle'");
  // A key that only prefixes known ones is unknown too.
  s = validate("log = 1\n");
  BOOST_REQUIRE(!s.ok());
  BOOST_TEST(s.message() == "F: unknown key 'log'");
}

BOOST_AUTO_TEST_CASE(badValuesNameTheKeyTheValueAndWhatWasExpected) {
  Status s = validate("log.level = loud\n");
  BOOST_REQUIRE(!s.ok());
  BOOST_TEST(s.message() ==
             "F: bad value 'loud' for log.level (expected one of fatal, critical, error, "
             "warning, notice, information, debug, trace)");
  s = validate("log.format = xml\n");
  BOOST_REQUIRE(!s.ok());
  BOOST_TEST(s.message() == "F: bad value 'xml' for log.format (expected one of logfmt, json)");
  s = validate("state.dir = relative/dir\n");
  BOOST_REQUIRE(!s.ok());
  BOOST_TEST(s.message() ==
             "F: bad value 'relative/dir' for state.dir (expected an absolute path)");
  s = validate("state.dir =\n");
  BOOST_REQUIRE(!s.ok());
  BOOST_TEST(test::contains(s.message(), "bad value '' for state.dir"));
}

BOOST_AUTO_TEST_CASE(aMissingOrNonRegularFileIsACleanError) {
  test::TempDir dir;
  auto missing = loadConfigFile(dir.file("nope.conf"));
  BOOST_REQUIRE(!missing.ok());
  BOOST_TEST(missing.message() == "config file " + dir.file("nope.conf") + " does not exist");
  auto directory = loadConfigFile(dir.path());
  BOOST_REQUIRE(!directory.ok());
  BOOST_TEST(directory.message() == "config file " + dir.path() + " is not a regular file");
}

BOOST_AUTO_TEST_CASE(defaultsHoldEveryKeyOfTheSchema) {
  auto schema = serviceConfigSchema();
  auto defaults = configDefaults(schema);
  for (const ConfigKey& row : schema) {
    BOOST_TEST(defaults->getRawString(row.key) == row.defaultValue);
  }
  BOOST_TEST(defaults->getRawString("state.dir") == "/var/lib/atoms-edge");
}

BOOST_AUTO_TEST_CASE(theShippedConfigIsValidAndDocumentsEveryKeyWithItsDefault) {
  std::string path = atoms::testing::sourceDir() + "/etc/atoms-edge.conf";
  auto shipped = loadServiceConfig(path);
  BOOST_REQUIRE_MESSAGE(shipped.ok(), (shipped.ok() ? "" : shipped.message()));
  for (const ConfigKey& row : serviceConfigSchema()) {
    BOOST_TEST_CONTEXT(row.key) {
      BOOST_TEST((*shipped)->hasProperty(row.key));
      BOOST_TEST((*shipped)->getRawString(row.key, "") == row.defaultValue);
    }
  }
}

BOOST_AUTO_TEST_CASE(settingsReadFromNothingAreTheSchemaDefaults) {
  // A setting the file leaves out reads as the schema's default, whatever reads it.
  Poco::AutoPtr<Poco::Util::MapConfiguration> empty(new Poco::Util::MapConfiguration);
  for (const ConfigKey& row : serviceConfigSchema()) {
    BOOST_TEST_CONTEXT(row.key) { BOOST_TEST(configString(*empty, row.key) == row.defaultValue); }
  }
  BOOST_TEST(configInteger(*empty, "callout.wave_size") == 3);
  empty->setString("callout.wave_size", "7");
  BOOST_TEST(configInteger(*empty, "callout.wave_size") == 7);
}

BOOST_AUTO_TEST_CASE(aKeyOutsideTheSchemaIsAProgrammingError) {
  Poco::AutoPtr<Poco::Util::MapConfiguration> config(new Poco::Util::MapConfiguration);
  config->setString("callout.wave_sise", "3");
  BOOST_CHECK_THROW((void)configString(*config, "callout.wave_sise"), std::logic_error);
  BOOST_CHECK_THROW((void)configInteger(*config, "log.level"), std::logic_error);
}

BOOST_AUTO_TEST_CASE(theCalloutDesksDefaultsAreTheSchemas) {
  // The desk's own defaults (CalloutSettings, CalloutOptions) serve the tests and the demo; the
  // service reads the schema. They must not drift apart.
  const sms_site::CalloutOptions read = readCalloutConfig(*configDefaults(serviceConfigSchema()));
  const sms_site::CalloutOptions built;
  BOOST_TEST(read.settings.waveSize == built.settings.waveSize);
  BOOST_TEST(read.settings.waveInterval.count() == built.settings.waveInterval.count());
  BOOST_TEST(read.settings.escalateAfter.count() == built.settings.escalateAfter.count());
  BOOST_TEST(read.settings.approvalExpiry.count() == built.settings.approvalExpiry.count());
  BOOST_TEST(read.settings.lookahead.count() == built.settings.lookahead.count());
  BOOST_TEST(read.settings.generalManager == built.settings.generalManager);
  BOOST_TEST(read.noShowGrace.count() == built.noShowGrace.count());
  BOOST_TEST(read.timeClocks == built.timeClocks);
  BOOST_TEST(read.laborDir == "/etc/atoms-edge/labor");
}

BOOST_AUTO_TEST_SUITE_END()
