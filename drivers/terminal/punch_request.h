// The time-clock protocol (docs/terminals.md): what a terminal POSTs to /v1/punches and what it is
// answered. Parsing is strict and decided without any I/O, so the fuzz target drives exactly the
// code the server runs.
//
// Request body (JSON, at most kMaxRequestBytes):
//   {"terminal":"front-1","punches":[{"id":"evt-000123","person":"p-12","kind":"clock_in",
//    "at":"2026-11-30T16:58:03Z"}]}
// - terminal, person: 1-64 characters of letters, digits, '-', '_', '.' (the site file's ids);
// - id: the terminal's own idempotency id, 1-128 characters of printable ASCII (a retry sends the
//   same id, so it is stored once);
// - kind: clock_in, clock_out, break_start or break_end;
// - at: UTC, YYYY-MM-DDTHH:MM:SSZ or YYYY-MM-DDTHH:MM:SS.mmmZ, year 1970-9999;
// - 1 to kMaxPunchesPerRequest punches; no other fields (a typo is refused, never ignored).
// An error is one line of printable ASCII naming the field and index, e.g.
//   punches[3].kind: 'clockin' is not one of clock_in, clock_out, break_start, break_end
// with the sent value cut short and every byte outside printable ASCII shown as '?'.
//
// Answer to a stored request (200): {"terminal":"front-1","results":[{"id":"evt-000123",
// "outcome":"accepted"},{"id":"evt-000124","outcome":"refused","reason":"unknown person"}]}, one
// result per punch in request order; "duplicate" for an id the box already stored.
//
// Pure functions; thread-safe.
#pragma once

#include <chrono>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"

namespace atoms::drivers::terminal {

// Where terminals POST their punches.
inline constexpr std::string_view kPunchesPath = "/v1/punches";
inline constexpr std::size_t kMaxRequestBytes = 256 * 1024;
inline constexpr std::size_t kMaxPunchesPerRequest = 500;
inline constexpr std::size_t kMaxEventIdLength = 128;
inline constexpr std::size_t kMaxIdLength = 64;

enum class PunchKind { kClockIn, kClockOut, kBreakStart, kBreakEnd };
// "clock_in", "clock_out", "break_start", "break_end".
std::string_view punchKindName(PunchKind kind);
std::optional<PunchKind> parsePunchKind(std::string_view name);

using PunchTime = std::chrono::sys_time<std::chrono::milliseconds>;

struct Punch {
  std::string id;      // the terminal's idempotency id
  std::string person;  // the site's person id, as the terminal knows it
  PunchKind kind = PunchKind::kClockIn;
  PunchTime at{};
  friend bool operator==(const Punch&, const Punch&) = default;
};

struct PunchBatch {
  std::string terminal;
  std::vector<Punch> punches;
  friend bool operator==(const PunchBatch&, const PunchBatch&) = default;
};

enum class PunchOutcomeKind { kAccepted, kDuplicate, kRefused };
// "accepted", "duplicate", "refused".
std::string_view punchOutcomeName(PunchOutcomeKind kind);

struct PunchOutcome {
  std::string id;
  PunchOutcomeKind outcome = PunchOutcomeKind::kAccepted;
  std::string reason;  // why it was refused (or a duplicate differs); empty otherwise
  friend bool operator==(const PunchOutcome&, const PunchOutcome&) = default;
};

// Parses and validates a request body (see the file comment). Never throws.
Result<PunchBatch> parsePunchRequest(std::string_view body);
// The request body for a batch (canonical JSON; what the simulated terminal sends).
// Precondition: the batch would pass parsePunchRequest (ids and sizes in range).
std::string encodePunchRequest(const PunchBatch& batch);

// The 200 answer for a batch and its outcomes (one per punch, in order).
std::string encodePunchResponse(const std::string& terminal,
                                const std::vector<PunchOutcome>& outcomes);
// Reads a 200 answer back (the simulated terminal); an error names what is wrong.
Result<std::vector<PunchOutcome>> parsePunchResponse(std::string_view body);

// "YYYY-MM-DDTHH:MM:SS.mmmZ".
std::string formatPunchTime(PunchTime at);
// Either form of `at` above; nullopt for anything else (an impossible date included).
std::optional<PunchTime> parsePunchTime(std::string_view text);

// A site id: 1-64 characters of letters, digits, '-', '_', '.' (drivers::isValidTokenId).
bool isValidTerminalId(std::string_view id);

}  // namespace atoms::drivers::terminal
