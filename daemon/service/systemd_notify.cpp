#include "daemon/service/systemd_notify.h"

#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

namespace atoms {

namespace {

std::optional<std::string> environment(const char* name) {
  const char* value = std::getenv(name);
  if (value == nullptr || *value == '\0') return std::nullopt;
  return std::string(value);
}

std::optional<unsigned long long> number(const std::optional<std::string>& text) {
  if (!text) return std::nullopt;
  char* end = nullptr;
  errno = 0;
  const unsigned long long n = std::strtoull(text->c_str(), &end, 10);
  if (errno != 0 || end == text->c_str() || *end != '\0') return std::nullopt;
  return n;
}

}  // namespace

SystemdNotify SystemdNotify::fromEnvironment() {
  SystemdNotify n;
  n.socket_ = environment("NOTIFY_SOCKET").value_or("");
  const auto pid = number(environment("WATCHDOG_PID"));
  const auto usec = number(environment("WATCHDOG_USEC"));
  if (usec && *usec > 0 && (!pid || *pid == static_cast<unsigned long long>(::getpid()))) {
    n.watchdog_ = std::chrono::microseconds(*usec);
  }
  return n;
}

Status SystemdNotify::send(std::string_view message) const {
  if (socket_.empty()) return Status::success();
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  if (socket_.size() >= sizeof(address.sun_path) || (socket_[0] != '/' && socket_[0] != '@')) {
    return makeError("NOTIFY_SOCKET is not a socket path: " + socket_);
  }
  std::memcpy(address.sun_path, socket_.data(), socket_.size());
  if (address.sun_path[0] == '@') address.sun_path[0] = '\0';  // the abstract namespace
  const auto length = static_cast<socklen_t>(offsetof(sockaddr_un, sun_path) + socket_.size() +
                                             (socket_[0] == '@' ? 0 : 1));
  const int fd = ::socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return makeError(std::string("cannot open a socket for systemd: ") + strerror(errno));
  const ssize_t sent = ::sendto(fd, message.data(), message.size(), MSG_NOSIGNAL,
                                reinterpret_cast<const sockaddr*>(&address), length);
  const int error = errno;
  ::close(fd);
  if (sent < 0 || static_cast<std::size_t>(sent) != message.size()) {
    return makeError("cannot tell systemd " + std::string(message.substr(0, message.find('\n'))) +
                     ": " + strerror(error));
  }
  return Status::success();
}

}  // namespace atoms
