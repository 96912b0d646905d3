#include "daemon/service/process.h"

#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>

#include <cerrno>
#include <cstring>
#include <string>

namespace atoms {

Status disableCoreDumps() {
  struct rlimit none {};
  if (::setrlimit(RLIMIT_CORE, &none) != 0) {
    return makeError(std::string("cannot turn core dumps off (setrlimit): ") +
                     std::strerror(errno));
  }
  if (::prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) != 0) {
    return makeError(std::string("cannot turn core dumps off (prctl): ") + std::strerror(errno));
  }
  return Status::success();
}

Status prepareServiceSignals() {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGINT);
  sigaddset(&set, SIGTERM);
  sigaddset(&set, SIGQUIT);
  int rc = ::pthread_sigmask(SIG_BLOCK, &set, nullptr);
  if (rc != 0) {
    return makeError(std::string("cannot block termination signals: ") + std::strerror(rc));
  }
  if (::signal(SIGPIPE, SIG_IGN) == SIG_ERR) {
    return makeError(std::string("cannot ignore SIGPIPE: ") + std::strerror(errno));
  }
  return Status::success();
}

}  // namespace atoms
