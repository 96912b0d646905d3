// SyncSubsystem: the MQTT uplink of `atoms-edge serve` (sync/mqtt_uplink.h; docs/sync.md). Off
// when sync.broker is empty. Otherwise it reads the sync.* keys, the password file if one is
// configured, builds the Paho transport (TLS, credentials, last will) and runs the uplink on the
// engine thread, which owns the store. Refuses to start, with one line naming the key, when a
// configured file cannot be read or a setting is inconsistent (TLS files on a plain URI, a
// certificate without its key). An unreachable broker is not a start failure: the uplink keeps
// retrying with backoff while the box works offline.
//
// Signed cloud commands (docs/sync-protocol.md "Commands"): the uplink hands each message of the
// cmd topic to a CommandProcessor whose target is the kill switch and the configuration whitelist
// (domain/policy/). The pinned cloud key is sync.cloud_key; without it every command is refused
// and audited. Configuration overrides a config.set command stored are layered over the file's
// values here, at start (each one logged; an override the whitelist no longer accepts is ignored
// with a warning).
//
// Threading: start/stop on the main thread; they hand the uplink's creation and destruction to
// the engine thread and wait for it. Must be started after the store and the engine and stopped
// before them (EdgeServer's order does that).
#pragma once

#include <Poco/Logger.h>

#include <cstdint>
#include <memory>

#include "daemon/service/config_schema.h"
#include "daemon/service/service_subsystem.h"

namespace atoms {

class StoreSubsystem;
class EngineSubsystem;
class PolicySubsystem;
namespace sync {
class MqttUplink;
namespace command {
class CommandProcessor;
}
}  // namespace sync
namespace policy {
class PolicyCommandTarget;
}  // namespace policy

class SyncSubsystem final : public ServiceSubsystem {
 public:
  SyncSubsystem(Poco::Logger& logger, StoreSubsystem& store, EngineSubsystem& engine,
                PolicySubsystem& policy);
  ~SyncSubsystem() override;
  const char* name() const override { return "sync"; }

 protected:
  Status start(Poco::Util::Application& app) override;
  void stop() override;

 private:
  Poco::Logger& logger_;
  StoreSubsystem& store_;
  EngineSubsystem& engine_;
  PolicySubsystem& policy_;
  // Created, used and destroyed on the engine thread; the uplink goes first.
  std::unique_ptr<policy::PolicyCommandTarget> commandTarget_;
  std::unique_ptr<sync::command::CommandProcessor> commands_;
  std::unique_ptr<sync::MqttUplink> uplink_;
};

// Validators of the sync.* rows in serviceConfigSchema().
// Empty, or an MQTT URI tcp://, mqtt://, ssl://, mqtts:// with a host and a port.
ConfigValidator syncBrokerUri();
// Empty, or an absolute path.
ConfigValidator syncOptionalPath();
// Empty, or a signed-note verifier key "<name>+<8 hex>+<base64>" (store/signed_note.h).
ConfigValidator syncCloudKey();

}  // namespace atoms
