// `atoms-edge export-segments`: writes the audit log as sync segments, one JSON per line.
#include <charconv>
#include <ostream>

#include "daemon/cli/commands.h"
#include "daemon/cli/state_dir_option.h"
#include "store/site_store.h"
#include "sync/segment.h"

namespace atoms::cli {
namespace {

// 1 MiB: far below any MQTT broker's message limit, and above the largest batch (512 KiB).
constexpr std::size_t kDefaultSegmentBytes = 1024 * 1024;

Result<std::uint64_t> parseCount(const Args& args, const std::string& name, std::uint64_t def) {
  if (!args.has(name)) return def;
  const std::string text = args.get(name, "");
  std::uint64_t value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || text.empty()) {
    return makeError("--" + name + " takes a whole number, not '" + text + "'");
  }
  return value;
}

int runExport(const Args& args, Io& io) {
  auto store = SiteStore::open(statePathsOf(args));
  if (!store) {
    io.err << "atoms-edge export-segments: " << store.message() << "\n";
    return kExitFailure;
  }
  AuditLog& log = (*store)->log();
  auto from = parseCount(args, "from", 0);
  auto to = parseCount(args, "to", log.signedSize());
  auto maxBytes = parseCount(args, "max-bytes", kDefaultSegmentBytes);
  for (const auto* r : {&from, &to, &maxBytes}) {
    if (!*r) {
      io.err << "atoms-edge export-segments: " << r->message() << "\n";
      return kExitUsage;
    }
  }
  if (*from > *to) {
    io.err << "atoms-edge export-segments: --from " << *from << " is past --to " << *to << "\n";
    return kExitUsage;
  }
  auto segments = buildSegments(log, *from, *to, *maxBytes);
  if (!segments) {
    io.err << "atoms-edge export-segments: " << segments.message() << "\n";
    return kExitFailure;
  }
  for (const Segment& s : *segments) io.out << segmentJson(s) << "\n";
  io.out.flush();
  return io.out ? kExitOk : kExitFailure;
}

}  // namespace

Command exportSegmentsCommand() {
  return Command{
      .name = "export-segments",
      .summary = "write the audit log as signed sync segments (one JSON per line)",
      .usage = "atoms-edge export-segments [--state-dir DIR] --from N [--to M] [--max-bytes B]",
      .help =
          "Writes the entries [N, M) as segments, the same payloads the sync uplink publishes:\n"
          "each carries its entries, the consistency proof from its start and the signed\n"
          "checkpoint at its end. N must be 0 or a signed size, M a signed size (default: the\n"
          "newest). Segments are cut at signed sizes to stay within B bytes (default 1 MiB).\n"
          "Anyone holding only the site's verifier key (atoms-edge identity) can check the\n"
          "output with `atoms-edge verify-segments --key VKEY`. The exported checkpoint is\n"
          "recorded as published first, so this box will never sign a conflicting one.\n",
      .options = {stateDirOption(),
                  {"from", "N", "first entry (0 or a signed size; default 0)"},
                  {"to", "M", "end, exclusive (a signed size; default the newest)"},
                  {"max-bytes", "B", "segment size bound in bytes (default 1048576)"}},
      .minPositionals = 0,
      .maxPositionals = 0,
      .run = runExport,
  };
}

}  // namespace atoms::cli
