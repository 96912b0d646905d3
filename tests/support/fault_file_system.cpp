#include "tests/support/fault_file_system.h"

#include <filesystem>
#include <fstream>
#include <utility>
#include <vector>

#include "base/file_io.h"

namespace atoms::testing {
namespace {

std::string normal(const std::string& path) {
  std::string p = std::filesystem::path(path).lexically_normal().string();
  while (p.size() > 1 && p.back() == '/') p.pop_back();
  return p;
}

Status notAfterPowerCut() { return fileSystemError(EIO); }

}  // namespace

std::string_view fsOpName(FsOp op) {
  switch (op) {
    case FsOp::kAny:
      return "any";
    case FsOp::kCreate:
      return "create";
    case FsOp::kOpenForRead:
      return "openForRead";
    case FsOp::kInfo:
      return "info";
    case FsOp::kRead:
      return "read";
    case FsOp::kAppend:
      return "append";
    case FsOp::kSetMode:
      return "setMode";
    case FsOp::kSync:
      return "sync";
    case FsOp::kClose:
      return "close";
    case FsOp::kStat:
      return "stat";
    case FsOp::kRename:
      return "rename";
    case FsOp::kRemove:
      return "remove";
    case FsOp::kMakeDirectory:
      return "makeDirectory";
    case FsOp::kRemoveDirectory:
      return "removeDirectory";
    case FsOp::kSyncDirectory:
      return "syncDirectory";
  }
  return "?";
}

// ---- files ----

class FaultFileSystem::Writable final : public WritableFile {
 public:
  Writable(FaultFileSystem& fs, NodePtr node, std::unique_ptr<WritableFile> real)
      : fs_(fs), node_(std::move(node)), real_(std::move(real)), epoch_(fs.epoch_) {}

  Status append(std::string_view data) override {
    std::lock_guard<std::mutex> lock(fs_.mutex_);
    if (epoch_ != fs_.epoch_) return notAfterPowerCut();
    Status s = fs_.gate(FsOp::kAppend);
    // A failing write lands half of its data first, like a disk that fills up mid-write.
    const std::string_view written = s ? data : data.substr(0, data.size() / 2);
    if (Status w = real_->append(written); !w) return w;
    node_->current.append(written);
    return s;
  }

  Status setMode(unsigned mode) override {
    std::lock_guard<std::mutex> lock(fs_.mutex_);
    if (epoch_ != fs_.epoch_) return notAfterPowerCut();
    if (Status s = fs_.gate(FsOp::kSetMode); !s) return s;
    if (Status s = real_->setMode(mode); !s) return s;
    node_->mode = mode;
    return Status::success();
  }

  Status sync() override {
    std::lock_guard<std::mutex> lock(fs_.mutex_);
    if (epoch_ != fs_.epoch_) return notAfterPowerCut();
    if (Status s = fs_.gate(FsOp::kSync); !s) return s;
    if (Status s = real_->sync(); !s) return s;
    node_->synced = node_->current;
    return Status::success();
  }

  Status close() override {
    std::lock_guard<std::mutex> lock(fs_.mutex_);
    Status s = epoch_ == fs_.epoch_ ? fs_.gate(FsOp::kClose) : notAfterPowerCut();
    Status closed = real_->close();  // the descriptor is released whatever the answer
    return s ? closed : s;
  }

 private:
  FaultFileSystem& fs_;
  NodePtr node_;
  std::unique_ptr<WritableFile> real_;
  std::uint64_t epoch_;
};

class FaultFileSystem::Readable final : public ReadableFile {
 public:
  Readable(FaultFileSystem& fs, std::unique_ptr<ReadableFile> real)
      : fs_(fs), real_(std::move(real)), epoch_(fs.epoch_) {}

  Result<FileInfo> info() override {
    std::lock_guard<std::mutex> lock(fs_.mutex_);
    if (epoch_ != fs_.epoch_) return notAfterPowerCut().error();
    if (Status s = fs_.gate(FsOp::kInfo); !s) return s.error();
    return real_->info();
  }

  Result<std::size_t> read(std::span<std::uint8_t> buffer) override {
    std::lock_guard<std::mutex> lock(fs_.mutex_);
    if (epoch_ != fs_.epoch_) return notAfterPowerCut().error();
    if (Status s = fs_.gate(FsOp::kRead); !s) return s.error();
    return real_->read(buffer);
  }

 private:
  FaultFileSystem& fs_;
  std::unique_ptr<ReadableFile> real_;
  std::uint64_t epoch_;
};

// ---- arming and counting ----

void FaultFileSystem::arm(const FsFault& fault) {
  std::lock_guard<std::mutex> lock(mutex_);
  fault_ = fault;
  armed_ = true;
  fired_ = false;
  dead_ = false;
  matching_ = 0;
  calls_.clear();
}

void FaultFileSystem::disarm() {
  std::lock_guard<std::mutex> lock(mutex_);
  armed_ = false;
  dead_ = false;
}

bool FaultFileSystem::fired() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return fired_;
}

std::uint64_t FaultFileSystem::calls(FsOp op) const {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = calls_.find(op);
  return it == calls_.end() ? 0 : it->second;
}

Status FaultFileSystem::gate(FsOp op) {
  ++calls_[op];
  ++calls_[FsOp::kAny];
  if (!armed_) return Status::success();
  if (dead_) return fileSystemError(fault_.error);
  if (fired_ || (fault_.op != FsOp::kAny && fault_.op != op)) return Status::success();
  if (++matching_ != fault_.nth) return Status::success();
  fired_ = true;
  dead_ = fault_.persist;
  return fileSystemError(fault_.error);
}

