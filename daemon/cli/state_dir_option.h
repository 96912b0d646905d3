// The --state-dir option shared by the commands that work on a state directory.
#pragma once

#include <string>

#include "daemon/cli/command.h"

namespace atoms::cli {

inline constexpr const char* kDefaultStateDir = "/var/lib/atoms-edge";

inline OptionSpec stateDirOption() {
  return {"state-dir", "DIR", std::string("state directory (default ") + kDefaultStateDir + ")"};
}

inline std::string stateDirOf(const Args& args) { return args.get("state-dir", kDefaultStateDir); }

}  // namespace atoms::cli
