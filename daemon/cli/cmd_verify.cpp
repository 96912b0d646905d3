// `atoms-edge verify`: checks a state directory's audit log end to end.
#include <ostream>

#include "base/bytes.h"
#include "daemon/cli/commands.h"
#include "daemon/cli/state_dir_option.h"
#include "store/checkpoint.h"
#include "store/log_verifier.h"
#include "store/signed_note.h"
#include "store/state_dir.h"

namespace atoms::cli {
namespace {

int runVerify(const Args& args, Io& io) {
  auto state = openStateDir(statePathsOf(args), OpenMode::ReadOnly);
  if (!state) {
    io.err << "atoms-edge verify: " << state.message() << "\n";
    return kExitFailure;
  }
  const SiteIdentity& id = state->identity;
  VerifierKey key = VerifierKey::fromPublicKey(originForSite(id.siteId), id.publicKey);
  if (args.has("key")) {
    auto pinned = VerifierKey::parse(args.get("key", ""));
    if (!pinned) {
      io.err << "atoms-edge verify: --key: " << pinned.message() << "\n";
      return kExitUsage;
    }
    key = std::move(*pinned);
  }
  const VerifyReport report = verifyDatabase(state->db, key, id.siteId);
  if (!report.ok()) {
    io.err << "atoms-edge verify: FAILED";
    if (report.firstBadSeq) io.err << " at seq " << *report.firstBadSeq;
    io.err << ": " << report.problem << "\n";
    return kExitFailure;
  }
  if (!args.has("quiet")) {
    io.out << "ok: " << report.entries << " entries, " << report.checkpoints << " checkpoints, "
           << report.receipts << " receipts verified; root " << toBase64(report.root) << "\n";
  }
  return kExitOk;
}

}  // namespace

Command verifyCommand() {
  return Command{
      .name = "verify",
      .summary = "check every audit entry, checkpoint and receipt of a state directory",
      .usage = "atoms-edge verify [--state-dir DIR] [--key VKEY] [--quiet]",
      .help =
          "Reads the audit log in one pass and checks that entries are contiguous from seq 0,\n"
          "canonical, chained by prev, match their stored leaf hashes, that every checkpoint\n"
          "is signed by the site key and matches the Merkle tree at its size, and that every\n"
          "receipt's signature verifies. Prints a summary and exits 0, or names the first bad\n"
          "seq (or checkpoint) and exits 1. With --key, checks against that verifier key\n"
          "(for instance the one the cloud pinned) instead of the box's own.\n",
      .options = {stateDirOption(),
                  {"key", "VKEY", "verifier key to check against (default: the site's own)"},
                  {"quiet", "", "print nothing when everything verifies"}},
      .minPositionals = 0,
      .maxPositionals = 0,
      .run = runVerify,
  };
}

}  // namespace atoms::cli
