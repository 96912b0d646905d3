#include "base/file_io.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

namespace atoms {

std::string errnoText(int err) { return std::strerror(err); }

std::string directoryOf(const std::string& path) {
  auto slash = path.find_last_of('/');
  if (slash == std::string::npos) return ".";
  if (slash == 0) return "/";
  return path.substr(0, slash);
}

Status fsyncDirectory(const std::string& dir) {
  int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return makeError("cannot open directory " + dir + ": " + errnoText(errno));
  int rc = ::fsync(fd);
  int err = errno;
  ::close(fd);
  if (rc != 0) return makeError("cannot fsync directory " + dir + ": " + errnoText(err));
  return Status::success();
}

Status writeAll(int fd, std::string_view data, const std::string& path) {
  while (!data.empty()) {
    const ssize_t n = ::write(fd, data.data(), data.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      return makeError("cannot write " + path + ": " + errnoText(errno));
    }
    data.remove_prefix(static_cast<std::size_t>(n));
  }
  return Status::success();
}

Status replaceFileDurably(const std::string& path, std::string_view data) {
  const std::string tmp = path + ".tmp";
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (fd < 0) return makeError("cannot create " + tmp + ": " + errnoText(errno));
  Status s = writeAll(fd, data, tmp);
  if (s && ::fsync(fd) != 0) s = makeError("cannot fsync " + tmp + ": " + errnoText(errno));
  if (::close(fd) != 0 && s) s = makeError("cannot close " + tmp + ": " + errnoText(errno));
  if (s && ::rename(tmp.c_str(), path.c_str()) != 0) {
    s = makeError("cannot rename " + tmp + " to " + path + ": " + errnoText(errno));
  }
  if (!s) {
    ::unlink(tmp.c_str());
    return s;
  }
  return fsyncDirectory(directoryOf(path));
}

Result<std::string> readSecretLine(const std::string& path, const std::string& what) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return makeError(what + " " + path + " cannot be read");
  std::ostringstream content;
  content << in.rdbuf();
  std::string line = content.str();
  while (!line.empty() && (line.back() == '\n' || line.back() == '\r')) line.pop_back();
  if (line.empty()) return makeError(what + " " + path + " is empty");
  return line;
}

}  // namespace atoms
