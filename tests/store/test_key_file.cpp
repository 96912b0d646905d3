#include <sodium.h>
#include <sys/stat.h>
#include <unistd.h>

#include <boost/test/unit_test.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "base/bytes.h"
#include "base/file_io.h"
#include "store/key_file.h"
#include "tests/support/file_contents.h"
#include "tests/support/temp_dir.h"
#include "tests/support/text_checks.h"

using namespace atoms;
namespace fs = std::filesystem;

namespace {

using atoms::testing::TempDir;

using atoms::testing::readAll;
// Writes a file as an operator or a bad copy might, then sets its mode.
void writeRaw(const std::string& path, const std::string& data, mode_t mode = 0600) {
  {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << data;
  }
  BOOST_REQUIRE(::chmod(path.c_str(), mode) == 0);
}

using atoms::testing::contains;

Bytes plain(const SecretBytes& s) { return Bytes(s.view().begin(), s.view().end()); }

SecretBytes randomBytes(std::size_t n) {
  BOOST_REQUIRE(initSodium());
  SecretBytes k(n);
  randombytes_buf(k.data(), k.size());
  return k;
}

SecretBytes ed25519Secret() {
  BOOST_REQUIRE(initSodium());
  SecretBytes sk(crypto_sign_SECRETKEYBYTES);
  std::uint8_t pk[crypto_sign_PUBLICKEYBYTES];
  BOOST_REQUIRE(crypto_sign_keypair(pk, sk.data()) == 0);
  return sk;
}

std::string dbKeyText(const SecretBytes& key) {
  return "atoms-edge-key v1 database\n" + toHex(key.view()) + "\n";
}

std::string readError(const std::string& path, KeyKind kind) {
  auto r = readKeyFile(path, kind);
  BOOST_REQUIRE(!r.ok());
  return r.message();
}

}  // namespace

BOOST_AUTO_TEST_SUITE(key_file)

BOOST_AUTO_TEST_CASE(databaseKeyRoundTripsInTheDocumentedFormat) {
  TempDir dir;
  const auto path = dir.file("db.key");
  const SecretBytes key = randomBytes(32);
  auto s = writeKeyFile(path, KeyKind::Database, key);
  BOOST_REQUIRE_MESSAGE(s.ok(), s.message());
  BOOST_TEST(readAll(path) == dbKeyText(key));
  struct stat st {};
  BOOST_REQUIRE(::stat(path.c_str(), &st) == 0);
  BOOST_TEST((st.st_mode & 07777) == 0600u);
  auto back = readKeyFile(path, KeyKind::Database);
  BOOST_REQUIRE_MESSAGE(back.ok(), (back.ok() ? "" : back.message()));
  BOOST_TEST(plain(*back) == plain(key));
}

BOOST_AUTO_TEST_CASE(siteSigningKeyRoundTrips) {
  TempDir dir;
  const auto path = dir.file("site.key");
  const SecretBytes sk = ed25519Secret();
  BOOST_REQUIRE(writeKeyFile(path, KeyKind::SiteSigning, sk).ok());
  BOOST_TEST(readAll(path).rfind("atoms-edge-key v1 site-ed25519\n", 0) == 0u);
  auto back = readKeyFile(path, KeyKind::SiteSigning);
  BOOST_REQUIRE(back.ok());
  BOOST_TEST(plain(*back) == plain(sk));
}

BOOST_AUTO_TEST_CASE(modeIs0600EvenWithAPermissiveUmask) {
  TempDir dir;
  const auto path = dir.file("db.key");
  const mode_t old = ::umask(0);
  auto s = writeKeyFile(path, KeyKind::Database, randomBytes(32));
  ::umask(old);
  BOOST_REQUIRE(s.ok());
  struct stat st {};
  BOOST_REQUIRE(::stat(path.c_str(), &st) == 0);
  BOOST_TEST((st.st_mode & 07777) == 0600u);
}

BOOST_AUTO_TEST_CASE(writeNeverOverwrites) {
  TempDir dir;
  const auto path = dir.file("db.key");
  const SecretBytes first = randomBytes(32);
  BOOST_REQUIRE(writeKeyFile(path, KeyKind::Database, first).ok());
  const std::string before = readAll(path);
  auto s = writeKeyFile(path, KeyKind::Database, randomBytes(32));
  BOOST_REQUIRE(!s.ok());
  BOOST_TEST(contains(s.message(), "already exists; refusing to overwrite"));
  BOOST_TEST(readAll(path) == before);
}

