// MqttUplink: publishes the site's audit log to the cloud over MQTT and takes the cloud's acks
// (DESIGN.md section 6; the wire protocol is docs/sync-protocol.md).
//
// - The outbox is the log itself: everything from the acked size (audit_sync, sync/sync_state.h)
//   to the newest signed size is backlog. Segments (sync/segment.h) are cut from it, bounded in
//   bytes, and published in order on atoms/v1/<site>/audit at QoS 1, at most `window` of them
//   beyond the acked size at a time.
// - Every (re)connection starts again from the acked size: nothing is skipped, a resend is a
//   duplicate the cloud recognises and acks again. No ack progress for `ackTimeout` while
//   segments are out, or an ack that lands inside a published segment (the cloud held more than
//   the box knew), also restarts from the acked size.
// - An ack is checked against the box's OWN tree before anything is marked synced: the root at
//   the acked size must be the box's, and the size must be one the box signed. Anything else is
//   refused, logged and audited (entry kind "sync.ack.refused", at most one per minute; the
//   count of those left out is in the next one).
// - Retained status (birth on connect, refreshed every statusInterval and when the backlog drains;
//   last will "offline"), backlog size and age in it.
// - Reconnects after a capped exponential backoff with jitter (sync/backoff.h).
// - Retention prunes acked checkpoint notes older than `retention` (sync/retention.h).
// - Signed commands down: with a CommandProcessor set (setCommandProcessor), it subscribes to
//   atoms/v1/<site>/cmd and hands each message to the processor on the owner thread; the
//   processor commits the outcome, then the result goes out on cmd/result (QoS 1). A redelivered
//   command gets its stored result again (sync/command/command_processor.h).
//
// Threading: create, use and destroy on the owner thread (the writer's), which also owns the
// AuditLog and the Database. Transport events and timers arrive there through the writer, so
// no lock is needed; nothing here blocks except stop() (bounded by the transport's disconnect).
// Errors: values; a failure to publish or to build a segment is logged and retried, never thrown.
#pragma once

#include <chrono>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "base/result.h"
#include "base/writer.h"
#include "store/audit_log.h"
#include "store/database.h"
#include "sync/backoff.h"
#include "sync/command/command_processor.h"
#include "sync/entry_time.h"
#include "sync/mqtt_transport.h"
#include "sync/status_report.h"
#include "sync/sync_state.h"
#include "sync/topics.h"

namespace atoms::sync {

struct UplinkOptions {
  std::size_t maxSegmentBytes = 1024 * 1024;
  std::size_t window = 4;                        // segments out beyond the acked size
  std::chrono::milliseconds pollInterval{1000};  // how often the log is checked for growth
  std::chrono::milliseconds ackTimeout{30000};   // then resend from the acked size
  // An ack of the acked size again while later segments are out says the cloud missed one (an
  // ingest member took it and went): resend from the acked size at once, at most this often.
  std::chrono::milliseconds gapResendHoldoff{1000};
  std::chrono::milliseconds statusInterval{60000};    // online status refresh
  std::chrono::milliseconds disconnectTimeout{2000};  // stop(): wait for the offline status
  BackoffPolicy backoff;
  std::chrono::hours retention{24 * 30};  // acked checkpoint notes older than this go; 0: keep
  std::chrono::milliseconds retentionInterval{3600 * 1000};
};

enum class UplinkLogLevel { kDebug, kInfo, kWarning, kError };
using UplinkLogFields = std::vector<std::pair<std::string, std::string>>;
// Where the uplink reports what happens (the service adapts it to its structured log). Never
// given secrets.
using UplinkLogger =
    std::function<void(UplinkLogLevel, const std::string& msg, const UplinkLogFields& fields)>;

struct UplinkStats {
  bool connected = false;
  std::uint64_t logSize = 0, ackedSize = 0, sentSize = 0;
  std::uint64_t connects = 0, connectFailures = 0, connectionsLost = 0;
  std::uint64_t segmentsPublished = 0, publishFailures = 0, resends = 0, gapResends = 0;
  std::uint64_t acksAccepted = 0, acksDuplicate = 0, acksRefused = 0;
  std::uint64_t checkpointsPruned = 0;
  std::uint64_t commandsApplied = 0, commandsRefused = 0, commandResultsUnpublished = 0;
  std::string lastRefusal;  // why the last ack was refused
};

class MqttUplink {
 public:
  struct Deps {
    AuditLog& log;
    Database& db;  // the log's database (audit_sync, audit_checkpoint)
    std::unique_ptr<MqttTransport> transport;
    Writer& writer;  // must outlive the uplink
    std::function<TimePoint()> now;
    RandomSource random;
    UplinkLogger logger;
  };

