// `atoms-edge demo`: the embedded default a newcomer runs first.
#include <cstdlib>
#include <filesystem>
#include <ostream>

#include "daemon/cli/commands.h"
#include "daemon/demo/foundation_demo.h"
#include "daemon/demo/sms_demo.h"

namespace atoms::cli {
namespace {

int runDemo(const Args& args, Io& io) {
  std::string dir = args.get("state-dir", "");
  if (dir.empty()) {
    std::string pattern = (std::filesystem::temp_directory_path() / "atoms-demo-XXXXXX").string();
    if (::mkdtemp(pattern.data()) == nullptr) {
      io.err << "atoms-edge demo: cannot create a temporary directory\n";
      return kExitFailure;
    }
    dir = pattern;
  }
  if (runFoundationDemo(dir, io.out, io.err) != 0) return kExitFailure;
  return runSmsDemo(dir, io.out, io.err) == 0 ? kExitOk : kExitFailure;
}

}  // namespace

Command demoCommand() {
  return Command{
      .name = "demo",
      .summary = "run a small simulated site on this machine",
      .usage = "atoms-edge demo [--state-dir DIR]",
      .help =
          "Creates a site store (in a new temporary directory unless --state-dir names a new\n"
          "one), replays a shift lead's text on a simulated clock through the engine, signs a\n"
          "receipt and checkpoints, fires a timer, then verifies the log end to end and checks\n"
          "an export with only the site's public key. Then simulated phones text the box\n"
          "through the real SMS layer: HELP, WHY, a number the site does not know, a notice\n"
          "held through quiet hours, STOP. Leaves the directory for inspection.\n",
      .options = {{"state-dir", "DIR", "where to create the demo site (default: a new temp dir)"}},
      .minPositionals = 0,
      .maxPositionals = 0,
      .run = runDemo,
  };
}

}  // namespace atoms::cli
