// `atoms-edge serve`: the long-running site service. Loads and checks the configuration file,
// sets up logging from it, and runs EdgeServer until SIGTERM/SIGINT. Every outcome is logged to
// logSink (stderr in production, which journald captures).
//
// Returns 0 after a clean stop; EXIT_CONFIG (78) when it refuses to start (config file missing,
// unreadable, unknown key, bad value; state directory missing; key or database wrong), with one
// fatal log line naming the problem; EXIT_SOFTWARE (70) on an internal error.
// Call from the main thread of a process with no other threads yet.
#pragma once

#include <iosfwd>
#include <string>

namespace atoms {

inline constexpr const char* kDefaultConfigPath = "/etc/atoms-edge/atoms-edge.conf";

int runService(const std::string& configPath, std::ostream& logSink);

}  // namespace atoms
