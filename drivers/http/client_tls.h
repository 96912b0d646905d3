// The TLS context of the box's HTTPS clients (Twilio, Square): the system's CAs, the peer's
// certificate and host name verified, TLS 1.2 or newer, strong suites only. Throws what Poco
// throws when the context cannot be made (callers keep the error and fail their requests).
#pragma once

#include <Poco/Net/Context.h>

namespace atoms::drivers {

Poco::Net::Context::Ptr clientTlsContext();

}  // namespace atoms::drivers
