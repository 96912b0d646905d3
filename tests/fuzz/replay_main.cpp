// fuzz_replay: runs every checked-in input of every fuzz target through the target, without
// libFuzzer, so the normal test run (any compiler, any sanitizer build) replays the seed corpus
// and every crash input ever found (docs/fuzzing.md).
//
//   fuzz_replay CORPUS_DIR            every target on CORPUS_DIR/<target>/*
//   fuzz_replay CORPUS_DIR TARGET     one target
//
// A property violation in a target aborts; the handler below first names the input that did it.
// Exit status 0 when every input ran; 1 when a target's corpus directory is missing or empty.
#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <string_view>
#include <vector>

// Each target's LLVMFuzzerTestOneInput, renamed by the build to atomsFuzz_<target>.
#define ATOMS_FUZZ_TARGET(name) \
  extern "C" int atomsFuzz_##name(const std::uint8_t* data, std::size_t size);
#include "fuzz_targets.inc"
#undef ATOMS_FUZZ_TARGET

namespace {

using TargetFn = int (*)(const std::uint8_t*, std::size_t);

struct Target {
  const char* name;
  TargetFn run;
};

// The input being run, for the crash handler (which may only use async-signal-safe calls, hence a
// fixed buffer rather than a std::string).
char currentInput[4096];

void onCrash(int sig) {
  constexpr char kPrefix[] = "\nfuzz_replay: crashed on input ";
  (void)!::write(STDERR_FILENO, kPrefix, sizeof kPrefix - 1);
  (void)!::write(STDERR_FILENO, currentInput, std::strlen(currentInput));
  (void)!::write(STDERR_FILENO, "\n", 1);
  std::signal(sig, SIG_DFL);
  std::raise(sig);
}

std::vector<std::uint8_t> readAll(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// Runs every regular file under dir (sorted, for a stable order); returns how many.
std::size_t replay(const Target& target, const std::filesystem::path& dir) {
  std::vector<std::filesystem::path> files;
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator(dir, ec)) {
    if (e.is_regular_file()) files.push_back(e.path());
  }
  std::sort(files.begin(), files.end());
  for (const auto& file : files) {
    const std::string shown = file.string();
    std::snprintf(currentInput, sizeof currentInput, "%s", shown.c_str());
    const std::vector<std::uint8_t> bytes = readAll(file);
    // An empty vector's data() may be null; libFuzzer passes a valid pointer even for size 0.
    static const std::uint8_t kEmpty = 0;
    target.run(bytes.empty() ? &kEmpty : bytes.data(), bytes.size());
  }
  return files.size();
}

}  // namespace

int main(int argc, char** argv) {
  static const Target kTargets[] = {
#define ATOMS_FUZZ_TARGET(name) {#name, atomsFuzz_##name},
#include "fuzz_targets.inc"
#undef ATOMS_FUZZ_TARGET
  };
  if (argc < 2 || argc > 3) {
    std::fprintf(stderr, "usage: fuzz_replay CORPUS_DIR [TARGET]\n");
    return 2;
  }
  for (int sig : {SIGABRT, SIGSEGV, SIGBUS, SIGFPE, SIGILL}) std::signal(sig, onCrash);
  std::setvbuf(stdout, nullptr, _IOLBF, 0);  // progress lines must not die with a crash

  const std::filesystem::path root = argv[1];
  const std::string_view only = argc == 3 ? argv[2] : "";
  int status = 0;
  bool matched = false;
  for (const Target& target : kTargets) {
    if (!only.empty() && only != target.name) continue;
    matched = true;
    const std::size_t n = replay(target, root / target.name);
    std::printf("fuzz_replay: %-12s %zu inputs\n", target.name, n);
    if (n == 0) {
      std::fprintf(stderr, "fuzz_replay: no inputs in %s\n", (root / target.name).c_str());
      status = 1;
    }
  }
  if (!matched) {
    std::fprintf(stderr, "fuzz_replay: no target named %s\n", std::string(only).c_str());
    return 2;
  }
  return status;
}
