#include "drivers/http/base_url.h"

#include <Poco/Exception.h>
#include <Poco/URI.h>

namespace atoms::drivers {

BaseUrl BaseUrl::parse(const std::string& url) {
  BaseUrl out;
  try {
    const Poco::URI uri(url);
    out.scheme = uri.getScheme();
    out.host = uri.getHost();
    out.port = uri.getPort();
    out.basePath = uri.getPath();
  } catch (const Poco::Exception&) {
    return BaseUrl{};
  }
  while (!out.basePath.empty() && out.basePath.back() == '/') out.basePath.pop_back();
  return out;
}

}  // namespace atoms::drivers
