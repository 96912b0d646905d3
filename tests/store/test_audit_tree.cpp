// AuditTree (store/audit_tree.h) against MerkleTree, the tree that holds every node: the same
// roots and proofs for many sizes, across block boundaries, from a reader over a vector and from
// the audit log's own database (before and after a reopen).
#include <boost/test/unit_test.hpp>
#include <cstdint>
#include <string>
#include <vector>

#include "store/audit_tree.h"
#include "store/log_verifier.h"
#include "store/merkle.h"
#include "tests/store/audit_fixture.h"

namespace atoms {
namespace {

Hash32 treeTestLeaf(std::uint64_t i) { return leafHash(asBytes("leaf " + std::to_string(i))); }

// An AuditTree whose leaves live in a vector, counting the blocks it reads.
struct VectorBackedTree {
  std::vector<Hash32> leaves;
  int reads = 0;
  AuditTree tree{[this](std::uint64_t begin, std::uint64_t end) -> Result<std::vector<Hash32>> {
    ++reads;
    BOOST_REQUIRE(begin < end && end <= leaves.size());
    return std::vector<Hash32>(leaves.begin() + static_cast<std::ptrdiff_t>(begin),
                               leaves.begin() + static_cast<std::ptrdiff_t>(end));
  }};
  MerkleTree full;

