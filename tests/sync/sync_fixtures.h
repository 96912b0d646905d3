// Fixtures of the sync tests with and without a broker (test_sync, test_sync_mqtt) and the sync
// benchmarks: a site state directory, appending entries, and CloudRecord, what a test cloud peer
// holds and decides whatever carries its messages (TestAcker over mosquitto in mqtt_fixtures.h,
// the simulated cloud over SimulatedBroker in test_uplink_simulated.cpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "base/time_point.h"
#include "store/signed_note.h"
#include "store/site_store.h"
#include "sync/mqtt_transport.h"
#include "sync/segment.h"
#include "tests/support/temp_dir.h"

namespace atoms::test {

using atoms::testing::TempDir;

// A fresh state directory for `site` (atoms-edge init) under a TempDir.
struct SiteDir {
  explicit SiteDir(std::string site = "site-a");
  std::string site;
  TempDir tmp;
  std::string dir;  // the state directory
  std::string verifierKey;
};

// Appends `entries` entries in batches of `batch` (each body {"n": seq, "pad": ...}), stamped
// `at` (default: the system clock's now); returns the new size. Call on the thread that owns the
// store.
std::uint64_t appendEntries(SiteStore& store, std::uint64_t entries, std::size_t batch = 16,
                            std::size_t pad = 60, std::optional<TimePoint> at = std::nullopt);

// A test cloud peer's state: per site (those it holds a key for) a SegmentVerifier fed the
// segments of atoms/v1/<site>/audit in arrival order, the accepted entries and the refusals by
// issue; the last payload of each site's status topic. Not thread-safe (its user locks).
class CloudRecord {
 public:
  explicit CloudRecord(std::map<std::string, VerifierKey> sites);

  // Takes one message. Returns the ack to publish when `acking` and the segment was accepted or a
  // duplicate (the protocol acks the verified size again then); nullopt otherwise.
  std::optional<sync::MqttMessage> receive(const std::string& topic, const std::string& payload,
                                           bool acking);

  // Whether it holds a key for site. Precondition of the per-site queries below.
  bool holds(const std::string& site) const { return sites_.contains(site); }
  std::uint64_t verified(const std::string& site) const;
  Hash32 verifiedRoot(const std::string& site) const;
  const std::vector<std::string>& entries(const std::string& site) const;
  const std::map<std::string, std::uint64_t>& issues(const std::string& site) const;
  std::uint64_t segments(const std::string& site) const;
  // The last status payload of a site (any site); nullopt when none came.
  std::optional<std::string> status(const std::string& site) const;

 private:
  struct Site {
    explicit Site(VerifierKey key) : verifier(std::move(key)) {}
    SegmentVerifier verifier;
    std::vector<std::string> entries;
    std::map<std::string, std::uint64_t> issues;  // issue name -> count
    std::uint64_t segments = 0;
  };
  std::map<std::string, Site> sites_;
  std::map<std::string, std::string> statuses_;
};

// Every entry once, in order: entry i has seq i and body n == i (entries of appendEntries).
void requireExactlyOnceInOrder(const std::vector<std::string>& entries, std::uint64_t size);

}  // namespace atoms::test
