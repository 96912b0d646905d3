// `atoms-edge verify-segments`: an independent check of exported segments with only the public key.
#include <fstream>
#include <iostream>
#include <string>

#include "base/bytes.h"
#include "daemon/cli/commands.h"
#include "store/signed_note.h"
#include "sync/segment.h"

namespace atoms::cli {
namespace {

int verifyStream(std::istream& in, VerifierKey key, Io& io) {
  SegmentVerifier verifier(std::move(key));
  std::string line;
  std::uint64_t lineNo = 0, receipts = 0, segments = 0;
  while (std::getline(in, line)) {
    ++lineNo;
    if (line.empty()) continue;
    auto segment = parseSegment(line);
    auto accepted = segment ? verifier.accept(*segment) : Result<AcceptedSegment>(segment.error());
    if (!accepted) {
      io.err << "atoms-edge verify-segments: REJECTED line " << lineNo << ": " << accepted.message()
             << "\n";
      return kExitFailure;
    }
    receipts += accepted->receipts;
    ++segments;
  }
  if (in.bad()) {
    io.err << "atoms-edge verify-segments: read error after line " << lineNo << "\n";
    return kExitFailure;
  }
  const VerifiedState& state = verifier.state();
  io.out << "ok: " << segments << " segments, entries [0, " << state.size << "), " << receipts
         << " receipts verified; root " << toBase64(state.root) << "\n";
  return kExitOk;
}

int runVerifySegments(const Args& args, Io& io) {
  auto key = VerifierKey::parse(args.get("key", ""));
  if (!key) {
    io.err << "atoms-edge verify-segments: --key: " << key.message() << "\n";
    return kExitUsage;
  }
  if (args.positionals.empty() || args.positionals[0] == "-") {
    return verifyStream(std::cin, std::move(*key), io);
  }
  std::ifstream file(args.positionals[0]);
  if (!file) {
    io.err << "atoms-edge verify-segments: cannot read " << args.positionals[0] << "\n";
    return kExitFailure;
  }
  return verifyStream(file, std::move(*key), io);
}

}  // namespace

Command verifySegmentsCommand() {
  return Command{
      .name = "verify-segments",
      .summary = "check exported segments with nothing but the site's verifier key",
      .usage = "atoms-edge verify-segments --key VKEY [FILE|-]",
      .help =
          "Reads segments (one JSON per line, as export-segments writes them, starting at\n"
          "entry 0) from FILE or standard input and checks each in order as the cloud does:\n"
          "the checkpoint signature, every entry's format, seq and prev chain, every receipt\n"
          "signature, the Merkle root and the consistency proof from the previous segment.\n"
          "Needs no database and no secret. Exits 0 with a summary, or 1 naming the first\n"
          "segment line that fails and why.\n",
      .options = {{"key", "VKEY", "the site's verifier key (atoms-edge identity prints it)"}},
      .minPositionals = 0,
      .maxPositionals = 1,
      .run = runVerifySegments,
  };
}

}  // namespace atoms::cli
