#include "sync/paho_transport.h"

#include <mqtt/async_client.h>
#include <unistd.h>

#include <algorithm>
#include <mutex>
#include <utility>

#include "sync/connect_diagnosis.h"

namespace atoms::sync {
namespace {

// What Paho's threads share with the owner thread. Paho threads only call post(); everything else
// is owner-thread state, read inside the posted tasks.
struct Sink : std::enable_shared_from_this<Sink> {
  explicit Sink(Writer& e) : writer(&e) {}

  // Any thread. The task runs on the owner thread, and only while the transport is open.
  void post(std::function<void(Sink&)> task) {
    writer->post([self = shared_from_this(), task = std::move(task)] {
      if (self->open) task(*self);
    });
  }

  Writer* writer;
  TransportEvents events;  // owner thread
  bool open = true;        // owner thread
  std::string tlsHint;     // appended to TLS connect failures; set before the first connect
  int mqttVersion = 5;     // set before the first connect
  // Names what failed when Paho says only "failed" (Paho's thread, blocks; may be empty).
  std::function<std::string()> diagnose;
};

std::string tokenError(const mqtt::token& tok) {
  return mqtt::exception::printable_error(tok.get_return_code(), tok.get_reason_code());
}

using Task = std::function<void(Sink&)>;

// A token listener that turns the completed token into a task for the owner thread (or none).
// Runs on Paho's thread: nothing may throw out of it into Paho's C code.
class ActionListener final : public mqtt::iaction_listener {
 public:
  using MakeTask = std::function<Task(const mqtt::token&)>;
  ActionListener(std::shared_ptr<Sink> sink, MakeTask success, MakeTask failure)
      : sink_(std::move(sink)), success_(std::move(success)), failure_(std::move(failure)) {}
  void on_success(const mqtt::token& tok) override { deliver(success_, tok); }
  void on_failure(const mqtt::token& tok) override { deliver(failure_, tok); }

 private:
  void deliver(const MakeTask& make, const mqtt::token& tok) noexcept {
    try {
      if (Task task = make(tok)) sink_->post(std::move(task));
    } catch (...) {
    }
  }
  std::shared_ptr<Sink> sink_;
  MakeTask success_, failure_;
};

ActionListener connectListener(const std::shared_ptr<Sink>& sink) {
  return ActionListener(
      sink,
      [](const mqtt::token& tok) -> Task {
        const bool present = tok.get_connect_response().is_session_present();
        return [present](Sink& s) {
          if (s.events.connected) s.events.connected(present);
        };
      },
      [sink = sink.get()](const mqtt::token& tok) -> Task {
        std::string reason;
        if (auto refused =
                connackRefusal(sink->mqttVersion, tok.get_return_code(), tok.get_reason_code())) {
          reason = *refused;
        } else {
          // Paho reports an unreachable broker or a failed TLS handshake as a bare failure: try
          // the connection again step by step to name the step; else keep Paho's words.
          reason = sink->diagnose ? sink->diagnose() : std::string();
          if (reason.empty()) {
            reason = tokenError(tok);
            if (tok.get_reason_code() == 0) reason += sink->tlsHint;
          }
        }
        return [reason = std::move(reason)](Sink& s) {
          if (s.events.connectFailed) s.events.connectFailed(reason);
        };
      });
}

ActionListener publishListener(const std::shared_ptr<Sink>& sink) {
  auto id = [](const mqtt::token& tok) {
    return static_cast<std::uint64_t>(reinterpret_cast<std::uintptr_t>(tok.get_user_context()));
  };
  return ActionListener(
      sink,
      [id](const mqtt::token& tok) -> Task {
        return [n = id(tok)](Sink& s) {
          if (s.events.published) s.events.published(n);
        };
      },
      [id](const mqtt::token& tok) -> Task {
        return [n = id(tok), reason = tokenError(tok)](Sink& s) {
          if (s.events.publishFailed) s.events.publishFailed(n, reason);
        };
      });
}

// The failure reason code of a SUBACK (MQTT 5: per topic in the response), or 0.
int refusedSubscription(const mqtt::token& tok) {
  if (tok.get_reason_code() >= 0x80) return tok.get_reason_code();
  if (tok.get_type() != mqtt::token::Type::SUBSCRIBE) return 0;
  try {
    const mqtt::subscribe_response response = tok.get_subscribe_response();
    const std::vector<mqtt::ReasonCode>& codes = response.get_reason_codes();
    for (const mqtt::ReasonCode rc : codes) {
      if (rc >= 0x80) return rc;
    }
  } catch (...) {
    // No response to read (a failure before the SUBACK).
  }
  return 0;
}

ActionListener subscribeListener(const std::shared_ptr<Sink>& sink) {
  auto failed = [](const mqtt::token& tok) -> Task {
    const auto* topic = static_cast<const std::string*>(tok.get_user_context());
    std::string reason = tokenError(tok);
    if (refusedSubscription(tok) == 0x87) {
      reason =
          "the broker refused it: not authorised (SUBACK reason 0x87: the broker's ACL does "
          "not let this user read it)";
    }
    return
        [topic = topic != nullptr ? *topic : std::string(), reason = std::move(reason)](Sink& s) {
          if (s.events.subscribeFailed) s.events.subscribeFailed(topic, reason);
        };
  };
  return ActionListener(
      sink,
      // MQTT 5 reports a refused subscription as a successful SUBACK with a failure reason code.
      [failed](const mqtt::token& tok) -> Task {
        return refusedSubscription(tok) >= 0x80 ? failed(tok) : Task();
      },
      failed);
}

// Runs fn on Paho's thread with every exception stopped there.
template <class F>
void guarded(F&& fn) noexcept {
  try {
    fn();
  } catch (...) {
  }
}

Status readable(const std::string& path, const char* what) {
  if (path.empty()) return Status::success();
  if (::access(path.c_str(), R_OK) != 0) {
    return makeError(std::string(what) + " " + path + " does not exist or cannot be read");
  }
  return Status::success();
}

}  // namespace

bool isTlsUri(const std::string& uri) {
  return uri.starts_with("ssl://") || uri.starts_with("mqtts://");
}

struct PahoTransport::Impl {
  Impl(MqttSettings s, Writer& writer)
      : settings(std::move(s)),
        sink(std::make_shared<Sink>(writer)),
        onConnect(connectListener(sink)),
        onPublish(publishListener(sink)),
        onSubscribe(subscribeListener(sink)) {}

