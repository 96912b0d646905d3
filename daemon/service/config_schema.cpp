#include "daemon/service/config_schema.h"

#include <Poco/Exception.h>
#include <Poco/Util/MapConfiguration.h>
#include <Poco/Util/PropertyFileConfiguration.h>
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <fstream>
#include <stdexcept>
#include <tuple>

#include "daemon/log/setup.h"
#include "daemon/panel/panel_config.h"
#include "daemon/service/api_subsystem.h"
#include "daemon/service/listen_address.h"
#include "daemon/service/sms_config.h"
#include "daemon/service/sync_subsystem.h"
#include "daemon/service/terminal_subsystem.h"
#include "domain/policy/shipped_actions.h"
#include "domain/site/site_file.h"

namespace atoms {

std::vector<ConfigKey> serviceConfigSchema() {
  std::vector<ConfigKey> rows = {
      {"state.dir", "/var/lib/atoms-edge",
       "directory with the database and the keys (made by `atoms-edge init`)", absolutePath()},
      {"log.level", "information", "least important level logged",
       [](const std::string& v) -> std::optional<std::string> {
         if (parseLogLevel(v)) return std::nullopt;
         return "one of fatal, critical, error, warning, notice, information, debug, trace";
       }},
      {"log.format", "logfmt", "log line format", oneOf({"logfmt", "json"})},
      // The policy gate (daemon/service/policy_subsystem.h, docs/policy-gate.md).
      {"policy.integrity_check_interval_s", "21600",
       "how often the whole audit log is verified while running (also once at start; 0: only "
       "at start); a broken chain raises the kill switch to L3",
       integerIn(0, 604800)},
      {"policy.owners", "",
       "person ids of the site's owners, separated by commas: they may set any kill-switch level "
       "from the API (managers of record: L1 only; docs/policy-kill-switch.md)",
       personIdList()},
      {"policy.graduation.staffing_scheduling", "propose",
       "how far the box may act alone on scheduling (call-out offers, giving a shift to the "
       "person who took it): shadow (decides and records only), propose (a manager approves "
       "each step), autonomous (within the labor rules); the owner's choice (seed 001 section 6)",
       oneOf({"shadow", "propose", "autonomous"})},
      // Labor rules and call-outs (domain/callout/, docs/callouts.md).
      {"labor.rules_dir", "/etc/atoms-edge/labor",
       "directory of the labor rule tables (etc/labor in a source checkout)", absolutePath()},
      {"callout.wave_size", "3", "offers sent at once for a shift someone cannot work",
       integerIn(1, 50)},
      {"callout.wave_interval_minutes", "5", "minutes between waves of offers while nobody took it",
       integerIn(1, 120)},
      {"callout.escalate_after_minutes", "20",
       "minutes without cover before the general manager is told", integerIn(1, 240)},
      {"callout.approval_expiry_minutes", "30",
       "minutes an approval (overtime...) waits for the manager before it lapses",
       integerIn(5, 1440)},
      {"callout.lookahead_hours", "12",
       "how far ahead a person's next shift counts when they (or a lead) say they cannot come",
       integerIn(1, 48)},
      {"callout.no_show_grace_minutes", "10",
       "minutes after a shift's start without a clock-in before the lead on duty is asked (0: "
       "never)",
       integerIn(0, 240)},
      {"callout.general_manager", "",
       "person id (site file) told when a shift has no cover in time; empty: sms.contact",
       [](const std::string&) { return std::optional<std::string>(); }},
      // Cloud sync over MQTT (daemon/service/sync_subsystem.h, docs/sync.md).
      {"sync.broker", "",
       "MQTT broker URI (tcp://, ssl://, mqtt://, mqtts:// HOST:PORT); empty: sync off",
       syncBrokerUri()},
      {"sync.mqtt_version", "5", "MQTT protocol version", oneOf({"5", "3.1.1"})},
      {"sync.ca_file", "", "PEM CA certificates that vouch for the broker (empty: the system's)",
       syncOptionalPath()},
      {"sync.client_cert", "", "PEM client certificate (with sync.client_key)", syncOptionalPath()},
      {"sync.client_key", "", "PEM key of sync.client_cert", syncOptionalPath()},
      {"sync.username", "", "MQTT username (empty: none)",
       [](const std::string&) { return std::optional<std::string>(); }},
      {"sync.password_file", "", "file holding the MQTT password (with sync.username)",
       syncOptionalPath()},
      {"sync.max_segment_bytes", "1048576", "largest segment published, in bytes",
       integerIn(1024, 64 * 1024 * 1024)},
      {"sync.window", "4", "segments published beyond the acked size", integerIn(1, 256)},
      {"sync.ack_timeout_s", "30", "no ack for this long: publish again from the acked size",
       integerIn(1, 86400)},
      {"sync.retention_days", "30", "acked checkpoint notes older than this are pruned; 0: keep",
       integerIn(0, 36500)},
      {"sync.status_interval_s", "60", "how often the retained status is refreshed",
       integerIn(1, 86400)},
      {"sync.poll_interval_ms", "1000", "how often the log is checked for new entries",
       integerIn(10, 60000)},
      {"sync.backoff_min_ms", "1000", "first reconnect delay (doubles up to the max, jittered)",
       integerIn(10, 3600000)},
      {"sync.backoff_max_ms", "300000", "longest reconnect delay", integerIn(10, 3600000)},
      {"sync.session_expiry_s", "604800", "how long the broker keeps the box's session",
       integerIn(0, 2147483647)},
      {"sync.keepalive_s", "30", "MQTT keep-alive interval", integerIn(5, 3600)},
      {"sync.cloud_key", "",
       "verifier key of the cloud's command signing key (empty: every command is refused)",
       syncCloudKey()},
  };
  // policy.graduation.<function> for every other function of the action table: the level its
  // trust budget begins at and its ceiling (docs/decisions/0010-trust-budget-start-and-ceiling.md).
  if (auto table = policy::shippedActionTable()) {
    for (const std::string& function : table->functions()) {
      const std::string key = "policy.graduation." + function;
      if (std::any_of(rows.begin(), rows.end(), [&](const ConfigKey& r) { return r.key == key; })) {
        continue;
      }
      rows.push_back({key, "propose",
                      "how far the box may act alone on " + function +
                          ": shadow, propose or autonomous; the level its trust begins at and the "
                          "highest it may reach (seed 001 section 6)",
                      oneOf({"shadow", "propose", "autonomous"})});
    }
  }
  // Time-clock terminals (daemon/service/terminal_subsystem.h, docs/terminals.md).
  rows.push_back({"terminal.listen", "",
                  "host:port the terminals POST punches to (LAN or loopback); empty: off",
                  [](const std::string& v) -> std::optional<std::string> {
                    if (v.empty() || parseListenAddress(v)) return std::nullopt;
                    return "host:port (e.g. 0.0.0.0:8470, [::1]:8470) or empty";
                  }});
  rows.push_back({"terminal.tokens_file", "",
                  "file of `terminal-id sha256-of-token` lines (mode 0600); needed with "
                  "terminal.listen",
                  [](const std::string& v) -> std::optional<std::string> {
                    if (v.empty() || v[0] == '/') return std::nullopt;
                    return "an absolute path or empty";
                  }});
  // POS drivers (daemon/service/pos_subsystem.h, docs/pos.md).
  const ConfigValidator pathOrEmpty = [](const std::string& v) -> std::optional<std::string> {
    if (v.empty() || v[0] == '/') return std::nullopt;
    return "an absolute path or empty";
  };
  const ConfigValidator anyText = [](const std::string&) -> std::optional<std::string> {
    return std::nullopt;
  };
  rows.push_back({"pos.square.location_ids", "",
                  "Square location ids to poll orders of, separated by commas (1-10); empty: off",
                  anyText});
  rows.push_back({"pos.square.access_token_file", "",
                  "file holding the Square access token (mode 0600); needed with "
                  "pos.square.location_ids",
                  pathOrEmpty});
  rows.push_back({"pos.square.base_url", "https://connect.squareup.com",
                  "Square API base URL (https; plain http only to loopback, for tests)", anyText});
  rows.push_back({"pos.square.version", "2024-10-17", "Square-Version header sent", anyText});
  rows.push_back({"pos.square.currency", "USD", "the locations' currency (3 letters)", anyText});
  rows.push_back(
      {"pos.square.poll_seconds", "60", "how often Square is polled", integerIn(15, 3600)});
  rows.push_back({"pos.square.overlap_minutes", "10",
                  "how far before the cursor each poll reads again (late updates)",
                  integerIn(1, 24 * 60)});
  rows.push_back({"pos.push.listen", "",
                  "host:port on-site POS systems POST orders to (LAN or loopback); empty: off",
                  [](const std::string& v) -> std::optional<std::string> {
                    if (v.empty() || parseListenAddress(v)) return std::nullopt;
                    return "host:port (e.g. 0.0.0.0:8471) or empty";
                  }});
  rows.push_back({"pos.push.tokens_file", "",
                  "file of `pos-id sha256-of-token` lines (mode 0600); needed with pos.push.listen",
                  pathOrEmpty});
  rows.push_back({"pos.push.tls", "on",
                  "HTTPS for the push server (off: plain HTTP, for a POS that cannot do TLS)",
                  oneOf({"on", "off"})});
  rows.push_back({"pos.push.cert_file", "",
                  "PEM certificate of the push server (empty: the box's own, as the panel's)",
                  pathOrEmpty});
  rows.push_back({"pos.push.key_file", "", "PEM key of pos.push.cert_file", pathOrEmpty});
  rows.push_back({"pos.csv.directory", "",
                  "folder a POS drops CSV exports into (done/ and failed/ are made in it); empty: "
                  "off",
                  pathOrEmpty});
  rows.push_back(
      {"pos.csv.name", "drop", "the folder's source name (orders stored as csv:NAME)", anyText});
  rows.push_back(
      {"pos.csv.scan_seconds", "30", "how often the folder is scanned", integerIn(5, 3600)});
  rows.push_back({"pos.csv.delimiter", ",", "field delimiter: one character, or `tab`", anyText});
  rows.push_back({"pos.csv.amounts", "decimal",
                  "how amounts are written: decimal (12.50) or cents (1250)",
                  oneOf({"decimal", "cents"})});
  for (const auto& [column, fallback, what] :
       std::vector<std::tuple<std::string, std::string, std::string>>{
           {"id", "order_id", "the order id (required)"},
           {"closed_at", "closed_at",
            "the close time: RFC 3339, or site-local YYYY-MM-DD HH:MM[:SS] (required)"},
           {"net", "net_sales", "net sales, without tax and tips (required)"},
           {"covers", "", "guests (empty: none)"},
           {"revenue_center", "", "revenue center (empty: main)"},
           {"state", "", "completed / canceled (void) / open (empty: completed)"},
           {"return_of", "", "the sale a return refunds (empty: none)"},
           {"returned", "", "the refunded amount (empty: none)"},
           {"version", "", "the row's version, higher replaces (empty: 1)"}}) {
    rows.push_back({"pos.csv.column." + column, fallback, "CSV column: " + what, anyText});
  }
  // The forecast and intraday proposals (daemon/service/forecast_config.h, docs/forecast.md).
  rows.push_back({"forecast.standards_file", "",
                  "labor standards per station (docs/forecast.md); empty: no staffing, no "
                  "intraday proposals",
                  pathOrEmpty});
  rows.push_back({"intraday.check_minutes", "15",
                  "how often today's sales are compared with the forecast; 0: never",
                  integerIn(0, 240)});
  rows.push_back({"intraday.window_minutes", "60", "the last minutes compared (a multiple of 15)",
                  integerIn(15, 240)});
  rows.push_back({"intraday.surge_percent", "25", "above the forecast by at least this: add",
                  integerIn(1, 500)});
  rows.push_back({"intraday.slow_percent", "25", "below the forecast by at least this: cut",
                  integerIn(1, 99)});
  rows.push_back({"intraday.min_gap_cents", "10000",
                  "and by at least this much net sales (a net-sales station)",
                  integerIn(0, 100000000)});
  rows.push_back({"intraday.min_gap_count", "6", "and by at least this many covers or transactions",
                  integerIn(0, 100000)});
  // The approvals JSON API (daemon/service/api_subsystem.h, docs/api.md).
  rows.push_back({"api.listen", "",
                  "host:port (or a port, on 127.0.0.1) the approvals API listens on; empty: off",
                  [](const std::string& v) -> std::optional<std::string> {
                    if (v.empty() || parseListenAddress(v, kApiBareHost)) return std::nullopt;
                    return "host:port (e.g. 127.0.0.1:8480, [::1]:8480), a port, or empty";
                  }});
  rows.push_back({"api.tokens_file", "",
                  "file of `person-id sha256-of-token` lines (mode 0600); needed with api.listen",
                  [](const std::string& v) -> std::optional<std::string> {
                    if (v.empty() || v[0] == '/') return std::nullopt;
                    return "an absolute path or empty";
                  }});
  rows.push_back({"api.request_timeout_ms", "5000",
                  "how long an API request waits for the engine before it is answered 503 "
                  "(nothing done)",
                  integerIn(100, 60000)});
  // The manager's panel over HTTPS (daemon/service/panel_subsystem.h, docs/panel.md).
  rows.push_back({"panel.listen", "",
                  "host:port the panel serves HTTPS on (e.g. 0.0.0.0:8443 for the LAN); empty: off",
                  [](const std::string& v) -> std::optional<std::string> {
                    if (v.empty() || parseListenAddress(v)) return std::nullopt;
                    return "host:port (e.g. 0.0.0.0:8443, [::]:8443) or empty";
                  }});
  rows.push_back({"panel.redirect_listen", "",
                  "host:port of plain HTTP that only redirects to the panel (e.g. 0.0.0.0:8080); "
                  "empty: none",
                  [](const std::string& v) -> std::optional<std::string> {
                    if (v.empty() || parseListenAddress(v)) return std::nullopt;
                    return "host:port (e.g. 0.0.0.0:8080) or empty";
                  }});
  rows.push_back({"panel.origin", "",
                  "https://name[:port] browsers open the panel at, for sign-in's Origin check; "
                  "empty: from panel.listen when it names one address and port",
                  [](const std::string& v) -> std::optional<std::string> {
                    if (v.empty()) return std::nullopt;
                    const bool ok = v.starts_with("https://") && v.size() > 8 &&
                                    v.find_first_of("/?#@ ", 8) == std::string::npos;
                    if (ok) return std::nullopt;
                    return "https://host or https://host:port (no path) or empty";
                  }});
  rows.push_back({"panel.cert_file", "",
                  "the operator's own PEM certificate (chain) for the panel, with panel.key_file; "
                  "empty: the box's own (state.dir/panel.crt, made by init)",
                  [](const std::string& v) -> std::optional<std::string> {
                    if (v.empty() || v[0] == '/') return std::nullopt;
                    return "an absolute path or empty";
                  }});
  rows.push_back({"panel.key_file", "", "PEM private key of panel.cert_file (mode 0600)",
                  [](const std::string& v) -> std::optional<std::string> {
                    if (v.empty() || v[0] == '/') return std::nullopt;
                    return "an absolute path or empty";
                  }});
  // SMS: sms.driver, sms.retry.*, sms.twilio.*, sms.modem.* (daemon/service/sms_config.h).
  for (ConfigKey& row : smsConfigKeys()) rows.push_back(std::move(row));
  for (ConfigKey& row : panel::panelAccountsConfigKeys()) rows.push_back(std::move(row));
  return rows;
}

std::optional<std::int64_t> parseConfigInteger(const std::string& v) {
  std::int64_t n = 0;
  const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), n);
  if (ec != std::errc() || end != v.data() + v.size() || v.empty()) return std::nullopt;
  return n;
}

