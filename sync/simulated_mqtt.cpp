#include "sync/simulated_mqtt.h"

#include <algorithm>
#include <deque>
#include <functional>
#include <map>
#include <mutex>
#include <utility>
#include <vector>

namespace atoms::sync {
namespace {

constexpr std::string_view kSharePrefix = "$share/";

std::vector<std::string_view> levels(std::string_view s) {
  std::vector<std::string_view> out;
  for (std::size_t start = 0;;) {
    const std::size_t slash = s.find('/', start);
    out.push_back(s.substr(start, slash == std::string_view::npos ? s.npos : slash - start));
    if (slash == std::string_view::npos) return out;
    start = slash + 1;
  }
}

bool validTopic(std::string_view topic) {
  return !topic.empty() && topic.find_first_of(std::string_view("+#\0", 3)) == topic.npos;
}

bool validFilter(std::string_view filter) {
  if (filter.empty() || filter.find('\0') != filter.npos) return false;
  const auto parts = levels(filter);
  for (std::size_t i = 0; i < parts.size(); ++i) {
    const std::string_view p = parts[i];
    if (p.find('#') != p.npos && (p != "#" || i + 1 != parts.size())) return false;
    if (p.find('+') != p.npos && p != "+") return false;
  }
  return true;
}

// A shared subscription "$share/<group>/<filter>": the group key and the filter; nullopt for a
// plain filter. Malformed shares give an empty filter.
struct Share {
  std::string_view group, filter;
};
std::optional<Share> shareOf(std::string_view filter) {
  if (!filter.starts_with(kSharePrefix)) return std::nullopt;
  const std::string_view rest = filter.substr(kSharePrefix.size());
  const std::size_t slash = rest.find('/');
  if (slash == rest.npos) return Share{rest, {}};
  return Share{rest.substr(0, slash), rest.substr(slash + 1)};
}

bool validSubscription(std::string_view filter) {
  auto share = shareOf(filter);
  if (!share) return validFilter(filter);
  return !share->group.empty() && share->group.find_first_of("+#") == share->group.npos &&
         validFilter(share->filter);
}

}  // namespace

bool mqttTopicMatches(std::string_view filter, std::string_view topic) {
  if (topic.starts_with('$') && (filter.starts_with('+') || filter.starts_with('#'))) return false;
  const auto f = levels(filter);
  const auto t = levels(topic);
  for (std::size_t i = 0; i < f.size(); ++i) {
    if (f[i] == "#") return true;  // also the parent level: "a/#" matches "a"
    if (i >= t.size()) return false;
    if (f[i] != "+" && f[i] != t[i]) return false;
  }
  return f.size() == t.size();
}

// ------------------------------------------------------------------------------------------

struct SimulatedTransport::Endpoint {
  Endpoint(SimulatedClientOptions o, Writer& e) : options(std::move(o)), writer(&e) {}

  const SimulatedClientOptions options;
  Writer* const writer;
  // Owner thread only.
  TransportEvents events;
  bool open = true;  // false after disconnect(): no event is delivered any more
  std::uint64_t nextId = 1;
};

using Endpoint = SimulatedTransport::Endpoint;

struct SimulatedBroker::Core {
  struct Session {
    std::vector<std::string> filters;    // as subscribed, $share/ ones included
    std::deque<MqttMessage> queue;       // while offline (persistent sessions only)
    std::shared_ptr<Endpoint> endpoint;  // null while offline
    bool persistent = false;
  };
  struct Held {
    MqttMessage message;
    bool retained = false;
  };
  struct Fault {
    std::string filter;
    PublishFault fault;
    std::size_t left;
  };

  explicit Core(SimulatedBrokerOptions o) : options(std::move(o)) {}

  // Runs fn(events) on the endpoint's owner thread, unless it has disconnected by then.
  static void post(const std::shared_ptr<Endpoint>& ep,
                   std::function<void(const TransportEvents&)> fn) {
    ep->writer->post([ep, fn = std::move(fn)] {
      if (ep->open) fn(ep->events);
    });
  }

