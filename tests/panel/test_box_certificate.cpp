// The box's certificate: made for the names given (SANs), an end-entity ECDSA P-256 certificate
// whose printed fingerprint is the SHA-256 of its DER, the key mode 0600; names that are neither a
// host name nor an address refused with nothing written; kept while valid, made again when
// missing or near its end.
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>
#include <sys/stat.h>

#include <algorithm>
#include <boost/test/unit_test.hpp>
#include <chrono>
#include <string>
#include <vector>

#include "base/bytes.h"
#include "base/file_io.h"
#include "daemon/panel/box_certificate.h"
#include "tests/support/temp_dir.h"

namespace atoms::test {
namespace {

using panel::BoxCertificatePaths;
using std::chrono::hours;

const auto kNow = std::chrono::system_clock::now();

// The fingerprint computed apart from the code under test: SHA-256 over the base64 of the PEM.
std::string pemFingerprint(const std::string& pem) {
  const std::string begin = "-----BEGIN CERTIFICATE-----";
  const std::size_t from = pem.find(begin) + begin.size();
  std::string b64;
  for (std::size_t i = from; i < pem.find("-----END CERTIFICATE-----"); ++i) {
    if (pem[i] != '\n' && pem[i] != '\r') b64 += pem[i];
  }
  const auto der = fromBase64(b64);
  BOOST_REQUIRE(der.has_value());
  const Hash32 h = sha256(*der);
  return panel::colonHex(std::vector<unsigned char>(h.begin(), h.end()));
}

BOOST_AUTO_TEST_SUITE(box_certificate)

BOOST_AUTO_TEST_CASE(certificateNamesEveryNameAndItsFingerprintIsTheSha256OfItsDer) {
  testing::TempDir dir;
  const auto paths = BoxCertificatePaths::under(dir.path());
  const std::vector<std::string> names = {"box.lan", "localhost", "127.0.0.1", "::1",
                                          "192.168.1.20"};
  Status made = panel::createBoxCertificate(paths, names, kNow);
  BOOST_REQUIRE_MESSAGE(made, made.message());
  auto info = panel::readCertificate(paths.cert);
  BOOST_REQUIRE_MESSAGE(info, info.message());
  BOOST_TEST(info->names == names, boost::test_tools::per_element());
  auto pem = readFileToString(paths.cert);
  BOOST_REQUIRE(pem);
  BOOST_TEST(info->fingerprint == pemFingerprint(*pem));
  BOOST_TEST(info->fingerprint.size() == 32 * 3 - 1);
  BOOST_TEST((info->notAfter > kNow + hours(24 * (panel::kBoxCertificateDays - 1))));
  BOOST_TEST((info->notAfter <= kNow + hours(24 * panel::kBoxCertificateDays) + hours(1)));
  auto key = readFileToString(paths.key);
  BOOST_REQUIRE(key);
  BOOST_TEST(key->find("-----BEGIN PRIVATE KEY-----") == 0u);
  struct stat st {};
  BOOST_REQUIRE(::stat(paths.key.c_str(), &st) == 0);
  BOOST_TEST((st.st_mode & 07777) == 0600u);
}

// OpenSSL's own host and address matching (what a TLS client runs) agrees with the names.
BOOST_AUTO_TEST_CASE(tlsClientsMatchTheNamesItWasMadeForAndNoOthers) {
  testing::TempDir dir;
  const auto paths = BoxCertificatePaths::under(dir.path());
  BOOST_REQUIRE(panel::createBoxCertificate(paths, {"box.lan", "127.0.0.1", "fd00::20"}, kNow));
  auto pem = readFileToString(paths.cert);
  BOOST_REQUIRE(pem);
  BIO* bio = BIO_new_mem_buf(pem->data(), static_cast<int>(pem->size()));
  X509* cert = PEM_read_bio_X509(bio, nullptr, nullptr, nullptr);
  BIO_free(bio);
  BOOST_REQUIRE(cert != nullptr);
  BOOST_TEST(X509_check_host(cert, "box.lan", 0, 0, nullptr) == 1);
  BOOST_TEST(X509_check_host(cert, "other.lan", 0, 0, nullptr) != 1);
  BOOST_TEST(X509_check_host(cert, "atoms-edge box.lan", 0, 0, nullptr) != 1);
  BOOST_TEST(X509_check_ip_asc(cert, "127.0.0.1", 0) == 1);
  BOOST_TEST(X509_check_ip_asc(cert, "fd00::20", 0) == 1);
  BOOST_TEST(X509_check_ip_asc(cert, "192.168.1.20", 0) != 1);
  BOOST_TEST(X509_check_purpose(cert, X509_PURPOSE_SSL_SERVER, 0) == 1);
  BOOST_TEST(X509_check_ca(cert) == 0);  // an end entity: Firefox refuses a CA as a server
  EVP_PKEY* key = X509_get0_pubkey(cert);
  BOOST_TEST(EVP_PKEY_is_a(key, "EC") == 1);
  BOOST_TEST(EVP_PKEY_get_bits(key) == 256);
  X509_free(cert);
}

BOOST_AUTO_TEST_CASE(defaultNamesHoldLoopbackAndTheExtraNamesOnce) {
  const auto names = panel::boxCertificateNames({"box.lan", "localhost", "10.0.0.5"});
  for (const char* n : {"localhost", "127.0.0.1", "::1", "box.lan", "10.0.0.5"}) {
    BOOST_TEST(std::count(names.begin(), names.end(), n) == 1, n);
  }
}

BOOST_AUTO_TEST_CASE(nameThatIsNeitherHostNorAddressIsRefusedAndWritesNothing) {
  testing::TempDir dir;
  const auto paths = BoxCertificatePaths::under(dir.path());
  for (const std::string bad : {"box lan", "-", "-box.lan", "box-.lan", "a..b", ".box",
                                "box.lan,evil", "x/y", "box.lan\nDNS:evil", ""}) {
    Status made = panel::createBoxCertificate(paths, {"localhost", bad}, kNow);
    BOOST_TEST(!made, bad);
    BOOST_TEST((made.kind() == ErrorKind::kInvalid));
  }
  BOOST_TEST(!panel::createBoxCertificate(paths, {}, kNow));
  BOOST_TEST(!posixFileSystem().exists(paths.cert));
  BOOST_TEST(!posixFileSystem().exists(paths.key));
}

BOOST_AUTO_TEST_CASE(readingAMissingOrForeignFileSaysWhich) {
  testing::TempDir dir;
  auto missing = panel::readCertificate(dir.file("none.crt"));
  BOOST_TEST(!missing);
  BOOST_TEST((missing.error().kind == ErrorKind::kNotFound));
  BOOST_TEST(missing.message().find(dir.file("none.crt")) != std::string::npos);
  auto foreign = panel::readCertificate(dir.write("x.crt", "not a certificate\n"));
  BOOST_TEST(!foreign);
  BOOST_TEST((foreign.error().kind == ErrorKind::kInvalid));
  BOOST_TEST(foreign.message().find(dir.file("x.crt")) != std::string::npos);
}

BOOST_AUTO_TEST_CASE(ensureKeepsAValidCertificateAndRemakesAMissingOrEndingOne) {
  testing::TempDir dir;
  const auto paths = BoxCertificatePaths::under(dir.path());
  auto first = panel::ensureBoxCertificate(paths, {"localhost"}, kNow);
  BOOST_REQUIRE_MESSAGE(first, first.message());
  BOOST_TEST(!first->made.empty());

  auto kept = panel::ensureBoxCertificate(paths, {"localhost"}, kNow + hours(24 * 100));
  BOOST_REQUIRE(kept);
  BOOST_TEST(kept->made.empty());
  BOOST_TEST(kept->info.fingerprint == first->info.fingerprint);

  // Within the renewal window of its end: a new one.
  const auto late =
      kNow + hours(24 * (panel::kBoxCertificateDays - panel::kBoxCertificateRenewDays + 1));
  auto renewed = panel::ensureBoxCertificate(paths, {"localhost"}, late);
  BOOST_REQUIRE(renewed);
  BOOST_TEST(!renewed->made.empty());
  BOOST_TEST(renewed->info.fingerprint != first->info.fingerprint);

  BOOST_REQUIRE(posixFileSystem().remove(paths.key));
  auto rekeyed = panel::ensureBoxCertificate(paths, {"localhost"}, late);
  BOOST_REQUIRE(rekeyed);
  BOOST_TEST(rekeyed->made.find("no key") != std::string::npos);
  BOOST_TEST(rekeyed->info.fingerprint != renewed->info.fingerprint);
}

BOOST_AUTO_TEST_CASE(ensureRefusesToReplaceAFileThatIsNoCertificate) {
  testing::TempDir dir;
  const auto paths = BoxCertificatePaths::under(dir.path());
  dir.write("panel.crt", "somebody's notes\n");
  dir.write("panel.key", "x\n");
  BOOST_TEST(!panel::ensureBoxCertificate(paths, {"localhost"}, kNow));
  BOOST_TEST(*readFileToString(paths.cert) == "somebody's notes\n");
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace
}  // namespace atoms::test
