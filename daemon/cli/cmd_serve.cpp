// `atoms-edge serve`: the site service (what the systemd unit runs).
#include <iostream>

#include "daemon/cli/commands.h"
#include "daemon/service/service.h"

namespace atoms::cli {
namespace {

int runServe(const Args& args, Io& io) {
  return runService(args.get("config", kDefaultConfigPath), io.err);
}

}  // namespace

Command serveCommand() {
  return Command{
      .name = "serve",
      .summary = "run the site service until SIGTERM",
      .usage = "atoms-edge serve [--config FILE]",
      .help =
          "Runs the site service in the foreground: opens the state directory (database and\n"
          "keys), starts the engine, logs msg=\"ready\", and runs until SIGTERM or SIGINT,\n"
          "then stops everything in reverse order and exits 0. Logs go to stderr, one line\n"
          "per event (journald keeps them under systemd).\n"
          "\n"
          "Refuses to start, with one log line naming the problem and exit status 78, when\n"
          "the config file is missing or unreadable, has an unknown key or a bad value, or\n"
          "the state directory, a key or the database is missing or wrong. The keys are\n"
          "described in the shipped atoms-edge.conf and docs/configuration.md.\n",
      .options = {{"config", "FILE",
                   std::string("configuration file (default ") + kDefaultConfigPath + ")"}},
      .minPositionals = 0,
      .maxPositionals = 0,
      .run = runServe,
  };
}

}  // namespace atoms::cli
