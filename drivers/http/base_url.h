// BaseUrl: the parts of a provider's API base URL that an HTTP client connects with ("https://
// connect.squareup.com", "http://127.0.0.1:8123/proxy/"): scheme, host, port (the scheme's
// default when none) and the path prefix without trailing slashes. A URL that does not parse
// gives empty parts (the client then refuses to connect, and the config check names the
// setting). Pure; thread-safe.
#pragma once

#include <cstdint>
#include <string>

namespace atoms::drivers {

struct BaseUrl {
  std::string scheme, host, basePath;
  std::uint16_t port = 0;

  static BaseUrl parse(const std::string& url);
};

}  // namespace atoms::drivers
