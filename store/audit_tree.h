// AuditTree: the audit log's RFC 9162 Merkle tree (store/merkle.h) with only the upper levels in
// memory, so the log's memory stays small as it grows (decision 0026).
//
// Leaves are grouped in blocks of kAuditTreeBlockLeaves (256). In memory: the hash of every
// complete block and every complete subtree above them (a MerkleTree whose leaves are the block
// hashes, about 64 bytes per 256 entries), the leaf hashes of the last, incomplete block (at most
// 255), the right edge (MerkleFrontier) and the last leaf. A root or proof that needs a node below
// block level inside a complete block reads that block's 256 leaf hashes through the LeafReader
// (AuditLog: one SELECT of audit_entry.leaf_hash), hashes them and checks the block's hash against
// the one in memory: a leaf hash changed in the store after it was loaded is an error, never a
// proof that does not match the tree. A proof reads at most two blocks; the root of the whole tree
// and appends read nothing.
//
// Results are identical to MerkleTree's for every size and index (tests/store/test_audit_tree.cpp).
// Not thread-safe: one writer, or several readers with no writer (and a reader that may be called
// from all of them). Errors are values: a size out of range as MerkleTree words it, a failed or
// inconsistent read naming the block's leaves.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "base/bytes.h"
#include "base/result.h"
#include "store/merkle.h"
#include "store/merkle_frontier.h"

namespace atoms {

inline constexpr int kAuditTreeBlockHeight = 8;
inline constexpr std::uint64_t kAuditTreeBlockLeaves = std::uint64_t{1} << kAuditTreeBlockHeight;

class AuditTree {
 public:
  // The leaf hashes [begin, end), in order; called only for leaves already appended.
  using LeafReader =
      std::function<Result<std::vector<Hash32>>(std::uint64_t begin, std::uint64_t end)>;

  explicit AuditTree(LeafReader reader) : read_(std::move(reader)) {}

  void append(const Hash32& leaf);
  std::uint64_t size() const { return frontier_.size(); }
  // Precondition: size() > 0.
  const Hash32& lastLeaf() const { return last_; }
  // The right edge of the whole tree (what a batch appends to).
  const MerkleFrontier& frontier() const { return frontier_; }

  // Root of the whole tree (emptyRoot() when empty); reads nothing.
  Hash32 root() const { return frontier_.root(); }
  // Root of the first `size` leaves; reads at most one block.
  Result<Hash32> rootAt(std::uint64_t size) const;
  // As MerkleTree::inclusionProof / consistencyProof; read at most two blocks.
  Result<std::vector<Hash32>> inclusionProof(std::uint64_t index, std::uint64_t size) const;
  Result<std::vector<Hash32>> consistencyProof(std::uint64_t from, std::uint64_t to) const;

  // Bytes of hashes held (the vectors' capacity): what the tree costs in memory.
  std::size_t memoryBytes() const;

 private:
  class Nodes;

  LeafReader read_;
  MerkleTree blocks_;  // leaf i = hash of block i (leaves [i * 256, (i + 1) * 256))
  MerkleTree tail_;    // the leaves of the incomplete last block
  MerkleFrontier frontier_;
  Hash32 last_{};
};

}  // namespace atoms
