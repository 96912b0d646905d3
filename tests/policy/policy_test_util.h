// What the policy tests share: the simulated clock's start, the function they exercise, and how
// Boost.Test prints the policy's enums in a failed assertion.
#pragma once

#include <chrono>
#include <ostream>
#include <string_view>

#include "base/time_point.h"
#include "domain/policy/breaker.h"
#include "domain/policy/trust_budget.h"

namespace atoms::policy {

inline std::ostream& boost_test_print_type(std::ostream& os, Graduation g) {
  return os << graduationName(g);
}
inline std::ostream& boost_test_print_type(std::ostream& os, GraduationCause c) {
  return os << graduationCauseName(c);
}
inline std::ostream& boost_test_print_type(std::ostream& os, BreakerState state) {
  return os << breakerStateName(state);
}

}  // namespace atoms::policy

namespace atoms::testing {

// 56 years of 365 days after the epoch (December 2025): "a day before" is still a real time.
inline const TimePoint kT0 = TimePoint{} + std::chrono::hours(24 * 365 * 56);
// The graduated function the tests exercise.
inline constexpr std::string_view kFn = "staffing_scheduling";

}  // namespace atoms::testing
