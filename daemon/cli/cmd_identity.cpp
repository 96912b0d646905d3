// `atoms-edge identity`: who this box is, for the cloud and for auditors.
#include <ostream>

#include "base/bytes.h"
#include "daemon/cli/commands.h"
#include "daemon/cli/state_dir_option.h"
#include "store/checkpoint.h"
#include "store/signed_note.h"
#include "store/state_dir.h"

namespace atoms::cli {
namespace {

int runIdentity(const Args& args, Io& io) {
  auto state = openStateDir(statePathsOf(args), OpenMode::ReadOnly);
  if (!state) {
    io.err << "atoms-edge identity: " << state.message() << "\n";
    return kExitFailure;
  }
  const SiteIdentity& id = state->identity;
  const auto vkey = VerifierKey::fromPublicKey(originForSite(id.siteId), id.publicKey);
  io.out << "site " << id.siteId << "\n"
         << "origin " << originForSite(id.siteId) << "\n"
         << "public-key " << toHex(id.publicKey) << "\n"
         << "verifier-key " << vkey.toString() << "\n";
  return kExitOk;
}

}  // namespace

Command identityCommand() {
  return Command{
      .name = "identity",
      .summary = "print the site id and its public verifier key",
      .usage = "atoms-edge identity [--state-dir DIR]",
      .help =
          "Prints the site id, the checkpoint origin, the Ed25519 public key (hex) and the\n"
          "verifier key in C2SP note form (name+id+key), which is all a third party needs to\n"
          "check this site's exported segments (atoms-edge verify-segments --key).\n",
      .options = {stateDirOption()},
      .minPositionals = 0,
      .maxPositionals = 0,
      .run = runIdentity,
  };
}

}  // namespace atoms::cli
