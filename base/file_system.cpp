#include "base/file_system.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <utility>

namespace atoms {
namespace {

Status statusOf(int rc) { return rc == 0 ? Status::success() : Status(fileSystemError(errno)); }

FileInfo infoOf(const struct stat& st) {
  FileInfo info;
  if (S_ISREG(st.st_mode)) {
    info.type = FileType::kRegular;
  } else if (S_ISDIR(st.st_mode)) {
    info.type = FileType::kDirectory;
  }
  info.mode = static_cast<unsigned>(st.st_mode & 07777);
  info.size = static_cast<std::uint64_t>(st.st_size);
  return info;
}

Error closedError() { return fileSystemError(EBADF); }

class PosixReadableFile final : public ReadableFile {
 public:
  explicit PosixReadableFile(int fd) : fd_(fd) {}
  ~PosixReadableFile() override { ::close(fd_); }
  PosixReadableFile(const PosixReadableFile&) = delete;
  PosixReadableFile& operator=(const PosixReadableFile&) = delete;

  Result<FileInfo> info() override {
    struct stat st {};
    if (::fstat(fd_, &st) != 0) return fileSystemError(errno);
    return infoOf(st);
  }

  Result<std::size_t> read(std::span<std::uint8_t> buffer) override {
    for (;;) {
      const ssize_t n = ::read(fd_, buffer.data(), buffer.size());
      if (n >= 0) return static_cast<std::size_t>(n);
      if (errno != EINTR) return fileSystemError(errno);
    }
  }

 private:
  int fd_;
};

class PosixWritableFile final : public WritableFile {
 public:
  explicit PosixWritableFile(int fd) : fd_(fd) {}
  ~PosixWritableFile() override {
    if (fd_ >= 0) ::close(fd_);
  }
  PosixWritableFile(const PosixWritableFile&) = delete;
  PosixWritableFile& operator=(const PosixWritableFile&) = delete;

  Status append(std::string_view data) override {
    if (fd_ < 0) return closedError();
    while (!data.empty()) {
      const ssize_t n = ::write(fd_, data.data(), data.size());
      if (n < 0) {
        if (errno == EINTR) continue;
        return fileSystemError(errno);
      }
      data.remove_prefix(static_cast<std::size_t>(n));
    }
    return Status::success();
  }

  Status setMode(unsigned mode) override {
    if (fd_ < 0) return closedError();
    return statusOf(::fchmod(fd_, static_cast<mode_t>(mode)));
  }

  Status sync() override {
    if (fd_ < 0) return closedError();
    return statusOf(::fsync(fd_));
  }

  Status close() override {
    if (fd_ < 0) return Status::success();
    return statusOf(::close(std::exchange(fd_, -1)));
  }

 private:
  int fd_;
};

class PosixFileLock final : public FileLock {
 public:
  explicit PosixFileLock(int fd) : fd_(fd) {}
  ~PosixFileLock() override { ::close(fd_); }  // closing the descriptor releases the lock

 private:
  int fd_;
};

class PosixFileSystem final : public FileSystem {
 public:
  Result<std::unique_ptr<WritableFile>> createFile(const std::string& path, CreateMode how,
                                                   unsigned mode) override {
    const int flags = how == CreateMode::kExclusive ? O_CREAT | O_EXCL | O_NOFOLLOW : O_TRUNC;
    const int fd =
        ::open(path.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC | flags, static_cast<mode_t>(mode));
    if (fd < 0) return fileSystemError(errno);
    return std::unique_ptr<WritableFile>(std::make_unique<PosixWritableFile>(fd));
  }

  Result<std::unique_ptr<ReadableFile>> openForRead(const std::string& path) override {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY);
    if (fd < 0) return fileSystemError(errno);
    return std::unique_ptr<ReadableFile>(std::make_unique<PosixReadableFile>(fd));
  }

  bool exists(const std::string& path) override {
    struct stat st {};
    return ::lstat(path.c_str(), &st) == 0;
  }

  Result<FileInfo> stat(const std::string& path) override {
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) return fileSystemError(errno);
    return infoOf(st);
  }

  Status rename(const std::string& from, const std::string& to) override {
    return statusOf(::rename(from.c_str(), to.c_str()));
  }

  Status remove(const std::string& path) override { return statusOf(::unlink(path.c_str())); }

  Status makeDirectory(const std::string& path, unsigned mode) override {
    return statusOf(::mkdir(path.c_str(), static_cast<mode_t>(mode)));
  }

  Status removeDirectory(const std::string& path) override {
    return statusOf(::rmdir(path.c_str()));
  }

  Status syncDirectory(const std::string& dir) override {
    const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) return fileSystemError(errno);
    const int rc = ::fsync(fd);
    const int err = errno;
    ::close(fd);
    if (rc != 0) return fileSystemError(err);
    return Status::success();
  }

  Result<std::unique_ptr<FileLock>> lockFile(const std::string& path) override {
    const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
    if (fd < 0) return fileSystemError(errno);
    int rc = 0;
    do {
      rc = ::flock(fd, LOCK_EX);
    } while (rc != 0 && errno == EINTR);
    if (rc != 0) {
      const int err = errno;
      ::close(fd);
      return fileSystemError(err);
    }
    return std::unique_ptr<FileLock>(std::make_unique<PosixFileLock>(fd));
  }
};

}  // namespace

Error fileSystemError(int err) {
  ErrorKind kind = ErrorKind::kIo;
  if (err == ENOENT) kind = ErrorKind::kNotFound;
  if (err == EEXIST) kind = ErrorKind::kRefused;
  return makeError(std::strerror(err), kind);
}

FileSystem& posixFileSystem() {
  static PosixFileSystem fs;
  return fs;
}

}  // namespace atoms
