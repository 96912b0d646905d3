// The RFC 6962 / RFC 9162 Merkle tree over SHA-256 that backs the audit log (DESIGN.md section 4):
// leaf hash = SHA-256(0x00 || entry), inner node = SHA-256(0x01 || left || right), empty tree =
// SHA-256(""). Inclusion and consistency proofs are the standard RFC 9162 section 2.1.3 / 2.1.4
// ones, so any transparency-log verifier can check them.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "base/bytes.h"
#include "base/result.h"

namespace atoms {

Hash32 leafHash(std::span<const std::uint8_t> entry);
Hash32 nodeHash(const Hash32& left, const Hash32& right);
Hash32 emptyRoot();

// The RFC 9162 walks over any source of node hashes, shared by MerkleTree (every node in memory)
// and AuditTree (store/audit_tree.h: upper levels in memory, leaf hashes read from the store).
// `node(height, index)` gives the hash of the complete, aligned subtree of leaves
// [index * 2^height, (index + 1) * 2^height); it is only asked for subtrees inside the first
// `treeSize` leaves, and its error is passed on. Errors for a size or index out of range name the
// numbers ("tree size 9 is beyond the tree (8 leaves)").
using MerkleNodeSource = std::function<Result<Hash32>(int height, std::uint64_t index)>;
// Root of the first `size` leaves (size <= treeSize; 0 gives emptyRoot()).
Result<Hash32> merkleRootAt(std::uint64_t size, std::uint64_t treeSize,
                            const MerkleNodeSource& node);
// RFC 9162 2.1.3.1 PATH(index, D[0:size]), leaf side first. Requires index < size <= treeSize.
Result<std::vector<Hash32>> merkleInclusionProof(std::uint64_t index, std::uint64_t size,
                                                 std::uint64_t treeSize,
                                                 const MerkleNodeSource& node);
// RFC 9162 2.1.4.1 PROOF(from, D[0:to]). Requires from <= to <= treeSize; empty when from == to or
// from == 0.
Result<std::vector<Hash32>> merkleConsistencyProof(std::uint64_t from, std::uint64_t to,
                                                   std::uint64_t treeSize,
                                                   const MerkleNodeSource& node);

// An in-memory, append-only Merkle tree of leaf hashes. It keeps every complete, aligned subtree
// (level h, index i = hash of leaves [i*2^h, (i+1)*2^h)), about 2 hashes per leaf (64 MB for a
// million leaves), so append is amortised O(1) hashes and root/proofs for any size up to size()
// are O(log n) lookups plus O(log n) hashes. The audit log does not hold its leaves this way (it
// uses AuditTree, store/audit_tree.h, which keeps one of these over block hashes); the cloud's
// ingest report and the tests do.
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
  // The complete, aligned subtree of leaves [index * 2^height, (index + 1) * 2^height).
  // Precondition: (index + 1) * 2^height <= size().
  const Hash32& node(int height, std::uint64_t index) const {
    return levels_[static_cast<std::size_t>(height)][index];
  }

  // Bytes of hashes held (the vectors' capacity).
  std::size_t memoryBytes() const;

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
  MerkleNodeSource nodes() const;

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