ConfigValidator integerIn(std::int64_t lo, std::int64_t hi) {
  return [lo, hi](const std::string& v) -> std::optional<std::string> {
    auto n = parseConfigInteger(v);
    if (n && *n >= lo && *n <= hi) return std::nullopt;
    return "an integer from " + std::to_string(lo) + " to " + std::to_string(hi);
  };
}

ConfigValidator oneOf(std::vector<std::string> allowed) {
  return [allowed = std::move(allowed)](const std::string& v) -> std::optional<std::string> {
    if (std::find(allowed.begin(), allowed.end(), v) != allowed.end()) return std::nullopt;
    std::string expected = "one of ";
    for (std::size_t i = 0; i < allowed.size(); ++i) {
      if (i > 0) expected += ", ";
      expected += allowed[i];
    }
    return expected;
  };
}

std::vector<std::string> splitConfigList(const std::string& v) {
  std::vector<std::string> out;
  std::string item;
  for (char c : v + ",") {
    if (c == ',' || c == ' ' || c == '\t') {
      if (!item.empty()) out.push_back(item);
      item.clear();
    } else {
      item += c;
    }
  }
  return out;
}

ConfigValidator personIdList() {
  return [](const std::string& v) -> std::optional<std::string> {
    for (const std::string& id : splitConfigList(v)) {
      if (!site::isValidId(id)) return "person ids (letters, digits, - _ .) separated by commas";
    }
    return std::nullopt;
  };
}

