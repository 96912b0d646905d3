// The `atoms-edge` command line: picks a command from the table (commands.h), handles --help and
// `help` for all of them, checks arguments with parseArgs, and runs the command.
//
//   atoms-edge --help | -h | help        the command list, exit 0
//   atoms-edge help <command>            that command's help, exit 0
//   atoms-edge <command> --help | -h     the same
//   atoms-edge <command> [options]       runs it; its exit code
// No command, an unknown command, an unknown option or a bad argument: one error line and the
// usage on err, exit kExitUsage (2).
#pragma once

#include <string>
#include <vector>

#include "daemon/cli/command.h"

namespace atoms::cli {

// args: the command line without the program name.
int runCli(const std::vector<std::string>& args, const std::vector<Command>& commands, Io& io);

}  // namespace atoms::cli
