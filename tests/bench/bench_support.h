// Helpers shared by the benchmark programs in tests/bench/ (docs/benchmarks.md): wall-clock
// timing and the way a benchmark gives up (one line on stderr naming the program, exit 1).
#pragma once

#include <errno.h>  // program_invocation_short_name (glibc)

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <initializer_list>
#include <string>
#include <utility>

#include "base/result.h"

namespace atoms::bench {

using Clock = std::chrono::steady_clock;

inline double secondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// "bench_x: what", then exit 1: a benchmark that cannot measure must not print figures.
[[noreturn]] inline void die(const std::string& what) {
  std::fprintf(stderr, "%s: %s\n", program_invocation_short_name, what.c_str());
  std::exit(1);
}

template <class T>
T must(Result<T> r, const char* what) {
  if (!r) die(std::string(what) + ": " + r.message());
  return std::move(*r);
}

inline void must(const Status& s, const char* what) {
  if (!s) die(std::string(what) + ": " + s.message());
}

// "--name N" pairs into the numbers they name; an unknown name, or a value that is not a whole
// number, dies naming the options the benchmark takes.
struct NumericOption {
  const char* name;  // "--entries"
  std::uint64_t* value;
};
inline void parseOptions(int argc, char** argv, std::initializer_list<NumericOption> options) {
  std::string usage;
  for (const NumericOption& o : options)
    usage += (usage.empty() ? "" : " ") + std::string(o.name) + " N";
  if (argc % 2 == 0) die("every option takes a value (" + usage + ")");
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string name = argv[i];
    char* end = nullptr;
    const auto v = std::strtoull(argv[i + 1], &end, 10);
    if (end == argv[i + 1] || *end != '\0') die("not a number: " + name + " " + argv[i + 1]);
    bool known = false;
    for (const NumericOption& o : options) {
      if (name == o.name) {
        *o.value = v;
        known = true;
      }
    }
    if (!known) die("unknown option " + name + " (" + usage + ")");
  }
}

}  // namespace atoms::bench
