#include "daemon/cli/commands.h"

namespace atoms::cli {

std::vector<Command> allCommands() {
  return {
      demoCommand(),    initCommand(),           serveCommand(),  identityCommand(),
      verifyCommand(),  exportSegmentsCommand(), backupCommand(), restoreCommand(),
      updateCommand(),  verifySegmentsCommand(), ingestCommand(), siteCommand(),
      panelCommand(),   checkCommand(),          solveCommand(),  scheduleCommand(),
      versionCommand(),
  };
}

}  // namespace atoms::cli
