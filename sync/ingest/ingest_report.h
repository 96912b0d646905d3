// The operator's read-only views of an ingest store (docs/sync-ingest.md section 4 and 5):
//
//   siteReports     one row per registered site: entries stored, the verified size/root and
//                   when, the last ack, and the evidence counted by kind (arrivals).
//   storedSegments  the stored entries of one site for [from, to) as segments, cut exactly as the
//                   box's `export-segments` cuts them (largest stored checkpoint whose segment
//                   stays within maxBytes), so the two outputs compare byte for byte.
//
// Both read in one read transaction (a consistent snapshot beside a running ingest) and write
// nothing. Threading: the store's. Errors: one line.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "base/result.h"
#include "sync/ingest/ingest_store.h"
#include "sync/segment.h"

namespace atoms::sync::ingest {

struct SiteReport {
  std::string site;
  std::uint64_t entries = 0;  // stored entries (count of rows)
  std::uint64_t verifiedSize = 0;
  Hash32 verifiedRoot{};
  std::string verifiedAt;  // when the state last moved (registration time when never)
  std::optional<std::uint64_t> ackedSize;
  std::string ackedAt;
  std::uint64_t duplicates = 0, gaps = 0, forks = 0, invalid = 0;
  std::uint64_t alarms = 0;  // forks + invalid: each arrival raised one
};

struct StoreReport {
  std::vector<SiteReport> sites;
  std::uint64_t unknownSite = 0;  // segments refused from unregistered sites (arrivals)
};

Result<StoreReport> storeReport(IngestStore& store);

// Errors: "site S is not registered in this store", a range past the stored size, `from` or `to`
// not 0 or a stored checkpoint size (naming the nearest ones), from > to.
Result<std::vector<Segment>> storedSegments(IngestStore& store, const std::string& site,
                                            std::uint64_t from, std::uint64_t to,
                                            std::size_t maxBytes);

}  // namespace atoms::sync::ingest
