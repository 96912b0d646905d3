#include <Poco/Net/Context.h>
#include <Poco/Net/HTTPRequestHandler.h>
#include <Poco/Net/HTTPRequestHandlerFactory.h>
#include <Poco/Net/HTTPServer.h>
#include <Poco/Net/HTTPServerParams.h>
#include <Poco/Net/HTTPServerRequest.h>
#include <Poco/Net/HTTPServerResponse.h>
#include <Poco/Net/SecureServerSocket.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include <atomic>
#include <boost/test/unit_test.hpp>
#include <cstdio>

#include "drivers/sms/twilio/twilio_gateway.h"
#include "tests/drivers/twilio/twilio_test_support.h"
#include "tests/support/temp_dir.h"

namespace atoms::drivers::twilio {
namespace {

using namespace testing;

// A self-signed certificate for 127.0.0.1 (key and certificate as PEM files in dir): what a
// man-in-the-middle without a CA-issued certificate can present.
void writeSelfSigned(const std::string& keyPath, const std::string& certPath) {
  EVP_PKEY* key = EVP_EC_gen("P-256");
  BOOST_TEST_REQUIRE(key != nullptr);
  X509* cert = X509_new();
  X509_set_version(cert, 2);
  ASN1_INTEGER_set(X509_get_serialNumber(cert), 1);
  X509_gmtime_adj(X509_getm_notBefore(cert), -60);
  X509_gmtime_adj(X509_getm_notAfter(cert), 3600);
  X509_set_pubkey(cert, key);
  X509_NAME* name = X509_get_subject_name(cert);
  X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC,
                             reinterpret_cast<const unsigned char*>("127.0.0.1"), -1, -1, 0);
  X509_set_issuer_name(cert, name);
  X509V3_CTX ctx;
  X509V3_set_ctx_nodb(&ctx);
  X509V3_set_ctx(&ctx, cert, cert, nullptr, nullptr, 0);
  X509_EXTENSION* san = X509V3_EXT_conf_nid(nullptr, &ctx, NID_subject_alt_name, "IP:127.0.0.1");
  X509_add_ext(cert, san, -1);
  X509_EXTENSION_free(san);
  BOOST_TEST_REQUIRE(X509_sign(cert, key, EVP_sha256()) > 0);
  FILE* f = std::fopen(keyPath.c_str(), "w");
  PEM_write_PrivateKey(f, key, nullptr, nullptr, 0, nullptr, nullptr);
  std::fclose(f);
  f = std::fopen(certPath.c_str(), "w");
  PEM_write_X509(f, cert);
  std::fclose(f);
  X509_free(cert);
  EVP_PKEY_free(key);
}

// Answers every request as Twilio would answer a created message, counting them.
class Accepting final : public Poco::Net::HTTPRequestHandler {
 public:
  explicit Accepting(std::atomic<int>& served) : served_(served) {}
  void handleRequest(Poco::Net::HTTPServerRequest&, Poco::Net::HTTPServerResponse& resp) override {
    ++served_;
    resp.setStatus(Poco::Net::HTTPResponse::HTTP_CREATED);
    resp.setContentType("application/json");
    resp.send() << R"({"sid":"SM0123456789abcdef0123456789abcdef","num_segments":"1"})";
  }

 private:
  std::atomic<int>& served_;
};

class Factory final : public Poco::Net::HTTPRequestHandlerFactory {
 public:
  explicit Factory(std::atomic<int>& served) : served_(served) {}
  Poco::Net::HTTPRequestHandler* createRequestHandler(
      const Poco::Net::HTTPServerRequest&) override {
    return new Accepting(served_);
  }

 private:
  std::atomic<int>& served_;
};

}  // namespace

BOOST_AUTO_TEST_SUITE(tls)

BOOST_AUTO_TEST_CASE(refusesAnApiServerWhoseCertificateNoCaSigned) {
  atoms::testing::TempDir dir;
  const std::string keyPath = dir.file("key.pem");
  const std::string certPath = dir.file("cert.pem");
  writeSelfSigned(keyPath, certPath);
  Poco::Net::Context::Ptr serverTls = new Poco::Net::Context(
      Poco::Net::Context::TLS_SERVER_USE, keyPath, certPath, "", Poco::Net::Context::VERIFY_NONE);
  Poco::Net::SecureServerSocket socket(Poco::Net::SocketAddress("127.0.0.1", 0), 16, serverTls);
  const std::uint16_t port = socket.address().port();
  std::atomic<int> served{0};
  Poco::Net::HTTPServer server(new Factory(served), socket, new Poco::Net::HTTPServerParams);
  server.start();

  TwilioGateway gateway(gatewayConfig("https://127.0.0.1:" + std::to_string(port)));
  const SendResult r = gateway.send(OutboundSms{"k", "+15550100101", "hello"});
  server.stopAll(true);
  BOOST_TEST_REQUIRE(!r.ok());
  BOOST_TEST(r.error().retryable);
  BOOST_TEST(!r.error().maybeAccepted);
  BOOST_TEST(r.error().message.starts_with("TLS with Twilio at https://127.0.0.1:"),
             r.error().message);
  BOOST_TEST(served.load() == 0);
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace atoms::drivers::twilio
