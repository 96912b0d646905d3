// PosHealth: whether the site's POS data can be trusted now (issue 19 item 7, docs/pos.md
// "Health"): per source, fresh, stale, failing or halted, and since when. What is forecast-driven
// (labor against sales, intraday proposals) asks freshness() first and proposes nothing from stale
// data.
//
// A source is
// - halted   after its provider refused our credentials (kAuthFailed), since then, until the
//            service is restarted with a new configuration;
// - failing  from its first failed contact (kFailing) until a good one (kOk);
// - stale    when it has a staleness limit and its last good contact is older than that (since
//            the last good contact; since it was watched when it never had one);
// - fresh    otherwise.
// A polled source is stale after a few missed polls; a pushing POS or a drop folder says nothing
// on a quiet night, so their limit is usually 0 (never stale from silence alone).
// freshness() is fresh only when at least one source is watched and every watched source is fresh;
// otherwise it names the worst source and since when.
//
// Threading: thread-safe (one mutex; drivers report from their threads, the API reads).
#pragma once

#include <chrono>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "drivers/pos/source_status.h"

namespace atoms::pos {

using HealthTime = std::chrono::system_clock::time_point;

enum class SourceState { kFresh, kStale, kFailing, kHalted };
std::string_view sourceStateName(SourceState state);  // "fresh", "stale", "failing", "halted"

struct SourceHealth {
  std::string source;
  SourceState state = SourceState::kFresh;
  std::optional<HealthTime> since;   // when it stopped being fresh; nullopt when fresh
  std::optional<HealthTime> lastOk;  // the last good contact
  std::string detail;                // the last problem, one line; empty when fresh
};

struct PosFreshness {
  bool fresh = false;
  std::optional<HealthTime> staleSince;  // when not fresh: since when (earliest among sources)
  std::string reason;                    // when not fresh: one line for people
};

class PosHealth {
 public:
  // Starts watching a source at `now`; lastOk from the store (sourceLastContact) when known.
  // staleAfter 0: never stale from silence.
  void watch(const std::string& source, std::chrono::seconds staleAfter,
             std::optional<HealthTime> lastOk, HealthTime now);
  // Applies a driver's report at `now`; returns true when the source's state changed (fresh to
  // failing, failing to fresh, to halted). A report for a source not watched starts watching it
  // (without a staleness limit).
  bool record(const drivers::pos::SourceStatus& status, HealthTime now);

  std::vector<SourceHealth> sources(HealthTime now) const;
  PosFreshness freshness(HealthTime now) const;

 private:
  struct Entry {
    std::chrono::seconds staleAfter{0};
    HealthTime watchedAt;
    std::optional<HealthTime> lastOk;
    std::optional<HealthTime> failingSince;
    bool halted = false;
    std::string detail;
  };
  static SourceHealth describe(const std::string& source, const Entry& e, HealthTime now);

  mutable std::mutex mutex_;
  std::map<std::string, Entry> entries_;
};

}  // namespace atoms::pos
