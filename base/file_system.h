// FileSystem: the operations atoms-edge's own durable files use (key files, the audit high-water
// file, the state directory, atomic replacements), behind one interface so that a test can wrap it
// and inject faults: no space, I/O errors, a power cut that drops what was not fsynced
// (tests/support/fault_file_system.h; docs/testing-faults.md). Modelled on leveldb's Env. The
// SQLite database files do not go through it: SQLite has its own seam for that, the VFS
// (tests/support/fault_vfs.h).
//
// Contract:
// - Errors are values. A failed call returns an Error whose message is the system's own text
//   (strerror, e.g. "No space left on device"), never the path: callers say what they were doing
//   and name the path. Its kind is kNotFound when the path (or a directory on the way) does not
//   exist, kRefused when an exclusive create finds the path taken, kIo for everything else.
// - Threading: a FileSystem is thread-safe. A file object is used by one thread at a time.
// - Ownership: file objects are owned by the caller and must not outlive their FileSystem; one
//   closes itself when destroyed, ignoring errors (call close() to see them).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>

#include "base/result.h"

namespace atoms {

enum class FileType { kRegular, kDirectory, kOther };

struct FileInfo {
  FileType type = FileType::kOther;
  unsigned mode = 0;       // permission bits (07777)
  std::uint64_t size = 0;  // bytes
};

// A file opened for reading, at its start.
class ReadableFile {
 public:
  virtual ~ReadableFile() = default;
  // What fstat(2) says about the opened file (not the path: no race with a rename).
  virtual Result<FileInfo> info() = 0;
  // Reads up to buffer.size() bytes from the current position, retrying on EINTR; 0 at the end.
  virtual Result<std::size_t> read(std::span<std::uint8_t> buffer) = 0;
};

// A file opened for writing.
class WritableFile {
 public:
  virtual ~WritableFile() = default;
  // Writes all of data at the current position (retrying on EINTR and short writes). After an
  // error an unknown prefix of data may have been written.
  virtual Status append(std::string_view data) = 0;
  // fchmod(2): sets the permission bits exactly, whatever the umask took away at creation.
  virtual Status setMode(unsigned mode) = 0;
  // fsync(2): the content written so far survives a power cut (the name needs syncDirectory).
  virtual Status sync() = 0;
  // Closes the file; every later call is an error. Idempotent.
  virtual Status close() = 0;
};

// An exclusive advisory lock (flock(2)) on a file, held until the object is destroyed. It
// serialises the processes (and the threads, each with its own lock object) that update one durable
// file: `serve` and the `export-segments` or `verify` run beside it, for the audit high-water file.
class FileLock {
 public:
  virtual ~FileLock() = default;
};

enum class CreateMode {
  kTruncate,   // O_CREAT | O_TRUNC: creates the file or empties an existing one
  kExclusive,  // O_CREAT | O_EXCL | O_NOFOLLOW: error (kind kRefused) when the path exists
};

class FileSystem {
 public:
  virtual ~FileSystem() = default;

  // Opens path for writing; a created file gets `mode` minus the umask.
  virtual Result<std::unique_ptr<WritableFile>> createFile(const std::string& path, CreateMode how,
                                                           unsigned mode) = 0;
  // Opens an existing path for reading (O_NOCTTY: a terminal named by mistake is not taken over).
  virtual Result<std::unique_ptr<ReadableFile>> openForRead(const std::string& path) = 0;
  // Whether anything (even a dangling symlink) is at path (lstat). A path that cannot be examined
  // counts as absent; this is a question, not a fault point.
  virtual bool exists(const std::string& path) = 0;
  // stat(2), following symlinks.
  virtual Result<FileInfo> stat(const std::string& path) = 0;
  // rename(2): atomically replaces `to`; durable once the directory is synced.
  virtual Status rename(const std::string& from, const std::string& to) = 0;
  // unlink(2).
  virtual Status remove(const std::string& path) = 0;
  // mkdir(2) with `mode` minus the umask; the parent must exist.
  virtual Status makeDirectory(const std::string& path, unsigned mode) = 0;
  // rmdir(2): only an empty directory.
  virtual Status removeDirectory(const std::string& path) = 0;
  // fsync(2) on a directory, so that the entries created, renamed or removed in it survive a
  // power cut.
  virtual Status syncDirectory(const std::string& dir) = 0;
  // Takes the exclusive lock of `path` (created empty, mode 0600, when missing), waiting for
  // whoever holds it. The lock file is never removed: removing it would let two holders lock two
  // different files of the same name.
  virtual Result<std::unique_ptr<FileLock>> lockFile(const std::string& path) = 0;
};

// The Error a FileSystem returns for errno `err` (message and kind as the contract above says).
Error fileSystemError(int err);

// The operating system's file system. Stateless (every call goes straight to POSIX), so one shared
// instance serves every caller, the way leveldb's Env::Default() does; it is the default wherever
// a FileSystem can be passed.
FileSystem& posixFileSystem();

}  // namespace atoms
