// `atoms-edge check SITEFILE [--json]`: placeholder until the labor check lands (issue #3).
#include <ostream>

#include "daemon/cli/commands.h"

namespace atoms::cli {

Command checkCommand() {
  return Command{
      .name = "check",
      .summary = "check a schedule file against the labor rules",
      .usage = "atoms-edge check SITEFILE [--json]",
      .help = "Not implemented yet.\n",
      .options = {{"json", "", "print the findings as JSON"}},
      .minPositionals = 1,
      .maxPositionals = 1,
      .run = [](const Args&, Io& io) {
        io.err << "check: not implemented yet\n";
        return kExitSoftware;
      },
  };
}

}  // namespace atoms::cli
