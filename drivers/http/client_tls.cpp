#include "drivers/http/client_tls.h"

namespace atoms::drivers {

Poco::Net::Context::Ptr clientTlsContext() {
  Poco::Net::Context::Ptr context = new Poco::Net::Context(
      Poco::Net::Context::TLS_CLIENT_USE, "", Poco::Net::Context::VERIFY_STRICT, 9, true,
      "HIGH:!aNULL:!eNULL:!MD5:!RC4:!3DES");
  context->disableProtocols(Poco::Net::Context::PROTO_SSLV2 | Poco::Net::Context::PROTO_SSLV3 |
                            Poco::Net::Context::PROTO_TLSV1 | Poco::Net::Context::PROTO_TLSV1_1);
  return context;
}

}  // namespace atoms::drivers