  MqttSettings settings;
  std::shared_ptr<Sink> sink;
  mqtt::connect_options options;
  ActionListener onConnect;
  ActionListener onPublish;
  ActionListener onSubscribe;
  std::vector<std::unique_ptr<std::string>> subscribedTopics;  // user contexts of subscribe tokens
  std::uint64_t nextId = 1;
  // Declared last: destroyed first, before the listeners its tokens point to.
  std::unique_ptr<mqtt::async_client> client;
};

Result<std::unique_ptr<PahoTransport>> PahoTransport::create(MqttSettings settings,
                                                             Writer& writer) {
  if (settings.mqttVersion != 4 && settings.mqttVersion != 5) {
    return makeError("MQTT version must be 5 or 4 (3.1.1), not " +
                     std::to_string(settings.mqttVersion));
  }
  const bool tls = isTlsUri(settings.uri);
  if (!tls && (!settings.caFile.empty() || !settings.clientCert.empty())) {
    return makeError("broker " + settings.uri +
                     " is not a TLS URI (ssl:// or mqtts://) but TLS files are configured");
  }
  if (settings.clientCert.empty() != settings.clientKey.empty()) {
    return makeError("a client certificate needs its key and a key needs its certificate");
  }
  for (auto [path, what] : {std::pair{&settings.caFile, "CA file"},
                            std::pair{&settings.clientCert, "client certificate"},
                            std::pair{&settings.clientKey, "client key"}}) {
    if (Status s = readable(*path, what); !s) return s.error();
  }

  auto impl = std::make_unique<Impl>(std::move(settings), writer);
  impl->sink->mqttVersion = impl->settings.mqttVersion;
  impl->sink->diagnose = [st = impl->settings] {
    return probeBroker(
        st, std::min<std::chrono::milliseconds>(st.connectTimeout, std::chrono::seconds(5)));
  };
  if (tls) {
    impl->sink->tlsHint =
        " (TLS: check that the CA file vouches for the broker's certificate and host name, and "
        "that the broker accepts the client certificate)";
  }
  const MqttSettings& st = impl->settings;
  try {
    // Set on the member in place, never built elsewhere and copied in: Paho C++ 1.2's
    // connect_options keeps raw pointers into itself (properties, SSL, will) that a copy or an
    // assignment leaves pointing at the source (a use-after-free on the next connect).
    mqtt::connect_options& o = impl->options;
    o.set_mqtt_version(st.mqttVersion);
    o.set_keep_alive_interval(st.keepAlive);
    o.set_connect_timeout(st.connectTimeout);
    o.set_max_inflight(st.maxInflight);
    o.set_automatic_reconnect(false);
    const bool persistent = st.sessionExpiry.count() > 0;
    if (st.mqttVersion == 5) {
      o.set_clean_start(!persistent);
      o.set_properties(mqtt::properties{
          {mqtt::property::SESSION_EXPIRY_INTERVAL, static_cast<int>(st.sessionExpiry.count())}});
    } else {
      o.set_clean_session(!persistent);
    }
    if (st.will) o.set_will(mqtt::will_options(st.will->topic, st.will->payload, 1, true));
    if (!st.username.empty()) {
      o.set_user_name(st.username);
      o.set_password(st.password);
    }
    if (tls) {
      // No SSL error handler: Paho C++ 1.2 passes OpenSSL's errors to it through a context
      // pointer with the same copy problem.
      mqtt::ssl_options ssl;
      ssl.set_enable_server_cert_auth(true);
      ssl.set_verify(true);
      if (!st.caFile.empty()) ssl.set_trust_store(st.caFile);
      if (!st.clientCert.empty()) {
        ssl.set_key_store(st.clientCert);
        ssl.set_private_key(st.clientKey);
      }
      o.set_ssl(std::move(ssl));
    }

    impl->client = std::make_unique<mqtt::async_client>(
        st.uri, st.clientId, mqtt::create_options(st.mqttVersion), nullptr);
    std::shared_ptr<Sink> sink = impl->sink;
    impl->client->set_connection_lost_handler([sink](const std::string& cause) {
      guarded([&] {
        sink->post([cause](Sink& s) {
          if (s.events.connectionLost) {
            s.events.connectionLost(cause.empty() ? "connection lost" : cause);
          }
        });
      });
    });
    impl->client->set_disconnected_handler([sink](const mqtt::properties&, mqtt::ReasonCode rc) {
      guarded([&] {
        sink->post([rc](Sink& s) {
          if (s.events.connectionLost) {
            s.events.connectionLost("the broker disconnected: " +
                                    mqtt::exception::reason_code_str(rc));
          }
        });
      });
    });
    impl->client->set_message_callback([sink](mqtt::const_message_ptr msg) {
      guarded([&] {
        if (!msg) return;
        sink->post([m = MqttMessage{msg->get_topic(), msg->to_string()}](Sink& s) {
          if (s.events.message) s.events.message(m);
        });
      });
    });
  } catch (const std::exception& e) {
    return makeError("MQTT client for " + st.uri + ": " + e.what());
  }
  return std::unique_ptr<PahoTransport>(new PahoTransport(std::move(impl)));
}

PahoTransport::PahoTransport(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

PahoTransport::~PahoTransport() { disconnect(std::chrono::milliseconds(1000)); }

void PahoTransport::setEvents(TransportEvents events) { impl_->sink->events = std::move(events); }

Status PahoTransport::connect() {
  try {
    impl_->client->connect(impl_->options, nullptr, impl_->onConnect);
    return Status::success();
  } catch (const std::exception& e) {
    return makeError("cannot start connecting to " + impl_->settings.uri + ": " + e.what());
  }
}

Result<std::uint64_t> PahoTransport::publish(const std::string& topic, const std::string& payload,
                                             bool retained) {
  const std::uint64_t id = impl_->nextId++;
  try {
    auto msg = mqtt::make_message(topic, payload.data(), payload.size(), 1, retained);
    impl_->client->publish(msg, reinterpret_cast<void*>(static_cast<std::uintptr_t>(id)),
                           impl_->onPublish);
    return id;
  } catch (const std::exception& e) {
    return makeError("cannot publish to " + topic + ": " + e.what());
  }
}

Status PahoTransport::subscribe(const std::string& topicFilter) {
  try {
    // One context string per distinct filter, kept for the transport's life: tokens point to it.
    auto& topics = impl_->subscribedTopics;
    auto it = std::find_if(topics.begin(), topics.end(),
                           [&](const auto& t) { return *t == topicFilter; });
    if (it == topics.end()) {
      topics.push_back(std::make_unique<std::string>(topicFilter));
      it = topics.end() - 1;
    }
    impl_->client->subscribe(topicFilter, 1, it->get(), impl_->onSubscribe);
    return Status::success();
  } catch (const std::exception& e) {
    return makeError("cannot subscribe to " + topicFilter + ": " + e.what());
  }
}

void PahoTransport::disconnect(std::chrono::milliseconds timeout) {
  impl_->sink->open = false;
  if (!impl_->client) return;
  try {
    if (impl_->client->is_connected()) {
      auto tok = impl_->client->disconnect(static_cast<int>(timeout.count()));
      if (tok) tok->wait_for(timeout + std::chrono::milliseconds(500));
    }
  } catch (...) {
    // A disconnect that fails leaves nothing to undo: the client is destroyed below.
  }
  try {
    impl_->client->disable_callbacks();
  } catch (...) {
  }
  impl_->client.reset();
}

std::string PahoTransport::describe() const {
  const MqttSettings& s = impl_->settings;
  return s.uri + " as " + s.clientId + " (MQTT " + (s.mqttVersion == 5 ? "5" : "3.1.1") + ")";
}

}  // namespace atoms::sync
