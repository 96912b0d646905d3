#include "store/merkle.h"

#include <algorithm>
#include <bit>
#include <string>

namespace atoms {

namespace {

// Largest power of two strictly less than n (n >= 2): MTH's split point k.
std::uint64_t splitPoint(std::uint64_t n) { return std::bit_floor(n - 1); }

std::string num(std::uint64_t n) { return std::to_string(n); }

}  // namespace

Hash32 leafHash(std::span<const std::uint8_t> entry) { return sha256Prefixed(0x00, entry); }

Hash32 nodeHash(const Hash32& left, const Hash32& right) {
  std::uint8_t buf[1 + 32 + 32];
  buf[0] = 0x01;
  std::copy(left.begin(), left.end(), buf + 1);
  std::copy(right.begin(), right.end(), buf + 33);
  return sha256(buf);
}

Hash32 emptyRoot() { return sha256({}); }

void MerkleTree::append(const Hash32& leaf) {
  if (levels_.empty()) levels_.emplace_back();
  levels_[0].push_back(leaf);
  // Each time a level gains an even count, its last two nodes complete a subtree one level up.
  for (std::size_t h = 0; levels_[h].size() % 2 == 0; ++h) {
    const Hash32 parent = nodeHash(levels_[h][levels_[h].size() - 2], levels_[h].back());
    if (levels_.size() == h + 1) levels_.emplace_back();
    levels_[h + 1].push_back(parent);
  }
}

namespace {

std::string beyond(std::uint64_t n, std::uint64_t treeSize) {
  return "tree size " + num(n) + " is beyond the tree (" + num(treeSize) + " leaves)";
}

// Hash of leaves [begin, end) as RFC 9162 MTH defines it. Precondition: the range is a subtree
// reached by MTH's recursion (begin aligned to the largest power of two < end - begin, or a
// complete aligned subtree), which makes the cost O(log n) node lookups.
Result<Hash32> subtree(std::uint64_t begin, std::uint64_t end, const MerkleNodeSource& node) {
  const std::uint64_t n = end - begin;
  if (std::has_single_bit(n) && begin % n == 0) {
    const int h = std::countr_zero(n);
    return node(h, begin >> h);
  }
  const std::uint64_t k = splitPoint(n);
  auto left = subtree(begin, begin + k, node);
  if (!left) return left;
  auto right = subtree(begin + k, end, node);
  if (!right) return right;
  return nodeHash(*left, *right);
}

}  // namespace

Result<Hash32> merkleRootAt(std::uint64_t n, std::uint64_t treeSize, const MerkleNodeSource& node) {
  if (n > treeSize) return makeError(beyond(n, treeSize));
  if (n == 0) return emptyRoot();
  return subtree(0, n, node);
}

Result<std::vector<Hash32>> merkleInclusionProof(std::uint64_t index, std::uint64_t n,
                                                 std::uint64_t treeSize,
                                                 const MerkleNodeSource& node) {
  if (n > treeSize) return makeError(beyond(n, treeSize));
  if (index >= n) {
    return makeError("leaf index " + num(index) + " is not in a tree of size " + num(n));
  }
  // Walk RFC 9162 PATH(m, D[begin:end]) from the top; each step contributes the sibling subtree,
  // and the proof lists them leaf side first, hence the final reverse.
  std::vector<Hash32> proof;
  std::uint64_t begin = 0;
  std::uint64_t end = n;
  while (end - begin > 1) {
    const std::uint64_t k = splitPoint(end - begin);
    auto sibling =
        index < begin + k ? subtree(begin + k, end, node) : subtree(begin, begin + k, node);
    if (!sibling) return sibling.error();
    proof.push_back(*sibling);
    if (index < begin + k) {
      end = begin + k;
    } else {
      begin += k;
    }
  }
  std::reverse(proof.begin(), proof.end());
  return proof;
}

Result<std::vector<Hash32>> merkleConsistencyProof(std::uint64_t from, std::uint64_t to,
                                                   std::uint64_t treeSize,
                                                   const MerkleNodeSource& node) {
  if (to > treeSize) return makeError(beyond(to, treeSize));
  if (from > to) {
    return makeError("consistency proof from size " + num(from) + " to smaller size " + num(to));
  }
  std::vector<Hash32> proof;
  if (from == 0 || from == to) return proof;
  // RFC 9162 SUBPROOF(m, D[begin:end], b), unrolled; `complete` is b: whether D[begin:end] is a
  // whole old tree whose root the verifier already holds.
  std::uint64_t begin = 0;
  std::uint64_t end = to;
  std::uint64_t m = from;
  bool complete = true;
  while (true) {
    const std::uint64_t n = end - begin;
    if (m == n) {
      if (!complete) {
        auto whole = subtree(begin, end, node);
        if (!whole) return whole.error();
        proof.push_back(*whole);
      }
      break;
    }
    const std::uint64_t k = splitPoint(n);
    auto sibling = m <= k ? subtree(begin + k, end, node) : subtree(begin, begin + k, node);
    if (!sibling) return sibling.error();
    proof.push_back(*sibling);
    if (m <= k) {
      end = begin + k;
    } else {
      begin += k;
      m -= k;
      complete = false;
    }
  }
  std::reverse(proof.begin(), proof.end());
  return proof;
}

MerkleNodeSource MerkleTree::nodes() const {
  return [this](int height, std::uint64_t index) -> Result<Hash32> { return node(height, index); };
}

std::size_t MerkleTree::memoryBytes() const {
  std::size_t bytes = levels_.capacity() * sizeof(levels_[0]);
  for (const auto& level : levels_) bytes += level.capacity() * sizeof(Hash32);
  return bytes;
}

Hash32 MerkleTree::root() const { return size() == 0 ? emptyRoot() : *rootAt(size()); }

Result<Hash32> MerkleTree::rootAt(std::uint64_t n) const {
  return merkleRootAt(n, size(), nodes());
}

Result<std::vector<Hash32>> MerkleTree::inclusionProof(std::uint64_t index, std::uint64_t n) const {
  return merkleInclusionProof(index, n, size(), nodes());
}

Result<std::vector<Hash32>> MerkleTree::consistencyProof(std::uint64_t from,
                                                         std::uint64_t to) const {
  return merkleConsistencyProof(from, to, size(), nodes());
}

bool verifyInclusion(std::uint64_t index, std::uint64_t size, const Hash32& leaf,
                     std::span<const Hash32> proof, const Hash32& root) {
  if (index >= size) return false;
  std::uint64_t fn = index;
  std::uint64_t sn = size - 1;
  Hash32 r = leaf;
  for (const Hash32& p : proof) {
    if (sn == 0) return false;
    if ((fn & 1) != 0 || fn == sn) {
      r = nodeHash(p, r);
      while ((fn & 1) == 0 && fn != 0) {
        fn >>= 1;
        sn >>= 1;
      }
    } else {
      r = nodeHash(r, p);
    }
    fn >>= 1;
    sn >>= 1;
  }
  return sn == 0 && r == root;
}

bool verifyConsistency(std::uint64_t size1, std::uint64_t size2, const Hash32& root1,
                       const Hash32& root2, std::span<const Hash32> proof) {
  if (size2 < size1) return false;
  if (size1 == 0) return proof.empty() && root1 == emptyRoot() && (size2 != 0 || root2 == root1);
  if (size1 == size2) return proof.empty() && root1 == root2;
  if (proof.empty()) return false;

  // RFC 9162 2.1.4.2. When size1 is a power of two the old root is itself a node of the new
  // tree and is not sent: the path then starts with root1.
  const bool prependRoot = std::has_single_bit(size1);
  const std::size_t pathLen = proof.size() + (prependRoot ? 1 : 0);
  const auto at = [&](std::size_t i) -> const Hash32& {
    if (prependRoot) return i == 0 ? root1 : proof[i - 1];
    return proof[i];
  };

  std::uint64_t fn = size1 - 1;
  std::uint64_t sn = size2 - 1;
  while ((fn & 1) != 0) {
    fn >>= 1;
    sn >>= 1;
  }
  Hash32 fr = at(0);
  Hash32 sr = at(0);
  for (std::size_t i = 1; i < pathLen; ++i) {
    const Hash32& c = at(i);
    if (sn == 0) return false;
    if ((fn & 1) != 0 || fn == sn) {
      fr = nodeHash(c, fr);
      sr = nodeHash(c, sr);
      while ((fn & 1) == 0 && fn != 0) {
        fn >>= 1;
        sn >>= 1;
      }
    } else {
      sr = nodeHash(sr, c);
    }
    fn >>= 1;
    sn >>= 1;
  }
  return fr == root1 && sr == root2 && sn == 0;
}

}  // namespace atoms