  Session* connectedSession(const Endpoint& ep) {
    auto it = sessions.find(ep.options.clientId);
    return it != sessions.end() && it->second.endpoint.get() == &ep ? &it->second : nullptr;
  }

  // Takes the session's connection away: connectionLost at the client, the will published
  // (unless the broker itself went away), a clean session forgotten.
  void dropLocked(std::map<std::string, Session>::iterator it, const std::string& reason,
                  bool publishWill) {
    std::shared_ptr<Endpoint> ep = std::move(it->second.endpoint);
    ++stats.connectionsDropped;
    post(ep, [reason](const TransportEvents& e) {
      if (e.connectionLost) e.connectionLost(reason);
    });
    if (!it->second.persistent) sessions.erase(it);
    if (publishWill && ep->options.will) routeLocked(*ep->options.will, true, 1);
  }

  void deliverLocked(Session& s, const MqttMessage& m, int copies) {
    for (int i = 0; i < copies; ++i) {
      if (s.endpoint) {
        ++stats.deliveries;
        post(s.endpoint, [m](const TransportEvents& e) {
          if (e.message) e.message(m);
        });
      } else if (s.queue.size() >= options.maxQueuedPerClient) {
        ++stats.queueOverflows;
      } else {
        ++stats.queued;
        s.queue.push_back(m);
      }
    }
  }

  // One member of a shared subscription: round robin over the connected members, or over all
  // when none is connected (the message then waits in that session's queue).
  Session* shareMemberLocked(const std::string& subscription, const std::vector<Session*>& all) {
    std::vector<Session*> online;
    for (Session* s : all) {
      if (s->endpoint) online.push_back(s);
    }
    const std::vector<Session*>& pool = online.empty() ? all : online;
    return pool[shareCursor[subscription]++ % pool.size()];
  }

  void routeLocked(const MqttMessage& m, bool retain, int copies) {
    if (retain) {
      if (m.payload.empty()) {
        retained.erase(m.topic);
      } else {
        retained[m.topic] = m.payload;
      }
    }
    std::map<std::string, std::vector<Session*>> shares;  // subscription -> its members
    for (auto& [id, s] : sessions) {
      bool direct = false;
      for (const std::string& f : s.filters) {
        if (auto share = shareOf(f)) {
          if (mqttTopicMatches(share->filter, m.topic)) shares[f].push_back(&s);
        } else if (!direct && mqttTopicMatches(f, m.topic)) {
          direct = true;  // one copy per session however many of its filters match
          deliverLocked(s, m, copies);
        }
      }
    }
    for (const auto& [subscription, members] : shares) {
      deliverLocked(*shareMemberLocked(subscription, members), m, copies);
    }
  }

  std::optional<PublishFault> takeFaultLocked(const std::string& topic) {
    for (auto it = faults.begin(); it != faults.end(); ++it) {
      if (!mqttTopicMatches(it->filter, topic)) continue;
      const PublishFault fault = it->fault;
      if (--it->left == 0) faults.erase(it);
      return fault;
    }
    return std::nullopt;
  }

