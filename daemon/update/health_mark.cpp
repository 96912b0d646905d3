#include "daemon/update/health_mark.h"

#include <unistd.h>

#include <filesystem>

#include "base/canonical_json.h"
#include "base/file_io.h"
#include "base/file_system.h"

namespace atoms::update {
namespace {

// The path with every symlink resolved; empty when it does not exist.
std::string resolvedPath(const std::string& path) {
  std::error_code ec;
  std::filesystem::path p = std::filesystem::canonical(path, ec);
  return ec ? std::string() : p.string();
}

}  // namespace

std::string healthMarkPath(const std::string& stateDir) { return stateDir + "/update.health"; }

Status writeHealthMark(const std::string& stateDir, const std::string& version, int schema) {
  const std::string exe = resolvedPath("/proc/self/exe");
  if (exe.empty()) return makeError("cannot tell which binary runs (/proc/self/exe)");
  const std::string text =
      json::canonical(json::Object{{"exe", exe},
                                   {"pid", static_cast<std::int64_t>(::getpid())},
                                   {"schema", schema},
                                   {"version", version}}) +
      "\n";
  if (Status s = replaceFileDurably(healthMarkPath(stateDir), text); !s) {
    return makeError("cannot write the health mark " + healthMarkPath(stateDir) + ": " +
                     s.message());
  }
  return Status::success();
}

Result<HealthMark> readHealthMark(const std::string& stateDir) {
  const std::string path = healthMarkPath(stateDir);
  auto text = readFileToString(path);
  if (!text) return text.error();
  auto parsed = json::parse(*text);
  const json::Value* exe = parsed ? parsed->find("exe") : nullptr;
  const json::Value* pid = parsed ? parsed->find("pid") : nullptr;
  const json::Value* version = parsed ? parsed->find("version") : nullptr;
  if (exe == nullptr || !exe->isString() || pid == nullptr || !pid->isInt() || version == nullptr ||
      !version->isString()) {
    return makeError("health mark " + path + " is damaged", ErrorKind::kCorrupt);
  }
  const json::Value* schema = parsed->find("schema");
  const bool hasSchema =
      schema != nullptr && schema->isInt() && schema->asInt() > 0 && schema->asInt() < 1000000;
  return HealthMark{exe->asString(), static_cast<long>(pid->asInt()), version->asString(),
                    hasSchema ? static_cast<int>(schema->asInt()) : 0};
}

Status clearHealthMark(const std::string& stateDir) {
  const std::string path = healthMarkPath(stateDir);
  FileSystem& fs = posixFileSystem();
  if (!fs.exists(path)) return Status::success();
  if (Status s = fs.remove(path); !s) {
    return makeError("cannot remove the health mark " + path + ": " + s.message());
  }
  return Status::success();
}

bool markedHealthyBy(const std::string& stateDir, const std::string& binary) {
  auto mark = readHealthMark(stateDir);
  if (!mark) return false;
  const std::string want = resolvedPath(binary);
  return !want.empty() && resolvedPath(mark->exe) == want;
}

}  // namespace atoms::update
