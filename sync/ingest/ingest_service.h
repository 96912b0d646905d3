// IngestService: `atoms-edge ingest` on the wire. Connects to the broker (persistent session,
// clean start false), subscribes to the shared subscription $share/<group>/atoms/v1/+/audit at
// QoS 1, hands each segment to the Ingester (verify, store, commit) and only then publishes what
// the outcome asks for: the ack on atoms/v1/<site>/ack, an alarm (retained) on
// atoms/v1/<site>/alarm.
//
// Reordering between ingesters: a shared subscription spreads one site's segments over the
// group, so a segment can arrive here before the one before it has been stored by another
// ingester. Such a gap is held in memory (nothing stored) and tried again on a short timer, and
// at once after this ingester stores the segment before it; after `reorderWait` it is given up
// and recorded as a gap (the box resends from its acked size after its ack timeout).
//
// Reconnects after a capped exponential backoff with jitter (sync/backoff.h).
//
// Threading: create, use and destroy on the writer's thread, which also owns the Ingester and
// its store; transport events and timers arrive there. Nothing blocks except stop().
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "base/result.h"
#include "base/writer.h"
#include "sync/backoff.h"
#include "sync/ingest/ingester.h"
#include "sync/mqtt_transport.h"

namespace atoms::sync::ingest {

struct IngestOptions {
  std::string shareGroup = "ingest";  // $share/<group>/atoms/v1/+/audit
  std::chrono::milliseconds reorderWait{2000};
  std::size_t maxHeldPerSite = 64;  // segments held for reordering, per site
  BackoffPolicy backoff{std::chrono::milliseconds(1000), std::chrono::milliseconds(60000)};
  std::chrono::milliseconds disconnectTimeout{2000};
};

enum class IngestLogLevel { kDebug, kInfo, kWarning, kError };
using IngestLogFields = std::vector<std::pair<std::string, std::string>>;
using IngestLogger =
    std::function<void(IngestLogLevel, const std::string& msg, const IngestLogFields& fields)>;

struct IngestStats {
  bool connected = false;
  std::uint64_t connects = 0, connectFailures = 0, connectionsLost = 0;
  std::uint64_t messages = 0, accepted = 0, duplicates = 0, gaps = 0, forks = 0, invalid = 0;
  std::uint64_t unknownSites = 0, storeErrors = 0, held = 0;
  std::uint64_t entriesStored = 0, receiptsVerified = 0;
  std::uint64_t acksPublished = 0, alarmsPublished = 0, publishFailures = 0;
};

class IngestService {
 public:
  struct Deps {
    Ingester& ingester;  // must outlive the service
    std::unique_ptr<MqttTransport> transport;
    Writer& writer;  // must outlive the service
    RandomSource random;
    IngestLogger logger;
  };

  // Errors: options out of range.
  static Result<std::unique_ptr<IngestService>> create(Deps deps, IngestOptions options);
  ~IngestService();
  IngestService(const IngestService&) = delete;
  IngestService& operator=(const IngestService&) = delete;

  // Starts connecting. Once.
  void start();
  // Disconnects (bounded by options.disconnectTimeout) and ignores later events. Held segments are
  // dropped unrecorded: nothing was acked for them, the boxes resend. Idempotent.
  void stop();

  IngestStats stats() const { return stats_; }
  std::string subscription() const;

 private:
  struct Held {
    std::string topic, payload;
    std::chrono::steady_clock::time_point since;
  };

  IngestService(Deps deps, IngestOptions options);
  void connect();
  void scheduleReconnect();
  void onConnected(bool sessionPresent);
  void onConnectFailed(const std::string& reason);
  void onConnectionLost(const std::string& reason);
  void onMessage(const MqttMessage& message);
  // Runs the ingester, logs and counts the outcome and publishes what it asks for.
  Outcome process(const std::string& topic, const std::string& payload, bool finalTry);
  void hold(const Outcome& outcome, const MqttMessage& message);
  // Tries the held segments of site again (in `from` order); gives up those older than
  // reorderWait when giveUp.
  void retryHeld(const std::string& site, bool giveUp);
  void armRetry(const std::string& site);
  void scheduleRetry(const std::string& site, std::chrono::milliseconds delay);
  void publish(const Outcome& outcome);
  void after(std::chrono::milliseconds delay, std::function<void(IngestService&)> fn);
  void log(IngestLogLevel level, const std::string& msg, IngestLogFields fields = {}) const;

  Ingester& ingester_;
  std::unique_ptr<MqttTransport> transport_;
  Writer& writer_;
  IngestLogger logger_;
  IngestOptions options_;
  Backoff backoff_;

  bool started_ = false, stopped_ = false, connected_ = false;
  std::uint64_t connection_ = 0;
  std::map<std::string, std::map<std::uint64_t, Held>> held_;  // site -> from -> segment
  std::set<std::string> retryArmed_;                           // sites with a retry timer pending
  IngestStats stats_;
  std::shared_ptr<IngestService*> self_;
};

}  // namespace atoms::sync::ingest
