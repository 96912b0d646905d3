#include "sync/topics.h"

namespace atoms::sync {

SiteTopics siteTopics(std::string_view siteId) {
  const std::string base = std::string(kTopicRoot) + std::string(siteId) + "/";
  return SiteTopics{base + "audit", base + "ack", base + "status", base + "cmd",
                    base + "cmd/result"};
}

std::optional<std::string> siteOfTopic(std::string_view topic, std::string_view leaf) {
  if (!topic.starts_with(kTopicRoot)) return std::nullopt;
  topic.remove_prefix(kTopicRoot.size());
  const auto slash = topic.find('/');
  if (slash == std::string_view::npos || slash == 0) return std::nullopt;
  if (topic.substr(slash + 1) != leaf) return std::nullopt;
  return std::string(topic.substr(0, slash));
}

std::string boxClientId(std::string_view siteId) { return "atoms-edge-" + std::string(siteId); }

}  // namespace atoms::sync
