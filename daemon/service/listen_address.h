// Where a service's HTTP endpoint listens (terminal.listen, api.listen): "127.0.0.1:8470",
// "0.0.0.0:8470", "[::1]:8470", "box.local:8470"; port 0 lets the system pick (tests). With a
// `bareHost`, a value that is only a port ("8480") listens on that host. nullopt for anything
// else. Pure; thread-safe.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace atoms {

struct ListenAddress {
  std::string host;
  std::uint16_t port = 0;
};

std::optional<ListenAddress> parseListenAddress(const std::string& value,
                                                const std::string& bareHost = "");

}  // namespace atoms
