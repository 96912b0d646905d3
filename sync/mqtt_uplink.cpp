#include "sync/mqtt_uplink.h"

#include <algorithm>

#include "base/canonical_json.h"
#include "store/audit_entry.h"
#include "store/merkle.h"
#include "sync/ack.h"
#include "sync/retention.h"
#include "sync/segment.h"

namespace atoms::sync {
namespace {

constexpr std::chrono::minutes kRefusalAuditInterval{1};

std::string num(std::uint64_t n) { return std::to_string(n); }

}  // namespace

Result<std::unique_ptr<MqttUplink>> MqttUplink::create(Deps deps, UplinkOptions options) {
  if (!deps.transport) return makeError("sync: no MQTT transport");
  if (options.window == 0) return makeError("sync: the window must be at least 1 segment");
  if (options.maxSegmentBytes < 1024) {
    return makeError("sync: max_segment_bytes must be at least 1024");
  }
  if (options.backoff.initial.count() <= 0 || options.backoff.max < options.backoff.initial) {
    return makeError("sync: backoff needs 0 < initial <= max");
  }
  if (options.pollInterval.count() <= 0 || options.ackTimeout.count() <= 0) {
    return makeError("sync: poll interval and ack timeout must be positive");
  }
  auto acked = loadAckedState(deps.db);
  if (!acked) return makeError("sync: " + acked.message());
  const AuditLog& log = deps.log;
  bool confirmed = acked->size == 0 || acked->size <= log.size();
  if (confirmed && acked->size > 0) {
    auto root = log.tree().rootAt(acked->size);
    confirmed = root && *root == acked->root &&
                std::binary_search(log.signedSizes().begin(), log.signedSizes().end(), acked->size);
  }
  const std::uint64_t stored = acked->size;
  if (!confirmed) *acked = AckedState{0, emptyRoot()};
  std::unique_ptr<MqttUplink> uplink(new MqttUplink(std::move(deps), options, *acked));
  if (!confirmed) {
    uplink->log(UplinkLogLevel::kWarning,
                "the stored sync state does not match this log; publishing from 0 again",
                {{"stored_acked", num(stored)}, {"log_size", num(log.size())}});
  }
  return uplink;
}

MqttUplink::MqttUplink(Deps deps, UplinkOptions options, AckedState acked)
    : log_(deps.log),
      db_(deps.db),
      transport_(std::move(deps.transport)),
      writer_(deps.writer),
      now_(std::move(deps.now)),
      logger_(std::move(deps.logger)),
      options_(options),
      topics_(siteTopics(log_.siteId())),
      backoff_(options.backoff, std::move(deps.random)),
      acked_(acked),
      sent_(acked.size),
      self_(std::make_shared<MqttUplink*>(this)) {
  TransportEvents events;
  events.connected = [this](bool present) { onConnected(present); };
  events.connectFailed = [this](const std::string& r) { onConnectFailed(r); };
  events.connectionLost = [this](const std::string& r) { onConnectionLost(r); };
  events.published = [](std::uint64_t) {};
  events.publishFailed = [this](std::uint64_t id, const std::string& r) { onPublishFailed(id, r); };
  events.subscribeFailed = [this](const std::string& topic, const std::string& reason) {
    log(UplinkLogLevel::kError, "the broker refused a subscription (check its ACL for this site)",
        {{"topic", topic}, {"reason", reason}});
  };
  events.message = [this](const MqttMessage& m) { onMessage(m); };
  transport_->setEvents(std::move(events));
}

MqttUplink::~MqttUplink() { stop(); }

void MqttUplink::log(UplinkLogLevel level, const std::string& msg, UplinkLogFields fields) const {
  if (logger_) logger_(level, msg, fields);
}

void MqttUplink::after(std::chrono::milliseconds delay, void (MqttUplink::*fn)()) {
  std::weak_ptr<MqttUplink*> weak = self_;
  writer_.runAfter(delay, [weak, fn] {
    auto self = weak.lock();
    if (self && (*self)->state_ != State::kStopped) ((*self)->*fn)();
  });
}

void MqttUplink::start() {
  if (state_ != State::kIdle) return;
  log(UplinkLogLevel::kInfo, "sync starting",
      {{"broker", transport_->describe()},
       {"acked", num(acked_.size)},
       {"log_size", num(log_.size())}});
  lastProgress_ = lastStatus_ = now_();
  connect();
  after(options_.pollInterval, &MqttUplink::tick);
  if (options_.retention.count() > 0) runRetention();
}

void MqttUplink::stop() {
  if (state_ == State::kStopped) return;
  const bool wasConnected = state_ == State::kConnected;
  state_ = State::kStopped;
  self_.reset();  // pending timers become no-ops
  if (wasConnected) {
    // Queued before the DISCONNECT: the clean stop replaces the will, which the broker would not
    // send after a clean disconnect.
    (void)transport_->publish(topics_.status, offlineStatusJson(log_.siteId()), true);
  }
  transport_->disconnect(options_.disconnectTimeout);
  log(UplinkLogLevel::kInfo, "sync stopped",
      {{"acked", num(acked_.size)}, {"log_size", num(log_.size())}});
}

void MqttUplink::poke() { pump(); }

void MqttUplink::connect() {
  state_ = State::kConnecting;
  ++connection_;
  if (Status s = transport_->connect(); !s) onConnectFailed(s.message());
}

void MqttUplink::scheduleRetry() {
  state_ = State::kWaitingRetry;
  const auto delay = backoff_.next();
  log(UplinkLogLevel::kDebug, "reconnecting later",
      {{"delay_ms", num(static_cast<std::uint64_t>(delay.count()))},
       {"attempt", num(backoff_.attempts())}});
  std::weak_ptr<MqttUplink*> weak = self_;
  const std::uint64_t attempt = connection_;
  writer_.runAfter(delay, [weak, attempt] {
    auto self = weak.lock();
    if (!self) return;
    MqttUplink& u = **self;
    if (u.state_ == State::kWaitingRetry && u.connection_ == attempt) u.connect();
  });
}

void MqttUplink::onConnected(bool sessionPresent) {
  if (state_ != State::kConnecting) return;
  state_ = State::kConnected;
  ++stats_.connects;
  backoff_.reset();
  if (onConnection_) onConnection_(true, {});
  publishFailureLogged_ = false;
  log(UplinkLogLevel::kInfo, "connected to the broker",
      {{"broker", transport_->describe()},
       {"session_present", sessionPresent ? "true" : "false"},
       {"acked", num(acked_.size)},
       {"backlog", num(log_.size() - std::min(log_.size(), acked_.size))}});
  // Always subscribe: a broker that lost its persistence also lost the session.
  if (Status s = transport_->subscribe(topics_.ack); !s) {
    log(UplinkLogLevel::kError, "cannot subscribe to acks", {{"reason", s.message()}});
  }
  if (commands_ != nullptr) {
    if (Status s = transport_->subscribe(topics_.cmd); !s) {
      log(UplinkLogLevel::kError, "cannot subscribe to commands", {{"reason", s.message()}});
    }
  }
  publishStatus();
  restartFromAcked(nullptr);
}

void MqttUplink::onConnectFailed(const std::string& reason) {
  if (state_ != State::kConnecting) return;
  ++stats_.connectFailures;
  if (onConnection_) onConnection_(false, reason);
  log(backoff_.attempts() == 0 ? UplinkLogLevel::kWarning : UplinkLogLevel::kDebug,
      "cannot connect to the broker", {{"broker", transport_->describe()}, {"reason", reason}});
  scheduleRetry();
}

void MqttUplink::onConnectionLost(const std::string& reason) {
  if (state_ != State::kConnected) return;
  ++stats_.connectionsLost;
  if (onConnection_) onConnection_(false, reason);
  inflight_.clear();
  log(UplinkLogLevel::kWarning, "lost the broker connection", {{"reason", reason}});
  scheduleRetry();
}

void MqttUplink::onPublishFailed(std::uint64_t /*id*/, const std::string& reason) {
  ++stats_.publishFailures;
  if (publishFailureLogged_) return;  // once per connection: an ACL problem fails every publish
  publishFailureLogged_ = true;
  log(UplinkLogLevel::kError, "the broker refused a publish (check the broker's ACL for this site)",
      {{"reason", reason}});
}

void MqttUplink::restartFromAcked(const char* why) {
  if (why != nullptr && !inflight_.empty()) {
    ++stats_.resends;
    log(UplinkLogLevel::kInfo, "publishing again from the acked size",
        {{"reason", why}, {"acked", num(acked_.size)}, {"sent", num(sent_)}});
  }
  inflight_.clear();
  sent_ = acked_.size;
  lastProgress_ = now_();
  lastRestart_ = lastProgress_;
  pump();
}

void MqttUplink::pump() {
  if (state_ != State::kConnected) return;
  // Record the newest checkpoint as published once (one fsync'd high-water write), so that the
  // segments below it need no write of their own (buildNextSegment only writes a larger size).
  if (sent_ < log_.signedSize() && log_.highWaterSize() < log_.signedSize()) {
    if (auto note = log_.publishCheckpoint(log_.signedSize()); !note) {
      log(UplinkLogLevel::kError, "cannot record the checkpoint before publishing it",
          {{"reason", note.message()}});
      return;
    }
  }
  while (inflight_.size() < options_.window && sent_ < log_.signedSize()) {
    auto seg = buildNextSegment(log_, sent_, log_.signedSize(), options_.maxSegmentBytes);
    if (!seg) {
      // E.g. the high-water file cannot be written: nothing may leave the box. Next tick retries.
      log(UplinkLogLevel::kError, "cannot build a segment", {{"reason", seg.message()}});
      return;
    }
    auto id = transport_->publish(topics_.audit, segmentJson(*seg), false);
    if (!id) {
      log(UplinkLogLevel::kWarning, "cannot publish a segment", {{"reason", id.message()}});
      return;
    }
    if (inflight_.empty()) lastProgress_ = now_();
    inflight_.push_back({seg->from, seg->to});
    sent_ = seg->to;
    ++stats_.segmentsPublished;
  }
}

void MqttUplink::tick() {
  after(options_.pollInterval, &MqttUplink::tick);
  const TimePoint now = now_();
  if (state_ == State::kConnected) {
    if (!inflight_.empty() && now - lastProgress_ >= options_.ackTimeout) {
      restartFromAcked("no ack within the ack timeout");
    } else {
      pump();
    }
    if (now - lastStatus_ >= options_.statusInterval) publishStatus();
  }
  if (options_.retention.count() > 0 && now - lastRetention_ >= options_.retentionInterval) {
    runRetention();
  }
}

StatusReport MqttUplink::statusReport() {
  StatusReport r;
  r.site = log_.siteId();
  const TimePoint now = now_();
  r.ts = formatTimestamp(now);
  r.size = log_.size();
  r.acked = std::min(acked_.size, r.size);
  if (r.size > r.acked) {
    if (!oldest_ || oldest_->first != r.acked) {
      auto t = entryTime(log_, r.acked);
      if (t) oldest_ = std::pair{r.acked, *t};
    }
    if (oldest_ && oldest_->first == r.acked) {
      r.oldest = formatTimestamp(oldest_->second);
      const auto age = std::chrono::duration_cast<std::chrono::seconds>(now - oldest_->second);
      r.backlogAgeSeconds = age.count() > 0 ? static_cast<std::uint64_t>(age.count()) : 0;
    }
  }
  return r;
}

void MqttUplink::publishStatus() {
  if (state_ != State::kConnected) return;
  lastStatus_ = now_();
  if (auto id = transport_->publish(topics_.status, statusJson(statusReport()), true); !id) {
    log(UplinkLogLevel::kWarning, "cannot publish the status", {{"reason", id.message()}});
  }
}

void MqttUplink::onMessage(const MqttMessage& message) {
  if (message.topic == topics_.cmd && commands_ != nullptr) return onCommand(message.payload);
  if (message.topic != topics_.ack) {
    log(UplinkLogLevel::kDebug, "ignoring a message on an unexpected topic",
        {{"topic", message.topic}});
    return;
  }
  onAck(message.payload);
}

void MqttUplink::onAck(const std::string& payload) {
  auto ack = parseAck(payload);
  if (!ack) return refuseAck(ack.message(), payload, std::nullopt, std::nullopt);
  if (ack->site != log_.siteId()) {
    return refuseAck("the ack is for site \"" + ack->site + "\"", payload, ack->size, ack->root);
  }
  if (ack->size > log_.size()) {
    return refuseAck("size " + num(ack->size) + " was never signed by this box (its log holds " +
                         num(log_.size()) + " entries)",
                     payload, ack->size, ack->root);
  }
  auto root = log_.tree().rootAt(ack->size);
  if (!root || *root != ack->root) {
    return refuseAck("the root does not match this box's tree at size " + num(ack->size), payload,
                     ack->size, ack->root);
  }
  if (ack->size <= acked_.size) {
    ++stats_.acksDuplicate;  // a redelivery, or the cloud re-acking a resend
    // The cloud still at the acked size while later segments are out: one of them went missing
    // (an ingest member that took it is gone). Publish again from there now, not after the ack
    // timeout; the holdoff keeps a burst of such acks to one resend.
    if (ack->size == acked_.size && !inflight_.empty() &&
        now_() - lastRestart_ >= options_.gapResendHoldoff) {
      ++stats_.gapResends;
      restartFromAcked("the cloud is missing a segment after the acked size");
    }
    return;
  }
  const auto& sizes = log_.signedSizes();
  if (!std::binary_search(sizes.begin(), sizes.end(), ack->size)) {
    return refuseAck("size " + num(ack->size) + " is not a size this box signed (" +
                         log_.describeNearestSigned(ack->size) + ")",
                     payload, ack->size, ack->root);
  }

  if (Status s = saveAckedState(db_, AckedState{ack->size, ack->root}); !s) {
    // Not marked synced; the cloud acks again when the box resends.
    log(UplinkLogLevel::kError, "cannot record the ack", {{"reason", s.message()}});
    return;
  }
  acked_ = AckedState{ack->size, ack->root};
  ++stats_.acksAccepted;
  lastProgress_ = now_();
  while (!inflight_.empty() && inflight_.front().to <= acked_.size) inflight_.pop_front();
  if (sent_ < acked_.size) {
    sent_ = acked_.size;  // the cloud held more than this connection sent (an earlier run's)
  } else if (!inflight_.empty() && inflight_.front().from < acked_.size) {
    // The ack ends inside a published segment: the ones after it would reach the cloud as gaps.
    restartFromAcked("the ack ends inside a published segment");
    return;
  }
  pump();
  if (acked_.size == log_.size()) publishStatus();
}

void MqttUplink::onCommand(const std::string& payload) {
  // The processor has committed the outcome (or recorded nothing, "failed") before it returns.
  const command::Decision d = commands_->handle(payload);
  const std::string id = d.id.value_or("(unverified)");
  if (d.outcome == "applied") {
    ++stats_.commandsApplied;
    log(UplinkLogLevel::kInfo, "applied a cloud command", {{"id", id}, {"result", d.message}});
  } else {
    ++stats_.commandsRefused;
    log(d.outcome == "failed" ? UplinkLogLevel::kError : UplinkLogLevel::kWarning,
        "refused a cloud command",
        {{"id", id},
         {"code", std::string(command::refusalCodeName(d.code))},
         {"reason", d.message}});
  }
  // Not connected: the cloud sends the note again and gets the stored result then.
  if (auto sent = transport_->publish(topics_.cmdResult, d.result, false); !sent) {
    ++stats_.commandResultsUnpublished;
    log(UplinkLogLevel::kWarning, "cannot publish a command result",
        {{"id", id}, {"reason", sent.message()}});
  }
}

void MqttUplink::refuseAck(const std::string& reason, const std::string& payload,
                           std::optional<std::uint64_t> size, std::optional<Hash32> root) {
  ++stats_.acksRefused;
  stats_.lastRefusal = reason;
  log(UplinkLogLevel::kWarning, "refused an ack", {{"reason", reason}});
  const TimePoint now = now_();
  if (lastRefusalAudit_ && now - *lastRefusalAudit_ < kRefusalAuditInterval) {
    ++refusalsNotAudited_;
    return;
  }
  json::Object body;
  body.emplace("reason", reason);
  body.emplace("payload_sha256", toHex(sha256(asBytes(payload))));
  body.emplace("payload_bytes", static_cast<std::int64_t>(payload.size()));
  if (size && *size <= static_cast<std::uint64_t>(json::kMaxSafeInteger)) {
    body.emplace("size", static_cast<std::int64_t>(*size));
  }
  if (root) body.emplace("root", toBase64(*root));
  body.emplace("refusals_not_audited", static_cast<std::int64_t>(refusalsNotAudited_));
  auto seq =
      log_.append(formatTimestamp(now), "sync.ack.refused", "cloud", json::Value(std::move(body)));
  if (!seq) {
    log(UplinkLogLevel::kError, "cannot audit a refused ack", {{"reason", seq.message()}});
    return;
  }
  lastRefusalAudit_ = now;
  refusalsNotAudited_ = 0;
}

void MqttUplink::runRetention() {
  lastRetention_ = now_();
  const TimePoint cutoff = lastRetention_ - options_.retention;
  auto pruned = pruneSyncedCheckpoints(log_, db_, acked_.size, cutoff);
  if (!pruned) {
    log(UplinkLogLevel::kError, "retention failed", {{"reason", pruned.message()}});
    return;
  }
  if (pruned->pruned > 0) {
    stats_.checkpointsPruned += pruned->pruned;
    log(UplinkLogLevel::kInfo, "pruned synced checkpoint notes",
        {{"below_size", num(pruned->boundary)}, {"notes", num(pruned->pruned)}});
  }
}

UplinkStats MqttUplink::stats() const {
  UplinkStats s = stats_;
  s.connected = state_ == State::kConnected;
  s.logSize = log_.size();
  s.ackedSize = acked_.size;
  s.sentSize = sent_;
  return s;
}

}  // namespace atoms::sync
