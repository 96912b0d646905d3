#include "sync/ingest/ingest_report.h"

#include <algorithm>
#include <map>
#include <utility>

#include "store/merkle.h"

namespace atoms::sync::ingest {
namespace {

std::string nearestStored(const std::vector<std::uint64_t>& sizes, std::uint64_t n) {
  auto it = std::lower_bound(sizes.begin(), sizes.end(), n);
  std::string below = it == sizes.begin() ? "0" : std::to_string(*std::prev(it));
  std::string text = "nearest stored checkpoints: " + below;
  if (it != sizes.end()) text += " and " + std::to_string(*it);
  return text;
}

bool isStoredSize(const std::vector<std::uint64_t>& sizes, std::uint64_t n) {
  return std::binary_search(sizes.begin(), sizes.end(), n);
}

Result<std::vector<Hash32>> proofOf(const MerkleTree& tree, std::uint64_t from, std::uint64_t to) {
  if (from == 0 || from == to) return std::vector<Hash32>{};
  return tree.consistencyProof(from, to);
}

}  // namespace

Result<StoreReport> storeReport(IngestStore& store) {
  auto snapshot = store.begin(IngestStore::Access::kRead);
  if (!snapshot) return snapshot.error();
  auto sites = store.sites();
  if (!sites) return sites.error();
  auto evidence = store.evidence();
  if (!evidence) return evidence.error();
  auto activity = store.activity();
  if (!activity) return activity.error();

  StoreReport report;
  std::map<std::string, std::size_t> index;
  for (const SiteRecord& s : *sites) {
    SiteReport r;
    r.site = s.key.site;
    auto count = store.entryCount(s.key.site);
    if (!count) return count.error();
    r.entries = *count;
    r.verifiedSize = s.state.size;
    r.verifiedRoot = s.state.root;
    r.verifiedAt = s.updatedAt;
    index[r.site] = report.sites.size();
    report.sites.push_back(std::move(r));
  }
  for (const SiteActivity& a : *activity) {
    auto it = index.find(a.site);
    if (it == index.end()) continue;
    SiteReport& r = report.sites[it->second];
    r.duplicates = a.duplicates;
    r.ackedSize = a.ackedSize;
    r.ackedAt = a.ackedAt;
  }
  for (const EvidenceRecord& e : *evidence) {
    auto it = index.find(e.site);
    if (e.kind == "unknown-site" || it == index.end()) {
      report.unknownSite += e.count;
      continue;
    }
    SiteReport& r = report.sites[it->second];
    if (e.kind == "gap") r.gaps += e.count;
    if (e.kind == "fork") r.forks += e.count;
    if (e.kind == "invalid") r.invalid += e.count;
  }
  for (SiteReport& r : report.sites) r.alarms = r.forks + r.invalid;
  return report;
}

Result<std::vector<Segment>> storedSegments(IngestStore& store, const std::string& site,
                                            std::uint64_t from, std::uint64_t to,
                                            std::size_t maxBytes) {
  auto snapshot = store.begin(IngestStore::Access::kRead);
  if (!snapshot) return snapshot.error();
  auto record = store.loadSite(site);
  if (!record) return record.error();
  if (!*record) return makeError("site " + site + " is not registered in this store");
  const std::uint64_t stored = (*record)->state.size;
  if (from > to) {
    return makeError("--from " + std::to_string(from) + " is past --to " + std::to_string(to));
  }
  if (to > stored) {
    return makeError("site " + site + " has " + std::to_string(stored) + " entries stored; --to " +
                     std::to_string(to) + " is past them");
  }
  auto sizes = store.checkpointSizes(site);
  if (!sizes) return sizes.error();
  if (from != 0 && !isStoredSize(*sizes, from)) {
    return makeError("--from " + std::to_string(from) + " is not 0 or a stored checkpoint (" +
                     nearestStored(*sizes, from) + ")");
  }
  if (!isStoredSize(*sizes, to)) {
    return makeError("--to " + std::to_string(to) + " is not a stored checkpoint (" +
                     nearestStored(*sizes, to) + ")");
  }
  auto leaves = store.leafHashes(site, 0, to);
  if (!leaves) return leaves.error();
  MerkleTree tree;
  for (const Hash32& leaf : *leaves) tree.append(leaf);
  auto noteAt = [&](std::uint64_t size) -> Result<std::string> {
    auto note = store.checkpointNote(site, size);
    if (!note) return note.error();
    if (!*note)
      return makeError("site " + site + ": no checkpoint stored for size " + std::to_string(size));
    return std::move(**note);
  };

  // The cut of buildNextSegment (sync/segment.cpp), over the stored checkpoints.
  std::vector<Segment> out;
  std::uint64_t at = from;
  do {
    std::uint64_t end = at;
    std::size_t entryBytes = 0;
    std::vector<std::string> texts;
    for (auto it = std::upper_bound(sizes->begin(), sizes->end(), at);
         it != sizes->end() && *it <= to; ++it) {
      auto more = store.entries(site, end, *it);
      if (!more) return more.error();
      std::size_t moreBytes = 0;
      for (const std::string& t : *more) moreBytes += jsonStringLength(t) + 1;
      auto note = noteAt(*it);
      if (!note) return note.error();
      auto proof = proofOf(tree, at, *it);
      if (!proof) return proof.error();
      const std::size_t overhead =
          segmentJson(Segment{site, at, *it, {}, std::move(*proof), std::move(*note)}).size();
      const std::size_t total = overhead + entryBytes + moreBytes - 1;
      if (total > maxBytes && end != at) break;
      entryBytes += moreBytes;
      for (std::string& t : *more) texts.push_back(std::move(t));
      end = *it;
      if (total > maxBytes) break;
    }
    auto note = noteAt(end);
    if (!note) return note.error();
    auto proof = proofOf(tree, at, end);
    if (!proof) return proof.error();
    out.push_back(Segment{site, at, end, std::move(texts), std::move(*proof), std::move(*note)});
    at = end;
  } while (at < to);
  return out;
}

}  // namespace atoms::sync::ingest
