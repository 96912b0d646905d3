#include "sync/ingest/ingest_service.h"

#include <algorithm>

#include "sync/topics.h"

namespace atoms::sync::ingest {
namespace {

std::string num(std::uint64_t n) { return std::to_string(n); }

// First retry of a held segment soon (the other ingester is usually a few ms from its commit),
// then less often.
constexpr std::chrono::milliseconds kFirstRetry{20};
constexpr std::chrono::milliseconds kMaxRetry{250};

}  // namespace

Result<std::unique_ptr<IngestService>> IngestService::create(Deps deps, IngestOptions options) {
  if (options.shareGroup.empty() || options.shareGroup.find_first_of("/+#") != std::string::npos) {
    return makeError("the shared subscription group must be non-empty without '/', '+' or '#'");
  }
  if (options.maxHeldPerSite == 0) return makeError("maxHeldPerSite must be at least 1");
  if (options.backoff.initial.count() <= 0 || options.backoff.max < options.backoff.initial) {
    return makeError("backoff: 0 < initial <= max");
  }
  if (!deps.transport) return makeError("no transport");
  return std::unique_ptr<IngestService>(new IngestService(std::move(deps), std::move(options)));
}

IngestService::IngestService(Deps deps, IngestOptions options)
    : ingester_(deps.ingester),
      transport_(std::move(deps.transport)),
      writer_(deps.writer),
      logger_(std::move(deps.logger)),
      options_(std::move(options)),
      backoff_(options_.backoff, std::move(deps.random)),
      self_(std::make_shared<IngestService*>(this)) {
  TransportEvents events;
  events.connected = [this](bool present) { onConnected(present); };
  events.connectFailed = [this](const std::string& r) { onConnectFailed(r); };
  events.connectionLost = [this](const std::string& r) { onConnectionLost(r); };
  events.published = [](std::uint64_t) {};
  events.publishFailed = [this](std::uint64_t, const std::string& reason) {
    ++stats_.publishFailures;
    log(IngestLogLevel::kWarning, "the broker refused a publish (check the ingest identity's ACL)",
        {{"reason", reason}});
  };
  events.subscribeFailed = [this](const std::string& topic, const std::string& reason) {
    log(IngestLogLevel::kError, "the broker refused the subscription (check its ACL for ingest)",
        {{"topic", topic}, {"reason", reason}});
  };
  events.message = [this](const MqttMessage& m) { onMessage(m); };
  transport_->setEvents(std::move(events));
}

IngestService::~IngestService() { stop(); }

std::string IngestService::subscription() const {
  return "$share/" + options_.shareGroup + "/" + std::string(kTopicRoot) + "+/audit";
}

void IngestService::log(IngestLogLevel level, const std::string& msg,
                        IngestLogFields fields) const {
  if (logger_) logger_(level, msg, fields);
}

void IngestService::after(std::chrono::milliseconds delay, std::function<void(IngestService&)> fn) {
  std::weak_ptr<IngestService*> weak = self_;
  writer_.runAfter(delay, [weak, fn = std::move(fn)] {
    auto self = weak.lock();
    if (self && !(*self)->stopped_) fn(**self);
  });
}

void IngestService::start() {
  if (started_) return;
  started_ = true;
  log(IngestLogLevel::kInfo, "ingest starting",
      {{"broker", transport_->describe()}, {"subscription", subscription()}});
  connect();
}

void IngestService::stop() {
  if (stopped_) return;
  stopped_ = true;
  self_.reset();  // pending timers become no-ops
  std::uint64_t dropped = 0;
  for (const auto& [site, segments] : held_) dropped += segments.size();
  held_.clear();
  transport_->disconnect(options_.disconnectTimeout);
  log(IngestLogLevel::kInfo, "ingest stopped",
      {{"accepted", num(stats_.accepted)},
       {"entries", num(stats_.entriesStored)},
       {"held_dropped", num(dropped)}});
}

void IngestService::connect() {
  ++connection_;
  if (Status s = transport_->connect(); !s) onConnectFailed(s.message());
}

void IngestService::scheduleReconnect() {
  connected_ = false;
  stats_.connected = false;
  const auto delay = backoff_.next();
  const std::uint64_t attempt = connection_;
  after(delay, [attempt](IngestService& s) {
    if (!s.connected_ && s.connection_ == attempt) s.connect();
  });
}

void IngestService::onConnected(bool sessionPresent) {
  connected_ = true;
  stats_.connected = true;
  ++stats_.connects;
  backoff_.reset();
  log(IngestLogLevel::kInfo, "connected to the broker",
      {{"broker", transport_->describe()}, {"session_present", sessionPresent ? "true" : "false"}});
  // Always subscribe: a broker that lost its persistence lost the session too.
  if (Status s = transport_->subscribe(subscription()); !s) {
    log(IngestLogLevel::kError, "cannot subscribe", {{"reason", s.message()}});
  }
}

void IngestService::onConnectFailed(const std::string& reason) {
  ++stats_.connectFailures;
  log(backoff_.attempts() == 0 ? IngestLogLevel::kWarning : IngestLogLevel::kDebug,
      "cannot connect to the broker", {{"broker", transport_->describe()}, {"reason", reason}});
  scheduleReconnect();
}

void IngestService::onConnectionLost(const std::string& reason) {
  if (!connected_) return;
  ++stats_.connectionsLost;
  log(IngestLogLevel::kWarning, "lost the broker connection", {{"reason", reason}});
  scheduleReconnect();
}

void IngestService::onMessage(const MqttMessage& message) {
  ++stats_.messages;
  Outcome out = process(message.topic, message.payload, false);
  if (out.verdict == Verdict::kGap) {
    hold(out, message);
  } else if (out.verdict == Verdict::kAccepted) {
    retryHeld(out.site, false);
  }
}

Outcome IngestService::process(const std::string& topic, const std::string& payload,
                               bool finalTry) {
  Outcome out = ingester_.handle(topic, payload, finalTry);
  IngestLogFields fields{{"site", out.site}};
  if (out.from) fields.emplace_back("from", num(*out.from));
  if (out.to) fields.emplace_back("to", num(*out.to));
  switch (out.verdict) {
    case Verdict::kAccepted:
      ++stats_.accepted;
      stats_.entriesStored += out.entries;
      stats_.receiptsVerified += out.receipts;
      log(IngestLogLevel::kDebug, "segment verified and stored", std::move(fields));
      break;
    case Verdict::kDuplicate:
      ++stats_.duplicates;
      log(IngestLogLevel::kDebug, "duplicate segment, acked again", std::move(fields));
      break;
    case Verdict::kGap:
      if (finalTry) {
        ++stats_.gaps;
        fields.emplace_back("reason", out.detail);
        log(IngestLogLevel::kWarning, "gap: segment dropped, waiting for the box to resend",
            std::move(fields));
      }
      break;
    case Verdict::kFork:
      ++stats_.forks;
      fields.emplace_back("evidence", num(static_cast<std::uint64_t>(out.evidence.value_or(0))));
      fields.emplace_back("reason", out.detail);
      log(IngestLogLevel::kError,
          "ALARM fork: the site signed two histories; evidence kept, not acked", std::move(fields));
      break;
    case Verdict::kInvalid:
      ++stats_.invalid;
      fields.emplace_back("evidence", num(static_cast<std::uint64_t>(out.evidence.value_or(0))));
      fields.emplace_back("reason", out.detail);
      log(IngestLogLevel::kError, "ALARM invalid segment rejected, not acked", std::move(fields));
      break;
    case Verdict::kUnknownSite:
      ++stats_.unknownSites;
      log(IngestLogLevel::kWarning, "segment from an unregistered site refused", std::move(fields));
      break;
    case Verdict::kNotAudit:
      break;
    case Verdict::kStoreError:
      ++stats_.storeErrors;
      fields.emplace_back("reason", out.detail);
      log(IngestLogLevel::kError, "cannot store a segment; the box will resend it",
          std::move(fields));
      break;
  }
  publish(out);
  return out;
}

void IngestService::publish(const Outcome& out) {
  if (out.ack) {
    auto id = transport_->publish(siteTopics(out.site).ack, ackJson(*out.ack), false);
    if (id) {
      ++stats_.acksPublished;
    } else {
      ++stats_.publishFailures;
      log(IngestLogLevel::kDebug, "cannot publish an ack; the box will resend",
          {{"site", out.site}, {"reason", id.message()}});
    }
  }
  if (out.alarm) {
    auto id = transport_->publish(alarmTopic(out.site), alarmJson(*out.alarm), true);
    if (id) {
      ++stats_.alarmsPublished;
    } else {
      ++stats_.publishFailures;
      log(IngestLogLevel::kWarning, "cannot publish an alarm (it is in the store)",
          {{"site", out.site}, {"reason", id.message()}});
    }
  }
}

void IngestService::hold(const Outcome& out, const MqttMessage& message) {
  auto& site = held_[out.site];
  const std::uint64_t from = out.from.value_or(0);
  if (site.count(from) == 0 && site.size() >= options_.maxHeldPerSite) {
    (void)process(message.topic, message.payload, true);  // no room: a gap now
    return;
  }
  auto [it, inserted] = site.try_emplace(from);
  if (inserted) it->second.since = std::chrono::steady_clock::now();
  it->second.topic = message.topic;
  it->second.payload = message.payload;  // a resend replaces it, keeping its age
  ++stats_.held;
  armRetry(out.site);
}

void IngestService::armRetry(const std::string& site) {
  if (!retryArmed_.insert(site).second) return;
  scheduleRetry(site, kFirstRetry);
}

void IngestService::scheduleRetry(const std::string& site, std::chrono::milliseconds delay) {
  after(delay, [site, delay](IngestService& s) {
    s.retryHeld(site, true);
    auto it = s.held_.find(site);
    if (it == s.held_.end() || it->second.empty()) {
      s.held_.erase(site);
      s.retryArmed_.erase(site);
      return;
    }
    s.scheduleRetry(site, std::min(kMaxRetry, delay * 2));
  });
}

void IngestService::retryHeld(const std::string& site, bool giveUp) {
  auto found = held_.find(site);
  if (found == held_.end()) return;
  const auto now = std::chrono::steady_clock::now();
  bool progress = true;
  while (progress) {
    progress = false;
    for (auto it = found->second.begin(); it != found->second.end();) {
      const bool expired = giveUp && now - it->second.since >= options_.reorderWait;
      Held h = it->second;
      Outcome out = process(h.topic, h.payload, expired);
      if (out.verdict == Verdict::kGap && !expired) break;  // later ones are gaps too
      it = found->second.erase(it);
      if (out.verdict == Verdict::kAccepted) {
        progress = true;
        break;
      }
    }
  }
}

}  // namespace atoms::sync::ingest
