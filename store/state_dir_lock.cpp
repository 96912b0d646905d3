#include "store/state_dir_lock.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>

#include "base/file_io.h"

namespace atoms {

std::string stateLockPath(const std::string& dir) { return dir + "/state.lock"; }

Result<std::unique_ptr<StateDirLock>> StateDirLock::acquire(const std::string& dir) {
  const std::string path = stateLockPath(dir);
  const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
  if (fd < 0) {
    const int err = errno;
    return makeError("cannot open the state directory lock " + path + ": " + errnoText(err),
                     err == ENOENT ? ErrorKind::kNotFound : ErrorKind::kOther);
  }
  int rc = 0;
  do {
    rc = ::flock(fd, LOCK_EX | LOCK_NB);
  } while (rc != 0 && errno == EINTR);
  if (rc != 0) {
    const int err = errno;
    ::close(fd);
    if (err == EWOULDBLOCK) {
      return makeError("state directory " + dir + " is in use (a running atoms-edge serve holds " +
                           path + "); stop it first: systemctl stop atoms-edge",
                       ErrorKind::kRefused);
    }
    return makeError("cannot lock " + path + ": " + errnoText(err));
  }
  return std::unique_ptr<StateDirLock>(new StateDirLock(fd));
}

StateDirLock::~StateDirLock() { ::close(fd_); }

}  // namespace atoms
