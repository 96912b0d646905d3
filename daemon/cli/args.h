// A small strict parser for one command's arguments: long options only (--name VALUE,
// --name=VALUE, --flag), "--" ends the options, anything else is a positional. Unknown options,
// missing values, values given to flags and repeated options are errors. Pure, thread-safe.
#pragma once

#include <string>
#include <vector>

#include "base/result.h"
#include "daemon/cli/command.h"

namespace atoms::cli {

// Errors are one line naming the argument, e.g. "unknown option '--conf'". --help and -h are not
// special here (the dispatcher looks for them first).
Result<Args> parseArgs(const std::vector<std::string>& args, const Command& command);

}  // namespace atoms::cli
