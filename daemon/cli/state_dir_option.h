// The --state-dir option shared by the commands that work on a state directory.
#pragma once

#include <string>

#include "daemon/cli/command.h"
#include "store/state_dir.h"

namespace atoms::cli {

inline constexpr const char* kDefaultStateDir = "/var/lib/atoms-edge";

inline OptionSpec stateDirOption() {
  return {"state-dir", "DIR", std::string("state directory (default ") + kDefaultStateDir + ")"};
}

inline std::string stateDirOf(const Args& args) { return args.get("state-dir", kDefaultStateDir); }

// The files of that directory, with the keys taken from systemd credentials when the environment
// supplies them ($CREDENTIALS_DIRECTORY, store/state_dir.h resolveStatePaths). Commands that open
// an existing state directory use this, so they see the same keys as `serve`.
inline StateDirPaths statePathsOf(const Args& args) { return resolveStatePaths(stateDirOf(args)); }

}  // namespace atoms::cli
