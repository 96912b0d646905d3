#include "daemon/cli/commands.h"

namespace atoms::cli {

std::vector<Command> allCommands() {
  return {
      demoCommand(),
      initCommand(),
      serveCommand(),
      identityCommand(),
      verifyCommand(),
      exportSegmentsCommand(),
      verifySegmentsCommand(),
      siteCommand(),
      versionCommand(),
  };
}

}  // namespace atoms::cli