BOOST_AUTO_TEST_CASE(writeRefusesAKeyOfTheWrongLength) {
  TempDir dir;
  const auto path = dir.file("db.key");
  auto s = writeKeyFile(path, KeyKind::Database, randomBytes(31));
  BOOST_REQUIRE(!s.ok());
  BOOST_TEST(!fs::exists(path));
  BOOST_TEST(!writeKeyFile(path, KeyKind::SiteSigning, randomBytes(32)).ok());
  BOOST_TEST(!fs::exists(path));
}

BOOST_AUTO_TEST_CASE(writeIntoAMissingDirectoryFails) {
  TempDir dir;
  auto s = writeKeyFile(dir.file("nope/db.key"), KeyKind::Database, randomBytes(32));
  BOOST_REQUIRE(!s.ok());
  BOOST_TEST(contains(s.message(), "cannot create key file"));
}

BOOST_AUTO_TEST_CASE(missingFileIsReported) {
  TempDir dir;
  const auto path = dir.file("db.key");
  BOOST_TEST(readError(path, KeyKind::Database) == "key file " + path + " does not exist");
}

BOOST_AUTO_TEST_CASE(groupOrOtherAccessIsRefusedWithAChmodHint) {
  TempDir dir;
  const auto path = dir.file("db.key");
  const SecretBytes key = randomBytes(32);
  writeRaw(path, dbKeyText(key), 0644);
  BOOST_TEST(readError(path, KeyKind::Database) ==
             "key file " + path + " is accessible by group or others (mode 0644); run chmod 600 " +
                 path);
  BOOST_REQUIRE(::chmod(path.c_str(), 0640) == 0);
  BOOST_TEST(contains(readError(path, KeyKind::Database), "(mode 0640)"));
  BOOST_REQUIRE(::chmod(path.c_str(), 0400) == 0);  // read-only for the owner is fine
  BOOST_TEST(readKeyFile(path, KeyKind::Database).ok());
}

BOOST_AUTO_TEST_CASE(unreadableFileIsReported) {
  if (::geteuid() == 0) {
    BOOST_TEST_MESSAGE("skipped: root can read a mode-000 file");
    return;
  }
  TempDir dir;
  const auto path = dir.file("db.key");
  writeRaw(path, dbKeyText(randomBytes(32)), 0000);
  BOOST_TEST(contains(readError(path, KeyKind::Database), "cannot read key file"));
}

BOOST_AUTO_TEST_CASE(directoryIsNotAKeyFile) {
  TempDir dir;
  const auto path = dir.file("db.key");
  BOOST_REQUIRE(::mkdir(path.c_str(), 0700) == 0);
  BOOST_TEST(contains(readError(path, KeyKind::Database), "not a regular file"));
}

BOOST_AUTO_TEST_CASE(truncatedFilesAreReported) {
  TempDir dir;
  const auto path = dir.file("db.key");
  const std::string full = dbKeyText(randomBytes(32));

  writeRaw(path, "");
  BOOST_TEST(contains(readError(path, KeyKind::Database), "is empty"));

  writeRaw(path, "atoms-edge-key v1 database");
  BOOST_TEST(contains(readError(path, KeyKind::Database), "truncated"));

  writeRaw(path, full.substr(0, full.size() - 11));  // cut inside the hex line
  BOOST_TEST(contains(readError(path, KeyKind::Database), "truncated"));

  writeRaw(path, full.substr(0, full.size() - 2));  // odd number of digits
  BOOST_TEST(contains(readError(path, KeyKind::Database), "truncated"));

  // Only the final newline lost: the key is complete and accepted.
  writeRaw(path, full.substr(0, full.size() - 1));
  BOOST_TEST(readKeyFile(path, KeyKind::Database).ok());
}

BOOST_AUTO_TEST_CASE(wrongKindIsReported) {
  TempDir dir;
  const auto path = dir.file("site.key");
  BOOST_REQUIRE(writeKeyFile(path, KeyKind::Database, randomBytes(32)).ok());
  BOOST_TEST(readError(path, KeyKind::SiteSigning) ==
             "key file " + path + " holds a 'database' key, expected a 'site-ed25519' key");
}

