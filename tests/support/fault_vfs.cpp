#include "tests/support/fault_vfs.h"

#include <fcntl.h>
#include <sqlite3.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <map>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>

#include "base/file_io.h"

namespace atoms::testing {
namespace {

constexpr const char* kVfsName = "atoms-fault";
constexpr std::size_t kOpCount = 7;

std::size_t index(VfsOp op) { return static_cast<std::size_t>(op); }

// What the writes to one file since its last xSync overwrote, so a power cut can take them back.
struct Undo {
  struct Change {
    sqlite3_int64 offset = 0;
    std::string old;  // the bytes that were there (none past the end of the file)
  };
  sqlite3_int64 syncedSize = 0;  // the file's size at its last sync
  std::vector<Change> changes;   // in the order they were made
};

// Every entry point is a C callback: nothing may be thrown through SQLite.
template <class F>
int guarded(F&& f) noexcept {
  try {
    return f();
  } catch (...) {
    return SQLITE_IOERR_NOMEM;
  }
}

}  // namespace

struct FaultVfs::State {
  sqlite3_vfs vfs{};
  sqlite3_vfs* base = nullptr;

  std::mutex mutex;  // guards everything below
  std::array<std::uint64_t, kOpCount> calls{};
  VfsFault fault;
  std::uint64_t matching = 0;  // calls that count for `fault`
  bool armed = false;
  bool fired = false;
  bool dead = false;                 // a persistent fault fired: every call fails
  std::map<std::string, Undo> undo;  // by file path: writes no xSync made durable yet

