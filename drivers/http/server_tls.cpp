#include "drivers/http/server_tls.h"

#include <Poco/Exception.h>
#include <openssl/ssl.h>

#include "base/file_io.h"

namespace atoms::drivers {
namespace {

// Mozilla's "intermediate" TLS 1.2 suites: forward secrecy and AEAD only. TLS 1.3 keeps
// OpenSSL's own list (all three of its suites are fine).
constexpr char kTls12Ciphers[] =
    "ECDHE-ECDSA-AES128-GCM-SHA256:ECDHE-RSA-AES128-GCM-SHA256:ECDHE-ECDSA-AES256-GCM-SHA384:"
    "ECDHE-RSA-AES256-GCM-SHA384:ECDHE-ECDSA-CHACHA20-POLY1305:ECDHE-RSA-CHACHA20-POLY1305";

}  // namespace

Result<Poco::Net::Context::Ptr> serverTlsContext(const ServerTlsFiles& o) {
  // Read both files first, so that a missing or unreadable one is named by its key rather than
  // by whatever OpenSSL makes of it.
  for (const auto& [key, path] : {std::pair{&o.certKey, &o.certFile}, {&o.keyKey, &o.keyFile}}) {
    if (path->empty()) return makeError(*key + " is not set", ErrorKind::kInvalid);
    if (auto text = readFileToString(*path); !text) {
      return makeError(*key + ": " + text.message(), text.error().kind);
    }
  }
  try {
    Poco::Net::Context::Params params;
    params.certificateFile = o.certFile;
    params.privateKeyFile = o.keyFile;
    params.verificationMode = Poco::Net::Context::VERIFY_NONE;
    params.loadDefaultCAs = false;
    params.cipherList = kTls12Ciphers;
    params.ecdhCurve = "prime256v1";
    Poco::Net::Context::Ptr context =
        new Poco::Net::Context(Poco::Net::Context::TLS_SERVER_USE, params);
    context->requireMinimumProtocol(Poco::Net::Context::PROTO_TLSV1_2);
    context->preferServerCiphers();
    // OpenSSL drops a key that does not match the certificate loaded after it without a word.
    if (SSL_CTX_check_private_key(context->sslContext()) != 1) {
      return makeError(
          o.keyKey + " " + o.keyFile + " is not the key of " + o.certKey + " " + o.certFile,
          ErrorKind::kInvalid);
    }
    return context;
  } catch (const Poco::Exception& e) {
    return makeError(o.certKey + " " + o.certFile + " / " + o.keyKey + " " + o.keyFile +
                         " cannot be used for TLS: " + e.displayText(),
                     ErrorKind::kInvalid);
  }
}

}  // namespace atoms::drivers