BOOST_AUTO_TEST_CASE(foreignOrFutureFilesAreReported) {
  TempDir dir;
  const auto path = dir.file("db.key");
  writeRaw(path, "-----BEGIN PRIVATE KEY-----\nMC4CAQAwBQYDK2VwBCIEI\n");
  BOOST_TEST(contains(readError(path, KeyKind::Database), "is not an atoms-edge key file"));
  writeRaw(path, "atoms-edge-key v2 database\n" + std::string(64, 'a') + "\n");
  BOOST_TEST(contains(readError(path, KeyKind::Database), "unsupported format version"));
}

BOOST_AUTO_TEST_CASE(badHexIsReported) {
  TempDir dir;
  const auto path = dir.file("db.key");
  const std::string hex = toHex(randomBytes(32).view());

  std::string upper = hex;
  upper[0] = 'A';
  upper[1] = 'B';
  writeRaw(path, "atoms-edge-key v1 database\n" + upper + "\n");
  BOOST_TEST(contains(readError(path, KeyKind::Database), "not lowercase hex"));

  writeRaw(path, "atoms-edge-key v1 database\n" + hex.substr(0, 63) + "g\n");
  BOOST_TEST(contains(readError(path, KeyKind::Database), "not lowercase hex"));

  writeRaw(path, "atoms-edge-key v1 database\n " + hex + "\n");
  BOOST_TEST(contains(readError(path, KeyKind::Database), "not lowercase hex"));
}

BOOST_AUTO_TEST_CASE(trailingDataIsReported) {
  TempDir dir;
  const auto path = dir.file("db.key");
  writeRaw(path, dbKeyText(randomBytes(32)) + "extra\n");
  BOOST_TEST(contains(readError(path, KeyKind::Database), "data after the key line"));
}

BOOST_AUTO_TEST_CASE(tooLongKeyIsReported) {
  TempDir dir;
  const auto path = dir.file("db.key");
  writeRaw(path, "atoms-edge-key v1 database\n" + toHex(randomBytes(33).view()) + "\n");
  BOOST_TEST(contains(readError(path, KeyKind::Database), "holds 33 bytes of key, expected 32"));
}

BOOST_AUTO_TEST_CASE(siteKeyWhosePublicHalfDoesNotMatchItsSeedIsRefused) {
  TempDir dir;
  const auto path = dir.file("site.key");
  SecretBytes sk = ed25519Secret();
  sk.data()[63] ^= 0x01;  // flip one bit of the public half
  writeRaw(path, "atoms-edge-key v1 site-ed25519\n" + toHex(sk.view()) + "\n");
  BOOST_TEST(contains(readError(path, KeyKind::SiteSigning), "does not match its secret seed"));
}

BOOST_AUTO_TEST_CASE(kindNamesAndSizes) {
  BOOST_TEST(keyKindName(KeyKind::Database) == "database");
  BOOST_TEST(keyKindName(KeyKind::SiteSigning) == "site-ed25519");
  BOOST_TEST(keyKindSize(KeyKind::Database) == 32u);
  BOOST_TEST(keyKindSize(KeyKind::SiteSigning) == 64u);
}

// readSecretLine (store/file_io.h): the password and token files of the service and the ingest.
BOOST_AUTO_TEST_CASE(secretLineIsTheFileWithoutItsLineEnd) {
  TempDir dir;
  writeRaw(dir.file("pw"), "s3cret pass\r\n");
  auto pw = atoms::readSecretLine(dir.file("pw"), "sync.password_file");
  BOOST_REQUIRE(pw.ok());
  BOOST_TEST(*pw == "s3cret pass");

  writeRaw(dir.file("empty"), "\n");
  auto empty = atoms::readSecretLine(dir.file("empty"), "sync.password_file");
  BOOST_TEST(empty.message() == "sync.password_file " + dir.file("empty") + " is empty");
  auto missing = atoms::readSecretLine(dir.file("absent"), "--password-file");
  BOOST_TEST(missing.message() == "--password-file " + dir.file("absent") + " cannot be read");
}

BOOST_AUTO_TEST_SUITE_END()
