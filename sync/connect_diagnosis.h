// Why a connection to the MQTT broker failed, as one line an operator can act on (shared by the
// box's uplink and the cloud ingest through PahoTransport; docs/sync-ingest.md section 3):
//
//   connackRefusal  the broker answered and refused: the MQTT 5 CONNACK reason code or the 3.1.1
//                   return code, named ("not authorised", "bad user name or password", ...).
//   probeBroker     Paho reports a failed TCP connect or TLS handshake only as a bare failure,
//                   so this repeats the connection itself: TCP, then (ssl://, mqtts://) an
//                   OpenSSL handshake with the same CA file, client certificate and host-name
//                   check, and names the step that failed with the system's or OpenSSL's reason
//                   ("unreachable", "not trusted by the CA file" vs "issued for another host").
//
// Pure (connackRefusal) or blocking for at most `timeout` (probeBroker); thread-safe.
#pragma once

#include <chrono>
#include <optional>
#include <string>

namespace atoms::sync {

struct MqttSettings;

// The reason of a refused CONNECT, e.g. "the broker refused the connection: not authorised
// (CONNACK reason 0x87)"; nullopt when the codes are not a broker's refusal.
std::optional<std::string> connackRefusal(int mqttVersion, int returnCode, int reasonCode);

// One line naming what failed; empty when the probe connected and handshook (the failure was
// elsewhere: the caller keeps Paho's own message).
std::string probeBroker(const MqttSettings& settings, std::chrono::milliseconds timeout);

}  // namespace atoms::sync
