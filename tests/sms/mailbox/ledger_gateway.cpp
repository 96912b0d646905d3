#include "tests/sms/mailbox/ledger_gateway.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "base/file_io.h"

namespace atoms::sms::mailbox::testing {

LedgerGateway::LedgerGateway(std::string path, unsigned seed, int faultPercent)
    : path_(std::move(path)), rng_(seed), faultPercent_(faultPercent) {
  fd_ = ::open(path_.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
}

LedgerGateway::~LedgerGateway() {
  if (fd_ >= 0) ::close(fd_);
}

drivers::SendResult LedgerGateway::send(const drivers::OutboundSms& message) {
  if (fd_ < 0) return drivers::SendError{true, "ledger not open", false};
  const int roll = static_cast<int>(rng_() % 100);
  if (roll < faultPercent_) return drivers::SendError{true, "simulated 503", false};
  char id[20];
  std::snprintf(id, sizeof id, "%08x", static_cast<unsigned>(rng_()));
  const std::string providerId = "L" + std::string(id);
  // Starts with a newline so a line cut short by an earlier kill never runs into this one.
  const std::string line = "\nA " + message.idempotencyKey + " " + providerId + " END\n";
  const ssize_t n = ::write(fd_, line.data(), line.size());
  if (n != static_cast<ssize_t>(line.size())) {
    return drivers::SendError{true, "ledger write failed: " + errnoText(errno), true};
  }
  if (roll < 2 * faultPercent_) {
    return drivers::SendError{true, "answer lost (simulated)", true};
  }
  return drivers::SendAccepted{providerId, 1};
}

drivers::ReconcileResult LedgerGateway::reconcile(const drivers::OutboundSms& message,
                                                  drivers::SmsClock::time_point /*since*/) {
  auto lines = read(path_);
  if (!lines) return {drivers::ReconcileResult::Kind::kUnavailable, ""};
  for (const LedgerLine& l : *lines) {
    if (l.key == message.idempotencyKey) {
      return {drivers::ReconcileResult::Kind::kAccepted, l.providerId};
    }
  }
  return {drivers::ReconcileResult::Kind::kNotFound, ""};
}

Result<std::vector<LedgerLine>> LedgerGateway::read(const std::string& path) {
  std::vector<LedgerLine> lines;
  if (::access(path.c_str(), F_OK) != 0) return lines;  // nothing accepted yet
  std::ifstream in(path, std::ios::binary);
  if (!in) return makeError("cannot read ledger " + path);
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream fields(line);
    std::string a, key, id, end, extra;
    if (fields >> a >> key >> id >> end && !(fields >> extra) && a == "A" && end == "END") {
      lines.push_back({key, id});
    }
  }
  return lines;
}

}  // namespace atoms::sms::mailbox::testing
