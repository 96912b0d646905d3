// FaultFileSystem: a FileSystem for tests (base/file_system.h) over the real POSIX one that can
//  - fail the nth call of a chosen operation with a chosen errno (ENOSPC, EIO, ...), once, or from
//    then on for every call (the disk is gone: what a power cut looks like from inside);
//  - simulate a power cut: powerCut() puts every path it has seen back to what a crash could have
//    left, file contents as of their last sync() and names as of their directory's last
//    syncDirectory(). Modelled on leveldb's FaultInjectionTestEnv.
// A failing append() writes the first half of its data before it fails (a disk filling up
// mid-write); a failing close() still releases the file. How to write a test with it:
// docs/testing-faults.md.
//
// The model: a path is tracked from the first call that touches it, and what the disk held then
// counts as durable. A created file starts empty; O_TRUNC keeps the file (its synced content stays
// until the next sync). rename, remove, makeDirectory and removeDirectory change names, which
// become durable when their directory is synced. Directories are never renamed here.
//
// Threading: thread-safe; one mutex serialises every call, the real I/O included, so the model
// sees the calls in the order the disk did (test code: no contention worth avoiding).
#pragma once

#include <cerrno>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>

#include "base/file_system.h"

namespace atoms::testing {

enum class FsOp {
  kAny,  // in an FsFault: every operation below counts
  kCreate,
  kOpenForRead,
  kInfo,
  kRead,
  kAppend,
  kSetMode,
  kSync,
  kClose,
  kStat,
  kRename,
  kRemove,
  kMakeDirectory,
  kRemoveDirectory,
  kSyncDirectory,
};
std::string_view fsOpName(FsOp op);

struct FsFault {
  FsOp op = FsOp::kAny;   // which calls count
  std::uint64_t nth = 1;  // the one that fails, 1-based, counted from arm()
  int error = EIO;        // its errno
  bool persist = false;   // from the nth on, every call of any operation fails with `error`
};

class FaultFileSystem final : public FileSystem {
 public:
  FaultFileSystem() = default;
  FaultFileSystem(const FaultFileSystem&) = delete;
  FaultFileSystem& operator=(const FaultFileSystem&) = delete;

  // Arms `fault` (replacing any other) and starts counting calls from zero.
  void arm(const FsFault& fault);
  // No more faults: calls go through again (a disk that was gone is back). Counting goes on.
  void disarm();
  // Whether the armed fault has failed a call since arm().
  bool fired() const;
  // Calls of `op` (kAny: of every operation) since arm(), or since construction.
  std::uint64_t calls(FsOp op) const;

  // The power cut (see the header comment). Afterwards the disk is healthy (disarmed), everything
  // on it counts as durable, and files opened before fail every call with EIO. Errors: the real
  // file system refused to put a path back.
  Status powerCut();

  Result<std::unique_ptr<WritableFile>> createFile(const std::string& path, CreateMode how,
                                                   unsigned mode) override;
  Result<std::unique_ptr<ReadableFile>> openForRead(const std::string& path) override;
  // Straight to the real file system: a lock is no write, and a power cut releases it anyway.
  Result<std::unique_ptr<FileLock>> lockFile(const std::string& path) override {
    return real_.lockFile(path);
  }
  bool exists(const std::string& path) override;
  Result<FileInfo> stat(const std::string& path) override;
  Status rename(const std::string& from, const std::string& to) override;
  Status remove(const std::string& path) override;
  Status makeDirectory(const std::string& path, unsigned mode) override;
  Status removeDirectory(const std::string& path) override;
  Status syncDirectory(const std::string& dir) override;

 private:
  class Writable;
  class Readable;

  // What a name refers to: a directory, or a file with what it holds now and what it held at its
  // last sync (what a power cut leaves of it).
  struct Node {
    bool directory = false;
    std::string current;
    std::string synced;
    unsigned mode = 0600;
  };
  using NodePtr = std::shared_ptr<Node>;
  struct Name {
    NodePtr live;     // null: nothing there now
    NodePtr durable;  // null: nothing there after a power cut
  };

  // Counts the call and says whether it fails. Requires mutex_.
  Status gate(FsOp op);
  // The tracked name of `path` (tracking it from now on). Requires mutex_.
  Name& track(const std::string& path);

  mutable std::mutex mutex_;
  FileSystem& real_ = posixFileSystem();
  std::map<std::string, Name> names_;  // by normalised path; a parent sorts before its children
  std::uint64_t epoch_ = 0;            // power cuts so far: files of an older epoch are dead
  std::map<FsOp, std::uint64_t> calls_;
  std::uint64_t matching_ = 0;  // calls that count for fault_
  FsFault fault_;
  bool armed_ = false;
  bool fired_ = false;
  bool dead_ = false;  // a persistent fault fired: everything fails
};

}  // namespace atoms::testing
