#include "base/file_io.h"

#include <unistd.h>

#include <cerrno>
#include <cstdint>
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

Status fsyncDirectory(const std::string& dir, FileSystem& fs) {
  if (Status s = fs.syncDirectory(dir); !s) {
    return makeError("cannot fsync directory " + dir + ": " + s.message());
  }
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

Result<std::string> readFileToString(const std::string& path, FileSystem& fs) {
  auto file = fs.openForRead(path);
  if (!file) return makeError("cannot read " + path + ": " + file.message(), file.kind());
  std::string content;
  std::uint8_t buffer[8192];
  for (;;) {
    auto n = (*file)->read(buffer);
    if (!n) return makeError("cannot read " + path + ": " + n.message(), n.kind());
    if (*n == 0) return content;
    content.append(reinterpret_cast<const char*>(buffer), *n);
  }
}

Status replaceFileDurably(const std::string& path, std::string_view data, FileSystem& fs) {
  const std::string tmp = path + ".tmp";
  auto file = fs.createFile(tmp, CreateMode::kTruncate, 0600);
  if (!file) return makeError("cannot create " + tmp + ": " + file.message());
  Status s = (*file)->append(data);
  if (!s) s = makeError("cannot write " + tmp + ": " + s.message());
  if (s) {
    if (Status synced = (*file)->sync(); !synced) {
      s = makeError("cannot fsync " + tmp + ": " + synced.message());
    }
  }
  if (Status closed = (*file)->close(); !closed && s) {
    s = makeError("cannot close " + tmp + ": " + closed.message());
  }
  if (s) {
    if (Status renamed = fs.rename(tmp, path); !renamed) {
      s = makeError("cannot rename " + tmp + " to " + path + ": " + renamed.message());
    }
  }
  if (!s) {
    (void)fs.remove(tmp);
    return s;
  }
  return fsyncDirectory(directoryOf(path), fs);
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
