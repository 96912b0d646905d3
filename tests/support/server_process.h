// What the test servers (mosquitto_broker.h, postgres_server.h) share: running a setup tool to its
// end, and loopback ports (a free one, whether one accepts connections).
#pragma once

#include <pwd.h>
#include <sys/types.h>

#include <string>
#include <vector>

#include "base/result.h"

namespace atoms::testing {

// Runs argv[0] (looked up in PATH) to completion with stdin /dev/null and its output appended to
// outPath; an error with that output when it fails.
Status runTool(const std::vector<std::string>& argv, const std::string& outPath);
// Starts argv[0] (an absolute path) in the foreground with stdin /dev/null and its output appended
// to outPath, as `user` when given (the caller is root). Unlike runTool it dies with the test
// process (parent death signal), so a crashed test never leaves a server behind. -1 on failure.
pid_t spawnServer(const std::vector<std::string>& argv, const std::string& outPath,
                  const passwd* user = nullptr);
// A loopback TCP port free a moment ago (0 when none could be had).
int freePort();
// True when something accepts connections on 127.0.0.1:port.
bool acceptsConnections(int port);

}  // namespace atoms::testing
