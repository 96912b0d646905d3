// `atoms-edge identity`: who this box is, for the cloud and for auditors.
#include <ostream>

#include "base/bytes.h"
#include "daemon/cli/commands.h"
#include "daemon/cli/state_dir_option.h"
#include "daemon/panel/box_certificate.h"
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
  // The box's own panel certificate; an operator's (panel.cert_file) is theirs to describe.
  const auto certPaths = panel::BoxCertificatePaths::under(stateDirOf(args));
  if (auto cert = panel::readCertificate(certPaths.cert)) {
    io.out << "panel-certificate-sha256 " << cert->fingerprint << "\n";
  } else if (cert.error().kind == ErrorKind::kNotFound) {
    io.out << "panel-certificate-sha256 none (made by `serve` when the panel starts)\n";
  } else {
    io.err << "atoms-edge identity: " << cert.message() << "\n";
    return kExitFailure;
  }
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
          "check this site's exported segments (atoms-edge verify-segments --key).\n"
          "Then the SHA-256 fingerprint of the panel's own certificate (DIR/panel.crt),\n"
          "to compare with what a browser shows (docs/panel.md).\n",
      .options = {stateDirOption()},
      .minPositionals = 0,
      .maxPositionals = 0,
      .run = runIdentity,
  };
}

}  // namespace atoms::cli
