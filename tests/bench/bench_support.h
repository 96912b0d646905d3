// Helpers shared by the benchmark programs in tests/bench/ (docs/benchmarks.md): wall-clock
// timing and the way a benchmark gives up (one line on stderr naming the program, exit 1).
#pragma once

#include <errno.h>  // program_invocation_short_name (glibc)

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>

#include "store/result.h"

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

}  // namespace atoms::bench
