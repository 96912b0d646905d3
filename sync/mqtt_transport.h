// MqttTransport: the MQTT client as the uplink sees it (STYLE.md: every external boundary is an
// interface). PahoTransport (sync/paho_transport.h) is the real one, SimulatedTransport
// (sync/simulated_mqtt.h) the simulated one. Every publish and subscribe is QoS 1.
//
// Threading: all methods on the owner thread (the writer the transport was given, base/writer.h).
// Events are delivered on the owner thread too: the implementation posts them from its I/O threads,
// so a handler may call back into the transport. After disconnect() no event is delivered any more.
// Errors: values; a library exception never leaves an implementation.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <string>

#include "base/result.h"

namespace atoms::sync {

struct MqttMessage {
  std::string topic;
  std::string payload;
};

struct TransportEvents {
  // The broker accepted the connection; sessionPresent = it still held this client's session.
  std::function<void(bool sessionPresent)> connected;
  // A connect() attempt failed (refused, unreachable, TLS); reason is one line.
  std::function<void(const std::string& reason)> connectFailed;
  // An established connection dropped.
  std::function<void(const std::string& reason)> connectionLost;
  // The broker acknowledged (PUBACK) or refused the publish with this id.
  std::function<void(std::uint64_t id)> published;
  std::function<void(std::uint64_t id, const std::string& reason)> publishFailed;
  // The broker refused a subscription (e.g. its ACL), or it failed.
  std::function<void(const std::string& topicFilter, const std::string& reason)> subscribeFailed;
  // A message arrived on a subscribed topic.
  std::function<void(const MqttMessage& message)> message;
};

class MqttTransport {
 public:
  virtual ~MqttTransport() = default;

  // Replaces the handlers (unset ones are ignored). Call before connect().
  virtual void setEvents(TransportEvents events) = 0;
  // Starts one connection attempt; connected or connectFailed follows. An error when the attempt
  // cannot even start (then no event follows).
  virtual Status connect() = 0;
  // Queues a QoS 1 publish; returns its id (published/publishFailed name it later). Error when
  // not connected or the client refuses it.
  virtual Result<std::uint64_t> publish(const std::string& topic, const std::string& payload,
                                        bool retained) = 0;
  // QoS 1 subscription. Error when it cannot start; a refusal by the broker comes as
  // subscribeFailed.
  virtual Status subscribe(const std::string& topicFilter) = 0;
  // Publishes nothing more, disconnects cleanly (waiting at most `timeout`), and stops all events.
  // Blocks the owner thread up to `timeout`: call it when stopping, never from an event of
  // another transport's I/O thread.
  virtual void disconnect(std::chrono::milliseconds timeout) = 0;
  // For logs: "ssl://broker:8883 as atoms-edge-site-a (MQTT 5)".
  virtual std::string describe() const = 0;
};

}  // namespace atoms::sync