  const SimulatedBrokerOptions options;
  mutable std::mutex mutex;  // guards everything below
  std::map<std::string, Session> sessions;
  std::map<std::string, std::string> retained;
  std::map<std::string, std::uint64_t> shareCursor;
  std::deque<Held> held;
  std::vector<Fault> faults;
  std::optional<std::string> refusing;
  SimulatedBrokerStats stats;
  std::uint64_t anonymous = 0;
};

using Core = SimulatedBroker::Core;

// ------------------------------------------------------------------------------------------
// SimulatedBroker

SimulatedBroker::SimulatedBroker(SimulatedBrokerOptions options)
    : core_(std::make_shared<Core>(std::move(options))) {}

SimulatedBroker::~SimulatedBroker() = default;

std::unique_ptr<SimulatedTransport> SimulatedBroker::transport(SimulatedClientOptions client,
                                                               Writer& writer) {
  if (client.clientId.empty()) {
    std::lock_guard lock(core_->mutex);
    client.clientId = "simulated-client-" + std::to_string(++core_->anonymous);
  }
  auto ep = std::make_shared<Endpoint>(std::move(client), writer);
  return std::unique_ptr<SimulatedTransport>(new SimulatedTransport(core_, std::move(ep)));
}

void SimulatedBroker::refuseConnections(std::string reason) {
  std::lock_guard lock(core_->mutex);
  core_->refusing = std::move(reason);
}

void SimulatedBroker::acceptConnections() {
  std::lock_guard lock(core_->mutex);
  core_->refusing.reset();
}

bool SimulatedBroker::dropConnection(const std::string& clientId, const std::string& reason) {
  std::lock_guard lock(core_->mutex);
  auto it = core_->sessions.find(clientId);
  if (it == core_->sessions.end() || !it->second.endpoint) return false;
  core_->dropLocked(it, reason, true);
  return true;
}

void SimulatedBroker::restart(bool keepPersistence) {
  std::lock_guard lock(core_->mutex);
  Core& c = *core_;
  for (auto it = c.sessions.begin(); it != c.sessions.end();) {
    auto next = std::next(it);  // dropLocked may erase it
    if (it->second.endpoint) c.dropLocked(it, "the broker restarted", false);
    it = next;
  }
  if (!keepPersistence) {
    c.sessions.clear();
    c.retained.clear();
    c.held.clear();
  }
}

void SimulatedBroker::faultPublishes(std::string topicFilter, PublishFault fault,
                                     std::size_t count) {
  if (count == 0) return;
  std::lock_guard lock(core_->mutex);
  core_->faults.push_back({std::move(topicFilter), fault, count});
}

void SimulatedBroker::clearFaults() {
  std::lock_guard lock(core_->mutex);
  core_->faults.clear();
}

std::size_t SimulatedBroker::releaseHeld() {
  std::lock_guard lock(core_->mutex);
  std::deque<Core::Held> held;
  held.swap(core_->held);
  for (const Core::Held& h : held) core_->routeLocked(h.message, h.retained, 1);
  return held.size();
}

bool SimulatedBroker::isConnected(const std::string& clientId) const {
  std::lock_guard lock(core_->mutex);
  auto it = core_->sessions.find(clientId);
  return it != core_->sessions.end() && it->second.endpoint != nullptr;
}

std::optional<std::string> SimulatedBroker::retained(const std::string& topic) const {
  std::lock_guard lock(core_->mutex);
  auto it = core_->retained.find(topic);
  if (it == core_->retained.end()) return std::nullopt;
  return it->second;
}

std::size_t SimulatedBroker::queuedFor(const std::string& clientId) const {
  std::lock_guard lock(core_->mutex);
  auto it = core_->sessions.find(clientId);
  return it == core_->sessions.end() ? 0 : it->second.queue.size();
}

std::size_t SimulatedBroker::heldCount() const {
  std::lock_guard lock(core_->mutex);
  return core_->held.size();
}

SimulatedBrokerStats SimulatedBroker::stats() const {
  std::lock_guard lock(core_->mutex);
  return core_->stats;
}

// ------------------------------------------------------------------------------------------
// SimulatedTransport

SimulatedTransport::SimulatedTransport(std::shared_ptr<SimulatedBroker::Core> core,
                                       std::shared_ptr<Endpoint> endpoint)
    : core_(std::move(core)), endpoint_(std::move(endpoint)) {}

SimulatedTransport::~SimulatedTransport() { disconnect(std::chrono::milliseconds(0)); }

const std::string& SimulatedTransport::clientId() const { return endpoint_->options.clientId; }

void SimulatedTransport::setEvents(TransportEvents events) {
  endpoint_->events = std::move(events);
}

Status SimulatedTransport::connect() {
  if (!endpoint_->open) return makeError("the MQTT client was disconnected for good");
  std::lock_guard lock(core_->mutex);
  Core& c = *core_;
  if (c.connectedSession(*endpoint_) != nullptr) return makeError("already connected");
  if (c.refusing) {
    ++c.stats.connectsRefused;
    Core::post(endpoint_, [reason = *c.refusing](const TransportEvents& e) {
      if (e.connectFailed) e.connectFailed(reason);
    });
    return Status::success();
  }
  const std::string& id = endpoint_->options.clientId;
  if (auto it = c.sessions.find(id); it != c.sessions.end() && it->second.endpoint) {
    c.dropLocked(it, "another connection took the session over", true);
  }
  auto [it, created] = c.sessions.try_emplace(id);
  Core::Session& s = it->second;
  const bool cleanStart = endpoint_->options.cleanStart;
  const bool present = !created && !cleanStart;
  if (!present) s = {};
  s.persistent = !cleanStart;
  s.endpoint = endpoint_;
  ++c.stats.connects;
  Core::post(endpoint_, [present](const TransportEvents& e) {
    if (e.connected) e.connected(present);
  });
  std::deque<MqttMessage> queued;
  queued.swap(s.queue);
  for (const MqttMessage& m : queued) c.deliverLocked(s, m, 1);
  return Status::success();
}

Result<std::uint64_t> SimulatedTransport::publish(const std::string& topic,
                                                  const std::string& payload, bool retained) {
  std::lock_guard lock(core_->mutex);
  Core& c = *core_;
  if (!endpoint_->open || c.connectedSession(*endpoint_) == nullptr) {
    return makeError("cannot publish to " + topic + ": not connected");
  }
  if (!validTopic(topic)) return makeError("cannot publish to \"" + topic + "\": not a topic name");
  const std::uint64_t id = endpoint_->nextId++;
  const auto fault = c.takeFaultLocked(topic);
  if (fault == PublishFault::kRefuse) {
    ++c.stats.refused;
    Core::post(endpoint_, [id](const TransportEvents& e) {
      if (e.publishFailed) e.publishFailed(id, "not authorized");
    });
    return id;
  }
  ++c.stats.publishes;
  MqttMessage m{topic, payload};
  if (fault == PublishFault::kLose) {
    ++c.stats.lost;
  } else if (fault == PublishFault::kHold) {
    ++c.stats.held;
    c.held.push_back({std::move(m), retained});
  } else {
    if (fault == PublishFault::kDuplicate) ++c.stats.duplicated;
    c.routeLocked(m, retained, fault == PublishFault::kDuplicate ? 2 : 1);
  }
  Core::post(endpoint_, [id](const TransportEvents& e) {
    if (e.published) e.published(id);
  });
  return id;
}

Status SimulatedTransport::subscribe(const std::string& topicFilter) {
  std::lock_guard lock(core_->mutex);
  Core& c = *core_;
  Core::Session* s = endpoint_->open ? c.connectedSession(*endpoint_) : nullptr;
  if (s == nullptr) return makeError("cannot subscribe to " + topicFilter + ": not connected");
  if (!validSubscription(topicFilter)) {
    return makeError("cannot subscribe to \"" + topicFilter + "\": not a topic filter");
  }
  if (std::find(s->filters.begin(), s->filters.end(), topicFilter) == s->filters.end()) {
    s->filters.push_back(topicFilter);
  }
  if (shareOf(topicFilter)) return Status::success();
  for (const auto& [topic, payload] : c.retained) {
    if (mqttTopicMatches(topicFilter, topic)) c.deliverLocked(*s, MqttMessage{topic, payload}, 1);
  }
  return Status::success();
}

void SimulatedTransport::disconnect(std::chrono::milliseconds /*timeout*/) {
  endpoint_->open = false;
  std::lock_guard lock(core_->mutex);
  Core& c = *core_;
  auto it = c.sessions.find(endpoint_->options.clientId);
  if (it == c.sessions.end() || it->second.endpoint != endpoint_) return;
  it->second.endpoint.reset();
  if (!it->second.persistent) c.sessions.erase(it);
}

std::string SimulatedTransport::describe() const {
  return "simulated://" + core_->options.name + " as " + endpoint_->options.clientId;
}

}  // namespace atoms::sync