  void grow(std::uint64_t n) {
    while (leaves.size() < n) {
      leaves.push_back(treeTestLeaf(leaves.size()));
      tree.append(leaves.back());
      full.append(leaves.back());
    }
  }
};

// Sizes around the block boundaries (and a few inside blocks) up to n.
std::vector<std::uint64_t> interestingSizes(std::uint64_t n) {
  std::vector<std::uint64_t> out;
  for (std::uint64_t s = 1; s <= n; ++s) {
    const std::uint64_t r = s % kAuditTreeBlockLeaves;
    if (s < 20 || r <= 2 || r >= kAuditTreeBlockLeaves - 2 || s % 97 == 0) out.push_back(s);
  }
  return out;
}

// Every root, and inclusion and consistency proofs over a spread of indexes and sizes, equal to
// MerkleTree's, each call reading at most two blocks.
void expectSameAsFullTree(const AuditTree& tree, const MerkleTree& full, const int& reads) {
  BOOST_REQUIRE(tree.size() == full.size());
  BOOST_TEST((tree.root() == full.root()));
  const std::vector<std::uint64_t> sizes = interestingSizes(full.size());
  for (std::uint64_t size : sizes) {
    int before = reads;
    auto root = tree.rootAt(size);
    BOOST_REQUIRE_MESSAGE(root.ok(), root.message());
    BOOST_TEST((*root == *full.rootAt(size)), "root at " << size);
    BOOST_TEST(reads - before <= 1, "root at " << size);
    for (std::uint64_t index : {std::uint64_t{0}, size / 3, size / 2, size - 1}) {
      before = reads;
      auto proof = tree.inclusionProof(index, size);
      BOOST_REQUIRE_MESSAGE(proof.ok(), proof.message());
      BOOST_TEST((*proof == *full.inclusionProof(index, size)),
                 "inclusion " << index << " in " << size);
      BOOST_TEST(reads - before <= 2, "inclusion " << index << " in " << size);
    }
  }
  for (std::uint64_t from : sizes) {
    for (std::uint64_t to : {from, from + 1, (from + full.size()) / 2, full.size()}) {
      if (to > full.size()) continue;
      const int before = reads;
      auto proof = tree.consistencyProof(from, to);
      BOOST_REQUIRE_MESSAGE(proof.ok(), proof.message());
      BOOST_TEST((*proof == *full.consistencyProof(from, to)),
                 "consistency " << from << "->" << to);
      BOOST_TEST(reads - before <= 2, "consistency " << from << "->" << to);
    }
  }
}

BOOST_AUTO_TEST_SUITE(audit_tree)

BOOST_AUTO_TEST_CASE(rootsAndProofsEqualTheFullTreeAtEveryBlockBoundary) {
  VectorBackedTree t;
  for (std::uint64_t n : {std::uint64_t{1}, std::uint64_t{2}, std::uint64_t{255},
                          std::uint64_t{256}, std::uint64_t{257}, std::uint64_t{512},
                          std::uint64_t{1000}, std::uint64_t{1024}, std::uint64_t{1537}}) {
    t.grow(n);
    BOOST_TEST_CONTEXT("tree of " << n) { expectSameAsFullTree(t.tree, t.full, t.reads); }
  }
}

BOOST_AUTO_TEST_CASE(theCurrentRootAndAppendsReadNothing) {
  VectorBackedTree t;
  t.grow(3000);
  BOOST_TEST((*t.tree.rootAt(3000) == t.full.root()));
  BOOST_TEST((t.tree.lastLeaf() == t.leaves.back()));
  BOOST_TEST((t.tree.frontier().root() == t.full.root()));
  // A size on a block boundary is made of blocks held in memory.
  BOOST_TEST((*t.tree.rootAt(2048) == *t.full.rootAt(2048)));
  BOOST_TEST(t.reads == 0);
}

BOOST_AUTO_TEST_CASE(holdsAboutTwoHashesPerBlockInsteadOfPerLeaf) {
  VectorBackedTree t;
  t.grow(100'000);
  // 390 blocks: under 64 KiB with the vectors' slack, where every node is over 6 MiB.
  BOOST_TEST(t.tree.memoryBytes() < 64U * 1024U);
  BOOST_TEST(t.full.memoryBytes() > 6U * 1024U * 1024U);
}

BOOST_AUTO_TEST_CASE(outOfRangeErrorsAreWordedAsTheFullTrees) {
  VectorBackedTree t;
  t.grow(8);
  BOOST_TEST(t.tree.rootAt(9).message() == t.full.rootAt(9).message());
  BOOST_TEST(t.tree.inclusionProof(8, 8).message() == t.full.inclusionProof(8, 8).message());
  BOOST_TEST(t.tree.consistencyProof(5, 4).message() == t.full.consistencyProof(5, 4).message());
  BOOST_TEST(t.tree.consistencyProof(1, 9).message() ==
             "tree size 9 is beyond the tree (8 leaves)");
}

BOOST_AUTO_TEST_CASE(aLeafHashChangedInTheStoreIsAnErrorNotAWrongProof) {
  VectorBackedTree t;
  t.grow(600);
  t.leaves[300][0] ^= 1;
  auto proof = t.tree.inclusionProof(300, 600);
  BOOST_REQUIRE(!proof.ok());
  BOOST_TEST(proof.message().find("entries [256, 512) do not match the tree") != std::string::npos,
             proof.message());
  // Proofs that need no node of that block still work.
  BOOST_TEST(t.tree.inclusionProof(10, 600).ok());
}

BOOST_AUTO_TEST_CASE(aFailedReadIsPassedOn) {
  AuditTree tree([](std::uint64_t, std::uint64_t) -> Result<std::vector<Hash32>> {
    return makeError("disk I/O error");
  });
  for (std::uint64_t i = 0; i < 300; ++i) tree.append(treeTestLeaf(i));
  auto proof = tree.consistencyProof(100, 300);
  BOOST_REQUIRE(!proof.ok());
  BOOST_TEST(proof.message() ==
             "audit tree: cannot read the leaf hashes of entries [0, 256): disk I/O error");
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(audit_log_tree)

// The log's tree, reading leaf hashes from its database, against a MerkleTree of the entries.
BOOST_AUTO_TEST_CASE(proofsFromTheStoreEqualTheFullTreeBeforeAndAfterReopen) {
  testing::LogFixture f;
  f.appendMany(300, 7);
  f.appendMany(300, 1);
  f.appendMany(500, 64);
  MerkleTree full;
  for (std::uint64_t i = 0; i < f.log->size(); ++i) {
    full.append(leafHash(asBytes(*f.log->entryText(i))));
  }
  int noCount = 0;
  expectSameAsFullTree(f.log->tree(), full, noCount);
  f.reopen();
  expectSameAsFullTree(f.log->tree(), full, noCount);
  // Appends after the reopen chain on and keep the tree whole.
  f.appendMany(200, 3);
  for (std::uint64_t i = full.size(); i < f.log->size(); ++i) {
    full.append(leafHash(asBytes(*f.log->entryText(i))));
  }
  expectSameAsFullTree(f.log->tree(), full, noCount);
  BOOST_TEST(verifyDatabase(f.db(), f.verifier(), testing::kSite).ok());
}

BOOST_AUTO_TEST_CASE(aLeafHashTamperedAfterOpeningFailsTheProofThatReadsIt) {
  testing::LogFixture f;
  f.appendMany(600, 50);
  Bytes wrong(32, 0xab);
  f.execWithBlob("UPDATE audit_entry SET leaf_hash = ? WHERE seq = 260", wrong);
  auto root = f.log->tree().rootAt(300);
  BOOST_REQUIRE(!root.ok());
  BOOST_TEST(root.message().find("entries [256, 512)") != std::string::npos, root.message());
  // What needs only the blocks held in memory, or untouched ones, still answers.
  BOOST_TEST(f.log->tree().rootAt(256).ok());
  BOOST_TEST(f.log->tree().rootAt(600).ok());
  BOOST_TEST(f.log->tree().inclusionProof(5, 256).ok());
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace
}  // namespace atoms