ConfigValidator absolutePath() {
  return [](const std::string& v) -> std::optional<std::string> {
    if (!v.empty() && v[0] == '/') return std::nullopt;
    return "an absolute path";
  };
}

Result<Poco::AutoPtr<Poco::Util::AbstractConfiguration>> loadConfigFile(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) {
    int err = errno;
    if (err == ENOENT) return makeError("config file " + path + " does not exist");
    return makeError("cannot read config file " + path + ": " + std::strerror(err));
  }
  if (!S_ISREG(st.st_mode)) return makeError("config file " + path + " is not a regular file");
  {
    // Poco reports an unreadable file without the reason; ask first so the operator gets it.
    std::ifstream probe(path);
    if (!probe) {
      int err = errno;
      return makeError("cannot read config file " + path + ": " + std::strerror(err));
    }
  }
  try {
    Poco::AutoPtr<Poco::Util::AbstractConfiguration> config(
        new Poco::Util::PropertyFileConfiguration(path));
    return config;
  } catch (const Poco::Exception& e) {
    return makeError("cannot read config file " + path + ": " + e.displayText());
  } catch (const std::exception& e) {
    return makeError("cannot read config file " + path + ": " + e.what());
  }
}

namespace {

// Every key that holds a value, depth first. Poco lists "a" for "a.b = 1"; only "a.b" holds one.
void collectKeys(const Poco::Util::AbstractConfiguration& config, const std::string& prefix,
                 std::vector<std::string>& out) {
  Poco::Util::AbstractConfiguration::Keys keys;
  config.keys(prefix, keys);
  for (const std::string& key : keys) {
    std::string full = prefix.empty() ? key : prefix + "." + key;
    if (config.hasProperty(full)) out.push_back(full);
    collectKeys(config, full, out);
  }
}

}  // namespace

