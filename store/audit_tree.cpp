#include "store/audit_tree.h"

#include <deque>
#include <string>
#include <utility>

namespace atoms {

// The node source of one root or proof: nodes at block level and above from memory, those below
// from the tail in memory or from the blocks read (each at most once per call).
class AuditTree::Nodes {
 public:
  explicit Nodes(const AuditTree& tree) : tree_(tree) {}

  Result<Hash32> operator()(int height, std::uint64_t index) {
    if (height >= kAuditTreeBlockHeight)
      return tree_.blocks_.node(height - kAuditTreeBlockHeight, index);
    const std::uint64_t block = (index << height) >> kAuditTreeBlockHeight;
    const std::uint64_t within = index - (block << (kAuditTreeBlockHeight - height));
    if (block == tree_.blocks_.size()) return tree_.tail_.node(height, within);
    auto read = blockTree(block);
    if (!read) return read.error();
    return (*read)->node(height, within);
  }

 private:
  Result<const MerkleTree*> blockTree(std::uint64_t block) {
    for (const auto& [index, tree] : read_) {
      if (index == block) return &tree;
    }
    const std::uint64_t begin = block * kAuditTreeBlockLeaves;
    const std::uint64_t end = begin + kAuditTreeBlockLeaves;
    const std::string which =
        "entries [" + std::to_string(begin) + ", " + std::to_string(end) + ")";
    auto leaves = tree_.read_(begin, end);
    if (!leaves)
      return makeError("audit tree: cannot read the leaf hashes of " + which + ": " +
                       leaves.message());
    if (leaves->size() != kAuditTreeBlockLeaves) {
      return makeError("audit tree: read " + std::to_string(leaves->size()) + " leaf hashes of " +
                       which);
    }
    MerkleTree tree;
    for (const Hash32& leaf : *leaves) tree.append(leaf);
    if (tree.root() != tree_.blocks_.leaf(block)) {
      return makeError("audit tree: the stored leaf hashes of " + which +
                       " do not match the tree loaded when the log was opened; run `atoms-edge "
                       "verify`");
    }
    read_.emplace_back(block, std::move(tree));
    return &read_.back().second;
  }

  const AuditTree& tree_;
  std::deque<std::pair<std::uint64_t, MerkleTree>> read_;  // stable addresses as it grows
};

void AuditTree::append(const Hash32& leaf) {
  frontier_.append(leaf);
  last_ = leaf;
  tail_.append(leaf);
  if (tail_.size() == kAuditTreeBlockLeaves) {
    blocks_.append(tail_.root());
    tail_ = MerkleTree();
  }
}

Result<Hash32> AuditTree::rootAt(std::uint64_t n) const {
  if (n == size()) return root();
  Nodes nodes(*this);
  return merkleRootAt(n, size(), std::ref(nodes));
}

Result<std::vector<Hash32>> AuditTree::inclusionProof(std::uint64_t index, std::uint64_t n) const {
  Nodes nodes(*this);
  return merkleInclusionProof(index, n, size(), std::ref(nodes));
}

Result<std::vector<Hash32>> AuditTree::consistencyProof(std::uint64_t from,
                                                        std::uint64_t to) const {
  Nodes nodes(*this);
  return merkleConsistencyProof(from, to, size(), std::ref(nodes));
}

std::size_t AuditTree::memoryBytes() const {
  return blocks_.memoryBytes() + tail_.memoryBytes() +
         frontier_.peaks().capacity() * sizeof(Hash32);
}

}  // namespace atoms
