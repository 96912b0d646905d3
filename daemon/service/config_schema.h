// The service configuration (`atoms-edge serve --config FILE`, Poco properties format): one schema
// table lists every key the service knows, its default and how its value is checked. A key that is
// not in the table, or a value its validator refuses, stops the service at start with one line
// naming the key and the value. Adding a key = adding a row in serviceConfigSchema() (and a
// paragraph in etc/atoms-edge.conf and docs/configuration.md).
//
// Values are checked as written in the file (no ${...} expansion). Pure functions, thread-safe.
#pragma once

#include <Poco/AutoPtr.h>
#include <Poco/Util/AbstractConfiguration.h>

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "base/result.h"

namespace atoms {

// nullopt when value is acceptable; otherwise what was expected, e.g. "one of logfmt, json".
using ConfigValidator = std::function<std::optional<std::string>(const std::string& value)>;

struct ConfigKey {
  std::string key;           // "log.level"
  std::string defaultValue;  // used when the file does not set the key
  std::string description;   // one line, for docs and `--help`
  ConfigValidator validate;
};

// The table. Defaults must pass their own validators (a test checks it).
std::vector<ConfigKey> serviceConfigSchema();

// Validators for rows.
ConfigValidator oneOf(std::vector<std::string> allowed);
ConfigValidator absolutePath();
// Person ids separated by commas (and spaces); empty is allowed.
ConfigValidator personIdList();
// The items of such a list, without the separators.
std::vector<std::string> splitConfigList(const std::string& v);
// A decimal integer in [lo, hi].
ConfigValidator integerIn(std::int64_t lo, std::int64_t hi);

// A whole decimal integer (optional sign, nothing else); nullopt otherwise.
std::optional<std::int64_t> parseConfigInteger(const std::string& v);

// Reads a properties file. Errors name the path and the reason: missing, not a regular file,
// unreadable (errno text), or a file Poco cannot parse.
Result<Poco::AutoPtr<Poco::Util::AbstractConfiguration>> loadConfigFile(const std::string& path);

// Every key in config must be in schema with a value its validator accepts. The first problem is
// returned as "<source>: unknown key 'x'" or "<source>: bad value 'v' for x (expected ...)".
Status validateConfig(const Poco::Util::AbstractConfiguration& config,
                      const std::vector<ConfigKey>& schema, const std::string& source);

// One value checked against serviceConfigSchema(): nullopt when `key` is in it and its validator
// accepts `value`; otherwise "bad value 'v' for key (expected ...)" or "config key key is not
// known to this atoms-edge". (policy::ConfigValueCheck for cloud config.set commands.)
std::optional<std::string> checkServiceConfigValue(const std::string& key,
                                                   const std::string& value);

// loadConfigFile + validateConfig with serviceConfigSchema(): what `serve` runs at start.
Result<Poco::AutoPtr<Poco::Util::AbstractConfiguration>> loadServiceConfig(const std::string& path);

// A configuration holding every key's default, to layer under the file.
Poco::AutoPtr<Poco::Util::AbstractConfiguration> configDefaults(
    const std::vector<ConfigKey>& schema);

// A key of serviceConfigSchema() read from config: its value there, else the schema's default.
// The schema is the one place a default is written; code reads through these instead of
// Poco's getString(key, fallback), so no fallback can differ from it. A key outside the schema,
// or (configInteger) a value that is not an integer, is a programming error: std::logic_error
// (serve validated every value at start, so bad input never gets this far).
std::string configString(const Poco::Util::AbstractConfiguration& config, const std::string& key);
std::int64_t configInteger(const Poco::Util::AbstractConfiguration& config, const std::string& key);

}  // namespace atoms
