#include <bit>
#include <boost/test/unit_test.hpp>
#include <random>
#include <string>
#include <vector>

#include "store/merkle.h"

using atoms::Hash32;
using atoms::MerkleTree;

namespace {

Hash32 h(std::string_view hex) {
  auto b = atoms::fromHex(hex);
  BOOST_REQUIRE(b && b->size() == 32);
  Hash32 out;
  std::copy(b->begin(), b->end(), out.begin());
  return out;
}

std::vector<std::uint8_t> hexBytes(std::string_view hex) {
  auto b = atoms::fromHex(hex);
  BOOST_REQUIRE(b);
  return *b;
}

// The RFC 6962 reference data used by Certificate Transparency implementations, as published in
// transparency-dev/merkle proof/verify_test.go (leaves, roots for sizes 1..8, inclusion and
// consistency proofs); the same values appear in google/certificate-transparency's
// merkle_tree_test.
const std::vector<std::string> kLeaves = {"",
                                          "00",
                                          "10",
                                          "2021",
                                          "3031",
                                          "40414243",
                                          "5051525354555657",
                                          "606162636465666768696a6b6c6d6e6f"};
const std::vector<std::string> kRoots = {
    "6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d",
    "fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125",
    "aeb6bcfe274b70a14fb067a5e5578264db0fa9b51af5e0ba159158f329e06e77",
    "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
    "4e3bbb1f7b478dcfe71fb631631519a3bca12c9aefca1612bfce4c13a86264d4",
    "76e67dadbcdf1e10e1b74ddc608abd2f98dfb16fbce75277b5232a127f2087ef",
    "ddb89be403809e325750d3d263cd78929c2942b7942a34b77e122c9594a74c8c",
    "5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328",
};

struct InclusionVector {
  std::uint64_t index;  // 0-based
  std::uint64_t size;
  std::vector<std::string> proof;
};

const std::vector<InclusionVector> kInclusion = {
    {0,
     8,
     {"96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7",
      "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
      "6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4"}},
    {5,
     8,
     {"bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b",
      "ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0",
      "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7"}},
    {2, 3, {"fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125"}},
    {1,
     5,
     {"6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d",
      "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
      "bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b"}},
    {0, 1, {}},
};

struct ConsistencyVector {
  std::uint64_t from;
  std::uint64_t to;
  std::vector<std::string> proof;
};

const std::vector<ConsistencyVector> kConsistency = {
    {1, 1, {}},
    {1,
     8,
     {"96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7",
      "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
      "6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4"}},
    {6,
     8,
     {"0ebc5d3437fbe2db158b9f126a1d118e308181031d0a949f8dededebc558ef6a",
      "ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0",
      "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7"}},
    {2,
     5,
     {"5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
      "bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b"}},
    {6,
     7,
     {"0ebc5d3437fbe2db158b9f126a1d118e308181031d0a949f8dededebc558ef6a",
      "b08693ec2e721597130641e8211e7eedccb4c26413963eee6c1e2ed16ffb1a5f",
      "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7"}},
};

std::vector<Hash32> hashes(const std::vector<std::string>& hex) {
  std::vector<Hash32> out;
  for (const auto& x : hex) out.push_back(h(x));
  return out;
}

MerkleTree referenceTree() {
  MerkleTree t;
  for (const auto& leaf : kLeaves) t.append(atoms::leafHash(hexBytes(leaf)));
  return t;
}

// Leaf i of the synthetic trees: the hash of the decimal index.
Hash32 syntheticLeaf(std::uint64_t i) { return atoms::leafHash(atoms::asBytes(std::to_string(i))); }

MerkleTree syntheticTree(std::uint64_t n) {
  MerkleTree t;
  for (std::uint64_t i = 0; i < n; ++i) t.append(syntheticLeaf(i));
  return t;
}

// RFC 9162 section 2.1.1-2.1.4, written as literally as possible: the reference the tree's
// O(log n) algorithms are checked against.
std::uint64_t k(std::uint64_t n) { return std::bit_floor(n - 1); }

Hash32 naiveMth(const std::vector<Hash32>& leaves, std::uint64_t begin, std::uint64_t end) {
  const std::uint64_t n = end - begin;
  if (n == 0) return atoms::emptyRoot();
  if (n == 1) return leaves[begin];
  return atoms::nodeHash(naiveMth(leaves, begin, begin + k(n)),
                         naiveMth(leaves, begin + k(n), end));
}

std::vector<Hash32> naivePath(const std::vector<Hash32>& leaves, std::uint64_t m,
                              std::uint64_t begin, std::uint64_t end) {
  const std::uint64_t n = end - begin;
  if (n == 1) return {};
  std::vector<Hash32> out;
  if (m < k(n)) {
    out = naivePath(leaves, m, begin, begin + k(n));
    out.push_back(naiveMth(leaves, begin + k(n), end));
  } else {
    out = naivePath(leaves, m - k(n), begin + k(n), end);
    out.push_back(naiveMth(leaves, begin, begin + k(n)));
  }
  return out;
}

std::vector<Hash32> naiveSubproof(const std::vector<Hash32>& leaves, std::uint64_t m,
                                  std::uint64_t begin, std::uint64_t end, bool b) {
  const std::uint64_t n = end - begin;
  if (m == n) {
    if (b) return {};
    return {naiveMth(leaves, begin, end)};
  }
  std::vector<Hash32> out;
  if (m <= k(n)) {
    out = naiveSubproof(leaves, m, begin, begin + k(n), b);
    out.push_back(naiveMth(leaves, begin + k(n), end));
  } else {
    out = naiveSubproof(leaves, m - k(n), begin + k(n), end, false);
    out.push_back(naiveMth(leaves, begin, begin + k(n)));
  }
  return out;
}

std::vector<Hash32> leavesOf(const MerkleTree& t) {
  std::vector<Hash32> out;
  for (std::uint64_t i = 0; i < t.size(); ++i) out.push_back(t.leaf(i));
  return out;
}

Hash32 flipped(Hash32 x, int bit) {
  x[0] ^= static_cast<std::uint8_t>(1u << bit);
  return x;
}

// Every way of damaging a valid inclusion proof that must be rejected.
void checkInclusionTampering(const MerkleTree& t, std::uint64_t index, std::uint64_t size,
                             const std::vector<Hash32>& proof) {
  const Hash32 root = t.rootAt(size).value();
  const Hash32 leaf = t.leaf(index);
  BOOST_TEST(!atoms::verifyInclusion(index, size, flipped(leaf, 3), proof, root));
  BOOST_TEST(!atoms::verifyInclusion(index, size, leaf, proof, flipped(root, 3)));
  BOOST_TEST(!atoms::verifyInclusion(index + 1, size, leaf, proof, root));
  if (index > 0) BOOST_TEST(!atoms::verifyInclusion(index - 1, size, leaf, proof, root));
  BOOST_TEST(!atoms::verifyInclusion(index, size * 2, leaf, proof, root));
  BOOST_TEST(!atoms::verifyInclusion(index, size, leaf, proof, atoms::emptyRoot()));
  for (std::size_t i = 0; i < proof.size(); ++i) {
    auto bad = proof;
    bad[i] = flipped(bad[i], 4);
    BOOST_TEST(!atoms::verifyInclusion(index, size, leaf, bad, root));
  }
  auto longer = proof;
  longer.push_back(root);
  BOOST_TEST(!atoms::verifyInclusion(index, size, leaf, longer, root));
  auto prefixed = proof;
  prefixed.insert(prefixed.begin(), leaf);
  BOOST_TEST(!atoms::verifyInclusion(index, size, leaf, prefixed, root));
  if (!proof.empty()) {
    auto shorter = proof;
    shorter.pop_back();
    BOOST_TEST(!atoms::verifyInclusion(index, size, leaf, shorter, root));
  }
}

void checkConsistencyTampering(const MerkleTree& t, std::uint64_t from, std::uint64_t to,
                               const std::vector<Hash32>& proof) {
  const Hash32 r1 = t.rootAt(from).value();
  const Hash32 r2 = t.rootAt(to).value();
  BOOST_TEST(!atoms::verifyConsistency(from, to, flipped(r1, 2), r2, proof));
  BOOST_TEST(!atoms::verifyConsistency(from, to, r1, flipped(r2, 2), proof));
  BOOST_TEST(!atoms::verifyConsistency(from, to, r2, r1, proof));
  BOOST_TEST(!atoms::verifyConsistency(from, to * 2, r1, r2, proof));
  BOOST_TEST(!atoms::verifyConsistency(from, to, r1, r2, {}));
  for (std::size_t i = 0; i < proof.size(); ++i) {
    auto bad = proof;
    bad[i] = flipped(bad[i], 5);
    BOOST_TEST(!atoms::verifyConsistency(from, to, r1, r2, bad));
  }
  auto longer = proof;
  longer.push_back(r2);
  BOOST_TEST(!atoms::verifyConsistency(from, to, r1, r2, longer));
  auto prefixed = proof;
  prefixed.insert(prefixed.begin(), r1);
  BOOST_TEST(!atoms::verifyConsistency(from, to, r1, r2, prefixed));
  auto shorter = proof;
  shorter.pop_back();
  BOOST_TEST(!atoms::verifyConsistency(from, to, r1, r2, shorter));
}

}  // namespace

