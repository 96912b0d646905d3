#include "tests/update/update_fixture.h"

#include <sodium.h>
#include <sys/stat.h>

#include <boost/test/unit_test.hpp>
#include <fstream>

#include "base/bytes.h"
#include "store/key_file.h"

namespace atoms::test {

SecretBytes testVendorKey() {
  auto bytes = fromHex(kTestVendorSecretHex);
  BOOST_REQUIRE(bytes.has_value() && bytes->size() == crypto_sign_SECRETKEYBYTES);
  return SecretBytes(std::span<const std::uint8_t>(bytes->data(), bytes->size()));
}

SecretBytes otherVendorKey() {
  SecretBytes key(crypto_sign_SECRETKEYBYTES);
  std::array<std::uint8_t, crypto_sign_PUBLICKEYBYTES> pk{};
  crypto_sign_keypair(pk.data(), key.data());
  return key;
}

void writeVendorKeyFile(const std::string& path, const SecretBytes& key) {
  Status s = writeKeyFile(path, KeyKind::VendorSigning, key);
  BOOST_REQUIRE_MESSAGE(s.ok(), s.message());
}

std::string writeExecutable(const atoms::testing::TempDir& dir, const std::string& name,
                            const std::string& text) {
  const std::string path = dir.write(name, text);
  BOOST_REQUIRE(::chmod(path.c_str(), 0755) == 0);
  return path;
}

std::string healthyScript(const std::string& tag) {
  return "#!/bin/sh\n# " + tag + "\nprintf '{\"exe\":\"%s\",\"pid\":%d,\"version\":\"" + tag +
         "\"}\\n' \"$(readlink -f \"$0\")\" $$ > \"$ATOMS_TEST_STATE/update.health\"\n";
}

void flipByte(const std::string& path, std::size_t offset) {
  std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
  BOOST_REQUIRE(f.is_open());
  f.seekg(static_cast<std::streamoff>(offset));
  char c = 0;
  BOOST_REQUIRE(f.get(c));
  f.seekp(static_cast<std::streamoff>(offset));
  f.put(static_cast<char>(c ^ 0x01));
  BOOST_REQUIRE(f.good());
}

}  // namespace atoms::test
