// MQTT topic names of the sync protocol (DESIGN.md section 6, docs/sync-protocol.md), one place
// for the box and the ingest. Pure functions, thread-safe.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace atoms::sync {

inline constexpr std::string_view kTopicRoot = "atoms/v1/";

struct SiteTopics {
  std::string audit;      // edge -> cloud: segments, in order
  std::string ack;        // cloud -> edge: verified size and root
  std::string status;     // edge -> cloud, retained: online (birth) / offline (will)
  std::string cmd;        // cloud -> edge: signed commands (sync/command/)
  std::string cmdResult;  // edge -> cloud: command results
};

// Precondition: siteId passed validateSiteId (store/state_dir.h), so it holds no MQTT wildcard or
// separator.
SiteTopics siteTopics(std::string_view siteId);

// The site of a topic "atoms/v1/<site>/<leaf>" whose leaf is `leaf` ("audit", "ack", ...);
// nullopt for any other shape. For subscribers on a wildcard (atoms/v1/+/audit).
std::optional<std::string> siteOfTopic(std::string_view topic, std::string_view leaf);

// The MQTT client id of a site's box: stable, so the broker keeps its session across restarts.
std::string boxClientId(std::string_view siteId);

}  // namespace atoms::sync
