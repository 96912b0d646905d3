#include "daemon/service/sync_subsystem.h"

#include <charconv>
#include <fstream>
#include <random>
#include <sstream>

#include "base/file_io.h"
#include "base/writer_call.h"
#include "daemon/engine/engine.h"
#include "daemon/log/log.h"
#include "daemon/service/engine_subsystem.h"
#include "daemon/service/policy_subsystem.h"
#include "daemon/service/store_subsystem.h"
#include "domain/policy/command_target.h"
#include "sync/command/command_processor.h"
#include "sync/command/config_overrides.h"
#include "sync/mqtt_uplink.h"
#include "sync/paho_transport.h"

namespace atoms {
namespace {

// The configuration file's values with the cloud's overrides (config.set) on top.
class EffectiveConfig {
 public:
  EffectiveConfig(const Poco::Util::AbstractConfiguration& file, Poco::Logger& logger,
                  const std::vector<sync::command::ConfigOverride>& overrides)
      : file_(file) {
    for (const auto& o : overrides) {
      if (auto why = policy::checkCloudConfigValue(o.key, o.value, checkServiceConfigValue)) {
        logEvent(logger, Poco::Message::PRIO_WARNING, "ignoring a cloud configuration override",
                 {{"key", o.key}, {"reason", *why}});
        continue;
      }
      logInfo(logger, "cloud configuration override",
              {{"key", o.key},
               {"value", o.value},
               {"file_value", file.getString(o.key)},
               {"command", o.commandId}});
      overrides_[o.key] = o.value;
    }
  }
  std::string string(const std::string& key) const {
    auto it = overrides_.find(key);
    return it != overrides_.end() ? it->second : file_.getString(key);
  }
  std::int64_t integer(const std::string& key) const {
    return parseConfigInteger(string(key)).value_or(0);  // validated at load, or by the whitelist
  }

