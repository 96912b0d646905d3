// The public shift scheduling benchmark's instance format (Curtois & Qu, schedulingbenchmarks.org,
// "instances 1-24"), read into the roster model. Sections SECTION_HORIZON, SECTION_SHIFTS,
// SECTION_STAFF, SECTION_DAYS_OFF, SECTION_SHIFT_ON_REQUESTS, SECTION_SHIFT_OFF_REQUESTS and
// SECTION_COVER; `#` starts a comment line; CRLF or LF line ends. Day 0 is a Monday.
//
// The benchmark's roster format, one line per employee `ID<TAB>s0<TAB>s1...` with a shift ID or
// `-` for a day off, is read and written here as well.
#pragma once

#include <string>
#include <string_view>

#include "base/result.h"
#include "domain/schedule/roster_model.h"

namespace atoms::schedule {

// The instance in `text`. A malformed or inconsistent file (a missing section, a field that is not
// a number, an unknown employee or shift, a day outside the horizon) is an error of kind kInvalid
// whose message names the line: "line 12: SECTION_STAFF: 'x' is not a number".
Result<RosterInstance> parseBenchmarkInstance(std::string_view text);

// The roster in the benchmark's roster format, people in the instance's order, a final newline.
std::string formatBenchmarkRoster(const RosterInstance& instance, const Roster& roster);

// A roster in that format: one line per person of the instance, in any order, each with exactly
// one cell per day. Errors (kInvalid) name the line.
Result<Roster> parseBenchmarkRoster(const RosterInstance& instance, std::string_view text);

}  // namespace atoms::schedule
