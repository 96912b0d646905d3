#include "sync/ingest/ingest_store.h"

#include "sync/ingest/embedded_ingest_store.h"
#include "sync/ingest/postgres_ingest_store.h"

namespace atoms::sync::ingest {

std::string_view evidenceKindName(EvidenceKind kind) {
  switch (kind) {
    case EvidenceKind::kFork:
      return "fork";
    case EvidenceKind::kGap:
      return "gap";
    case EvidenceKind::kInvalid:
      return "invalid";
    case EvidenceKind::kUnknownSite:
      return "unknown-site";
  }
  return "invalid";
}

bool IngestStore::isDatabaseUri(std::string_view location) {
  return location.starts_with("postgresql://") || location.starts_with("postgres://");
}

Result<std::unique_ptr<IngestStore>> IngestStore::open(const std::string& location, Mode mode) {
  if (isDatabaseUri(location)) {
    auto store = PostgresIngestStore::open(location, mode);
    if (!store) return store.error();
    return std::unique_ptr<IngestStore>(std::move(*store));
  }
  auto store = EmbeddedIngestStore::open(location, mode);
  if (!store) return store.error();
  return std::unique_ptr<IngestStore>(std::move(*store));
}

Result<MerkleFrontier> IngestStore::frontierAt(const std::string& site, std::uint64_t size) {
  auto checkpoint = checkpointAtOrBelow(site, size);
  if (!checkpoint) return checkpoint.error();
  MerkleFrontier frontier;
  if (*checkpoint) {
    auto f = MerkleFrontier::fromPeaks((*checkpoint)->first, std::move((*checkpoint)->second));
    if (!f) return makeError("ingest store: site " + site + ": " + f.message());
    frontier = std::move(*f);
  }
  auto leaves = leafHashes(site, frontier.size(), size);
  if (!leaves) return leaves.error();
  for (const Hash32& leaf : *leaves) frontier.append(leaf);
  return frontier;
}

Bytes joinPeaks(const std::vector<Hash32>& peaks) {
  Bytes out;
  out.reserve(peaks.size() * 32);
  for (const Hash32& p : peaks) out.insert(out.end(), p.begin(), p.end());
  return out;
}

Result<std::vector<Hash32>> splitPeaks(const Bytes& blob) {
  if (blob.size() % 32 != 0) return makeError("ingest store: a peaks blob is not whole hashes");
  std::vector<Hash32> peaks(blob.size() / 32);
  for (std::size_t i = 0; i < peaks.size(); ++i) {
    std::copy(blob.begin() + static_cast<std::ptrdiff_t>(i * 32),
              blob.begin() + static_cast<std::ptrdiff_t>((i + 1) * 32), peaks[i].begin());
  }
  return peaks;
}

Hash32 hashOf(const Bytes& blob) {
  Hash32 h{};
  if (blob.size() == h.size()) std::copy(blob.begin(), blob.end(), h.begin());
  return h;
}

}  // namespace atoms::sync::ingest
