// The table of `atoms-edge` subcommands. Each command lives in its own cmd_<name>.cpp and returns
// its Command from the function declared here; allCommands() lists them in the order `--help`
// shows them. See README.md.
#pragma once

#include <vector>

#include "daemon/cli/command.h"

namespace atoms::cli {

Command initCommand();
Command serveCommand();
Command identityCommand();
Command verifyCommand();
Command exportSegmentsCommand();
Command backupCommand();
Command restoreCommand();
Command updateCommand();
Command verifySegmentsCommand();
Command ingestCommand();
Command demoCommand();
Command siteCommand();
Command checkCommand();
Command panelCommand();
Command versionCommand();
Command solveCommand();
Command scheduleCommand();

std::vector<Command> allCommands();

}  // namespace atoms::cli