  // Loads the acked state and checks it against the log: a stored ack the tree does not confirm
  // (a database restored behind its sync state) is dropped with a warning and the uplink starts
  // from 0 (the cloud acks what it already has again). Errors: options out of range, the
  // database's.
  static Result<std::unique_ptr<MqttUplink>> create(Deps deps, UplinkOptions options);
  // Calls stop().
  ~MqttUplink();
  MqttUplink(const MqttUplink&) = delete;
  MqttUplink& operator=(const MqttUplink&) = delete;

  // Starts connecting (and the periodic poll). Once.
  void start();
  // Publishes the offline status if connected, disconnects (blocking at most
  // options.disconnectTimeout plus the transport's margin), and ignores every later event or
  // timer. Idempotent.
  void stop();
  // The log may have grown: publish now rather than at the next poll.
  void poke();
  // Handles the cmd topic with `processor` (owner thread; it must outlive the uplink). Call
  // before start(); without one the uplink does not subscribe to commands.
  void setCommandProcessor(command::CommandProcessor* processor) { commands_ = processor; }
  // Told (owner thread) when the broker session comes up (true) and when it is lost or cannot
  // come up (false, with the reason): the service feeds BRK-CONN-broker. Call before start().
  using ConnectionListener = std::function<void(bool connected, const std::string& reason)>;
  void setConnectionListener(ConnectionListener listener) { onConnection_ = std::move(listener); }

  UplinkStats stats() const;
  StatusReport statusReport();
  const SiteTopics& topics() const { return topics_; }

 private:
  enum class State { kIdle, kConnecting, kConnected, kWaitingRetry, kStopped };
  struct Inflight {
    std::uint64_t from = 0, to = 0;
  };

  MqttUplink(Deps deps, UplinkOptions options, AckedState acked);

  void connect();
  void scheduleRetry();
  void tick();
  void pump();
  void restartFromAcked(const char* why);
  void publishStatus();

  void onConnected(bool sessionPresent);
  void onConnectFailed(const std::string& reason);
  void onConnectionLost(const std::string& reason);
  void onPublishFailed(std::uint64_t id, const std::string& reason);
  void onMessage(const MqttMessage& message);
  void onAck(const std::string& payload);
  void onCommand(const std::string& payload);
  void refuseAck(const std::string& reason, const std::string& payload,
                 std::optional<std::uint64_t> size, std::optional<Hash32> root);
  void runRetention();

  // Runs fn on the owner thread after delay, unless the uplink is gone or stopped by then.
  void after(std::chrono::milliseconds delay, void (MqttUplink::*fn)());
  void log(UplinkLogLevel level, const std::string& msg, UplinkLogFields fields = {}) const;

  AuditLog& log_;
  Database& db_;
  std::unique_ptr<MqttTransport> transport_;
  Writer& writer_;
  std::function<TimePoint()> now_;
  ConnectionListener onConnection_;
  UplinkLogger logger_;
  UplinkOptions options_;
  SiteTopics topics_;
  Backoff backoff_;

  State state_ = State::kIdle;
  std::uint64_t connection_ = 0;  // counts connection attempts; stale retry timers compare it
  AckedState acked_;
  std::uint64_t sent_ = 0;  // next segment starts here (0 or a signed size)
  std::deque<Inflight> inflight_;
  TimePoint lastProgress_{};  // last ack progress, or when the first segment went out
  TimePoint lastRestart_{};   // when publishing last started again from the acked size
  TimePoint lastStatus_{};
  TimePoint lastRetention_{};
  bool publishFailureLogged_ = false;
  // Refused-ack audit rate limit.
  std::optional<TimePoint> lastRefusalAudit_;
  std::uint64_t refusalsNotAudited_ = 0;
  // The oldest unacked entry's time, cached by seq.
  std::optional<std::pair<std::uint64_t, TimePoint>> oldest_;
  UplinkStats stats_;
  command::CommandProcessor* commands_ = nullptr;
  // Timers and events hold a weak_ptr to this: on the owner thread, expired means "gone".
  std::shared_ptr<MqttUplink*> self_;
};

}  // namespace atoms::sync
