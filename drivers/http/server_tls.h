// The TLS context of an HTTPS listener on the box (the panel, the POS push server): a certificate
// and key from PEM files, TLS 1.2 or newer, forward-secret AEAD suites only, no client
// certificates. Errors are one line naming the setting: a file missing or unreadable ("panel.
// cert_file: cannot open ..."), unusable, or a key that is not the certificate's.
#pragma once

#include <Poco/Net/Context.h>

#include <string>

#include "base/result.h"

namespace atoms::drivers {

struct ServerTlsFiles {
  std::string certFile, keyFile;
  std::string certKey = "cert_file", keyKey = "key_file";  // the settings, for errors
};

Result<Poco::Net::Context::Ptr> serverTlsContext(const ServerTlsFiles& files);

}  // namespace atoms::drivers
