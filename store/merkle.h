// The RFC 6962 / RFC 9162 Merkle tree over SHA-256 that backs the audit log (DESIGN.md section 4):
// leaf hash = SHA-256(0x00 || entry), inner node = SHA-256(0x01 || left || right), empty tree =
// SHA-256(""). Inclusion and consistency proofs are the standard RFC 9162 section 2.1.3 / 2.1.4
// ones, so any transparency-log verifier can check them.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "base/bytes.h"
#include "base/result.h"

namespace atoms {

Hash32 leafHash(std::span<const std::uint8_t> entry);
Hash32 nodeHash(const Hash32& left, const Hash32& right);
Hash32 emptyRoot();

// An in-memory, append-only Merkle tree of leaf hashes. It keeps every complete, aligned subtree
// (level h, index i = hash of leaves [i*2^h, (i+1)*2^h)), about 2 hashes per leaf (64 MB for a
// million leaves), so append is amortised O(1) hashes and root/proofs for any size up to size()
// are O(log n) lookups plus O(log n) hashes.
//
// Not thread-safe: one writer, or several readers with no writer. Errors are values: a size or
// index out of range is an Error naming the numbers.
class MerkleTree {
 public:
  MerkleTree() = default;

  void append(const Hash32& leaf);
  std::uint64_t size() const { return levels_.empty() ? 0 : levels_[0].size(); }
  // Precondition: i < size().
  const Hash32& leaf(std::uint64_t i) const { return levels_[0][i]; }

  // Root of the whole tree; emptyRoot() when empty.
  Hash32 root() const;
  // Root of the first `size` leaves (size <= size(); 0 gives emptyRoot()).
  Result<Hash32> rootAt(std::uint64_t size) const;

  // RFC 9162 2.1.3.1 PATH(index, D[0:size]), leaf side first. Requires index < size <= size().
  Result<std::vector<Hash32>> inclusionProof(std::uint64_t index, std::uint64_t size) const;

  // RFC 9162 2.1.4.1 PROOF(from, D[0:to]). Requires from <= to <= size(). Empty when from == to,
  // and when from == 0: the empty tree is a prefix of every tree and RFC 9162 defines no proof for
  // it (verifyConsistency then only checks that root1 is emptyRoot()).
  Result<std::vector<Hash32>> consistencyProof(std::uint64_t from, std::uint64_t to) const;

 private:
  // Hash of leaves [begin, end) as RFC 9162 MTH defines it. Precondition: the range is a subtree
  // reached by MTH's recursion (begin aligned to the largest power of two < end - begin, or a
  // complete aligned subtree), which makes the cost O(log n).
  Hash32 subtree(std::uint64_t begin, std::uint64_t end) const;

  std::vector<std::vector<Hash32>> levels_;
};

// RFC 9162 2.1.3.2: true when `proof` shows that `leaf` is the leaf at `index` in the tree of
// `size` leaves whose root is `root`.
bool verifyInclusion(std::uint64_t index, std::uint64_t size, const Hash32& leaf,
                     std::span<const Hash32> proof, const Hash32& root);

// RFC 9162 2.1.4.2: true when `proof` shows that the tree (size1, root1) is a prefix of the tree
// (size2, root2). size1 == size2 requires an empty proof and root1 == root2; size1 == 0 requires
// an empty proof and root1 == emptyRoot() (the empty tree has exactly one root).
bool verifyConsistency(std::uint64_t size1, std::uint64_t size2, const Hash32& root1,
                       const Hash32& root2, std::span<const Hash32> proof);

}  // namespace atoms
