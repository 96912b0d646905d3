// Fuzz target: parseBenchmarkInstance, the roster format both ways and the evaluator
// (domain/schedule/benchmark_format.h, roster_evaluator.h), which read the shift scheduling
// benchmark's files (`atoms-edge solve`): a damaged file must be a clear error, never a crash.
//
// Properties checked on every input, beyond "no crash, no sanitizer report":
//   - a refused file gets a non-empty, one-line message;
//   - for a parsed instance, the all-off roster written in the roster format reads back the same
//     and the evaluator scores it (its objective is the cover shortfall and the on-requests).
#include <cstddef>
#include <cstdint>
#include <string>

#include "domain/schedule/benchmark_format.h"
#include "domain/schedule/roster_evaluator.h"
#include "tests/fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace atoms;
  using fuzz::require;
  const auto instance = schedule::parseBenchmarkInstance(fuzz::asText(data, size));
  if (!instance) {
    require(!instance.message().empty(), "a refused instance has a message");
    require(instance.message().find('\n') == std::string::npos, "an instance error is one line");
    return 0;
  }
  const schedule::Roster off = schedule::Roster::allOff(*instance);
  const std::string text = schedule::formatBenchmarkRoster(*instance, off);
  const auto again = schedule::parseBenchmarkRoster(*instance, text);
  require(again.ok(), "a written roster reads back");
  require(again->cells == off.cells, "a written roster reads back the same");
  const schedule::RosterEvaluation e = schedule::evaluateRoster(*instance, off);
  std::int64_t expected = 0;
  for (const auto& r : instance->onRequests) expected += r.weight;
  for (const auto& day : instance->cover) {
    for (const auto& c : day) expected += std::int64_t{c.underWeight} * c.requirement;
  }
  require(e.objective == expected, "the all-off roster costs its requests and its cover");
  return 0;
}