FaultFileSystem::Name& FaultFileSystem::track(const std::string& path) {
  const std::string key = normal(path);
  auto it = names_.find(key);
  if (it != names_.end()) return it->second;
  NodePtr node;
  if (auto st = real_.stat(key); st && st->type == FileType::kDirectory) {
    node = std::make_shared<Node>(Node{true, "", "", st->mode});
  } else if (st) {
    auto content = readFileToString(key, real_);
    const std::string text = content ? *content : std::string();
    node = std::make_shared<Node>(Node{false, text, text, st->mode});
  }
  return names_.emplace(key, Name{node, node}).first->second;
}

// ---- the file system ----

Result<std::unique_ptr<WritableFile>> FaultFileSystem::createFile(const std::string& path,
                                                                  CreateMode how, unsigned mode) {
  std::lock_guard<std::mutex> lock(mutex_);
  Name& name = track(path);
  if (Status s = gate(FsOp::kCreate); !s) return s.error();
  auto real = real_.createFile(path, how, mode);
  if (!real) return real.error();
  if (!name.live || name.live->directory) {
    name.live = std::make_shared<Node>(Node{false, "", "", mode});
  } else {
    name.live->current.clear();  // O_TRUNC: the same file, emptied; its synced content stays
  }
  return std::unique_ptr<WritableFile>(
      std::make_unique<Writable>(*this, name.live, std::move(*real)));
}

Result<std::unique_ptr<ReadableFile>> FaultFileSystem::openForRead(const std::string& path) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (Status s = gate(FsOp::kOpenForRead); !s) return s.error();
  auto real = real_.openForRead(path);
  if (!real) return real.error();
  return std::unique_ptr<ReadableFile>(std::make_unique<Readable>(*this, std::move(*real)));
}

bool FaultFileSystem::exists(const std::string& path) {
  std::lock_guard<std::mutex> lock(mutex_);
  return real_.exists(path);
}

Result<FileInfo> FaultFileSystem::stat(const std::string& path) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (Status s = gate(FsOp::kStat); !s) return s.error();
  return real_.stat(path);
}

Status FaultFileSystem::rename(const std::string& from, const std::string& to) {
  std::lock_guard<std::mutex> lock(mutex_);
  Name& source = track(from);
  Name& target = track(to);
  if (Status s = gate(FsOp::kRename); !s) return s;
  if (Status s = real_.rename(from, to); !s) return s;
  target.live = std::exchange(source.live, nullptr);
  return Status::success();
}

Status FaultFileSystem::remove(const std::string& path) {
  std::lock_guard<std::mutex> lock(mutex_);
  Name& name = track(path);
  if (Status s = gate(FsOp::kRemove); !s) return s;
  if (Status s = real_.remove(path); !s) return s;
  name.live = nullptr;
  return Status::success();
}

Status FaultFileSystem::makeDirectory(const std::string& path, unsigned mode) {
  std::lock_guard<std::mutex> lock(mutex_);
  Name& name = track(path);
  if (Status s = gate(FsOp::kMakeDirectory); !s) return s;
  if (Status s = real_.makeDirectory(path, mode); !s) return s;
  name.live = std::make_shared<Node>(Node{true, "", "", mode});
  return Status::success();
}

Status FaultFileSystem::removeDirectory(const std::string& path) {
  std::lock_guard<std::mutex> lock(mutex_);
  Name& name = track(path);
  if (Status s = gate(FsOp::kRemoveDirectory); !s) return s;
  if (Status s = real_.removeDirectory(path); !s) return s;
  name.live = nullptr;
  return Status::success();
}

Status FaultFileSystem::syncDirectory(const std::string& dir) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (Status s = gate(FsOp::kSyncDirectory); !s) return s;
  if (Status s = real_.syncDirectory(dir); !s) return s;
  const std::string key = normal(dir);
  for (auto& [path, name] : names_) {
    if (directoryOf(path) == key) name.durable = name.live;
  }
  return Status::success();
}

// ---- the power cut ----

Status FaultFileSystem::powerCut() {
  std::lock_guard<std::mutex> lock(mutex_);
  namespace fs = std::filesystem;
  std::error_code ec;
  // Children first: take away what is there now unless it is a directory that stays one (it may
  // hold files that were never tracked, like the database).
  for (auto it = names_.rbegin(); it != names_.rend(); ++it) {
    const auto& [path, name] = *it;
    const bool keepDirectory = name.durable && name.durable->directory;
    if (fs::is_directory(fs::symlink_status(path, ec)) && keepDirectory) continue;
    fs::remove_all(path, ec);
    if (ec) return makeError("power cut: cannot remove " + path + ": " + ec.message());
  }
  // Parents first: put back what was durable, where its directory survived.
  for (const auto& [path, name] : names_) {
    const NodePtr& node = name.durable;
    if (!node || !fs::is_directory(directoryOf(path), ec)) continue;
    if (node->directory) {
      fs::create_directory(path, ec);
    } else {
      std::ofstream out(path, std::ios::binary | std::ios::trunc);
      out << node->synced;
      out.close();
      if (!out) return makeError("power cut: cannot write " + path);
      fs::permissions(path, static_cast<fs::perms>(node->mode), ec);
    }
    if (ec) return makeError("power cut: cannot restore " + path + ": " + ec.message());
  }
  names_.clear();
  ++epoch_;
  armed_ = false;
  dead_ = false;
  return Status::success();
}

}  // namespace atoms::testing