Status validateConfig(const Poco::Util::AbstractConfiguration& config,
                      const std::vector<ConfigKey>& schema, const std::string& source) {
  std::vector<std::string> keys;
  collectKeys(config, "", keys);
  for (const std::string& key : keys) {
    auto row = std::find_if(schema.begin(), schema.end(),
                            [&](const ConfigKey& k) { return k.key == key; });
    if (row == schema.end()) return makeError(source + ": unknown key '" + key + "'");
    std::string value = config.getRawString(key);
    if (auto expected = row->validate(value)) {
      return makeError(source + ": bad value '" + value + "' for " + key + " (expected " +
                       *expected + ")");
    }
  }
  return Status::success();
}

std::optional<std::string> checkServiceConfigValue(const std::string& key,
                                                   const std::string& value) {
  for (const ConfigKey& row : serviceConfigSchema()) {
    if (row.key != key) continue;
    if (auto expected = row.validate(value)) {
      return "bad value '" + value + "' for " + key + " (expected " + *expected + ")";
    }
    return std::nullopt;
  }
  return "config key " + key + " is not known to this atoms-edge";
}

Result<Poco::AutoPtr<Poco::Util::AbstractConfiguration>> loadServiceConfig(
    const std::string& path) {
  auto config = loadConfigFile(path);
  if (!config.ok()) return config;
  Status valid = validateConfig(**config, serviceConfigSchema(), "config file " + path);
  if (!valid.ok()) return valid.error();
  return config;
}

Poco::AutoPtr<Poco::Util::AbstractConfiguration> configDefaults(
    const std::vector<ConfigKey>& schema) {
  Poco::AutoPtr<Poco::Util::MapConfiguration> defaults(new Poco::Util::MapConfiguration);
  for (const ConfigKey& row : schema) defaults->setString(row.key, row.defaultValue);
  return defaults;
}

std::string configString(const Poco::Util::AbstractConfiguration& config, const std::string& key) {
  static const std::vector<ConfigKey> schema = serviceConfigSchema();
  const auto row = std::find_if(schema.begin(), schema.end(),
                                [&key](const ConfigKey& r) { return r.key == key; });
  if (row == schema.end()) throw std::logic_error("configString: '" + key + "' is not a setting");
  return config.hasProperty(key) ? config.getString(key) : row->defaultValue;
}

std::int64_t configInteger(const Poco::Util::AbstractConfiguration& config,
                           const std::string& key) {
  const std::string text = configString(config, key);
  const std::optional<std::int64_t> value = parseConfigInteger(text);
  if (!value) throw std::logic_error("configInteger: " + key + " = '" + text + "' is no integer");
  return *value;
}

}  // namespace atoms
