// PahoTransport: MqttTransport over the Eclipse Paho C++ async client (Debian libpaho-mqttpp-dev).
//
// - MQTT 5 by default (clean start false + session expiry: the broker keeps the session, the
//   subscription and the QoS 1 messages queued for the client while it is away), or 3.1.1 with a
//   persistent session (clean session false) for brokers that do not speak 5.
// - TLS for ssl:// and mqtts:// URIs: the server certificate is verified (chain to ca_file, or to
//   the system's CAs when none is given, and the host name); client certificate and key, and/or
//   username and password.
// - The last will, if set, is published retained at QoS 1 by the broker when the connection dies.
// - No automatic reconnect: the owner decides when to retry (MqttUplink's Backoff).
// - No Paho persistence: what has to survive a restart is in the store, not in Paho's buffers.
//
// Threading: as MqttTransport. Paho's callbacks only copy their data and post it to the writer
// (nothing waits on a token, nothing throws into Paho's C callbacks: each is wrapped in a
// catch-all). The writer must outlive the transport. Destroying the transport disconnects it
// (bounded).
#pragma once

#include <chrono>
#include <memory>
#include <optional>
#include <string>

#include "base/result.h"
#include "base/writer.h"
#include "sync/mqtt_transport.h"

namespace atoms::sync {

struct MqttSettings {
  std::string uri;  // tcp://, mqtt://, ssl://, mqtts:// host:port
  std::string clientId;
  int mqttVersion = 5;  // 5, or 4 for 3.1.1
  // How long the broker keeps the session after a disconnect; 0: none (clean start, or clean
  // session on 3.1.1), the session ends with the connection.
  std::chrono::seconds sessionExpiry{7 * 24 * 3600};
  std::chrono::seconds keepAlive{30};
  std::chrono::seconds connectTimeout{10};
  // TLS (ssl:// and mqtts:// only). Empty caFile: the system's trusted CAs.
  std::string caFile;
  std::string clientCert;  // PEM; with clientKey
  std::string clientKey;
  // Username/password authentication; empty username: none. The password is passed to Paho and
  // otherwise never logged or printed.
  std::string username;
  std::string password;
  std::optional<MqttMessage> will;  // published retained, QoS 1
  int maxInflight = 32;             // unacknowledged QoS 1 publishes Paho keeps
};

// Whether the URI asks for TLS (ssl://, mqtts://).
bool isTlsUri(const std::string& uri);

class PahoTransport final : public MqttTransport {
 public:
  // Errors: a URI Paho does not accept, TLS files that do not exist or cannot be read, a TLS
  // setting on a plain URI, an mqttVersion other than 4 or 5.
  static Result<std::unique_ptr<PahoTransport>> create(MqttSettings settings, Writer& writer);
  ~PahoTransport() override;

  void setEvents(TransportEvents events) override;
  Status connect() override;
  Result<std::uint64_t> publish(const std::string& topic, const std::string& payload,
                                bool retained) override;
  Status subscribe(const std::string& topicFilter) override;
  void disconnect(std::chrono::milliseconds timeout) override;
  std::string describe() const override;

  struct Impl;

 private:
  explicit PahoTransport(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace atoms::sync