 private:
  const Poco::Util::AbstractConfiguration& file_;
  std::map<std::string, std::string> overrides_;
};

}  // namespace

SyncSubsystem::SyncSubsystem(Poco::Logger& logger, StoreSubsystem& store, EngineSubsystem& engine,
                             PolicySubsystem& policy)
    : logger_(logger), store_(store), engine_(engine), policy_(policy) {}

SyncSubsystem::~SyncSubsystem() = default;

Status SyncSubsystem::start(Poco::Util::Application& app) {
  const Poco::Util::AbstractConfiguration& c = app.config();
  sync::MqttSettings settings;
  settings.uri = c.getString("sync.broker");
  if (settings.uri.empty()) {
    logInfo(logger_, "sync is off (no sync.broker configured)");
    return Status::success();
  }
  const std::string site = store_.store().identity().siteId;
  Engine& engine = engine_.engine();
  auto overrides = callOnWriter(
      engine, [this] { return sync::command::loadConfigOverrides(store_.store().db()); });
  if (!overrides) return makeError("sync: the engine is not running");
  if (!*overrides) {
    return makeError("sync: cannot read the configuration overrides: " + overrides->message());
  }
  const EffectiveConfig config(c, logger_, **overrides);
  std::optional<VerifierKey> cloudKey;
  if (const std::string vkey = c.getString("sync.cloud_key"); !vkey.empty()) {
    auto parsed = VerifierKey::parse(vkey);
    if (!parsed) return makeError("sync.cloud_key: " + parsed.message());
    cloudKey = *parsed;
    logInfo(logger_, "cloud commands accepted when signed by the pinned key",
            {{"cloud_key", cloudKey->name()}});
  } else {
    logEvent(logger_, Poco::Message::PRIO_WARNING,
             "no cloud key pinned (sync.cloud_key): every cloud command will be refused");
  }
  settings.clientId = sync::boxClientId(site);
  settings.mqttVersion = c.getString("sync.mqtt_version") == "3.1.1" ? 4 : 5;
  settings.sessionExpiry = std::chrono::seconds(config.integer("sync.session_expiry_s"));
  settings.keepAlive = std::chrono::seconds(config.integer("sync.keepalive_s"));
  settings.caFile = c.getString("sync.ca_file");
  settings.clientCert = c.getString("sync.client_cert");
  settings.clientKey = c.getString("sync.client_key");
  settings.username = c.getString("sync.username");
  if (const std::string pwFile = c.getString("sync.password_file"); !pwFile.empty()) {
    if (settings.username.empty()) {
      return makeError("sync.password_file is set but sync.username is empty");
    }
    auto pw = readSecretLine(pwFile, "sync.password_file");
    if (!pw) return pw.error();
    settings.password = std::move(*pw);
  }
  settings.will = sync::MqttMessage{sync::siteTopics(site).status, sync::offlineStatusJson(site)};

  sync::UplinkOptions options;
  options.maxSegmentBytes = static_cast<std::size_t>(config.integer("sync.max_segment_bytes"));
  options.window = static_cast<std::size_t>(config.integer("sync.window"));
  options.pollInterval = std::chrono::milliseconds(config.integer("sync.poll_interval_ms"));
  options.ackTimeout = std::chrono::seconds(config.integer("sync.ack_timeout_s"));
  options.statusInterval = std::chrono::seconds(config.integer("sync.status_interval_s"));
  options.backoff.initial = std::chrono::milliseconds(config.integer("sync.backoff_min_ms"));
  options.backoff.max = std::chrono::milliseconds(config.integer("sync.backoff_max_ms"));
  options.retention = std::chrono::hours(24 * config.integer("sync.retention_days"));
  if (options.backoff.max < options.backoff.initial) {
    return makeError("sync.backoff_max_ms is below sync.backoff_min_ms");
  }

  auto transport = sync::PahoTransport::create(settings, engine);
  if (!transport) return makeError("sync: " + transport.message());

  auto random = std::make_shared<std::mt19937_64>(std::random_device{}());
  Poco::Logger& logger = logger_;
  const Clock& clock = engine_.clock();
  sync::MqttUplink::Deps deps{store_.store().log(),
                              store_.store().db(),
                              std::move(*transport),
                              engine,
                              [&clock] { return clock.now(); },
                              [random] { return (*random)(); },
                              [&logger](sync::UplinkLogLevel level, const std::string& msg,
                                        const sync::UplinkLogFields& fields) {
                                logEvent(logger, pocoPriority(level), msg, fields);
                              }};
  auto created = callOnWriter(engine, [&]() -> Status {
    auto uplink = sync::MqttUplink::create(std::move(deps), options);
    if (!uplink) return uplink.error();
    SiteStore& store = store_.store();
    PolicySubsystem& policy = policy_;
    commandTarget_ = std::make_unique<policy::PolicyCommandTarget>(
        policy.gate(), policy.killSwitch(), store.db(), checkServiceConfigValue,
        [&policy] { return policy.state(); }, [&policy] { policy.levelMayHaveChanged(); });
    commands_ =
        std::make_unique<sync::command::CommandProcessor>(sync::command::CommandProcessor::Deps{
            store.log(), store.db(), *commandTarget_, cloudKey, [&clock] { return clock.now(); }});
    uplink_ = std::move(*uplink);
    uplink_->setCommandProcessor(commands_.get());
    uplink_->setConnectionListener([this](bool connected, const std::string& reason) {
      policy_.reportBreaker(
          {connected ? BreakerReport::Kind::kConnected : BreakerReport::Kind::kDisconnected,
           connectionBreakerId("broker"), reason, "sync"});
    });
    uplink_->start();
    return Status::success();
  });
  if (!created) return makeError("sync: the engine is not running");
  return *created;
}

void SyncSubsystem::stop() {
  if (uplink_) {
    // The uplink publishes "offline" and disconnects on the engine thread, which owns it.
    (void)callOnWriter(engine_.engine(), [this] {
      uplink_.reset();
      commands_.reset();
      commandTarget_.reset();
      return true;
    });
  }
}

ConfigValidator syncBrokerUri() {
  return [](const std::string& v) -> std::optional<std::string> {
    if (v.empty()) return std::nullopt;
    for (const char* scheme : {"tcp://", "mqtt://", "ssl://", "mqtts://"}) {
      if (!v.starts_with(scheme)) continue;
      const std::string rest = v.substr(std::string_view(scheme).size());
      const auto colon = rest.rfind(':');
      if (colon == std::string::npos || colon == 0) break;
      auto port = parseConfigInteger(rest.substr(colon + 1));
      if (port && *port > 0 && *port < 65536) return std::nullopt;
      break;
    }
    return "empty (sync off) or tcp://, mqtt://, ssl:// or mqtts:// HOST:PORT";
  };
}

ConfigValidator syncOptionalPath() {
  return [](const std::string& v) -> std::optional<std::string> {
    if (v.empty() || v[0] == '/') return std::nullopt;
    return "empty or an absolute path";
  };
}

ConfigValidator syncCloudKey() {
  return [](const std::string& v) -> std::optional<std::string> {
    if (v.empty() || VerifierKey::parse(v)) return std::nullopt;
    return "empty (commands refused) or a verifier key NAME+KEYID+BASE64 (" +
           VerifierKey::parse(v).message() + ")";
  };
}

}  // namespace atoms
