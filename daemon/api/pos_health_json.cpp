#include "daemon/api/pos_health_json.h"

#include "base/timestamp.h"

namespace atoms::api {
namespace {

json::Value posInstant(const std::optional<pos::HealthTime>& t) {
  return t ? json::Value(formatTimestamp(*t)) : json::Value();
}

}  // namespace

json::Value posHealthJson(const pos::PosHealth& health, pos::HealthTime now) {
  json::Array sources;
  for (const pos::SourceHealth& h : health.sources(now)) {
    sources.emplace_back(json::Object{{"source", h.source},
                                      {"state", std::string(pos::sourceStateName(h.state))},
                                      {"since", posInstant(h.since)},
                                      {"lastOk", posInstant(h.lastOk)},
                                      {"detail", h.detail}});
  }
  const pos::PosFreshness f = health.freshness(now);
  return json::Object{{"on", true},
                      {"fresh", f.fresh},
                      {"staleSince", posInstant(f.staleSince)},
                      {"reason", f.reason},
                      {"sources", std::move(sources)}};
}

}  // namespace atoms::api
