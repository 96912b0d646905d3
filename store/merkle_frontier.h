// MerkleFrontier: the right edge of an RFC 9162 Merkle tree (the roots of its maximal perfect
// subtrees, at most 64 hashes), enough to append leaves and compute the root of the grown tree
// without holding the leaves. The audit log uses it to compute a batch's root before the batch
// commits; the verifiers use it to check a stream of entries in O(1) memory.
//
// A plain value type: copyable, not synchronised. Header-only (used by store/ and sync/).
#pragma once

#include <bit>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "base/bytes.h"
#include "base/result.h"
#include "store/merkle.h"

namespace atoms {

class MerkleFrontier {
 public:
  MerkleFrontier() = default;

  // The frontier of a tree of `size` leaves from its peaks, largest (leftmost) first. Error when
  // the number of peaks is not popcount(size).
  static Result<MerkleFrontier> fromPeaks(std::uint64_t size, std::vector<Hash32> peaks) {
    if (peaks.size() != static_cast<std::size_t>(std::popcount(size))) {
      return makeError("merkle frontier: " + std::to_string(peaks.size()) +
                       " peaks do not fit a tree of size " + std::to_string(size));
    }
    MerkleFrontier f;
    f.size_ = size;
    f.peaks_ = std::move(peaks);
    return f;
  }

  void append(const Hash32& leaf) {
    Hash32 h = leaf;
    // Each trailing 1 bit of the old size is a peak of the same height as the new node: merge.
    for (std::uint64_t n = size_; (n & 1U) != 0; n >>= 1) {
      h = nodeHash(peaks_.back(), h);
      peaks_.pop_back();
    }
    peaks_.push_back(h);
    ++size_;
  }

  std::uint64_t size() const { return size_; }
  const std::vector<Hash32>& peaks() const { return peaks_; }

  // RFC 9162 MTH of the leaves appended so far; emptyRoot() when there are none.
  Hash32 root() const {
    if (peaks_.empty()) return emptyRoot();
    Hash32 h = peaks_.back();
    for (std::size_t i = peaks_.size() - 1; i-- > 0;) h = nodeHash(peaks_[i], h);
    return h;
  }

 private:
  std::uint64_t size_ = 0;
  std::vector<Hash32> peaks_;  // largest (leftmost) first
};

}  // namespace atoms