  // Counts a call of `op`; returns the code it fails with, SQLITE_OK when it goes through.
  int gate(VfsOp op) {
    std::lock_guard<std::mutex> lock(mutex);
    ++calls[index(op)];
    if (!armed) return SQLITE_OK;
    if (dead) return defaultVfsError(op);
    if (fired) return SQLITE_OK;
    if (!fault.ops.empty() &&
        std::find(fault.ops.begin(), fault.ops.end(), op) == fault.ops.end()) {
      return SQLITE_OK;
    }
    if (++matching != fault.nth) return SQLITE_OK;
    fired = true;
    dead = fault.persist;
    return fault.code != 0 ? fault.code : defaultVfsError(op);
  }
};

namespace {

using State = FaultVfs::State;

// The file SQLite holds: our header, then the wrapped VFS's file.
struct FaultFile {
  sqlite3_file file;  // first, so a sqlite3_file* is a FaultFile*
  State* state;
  sqlite3_file* real;
  std::string* path;  // for the undo of unsynced writes; null for files that need none
};
constexpr int kRealOffset = static_cast<int>((sizeof(FaultFile) + 7) / 8 * 8);

FaultFile* self(sqlite3_file* f) { return reinterpret_cast<FaultFile*>(f); }
sqlite3_file* real(sqlite3_file* f) { return self(f)->real; }
State* stateOf(sqlite3_vfs* vfs) { return static_cast<State*>(vfs->pAppData); }

// Remembers what [offset, offset + amount) of the file holds before a write or truncation changes
// it. Requires state->mutex.
void recordChange(FaultFile* f, sqlite3_int64 offset, sqlite3_int64 amount) {
  if (f->path == nullptr) return;
  sqlite3_int64 size = 0;
  if (f->real->pMethods->xFileSize(f->real, &size) != SQLITE_OK) {
    throw std::runtime_error("cannot size " + *f->path);
  }
  auto [it, fresh] = f->state->undo.try_emplace(*f->path);
  if (fresh) it->second.syncedSize = size;
  Undo::Change change{offset, {}};
  if (offset < size) {
    change.old.resize(static_cast<std::size_t>(std::min(amount, size - offset)));
    const int rc = f->real->pMethods->xRead(f->real, change.old.data(),
                                            static_cast<int>(change.old.size()), offset);
    if (rc != SQLITE_OK) throw std::runtime_error("cannot read back " + *f->path);
  }
  it->second.changes.push_back(std::move(change));
}

// ---- sqlite3_io_methods ----

int xClose(sqlite3_file* f) {
  FaultFile* ff = self(f);
  const int rc = ff->real->pMethods != nullptr ? ff->real->pMethods->xClose(ff->real) : SQLITE_OK;
  delete ff->path;
  ff->path = nullptr;
  return rc;
}

int xRead(sqlite3_file* f, void* buffer, int amount, sqlite3_int64 offset) {
  if (int rc = self(f)->state->gate(VfsOp::kRead); rc != SQLITE_OK) {
    std::memset(buffer, 0, static_cast<std::size_t>(amount));  // as a short read must
    return rc;
  }
  return real(f)->pMethods->xRead(real(f), buffer, amount, offset);
}

int xWrite(sqlite3_file* f, const void* data, int amount, sqlite3_int64 offset) {
  FaultFile* ff = self(f);
  if (int rc = ff->state->gate(VfsOp::kWrite); rc != SQLITE_OK) return rc;
  return guarded([&] {
    std::lock_guard<std::mutex> lock(ff->state->mutex);
    recordChange(ff, offset, amount);
    return ff->real->pMethods->xWrite(ff->real, data, amount, offset);
  });
}

int xTruncate(sqlite3_file* f, sqlite3_int64 size) {
  FaultFile* ff = self(f);
  if (int rc = ff->state->gate(VfsOp::kTruncate); rc != SQLITE_OK) return rc;
  return guarded([&] {
    std::lock_guard<std::mutex> lock(ff->state->mutex);
    recordChange(ff, size, INT64_MAX / 2);
    return ff->real->pMethods->xTruncate(ff->real, size);
  });
}

int xSync(sqlite3_file* f, int flags) {
  FaultFile* ff = self(f);
  if (int rc = ff->state->gate(VfsOp::kSync); rc != SQLITE_OK) return rc;
  const int rc = ff->real->pMethods->xSync(ff->real, flags);
  if (rc == SQLITE_OK && ff->path != nullptr) {
    std::lock_guard<std::mutex> lock(ff->state->mutex);
    ff->state->undo.erase(*ff->path);
  }
  return rc;
}

int xFileSize(sqlite3_file* f, sqlite3_int64* size) {
  return real(f)->pMethods->xFileSize(real(f), size);
}

int xLock(sqlite3_file* f, int level) {
  if (int rc = self(f)->state->gate(VfsOp::kLock); rc != SQLITE_OK) return rc;
  return real(f)->pMethods->xLock(real(f), level);
}

int xUnlock(sqlite3_file* f, int level) { return real(f)->pMethods->xUnlock(real(f), level); }

int xCheckReservedLock(sqlite3_file* f, int* out) {
  return real(f)->pMethods->xCheckReservedLock(real(f), out);
}

int xFileControl(sqlite3_file* f, int op, void* arg) {
  return real(f)->pMethods->xFileControl(real(f), op, arg);
}

int xSectorSize(sqlite3_file* f) { return real(f)->pMethods->xSectorSize(real(f)); }

int xDeviceCharacteristics(sqlite3_file* f) {
  return real(f)->pMethods->xDeviceCharacteristics(real(f));
}

int xShmMap(sqlite3_file* f, int region, int size, int extend, void volatile** out) {
  return real(f)->pMethods->xShmMap(real(f), region, size, extend, out);
}

int xShmLock(sqlite3_file* f, int offset, int n, int flags) {
  if ((flags & SQLITE_SHM_LOCK) != 0) {
    if (int rc = self(f)->state->gate(VfsOp::kShmLock); rc != SQLITE_OK) return rc;
  }
  return real(f)->pMethods->xShmLock(real(f), offset, n, flags);
}

void xShmBarrier(sqlite3_file* f) { real(f)->pMethods->xShmBarrier(real(f)); }

int xShmUnmap(sqlite3_file* f, int deleteFlag) {
  return real(f)->pMethods->xShmUnmap(real(f), deleteFlag);
}

// No memory-mapped pages: every read is an xRead the shim sees.
int xFetch(sqlite3_file*, sqlite3_int64, int, void** out) {
  *out = nullptr;
  return SQLITE_OK;
}

int xUnfetch(sqlite3_file*, sqlite3_int64, void*) { return SQLITE_OK; }

// One table per version of the wrapped file's methods, so the shim never offers more than it can
// pass on (a version 1 file has no shared memory and so no WAL).
const std::array<sqlite3_io_methods, 3> kMethods = [] {
  std::array<sqlite3_io_methods, 3> all{};
  for (int v = 1; v <= 3; ++v) {
    sqlite3_io_methods& m = all[static_cast<std::size_t>(v - 1)];
    m.iVersion = v;
    m.xClose = xClose;
    m.xRead = xRead;
    m.xWrite = xWrite;
    m.xTruncate = xTruncate;
    m.xSync = xSync;
    m.xFileSize = xFileSize;
    m.xLock = xLock;
    m.xUnlock = xUnlock;
    m.xCheckReservedLock = xCheckReservedLock;
    m.xFileControl = xFileControl;
    m.xSectorSize = xSectorSize;
    m.xDeviceCharacteristics = xDeviceCharacteristics;
    if (v >= 2) {
      m.xShmMap = xShmMap;
      m.xShmLock = xShmLock;
      m.xShmBarrier = xShmBarrier;
      m.xShmUnmap = xShmUnmap;
    }
    if (v >= 3) {
      m.xFetch = xFetch;
      m.xUnfetch = xUnfetch;
    }
  }
  return all;
}();

// ---- sqlite3_vfs ----

int vfsOpen(sqlite3_vfs* vfs, const char* name, sqlite3_file* file, int flags, int* outFlags) {
  State* st = stateOf(vfs);
  FaultFile* ff = self(file);
  ff->file.pMethods = nullptr;
  ff->state = st;
  ff->real = reinterpret_cast<sqlite3_file*>(reinterpret_cast<char*>(file) + kRealOffset);
  ff->path = nullptr;
  const int rc = st->base->xOpen(st->base, name, ff->real, flags, outFlags);
  const sqlite3_io_methods* inner = ff->real->pMethods;
  if (inner == nullptr) return rc;  // nothing to close either
  ff->file.pMethods = &kMethods[static_cast<std::size_t>(std::clamp(inner->iVersion, 1, 3) - 1)];
  const int durable = SQLITE_OPEN_MAIN_DB | SQLITE_OPEN_MAIN_JOURNAL | SQLITE_OPEN_WAL;
  if (rc == SQLITE_OK && name != nullptr && (flags & durable) != 0) {
    return guarded([&] {
      ff->path = new std::string(name);
      return SQLITE_OK;
    });
  }
  return rc;
}

int vfsDelete(sqlite3_vfs* vfs, const char* path, int syncDir) {
  State* st = stateOf(vfs);
  if (int rc = st->gate(VfsOp::kDelete); rc != SQLITE_OK) return rc;
  const int rc = st->base->xDelete(st->base, path, syncDir);
  if (rc == SQLITE_OK) {
    return guarded([&] {
      std::lock_guard<std::mutex> lock(st->mutex);
      st->undo.erase(path);
      return SQLITE_OK;
    });
  }
  return rc;
}

int vfsAccess(sqlite3_vfs* vfs, const char* path, int flags, int* out) {
  return stateOf(vfs)->base->xAccess(stateOf(vfs)->base, path, flags, out);
}

int vfsFullPathname(sqlite3_vfs* vfs, const char* path, int size, char* out) {
  return stateOf(vfs)->base->xFullPathname(stateOf(vfs)->base, path, size, out);
}

void* vfsDlOpen(sqlite3_vfs* vfs, const char* path) {
  return stateOf(vfs)->base->xDlOpen(stateOf(vfs)->base, path);
}

void vfsDlError(sqlite3_vfs* vfs, int size, char* out) {
  stateOf(vfs)->base->xDlError(stateOf(vfs)->base, size, out);
}

void (*vfsDlSym(sqlite3_vfs* vfs, void* handle, const char* symbol))(void) {
  return stateOf(vfs)->base->xDlSym(stateOf(vfs)->base, handle, symbol);
}

void vfsDlClose(sqlite3_vfs* vfs, void* handle) {
  stateOf(vfs)->base->xDlClose(stateOf(vfs)->base, handle);
}

int vfsRandomness(sqlite3_vfs* vfs, int size, char* out) {
  return stateOf(vfs)->base->xRandomness(stateOf(vfs)->base, size, out);
}

int vfsSleep(sqlite3_vfs* vfs, int micros) {
  return stateOf(vfs)->base->xSleep(stateOf(vfs)->base, micros);
}

int vfsCurrentTime(sqlite3_vfs* vfs, double* out) {
  return stateOf(vfs)->base->xCurrentTime(stateOf(vfs)->base, out);
}

int vfsGetLastError(sqlite3_vfs* vfs, int size, char* out) {
  return stateOf(vfs)->base->xGetLastError(stateOf(vfs)->base, size, out);
}

int vfsCurrentTimeInt64(sqlite3_vfs* vfs, sqlite3_int64* out) {
  return stateOf(vfs)->base->xCurrentTimeInt64(stateOf(vfs)->base, out);
}

int vfsSetSystemCall(sqlite3_vfs* vfs, const char* name, sqlite3_syscall_ptr call) {
  return stateOf(vfs)->base->xSetSystemCall(stateOf(vfs)->base, name, call);
}

sqlite3_syscall_ptr vfsGetSystemCall(sqlite3_vfs* vfs, const char* name) {
  return stateOf(vfs)->base->xGetSystemCall(stateOf(vfs)->base, name);
}

const char* vfsNextSystemCall(sqlite3_vfs* vfs, const char* name) {
  return stateOf(vfs)->base->xNextSystemCall(stateOf(vfs)->base, name);
}

// Puts back what `undo` says the file held at its last sync.
Status revert(const std::string& path, const Undo& undo) {
  const int fd = ::open(path.c_str(), O_RDWR | O_CLOEXEC);
  if (fd < 0) {
    if (errno == ENOENT) return Status::success();  // deleted: that was durable
    return makeError("power cut: cannot open " + path + ": " + errnoText(errno));
  }
  Status s;
  for (auto it = undo.changes.rbegin(); it != undo.changes.rend() && s; ++it) {
    const ssize_t n = ::pwrite(fd, it->old.data(), it->old.size(), it->offset);
    if (n != static_cast<ssize_t>(it->old.size()))
      s = makeError("power cut: cannot rewrite " + path);
  }
  if (s && ::ftruncate(fd, undo.syncedSize) != 0) {
    s = makeError("power cut: cannot truncate " + path + ": " + errnoText(errno));
  }
  ::close(fd);
  return s;
}

}  // namespace

std::string_view vfsOpName(VfsOp op) {
  switch (op) {
    case VfsOp::kRead:
      return "xRead";
    case VfsOp::kWrite:
      return "xWrite";
    case VfsOp::kSync:
      return "xSync";
    case VfsOp::kTruncate:
      return "xTruncate";
    case VfsOp::kLock:
      return "xLock";
    case VfsOp::kShmLock:
      return "xShmLock";
    case VfsOp::kDelete:
      return "xDelete";
  }
  return "?";
}

int defaultVfsError(VfsOp op) {
  switch (op) {
    case VfsOp::kRead:
      return SQLITE_IOERR_READ;
    case VfsOp::kWrite:
      return SQLITE_IOERR_WRITE;
    case VfsOp::kSync:
      return SQLITE_IOERR_FSYNC;
    case VfsOp::kTruncate:
      return SQLITE_IOERR_TRUNCATE;
    case VfsOp::kLock:
      return SQLITE_IOERR_LOCK;
    case VfsOp::kShmLock:
      return SQLITE_IOERR_SHMLOCK;
    case VfsOp::kDelete:
      return SQLITE_IOERR_DELETE;
  }
  return SQLITE_IOERR;
}

FaultVfs::FaultVfs() : state_(std::make_unique<State>()) {
  if (sqlite3_initialize() != SQLITE_OK) throw std::runtime_error("sqlite3_initialize failed");
  sqlite3_vfs* base = sqlite3_vfs_find(nullptr);
  if (base == nullptr || std::strcmp(base->zName, kVfsName) == 0) {
    throw std::logic_error("FaultVfs: no default VFS to wrap, or a FaultVfs is already installed");
  }
  State& st = *state_;
  st.base = base;
  sqlite3_vfs& v = st.vfs;
  v.iVersion = std::min(base->iVersion, 3);
  v.szOsFile = kRealOffset + base->szOsFile;
  v.mxPathname = base->mxPathname;
  v.zName = kVfsName;
  v.pAppData = &st;
  v.xOpen = vfsOpen;
  v.xDelete = vfsDelete;
  v.xAccess = vfsAccess;
  v.xFullPathname = vfsFullPathname;
  v.xDlOpen = base->xDlOpen != nullptr ? vfsDlOpen : nullptr;
  v.xDlError = base->xDlError != nullptr ? vfsDlError : nullptr;
  v.xDlSym = base->xDlSym != nullptr ? vfsDlSym : nullptr;
  v.xDlClose = base->xDlClose != nullptr ? vfsDlClose : nullptr;
  v.xRandomness = vfsRandomness;
  v.xSleep = vfsSleep;
  v.xCurrentTime = vfsCurrentTime;
  v.xGetLastError = base->xGetLastError != nullptr ? vfsGetLastError : nullptr;
  if (v.iVersion >= 2) {
    v.xCurrentTimeInt64 = base->xCurrentTimeInt64 != nullptr ? vfsCurrentTimeInt64 : nullptr;
  }
  if (v.iVersion >= 3) {
    v.xSetSystemCall = base->xSetSystemCall != nullptr ? vfsSetSystemCall : nullptr;
    v.xGetSystemCall = base->xGetSystemCall != nullptr ? vfsGetSystemCall : nullptr;
    v.xNextSystemCall = base->xNextSystemCall != nullptr ? vfsNextSystemCall : nullptr;
  }
  if (sqlite3_vfs_register(&v, 1) != SQLITE_OK)
    throw std::runtime_error("cannot register FaultVfs");
}

FaultVfs::~FaultVfs() {
  sqlite3_vfs_unregister(&state_->vfs);
  sqlite3_vfs_register(state_->base, 1);
}

void FaultVfs::arm(VfsFault fault) {
  std::lock_guard<std::mutex> lock(state_->mutex);
  state_->fault = std::move(fault);
  state_->armed = true;
  state_->fired = false;
  state_->dead = false;
  state_->matching = 0;
  state_->calls.fill(0);
}

void FaultVfs::disarm() {
  std::lock_guard<std::mutex> lock(state_->mutex);
  state_->armed = false;
  state_->dead = false;
}

bool FaultVfs::fired() const {
  std::lock_guard<std::mutex> lock(state_->mutex);
  return state_->fired;
}

std::uint64_t FaultVfs::calls(VfsOp op) const {
  std::lock_guard<std::mutex> lock(state_->mutex);
  return state_->calls[index(op)];
}

std::uint64_t FaultVfs::calls() const {
  std::lock_guard<std::mutex> lock(state_->mutex);
  std::uint64_t all = 0;
  for (std::uint64_t n : state_->calls) all += n;
  return all;
}

std::string FaultVfs::describeCalls() const {
  std::lock_guard<std::mutex> lock(state_->mutex);
  std::string out;
  for (std::size_t i = 0; i < kOpCount; ++i) {
    if (!out.empty()) out += ", ";
    out += std::string(vfsOpName(static_cast<VfsOp>(i))) + " " + std::to_string(state_->calls[i]);
  }
  return out;
}

Status FaultVfs::powerCut() {
  std::lock_guard<std::mutex> lock(state_->mutex);
  for (const auto& [path, undo] : state_->undo) {
    if (Status s = revert(path, undo); !s) return s;
  }
  state_->undo.clear();
  state_->armed = false;
  state_->dead = false;
  return Status::success();
}

std::vector<VfsScenario> vfsScenarios() {
  const std::vector<VfsOp> io = {VfsOp::kRead, VfsOp::kWrite, VfsOp::kSync, VfsOp::kTruncate};
  return {
      {"I/O error", VfsFault{io, 1, 0, false}, false},
      {"disk full", VfsFault{{VfsOp::kWrite}, 1, SQLITE_FULL, false}, false},
      {"busy lock", VfsFault{{VfsOp::kLock, VfsOp::kShmLock}, 1, SQLITE_BUSY, false}, false},
      {"dead disk, restart", VfsFault{{}, 1, 0, true}, false},
      {"dead disk, power cut", VfsFault{{}, 1, 0, true}, true},
  };
}

bool FaultSteps::next() {
  if (!fired_) return false;  // the last run went through untouched: every step was covered
  ++step_;
  return true;
}

void FaultSteps::arm() {
  VfsFault fault = scenario_.fault;
  fault.nth = step_;
  vfs_.arm(std::move(fault));
}

void FaultSteps::operationDone() {
  fired_ = vfs_.fired();
  operationCalls_ = vfs_.describeCalls();
  if (fired_) ++faults_;
  if (!scenario_.fault.persist) vfs_.disarm();
}

void FaultSteps::restart() {
  if (!scenario_.powerCut) {
    vfs_.disarm();
    return;
  }
  Status s = vfs_.powerCut();
  if (!s) throw std::runtime_error(describe() + ": " + s.message());
}

std::string FaultSteps::summary() const {
  return scenario_.name + ": " + std::to_string(step_) + " steps, " + std::to_string(faults_) +
         " faults; the last run made " + operationCalls_;
}

std::string FaultSteps::describe() const {
  return scenario_.name + ", failing call " + std::to_string(step_);
}

}  // namespace atoms::testing
