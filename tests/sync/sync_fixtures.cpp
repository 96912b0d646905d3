#include "tests/sync/sync_fixtures.h"

#include <boost/test/unit_test.hpp>
#include <chrono>
#include <stdexcept>

#include "base/canonical_json.h"
#include "store/audit_entry.h"
#include "store/state_dir.h"
#include "sync/ack.h"
#include "sync/topics.h"

namespace atoms::test {

SiteDir::SiteDir(std::string s) : site(std::move(s)), dir(tmp.sub("state")) {
  if (Status st = initStateDir(dir, InitOptions{site}); !st) throw std::runtime_error(st.message());
  auto store = SiteStore::open(dir);
  if (!store) throw std::runtime_error(store.message());
  verifierKey = (*store)->verifierKey().toString();
}

std::uint64_t appendEntries(SiteStore& store, std::uint64_t entries, std::size_t batch,
                            std::size_t pad, std::optional<TimePoint> at) {
  AuditLog& log = store.log();
  const std::string ts = formatTimestamp(at.value_or(std::chrono::system_clock::now()));
  std::uint64_t left = entries;
  while (left > 0) {
    auto b = log.begin();
    if (!b) throw std::runtime_error(b.message());
    for (std::size_t i = 0; i < batch && left > 0; ++i, --left) {
      json::Object body;
      body["n"] = json::Value(static_cast<std::int64_t>(b->nextSeq()));
      body["pad"] = json::Value(std::string(pad, 'x'));
      auto seq = b->add(ts, "test.append", "test", json::Value(std::move(body)));
      if (!seq) throw std::runtime_error(seq.message());
    }
    if (auto note = b->commit(); !note) throw std::runtime_error(note.message());
  }
  return log.size();
}

// ------------------------------------------------------------------------------------------
// CloudRecord

CloudRecord::CloudRecord(std::map<std::string, VerifierKey> sites) {
  for (auto& [site, key] : sites) sites_.emplace(site, Site(std::move(key)));
}

std::optional<sync::MqttMessage> CloudRecord::receive(const std::string& topic,
                                                      const std::string& payload, bool acking) {
  if (auto site = sync::siteOfTopic(topic, "status")) {
    statuses_[*site] = payload;
    return std::nullopt;
  }
  auto site = sync::siteOfTopic(topic, "audit");
  if (!site) return std::nullopt;
  auto it = sites_.find(*site);
  if (it == sites_.end()) return std::nullopt;  // a site this peer holds no key for
  Site& s = it->second;
  auto seg = parseSegment(payload);
  if (!seg) {
    ++s.issues["unparsable"];
    return std::nullopt;
  }
  if (s.verifier.accept(*seg)) {
    ++s.segments;
    for (std::string& e : seg->entries) s.entries.push_back(std::move(e));
  } else {
    ++s.issues[std::string(segmentIssueName(s.verifier.lastIssue()))];
    if (s.verifier.lastIssue() != SegmentIssue::kDuplicate) return std::nullopt;
  }
  if (!acking) return std::nullopt;
  const auto& state = s.verifier.state();
  return sync::MqttMessage{sync::siteTopics(*site).ack,
                           sync::ackJson(sync::Ack{*site, state.size, state.root})};
}

std::uint64_t CloudRecord::verified(const std::string& site) const {
  return sites_.at(site).verifier.state().size;
}
Hash32 CloudRecord::verifiedRoot(const std::string& site) const {
  return sites_.at(site).verifier.state().root;
}
const std::vector<std::string>& CloudRecord::entries(const std::string& site) const {
  return sites_.at(site).entries;
}
const std::map<std::string, std::uint64_t>& CloudRecord::issues(const std::string& site) const {
  return sites_.at(site).issues;
}
std::uint64_t CloudRecord::segments(const std::string& site) const {
  return sites_.at(site).segments;
}
std::optional<std::string> CloudRecord::status(const std::string& site) const {
  auto it = statuses_.find(site);
  if (it == statuses_.end()) return std::nullopt;
  return it->second;
}

void requireExactlyOnceInOrder(const std::vector<std::string>& entries, std::uint64_t size) {
  BOOST_REQUIRE_EQUAL(entries.size(), size);
  for (std::uint64_t i = 0; i < size; ++i) {
    auto e = parseEntry(entries[i]);
    BOOST_REQUIRE_MESSAGE(e, e.message());
    BOOST_REQUIRE_EQUAL(e->seq, i);
    const json::Value* n = e->body.find("n");
    BOOST_REQUIRE(n != nullptr && n->isInt());
    BOOST_REQUIRE_EQUAL(static_cast<std::uint64_t>(n->asInt()), i);
  }
}

}  // namespace atoms::test
