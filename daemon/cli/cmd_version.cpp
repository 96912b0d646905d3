// `atoms-edge version`: this build's version and the library versions a bug report needs.
#include <ostream>

#include "daemon/cli/commands.h"
#include "daemon/version.h"

namespace atoms::cli {
namespace {

int runVersion(const Args& /*args*/, Io& io) {
  io.out << "atoms-edge " << edgeVersion() << "\n"
         << "sqlcipher " << sqlcipherVersion() << " (sqlite " << sqliteVersion() << ")\n"
         << "libsodium " << sodiumVersion() << "\n"
         << "poco " << pocoVersion() << "\n";
  return kExitOk;
}

}  // namespace

Command versionCommand() {
  return Command{
      .name = "version",
      .summary = "print the version of atoms-edge and of its libraries",
      .usage = "atoms-edge version",
      .help =
          "Prints the atoms-edge version, then the SQLCipher (and SQLite), libsodium and Poco\n"
          "versions this binary runs with, one per line.\n",
      .options = {},
      .minPositionals = 0,
      .maxPositionals = 0,
      .run = runVersion,
  };
}

}  // namespace atoms::cli
