// atoms-edge: the one binary of the site appliance. Everything is a subcommand (daemon/cli/).
#include <iostream>
#include <string>
#include <vector>

#include "base/secret.h"
#include "daemon/cli/cli.h"
#include "daemon/cli/commands.h"
#include "daemon/service/process.h"

int main(int argc, char** argv) {
  try {
    // Before anything can hold a key, and before any thread exists.
    atoms::Status noCore = atoms::disableCoreDumps();
    if (!noCore.ok()) {
      std::cerr << "atoms-edge: " << noCore.message() << "\n";
      return atoms::cli::kExitSoftware;
    }
    if (!atoms::initSodium()) {
      std::cerr << "atoms-edge: cannot initialise libsodium (no entropy source?)\n";
      return atoms::cli::kExitSoftware;
    }
    std::vector<std::string> args(argv + 1, argv + argc);
    atoms::cli::Io io{std::cout, std::cerr};
    return atoms::cli::runCli(args, atoms::cli::allCommands(), io);
  } catch (const std::exception& e) {
    std::cerr << "atoms-edge: internal error: " << e.what() << "\n";
  } catch (...) {
    std::cerr << "atoms-edge: internal error\n";
  }
  return atoms::cli::kExitSoftware;
}
