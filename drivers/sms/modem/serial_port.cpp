#include "drivers/sms/modem/serial_port.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/file.h>
#include <termios.h>
#include <unistd.h>

#include <cerrno>
#include <optional>
#include <utility>

#include "base/file_io.h"

namespace atoms::drivers::modem {

namespace {

struct BaudRate {
  int baud;
  speed_t speed;
};

constexpr BaudRate kRates[] = {
    {1200, B1200},     {2400, B2400},     {4800, B4800},     {9600, B9600},
    {19200, B19200},   {38400, B38400},   {57600, B57600},   {115200, B115200},
    {230400, B230400}, {460800, B460800}, {921600, B921600},
};

std::optional<speed_t> speedOf(int baud) {
  for (const BaudRate& r : kRates) {
    if (r.baud == baud) return r.speed;
  }
  return std::nullopt;
}

Error failure(const std::string& device, const std::string& what, int err) {
  return makeError("serial port " + device + ": " + what + ": " + errnoText(err));
}

using Clock = std::chrono::steady_clock;

int remainingMs(Clock::time_point deadline) {
  const auto left = std::chrono::ceil<std::chrono::milliseconds>(deadline - Clock::now()).count();
  return left < 0 ? 0 : static_cast<int>(left);
}

}  // namespace

bool isSupportedBaud(int baud) { return speedOf(baud).has_value(); }

Result<std::unique_ptr<SerialPort>> SerialPort::open(const SerialSettings& settings) {
  const std::string& dev = settings.device;
  if (dev.empty()) return makeError("serial port: no device configured");
  const auto speed = speedOf(settings.baud);
  if (!speed) {
    return makeError("serial port " + dev + ": baud rate " + std::to_string(settings.baud) +
                     " is not one termios supports (1200..921600)");
  }
  const int fd = ::open(dev.c_str(), O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) return failure(dev, "cannot open", errno);
  const auto closeWith = [&](Error e) {
    ::close(fd);
    return e;
  };
  if (::isatty(fd) == 0) return closeWith(makeError("serial port " + dev + ": not a tty"));
  if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    return closeWith(errno == EWOULDBLOCK
                         ? makeError("serial port " + dev +
                                     ": in use by another process (is ModemManager running?)")
                         : failure(dev, "cannot lock", errno));
  }

  termios tio{};
  if (::tcgetattr(fd, &tio) != 0) return closeWith(failure(dev, "tcgetattr", errno));
  ::cfmakeraw(&tio);
  tio.c_cflag |= CLOCAL | CREAD;
  tio.c_cflag &= ~static_cast<tcflag_t>(CSTOPB | PARENB);
  if (settings.hardwareFlowControl) {
    tio.c_cflag |= CRTSCTS;
  } else {
    tio.c_cflag &= ~static_cast<tcflag_t>(CRTSCTS);
  }
  tio.c_cc[VMIN] = 0;
  tio.c_cc[VTIME] = 0;
  if (::cfsetispeed(&tio, *speed) != 0 || ::cfsetospeed(&tio, *speed) != 0)
    return closeWith(failure(dev, "cannot set the baud rate", errno));
  if (::tcsetattr(fd, TCSANOW, &tio) != 0) return closeWith(failure(dev, "tcsetattr", errno));
  (void)::tcflush(fd, TCIOFLUSH);
  return std::unique_ptr<SerialPort>(new SerialPort(dev, fd));
}

SerialPort::SerialPort(std::string device, int fd) : device_(std::move(device)), fd_(fd) {}

SerialPort::~SerialPort() { ::close(fd_); }  // also drops the flock

Result<SerialPort::ReadResult> SerialPort::read(std::span<std::uint8_t> into,
                                                std::chrono::milliseconds timeout, int wakeFd) {
  const auto deadline = Clock::now() + timeout;
  for (;;) {
    pollfd fds[2] = {{fd_, POLLIN, 0}, {wakeFd, POLLIN, 0}};
    const int n = ::poll(fds, wakeFd >= 0 ? 2 : 1, remainingMs(deadline));
    if (n < 0) {
      if (errno == EINTR) continue;
      return failure(device_, "poll", errno);
    }
    if (wakeFd >= 0 && (fds[1].revents & POLLIN)) return ReadResult{ReadOutcome::kWoken, 0};
    if (n == 0) return ReadResult{ReadOutcome::kTimeout, 0};
    if (fds[0].revents & (POLLIN | POLLHUP | POLLERR)) {
      const ssize_t got = ::read(fd_, into.data(), into.size());
      if (got > 0) return ReadResult{ReadOutcome::kData, static_cast<std::size_t>(got)};
      if (got == 0) return makeError("serial port " + device_ + ": hung up");
      if (errno == EAGAIN || errno == EINTR) continue;
      return failure(device_, "read", errno);
    }
    if (fds[0].revents & POLLNVAL) return makeError("serial port " + device_ + ": closed");
  }
}

Status SerialPort::write(std::string_view data, std::chrono::milliseconds timeout) {
  const auto deadline = Clock::now() + timeout;
  while (!data.empty()) {
    const ssize_t n = ::write(fd_, data.data(), data.size());
    if (n > 0) {
      data.remove_prefix(static_cast<std::size_t>(n));
      continue;
    }
    if (n < 0 && errno != EAGAIN && errno != EINTR) return failure(device_, "write", errno);
    if (remainingMs(deadline) == 0)
      return makeError("serial port " + device_ + ": write timed out (flow control?)");
    pollfd pfd{fd_, POLLOUT, 0};
    if (::poll(&pfd, 1, remainingMs(deadline)) < 0 && errno != EINTR)
      return failure(device_, "poll", errno);
    if (pfd.revents & (POLLERR | POLLHUP | POLLNVAL))
      return makeError("serial port " + device_ + ": hung up");
  }
  return Status::success();
}

void SerialPort::flush() { (void)::tcflush(fd_, TCIOFLUSH); }

}  // namespace atoms::drivers::modem