BOOST_AUTO_TEST_SUITE(merkle)

BOOST_AUTO_TEST_CASE(hashesFollowRfc6962) {
  // SHA-256 of the empty string, the RFC 6962 empty-tree root.
  BOOST_TEST(atoms::toHex(atoms::emptyRoot()) ==
             "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  BOOST_TEST(atoms::toHex(atoms::leafHash({})) == kRoots[0]);
  // Domain separation: a leaf hash is SHA-256(0x00 || x), a node SHA-256(0x01 || l || r).
  const Hash32 a = atoms::leafHash(hexBytes("00"));
  const Hash32 b = atoms::leafHash(hexBytes("10"));
  std::vector<std::uint8_t> node = {0x01};
  node.insert(node.end(), a.begin(), a.end());
  node.insert(node.end(), b.begin(), b.end());
  BOOST_TEST((atoms::nodeHash(a, b) == atoms::sha256(node)));
  BOOST_TEST((atoms::leafHash(hexBytes("00")) == atoms::sha256(hexBytes("0000"))));
}

BOOST_AUTO_TEST_CASE(rootsMatchReferenceVectors) {
  MerkleTree t;
  BOOST_TEST((t.root() == atoms::emptyRoot()));
  for (std::size_t i = 0; i < kLeaves.size(); ++i) {
    t.append(atoms::leafHash(hexBytes(kLeaves[i])));
    BOOST_TEST(t.size() == i + 1);
    BOOST_TEST(atoms::toHex(t.root()) == kRoots[i]);
  }
  for (std::uint64_t n = 1; n <= kLeaves.size(); ++n) {
    BOOST_TEST(atoms::toHex(t.rootAt(n).value()) == kRoots[n - 1]);
  }
  BOOST_TEST((t.rootAt(0).value() == atoms::emptyRoot()));
}

BOOST_AUTO_TEST_CASE(inclusionProofsMatchReferenceVectors) {
  const MerkleTree t = referenceTree();
  for (const auto& v : kInclusion) {
    auto proof = t.inclusionProof(v.index, v.size);
    BOOST_REQUIRE(proof.ok());
    BOOST_TEST((*proof == hashes(v.proof)), "index " << v.index << " size " << v.size);
    BOOST_TEST(atoms::verifyInclusion(v.index, v.size, t.leaf(v.index), hashes(v.proof),
                                      h(kRoots[v.size - 1])));
    checkInclusionTampering(t, v.index, v.size, *proof);
  }
}

BOOST_AUTO_TEST_CASE(consistencyProofsMatchReferenceVectors) {
  const MerkleTree t = referenceTree();
  for (const auto& v : kConsistency) {
    auto proof = t.consistencyProof(v.from, v.to);
    BOOST_REQUIRE(proof.ok());
    BOOST_TEST((*proof == hashes(v.proof)), "from " << v.from << " to " << v.to);
    BOOST_TEST(atoms::verifyConsistency(v.from, v.to, h(kRoots[v.from - 1]), h(kRoots[v.to - 1]),
                                        hashes(v.proof)));
    if (v.from != v.to) checkConsistencyTampering(t, v.from, v.to, *proof);
  }
}

BOOST_AUTO_TEST_CASE(rootAtEqualsNaiveMthForManySizes) {
  const MerkleTree t = syntheticTree(1100);
  const auto leaves = leavesOf(t);
  for (std::uint64_t n = 0; n <= t.size(); ++n) {
    BOOST_TEST((t.rootAt(n).value() == naiveMth(leaves, 0, n)), "size " << n);
  }
  BOOST_TEST((t.root() == naiveMth(leaves, 0, t.size())));
}

BOOST_AUTO_TEST_CASE(allInclusionProofsUpTo64RoundTrip) {
  const MerkleTree t = syntheticTree(64);
  const auto leaves = leavesOf(t);
  for (std::uint64_t size = 1; size <= 64; ++size) {
    const Hash32 root = t.rootAt(size).value();
    for (std::uint64_t index = 0; index < size; ++index) {
      auto proof = t.inclusionProof(index, size);
      BOOST_REQUIRE(proof.ok());
      BOOST_TEST((*proof == naivePath(leaves, index, 0, size)), index << "/" << size);
      BOOST_TEST(atoms::verifyInclusion(index, size, t.leaf(index), *proof, root),
                 index << "/" << size);
      checkInclusionTampering(t, index, size, *proof);
    }
  }
}

BOOST_AUTO_TEST_CASE(allConsistencyProofsUpTo64RoundTrip) {
  const MerkleTree t = syntheticTree(64);
  const auto leaves = leavesOf(t);
  for (std::uint64_t to = 1; to <= 64; ++to) {
    const Hash32 r2 = t.rootAt(to).value();
    for (std::uint64_t from = 1; from < to; ++from) {
      auto proof = t.consistencyProof(from, to);
      BOOST_REQUIRE(proof.ok());
      BOOST_TEST((*proof == naiveSubproof(leaves, from, 0, to, true)), from << "->" << to);
      BOOST_TEST(atoms::verifyConsistency(from, to, t.rootAt(from).value(), r2, *proof),
                 from << "->" << to);
      checkConsistencyTampering(t, from, to, *proof);
    }
  }
}

BOOST_AUTO_TEST_CASE(randomProofsUpTo100kRoundTrip) {
  const MerkleTree t = syntheticTree(100'000);
  std::mt19937_64 rng(6962);
  for (int i = 0; i < 2000; ++i) {
    const std::uint64_t size = 1 + rng() % t.size();
    const std::uint64_t index = rng() % size;
    auto proof = t.inclusionProof(index, size);
    BOOST_REQUIRE(proof.ok());
    const Hash32 root = t.rootAt(size).value();
    BOOST_TEST(atoms::verifyInclusion(index, size, t.leaf(index), *proof, root));
    BOOST_TEST(!atoms::verifyInclusion(index, size, syntheticLeaf(index + 1), *proof, root));

    const std::uint64_t from = 1 + rng() % size;
    auto cproof = t.consistencyProof(from, size);
    BOOST_REQUIRE(cproof.ok());
    const Hash32 r1 = t.rootAt(from).value();
    BOOST_TEST(atoms::verifyConsistency(from, size, r1, root, *cproof));
    if (from != size) {
      BOOST_TEST(!atoms::verifyConsistency(from, size, flipped(r1, 0), root, *cproof));
      BOOST_TEST(!atoms::verifyConsistency(from, size, r1, flipped(root, 0), *cproof));
    }
  }
}

BOOST_AUTO_TEST_CASE(proofsAreLogarithmic) {
  const MerkleTree t = syntheticTree(100'000);
  for (std::uint64_t index : {0ull, 1ull, 4'242ull, 65'535ull, 65'536ull, 99'999ull}) {
    BOOST_TEST(t.inclusionProof(index, t.size())->size() <= 17u);
  }
  BOOST_TEST(t.consistencyProof(70'001, 100'000)->size() <= 2u * 17u);
}

BOOST_AUTO_TEST_CASE(aMillionLeavesStayCheap) {
  // Append is amortised O(1) and proofs for any size are O(log n): a million leaves take about
  // 2 million hashes in total and 64 MB, not a rebuild per query.
  const MerkleTree t = syntheticTree(1'000'000);
  const auto leaves = leavesOf(t);
  BOOST_TEST((t.root() == naiveMth(leaves, 0, t.size())));
  std::mt19937_64 rng(1'000'000);
  for (int i = 0; i < 200; ++i) {
    const std::uint64_t size = 1 + rng() % t.size();
    const std::uint64_t index = rng() % size;
    auto proof = t.inclusionProof(index, size);
    BOOST_TEST(atoms::verifyInclusion(index, size, t.leaf(index), *proof, t.rootAt(size).value()));
  }
}

BOOST_AUTO_TEST_CASE(emptyAndEqualSizedConsistency) {
  const MerkleTree t = referenceTree();
  // from == 0 and from == to have empty proofs.
  for (std::uint64_t to = 0; to <= t.size(); ++to) {
    BOOST_TEST(t.consistencyProof(0, to)->empty());
    BOOST_TEST(t.consistencyProof(to, to)->empty());
    const Hash32 r = t.rootAt(to).value();
    BOOST_TEST(atoms::verifyConsistency(0, to, atoms::emptyRoot(), r, {}));
    BOOST_TEST(atoms::verifyConsistency(to, to, r, r, {}));
    // The empty tree has one root; anything else claimed for size 0 is rejected.
    BOOST_TEST(!atoms::verifyConsistency(0, to, h(kRoots[0]), r, {}));
    BOOST_TEST(!atoms::verifyConsistency(0, to, atoms::emptyRoot(), r, hashes({kRoots[0]})));
    BOOST_TEST(!atoms::verifyConsistency(to, to, r, r, hashes({kRoots[0]})));
  }
  BOOST_TEST(!atoms::verifyConsistency(3, 3, h(kRoots[2]), h(kRoots[3]), {}));
  BOOST_TEST(!atoms::verifyConsistency(0, 0, atoms::emptyRoot(), h(kRoots[0]), {}));
  // Shrinking is never consistent.
  BOOST_TEST(!atoms::verifyConsistency(5, 4, h(kRoots[4]), h(kRoots[3]), {}));
}

BOOST_AUTO_TEST_CASE(outOfRangeRequestsAreErrors) {
  const MerkleTree t = referenceTree();
  BOOST_TEST(!t.rootAt(9).ok());
  BOOST_TEST(t.rootAt(9).message() == "tree size 9 is beyond the tree (8 leaves)");
  BOOST_TEST(!t.inclusionProof(0, 0).ok());
  BOOST_TEST(!t.inclusionProof(8, 8).ok());
  BOOST_TEST(!t.inclusionProof(0, 9).ok());
  BOOST_TEST(!t.consistencyProof(5, 4).ok());
  BOOST_TEST(!t.consistencyProof(1, 9).ok());
  BOOST_TEST(!atoms::verifyInclusion(0, 0, t.leaf(0), {}, t.leaf(0)));
  BOOST_TEST(!atoms::verifyInclusion(1, 1, t.leaf(0), {}, t.leaf(0)));
  // A one-leaf tree: the root is the leaf and the proof is empty.
  BOOST_TEST(atoms::verifyInclusion(0, 1, t.leaf(0), {}, t.leaf(0)));
}

BOOST_AUTO_TEST_SUITE_END()
