// Bundles on their own: what is signed, what is refused, and the version order.
#include <boost/test/unit_test.hpp>
#include <fstream>

#include "daemon/update/bundle.h"
#include "daemon/update/pinned_key.h"
#include "tests/update/update_fixture.h"

using namespace atoms;
using namespace atoms::update;

namespace {

struct BundleFiles {
  BundleFiles() {
    binary = test::writeExecutable(tmp, "binary", test::healthyScript("bundle-test"));
  }
  std::string make(const std::string& name, const SecretBytes& key,
                   const std::string& version = "2.0.0") {
    const std::string out = tmp.file(name);
    Status s = makeBundle(binary, version, 5, key, out);
    BOOST_REQUIRE_MESSAGE(s.ok(), s.message());
    return out;
  }
  atoms::testing::TempDir tmp;
  std::string binary;
};

// Where the binary starts in a bundle: after the third newline.
std::size_t binaryOffsetOf(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::string line;
  std::size_t offset = 0;
  for (int i = 0; i < 3; ++i) {
    std::getline(f, line);
    offset += line.size() + 1;
  }
  return offset;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(bundle)

BOOST_AUTO_TEST_CASE(theBuildPinsTheTestsKeyUnlessTheVendorSetsOne) {
  // The default build: tests/update's secret key signs what it trusts.
  BOOST_TEST(pinnedKeyIsTestKey());
  BOOST_TEST(pinnedUpdateKey() == publicKeyOf(test::testVendorKey()));
}

BOOST_AUTO_TEST_CASE(aBundleVerifiesAgainstThePinnedKeyWithItsManifest) {
  BundleFiles f;
  const std::string bundle = f.make("good.bundle", test::testVendorKey());
  auto manifest = verifyBundle(bundle, pinnedUpdateKey());
  BOOST_REQUIRE_MESSAGE(manifest.ok(), manifest.message());
  BOOST_TEST(manifest->version == "2.0.0");
  BOOST_TEST(manifest->schema == 5);
  BOOST_TEST(manifest->binaryHash.size() == 128U);
  // The extracted binary is byte for byte the one bundled, and executable.
  auto opened = openBundle(bundle, pinnedUpdateKey());
  BOOST_REQUIRE(opened.ok());
  const std::string out = f.tmp.file("extracted");
  BOOST_REQUIRE(extractBinary(bundle, *opened, out).ok());
  std::ifstream a(f.binary, std::ios::binary), b(out, std::ios::binary);
  BOOST_TEST(std::string(std::istreambuf_iterator<char>(a), {}) ==
             std::string(std::istreambuf_iterator<char>(b), {}));
}

BOOST_AUTO_TEST_CASE(oneChangedByteAnywhereIsRefused) {
  BundleFiles f;
  const std::string good = f.make("good.bundle", test::testVendorKey());
  const std::size_t binaryAt = binaryOffsetOf(good);
  // In the magic line, the manifest, the signature line, and the binary.
  for (std::size_t offset : {std::size_t{3}, std::size_t{40}, binaryAt - 10, binaryAt + 12}) {
    const std::string copy = f.tmp.file("tampered-" + std::to_string(offset));
    std::filesystem::copy_file(good, copy);
    test::flipByte(copy, offset);
    auto manifest = verifyBundle(copy, pinnedUpdateKey());
    BOOST_TEST(!manifest.ok(), "offset " << offset);
    BOOST_TEST(manifest.kind() != ErrorKind::kRefused, manifest.message());
  }
  // Cut short, or with a byte more.
  const std::string shorter = f.tmp.file("short");
  std::filesystem::copy_file(good, shorter);
  std::filesystem::resize_file(shorter, std::filesystem::file_size(good) - 1);
  BOOST_TEST(verifyBundle(shorter, pinnedUpdateKey()).kind() == ErrorKind::kCorrupt);
  const std::string longer = f.tmp.file("long");
  std::filesystem::copy_file(good, longer);
  std::ofstream(longer, std::ios::app | std::ios::binary) << "x";
  BOOST_TEST(verifyBundle(longer, pinnedUpdateKey()).kind() == ErrorKind::kCorrupt);
}

BOOST_AUTO_TEST_CASE(aBundleSignedByAnotherKeyIsRefusedNamingBothKeys) {
  BundleFiles f;
  const SecretBytes other = test::otherVendorKey();
  const std::string bundle = f.make("other.bundle", other);
  auto manifest = verifyBundle(bundle, pinnedUpdateKey());
  BOOST_REQUIRE(!manifest.ok());
  BOOST_TEST(manifest.kind() == ErrorKind::kRefused);
  BOOST_TEST(manifest.message().find(keyId(publicKeyOf(other))) != std::string::npos,
             manifest.message());
  BOOST_TEST(manifest.message().find(keyId(pinnedUpdateKey())) != std::string::npos,
             manifest.message());
}

BOOST_AUTO_TEST_CASE(manifestsAreStrict) {
  const Manifest m{
      .version = "1.2.3", .schema = 7, .binarySize = 10, .binaryHash = std::string(128, 'a')};
  auto back = parseManifest(manifestJson(m));
  BOOST_REQUIRE_MESSAGE(back.ok(), back.message());
  BOOST_TEST(back->version == "1.2.3");
  BOOST_TEST(!parseManifest(R"({"binary":{"blake2b":"aa","size":1},"format":1,"schema":1,)"
                            R"("version":"1.0"})")
                  .ok());
  BOOST_TEST(!parseManifest(R"({"binary":{"blake2b":")" + std::string(128, 'a') +
                            R"(","size":1},"extra":1,"format":1,"schema":1,"version":"1.0"})")
                  .ok());
  BOOST_TEST(!parseManifest(R"({"binary":{"blake2b":")" + std::string(128, 'a') +
                            R"(","size":1},"format":1,"schema":1,"version":"1.0-rc1"})")
                  .ok());
}

BOOST_AUTO_TEST_CASE(versionsCompareNumberByNumber) {
  BOOST_TEST(compareVersions("1.2.10", "1.2.9") > 0);
  BOOST_TEST(compareVersions("1.2", "1.2.0") == 0);
  BOOST_TEST(compareVersions("0.9.9", "1.0.0") < 0);
}

BOOST_AUTO_TEST_SUITE_END()
