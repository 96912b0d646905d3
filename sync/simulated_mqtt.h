// SimulatedBroker and SimulatedTransport: an in-process MQTT broker and the MqttTransport that
// connects to it, the simulated twin of a real broker and PahoTransport (STYLE.md: every external
// boundary has a real and a simulated implementation). For the tests of the uplink and the ingest
// without a broker, `atoms-edge demo` and simulations of a whole site.
//
// What it does as a broker does, for what the sync protocol uses (DESIGN.md section 6):
// - QoS 1 only: a publish is acknowledged (`published`) or refused (`publishFailed`), and reaches
//   every matching subscription at least once.
// - Topic filters with + and #; a topic starting with $ matches no filter starting with a
//   wildcard. Shared subscriptions ($share/<group>/<filter>): each message goes to one member of
//   the group, round robin over the connected ones (an offline one queues it when none is
//   connected).
// - Retained messages (an empty retained payload clears the topic), sent at every subscribe to a
//   matching filter, except to shared subscriptions.
// - Sessions by client id. cleanStart false: the broker keeps the subscriptions and queues what
//   arrives for them while the client is away (at most maxQueuedPerClient; newer messages are
//   dropped then, as mosquitto does), and `connected(sessionPresent)` says whether it kept one. A
//   second connection with the same id takes the session over: the first one is dropped.
// - The last will, published retained when a connection dies other than by disconnect().
//
// What a test or a simulation can do to it, deterministically: refuse connections, drop one
// connection, restart (with or without its persistence), and lose, duplicate, hold (deliver late,
// at releaseHeld()) or refuse the next publishes on a topic filter.
// Not modelled: QoS 0 and 2, message sizes, keep-alive timing, credentials and ACLs beyond
// refusals, MQTT 5 properties.
//
// Delivery: no thread of its own. A publish is routed inside publish(): for each recipient a task
// is posted to that transport's Writer, which delivers the event there (MqttTransport's
// contract: events on the owner thread). Order holds per publisher and recipient; on a
// SimulatedExecutor (sync/simulated_executor.h) a whole exchange runs in the driver's
// runReady()/advance(), reproducibly.
//
// Threading: every SimulatedBroker method is thread-safe, and transports may run on different
// executors (each SimulatedTransport as MqttTransport: owner thread). One mutex guards the
// broker's state; Writer::post() is called under it, so post() must never call back into the
// broker (no writer does: post() only queues). The state lives as long as the broker or one of
// its transports, whichever is last. Errors: values, never exceptions.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "base/result.h"
#include "base/writer.h"
#include "sync/mqtt_transport.h"

namespace atoms::sync {

// Whether an MQTT topic filter (with + and #, no $share prefix) matches a topic name.
bool mqttTopicMatches(std::string_view filter, std::string_view topic);

// What happens to a publish the broker was told to mistreat (SimulatedBroker::faultPublishes).
enum class PublishFault {
  kLose,       // acknowledged, then delivered to nobody and not retained (a broker lost it)
  kDuplicate,  // delivered twice to each recipient (a QoS 1 redelivery)
  kHold,       // acknowledged, delivered only at releaseHeld(): after what was published meanwhile
  kRefuse,     // refused: publishFailed(id, "not authorized"), as a broker's ACL does
};

struct SimulatedClientOptions {
  std::string clientId;             // the session's key; empty: "simulated-client-<n>"
  bool cleanStart = false;          // false: a persistent session (what the box and the ingest use)
  std::optional<MqttMessage> will;  // published retained, QoS 1, when the connection dies
};

struct SimulatedBrokerOptions {
  std::string name = "broker";            // for describe(): "simulated://broker as <client id>"
  std::size_t maxQueuedPerClient = 1000;  // mosquitto's max_queued_messages default
};

struct SimulatedBrokerStats {
  std::uint64_t connects = 0, connectsRefused = 0, connectionsDropped = 0;
  std::uint64_t publishes = 0;   // accepted from clients (lost and held ones included)
  std::uint64_t deliveries = 0;  // message events posted to connected clients
  std::uint64_t queued = 0, queueOverflows = 0;  // for offline persistent sessions
  std::uint64_t lost = 0, duplicated = 0, held = 0, refused = 0;
};

class SimulatedTransport;

class SimulatedBroker {
 public:
  explicit SimulatedBroker(SimulatedBrokerOptions options = {});
  // Transports still around keep the state alive; they can go on until they disconnect.
  ~SimulatedBroker();
  SimulatedBroker(const SimulatedBroker&) = delete;
  SimulatedBroker& operator=(const SimulatedBroker&) = delete;

  // A client of this broker, not connected yet. Its events are posted to `writer`, which must
  // outlive it.
  std::unique_ptr<SimulatedTransport> transport(SimulatedClientOptions client, Writer& writer);

  // From now on every connection attempt fails with `reason` (a broker that is down or refuses
  // the client); connections already up stay up. Until acceptConnections().
  void refuseConnections(std::string reason = "connection refused");
  void acceptConnections();
  // Cuts the client's connection as a network failure would: connectionLost(reason) at the
  // client, its will published. False when it is not connected.
  bool dropConnection(const std::string& clientId, const std::string& reason = "connection lost");
  // Drops every connection ("the broker restarted"; no will is published: the broker was gone
  // too). keepPersistence false also forgets every session (subscriptions, queued messages),
  // every retained message and the held publishes, as a broker without persistence does.
  void restart(bool keepPersistence);

  // The next `count` publishes by clients on topics matching `topicFilter` get `fault` (the first
  // matching rule applies; rules are used up in the order they were added).
  void faultPublishes(std::string topicFilter, PublishFault fault, std::size_t count = 1);
  void clearFaults();
  // Delivers the held publishes now, in the order they were held, to the subscriptions there are
  // now. Returns how many.
  std::size_t releaseHeld();

  bool isConnected(const std::string& clientId) const;
  // The retained payload of a topic; nullopt when none.
  std::optional<std::string> retained(const std::string& topic) const;
  // Messages queued for an offline persistent session.
  std::size_t queuedFor(const std::string& clientId) const;
  std::size_t heldCount() const;
  SimulatedBrokerStats stats() const;

  struct Core;  // the state, shared with the transports

 private:
  std::shared_ptr<Core> core_;
};

class SimulatedTransport final : public MqttTransport {
 public:
  // Disconnects (cleanly: no will).
  ~SimulatedTransport() override;

  void setEvents(TransportEvents events) override;
  // Error when already connected, or after disconnect() (a transport connects again only until
  // then, as PahoTransport). A refusal comes as connectFailed.
  Status connect() override;
  // Error when not connected, or when the topic is empty or holds a wildcard.
  Result<std::uint64_t> publish(const std::string& topic, const std::string& payload,
                                bool retained) override;
  // Error when not connected or the filter is malformed.
  Status subscribe(const std::string& topicFilter) override;
  // Clean: no will; a persistent session stays at the broker. Never blocks.
  void disconnect(std::chrono::milliseconds timeout) override;
  std::string describe() const override;

  const std::string& clientId() const;

  struct Endpoint;  // what the broker holds of this client

 private:
  friend class SimulatedBroker;
  SimulatedTransport(std::shared_ptr<SimulatedBroker::Core> core,
                     std::shared_ptr<Endpoint> endpoint);

  std::shared_ptr<SimulatedBroker::Core> core_;
  std::shared_ptr<Endpoint> endpoint_;
};

}  // namespace atoms::sync
