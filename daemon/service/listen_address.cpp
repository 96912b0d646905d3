#include "daemon/service/listen_address.h"

#include <charconv>

namespace atoms {
namespace {

std::optional<std::uint16_t> parsePort(const std::string& text) {
  unsigned n = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size() || n > 65535) {
    return std::nullopt;
  }
  return static_cast<std::uint16_t>(n);
}

}  // namespace

std::optional<ListenAddress> parseListenAddress(const std::string& value,
                                                const std::string& bareHost) {
  if (!bareHost.empty() && value.find(':') == std::string::npos) {
    const std::optional<std::uint16_t> port = parsePort(value);
    if (!port) return std::nullopt;
    return ListenAddress{bareHost, *port};
  }
  const std::size_t colon = value.rfind(':');
  if (colon == std::string::npos || colon == 0 || colon + 1 == value.size()) return std::nullopt;
  std::string host = value.substr(0, colon);
  if (host.front() == '[') {
    if (host.size() < 3 || host.back() != ']') return std::nullopt;
    host = host.substr(1, host.size() - 2);
  } else if (host.find(':') != std::string::npos) {
    return std::nullopt;  // an IPv6 address needs brackets
  }
  for (char c : host) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                    c == '.' || c == '-' || c == ':';
    if (!ok) return std::nullopt;
  }
  const std::optional<std::uint16_t> port = parsePort(value.substr(colon + 1));
  if (!port) return std::nullopt;
  return ListenAddress{host, *port};
}

}  // namespace atoms
