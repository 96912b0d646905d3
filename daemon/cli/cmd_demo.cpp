// `atoms-edge demo`: the embedded default a newcomer runs first.
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <ostream>
#include <string>
#include <vector>

#include "daemon/cli/commands.h"
#include "daemon/demo/callout_demo.h"
#include "daemon/demo/foundation_demo.h"
#include "daemon/demo/panel_invitation.h"
#include "daemon/demo/sms_demo.h"

namespace atoms::cli {
namespace {

namespace fs = std::filesystem;

constexpr const char* kDemoSite = "demo/callout-site.json";

// The shipped etc/ (labor rules and the demo site): --etc-dir, else the etc/ of the checkout the
// binary was built in (build/daemon/atoms-edge -> etc/), else ./etc. Empty when it (or, without
// --etc-dir, none of them) has both.
std::string findEtcDir(const Args& args) {
  std::error_code ec;
  std::vector<fs::path> candidates;
  if (args.has("etc-dir")) {
    candidates.push_back(args.get("etc-dir", ""));
  } else {
    const fs::path self = fs::read_symlink("/proc/self/exe", ec);
    for (fs::path dir = ec ? fs::path() : self.parent_path();
         !dir.empty() && dir != dir.root_path(); dir = dir.parent_path()) {
      candidates.push_back(dir / "etc");
    }
    candidates.push_back(fs::current_path(ec) / "etc");
  }
  for (const fs::path& etc : candidates) {
    if (fs::is_regular_file(etc / kDemoSite, ec) && fs::is_directory(etc / "labor", ec)) {
      return etc.string();
    }
  }
  return "";
}

int runDemo(const Args& args, Io& io) {
  const std::string etc = findEtcDir(args);
  if (etc.empty()) {
    io.err << "atoms-edge demo: cannot find the shipped etc/ directory (labor/ and " << kDemoSite
           << "); give it with --etc-dir DIR\n";
    return kExitUsage;
  }
  std::string dir = args.get("state-dir", "");
  if (dir.empty()) {
    std::string pattern = (fs::temp_directory_path() / "atoms-demo-XXXXXX").string();
    if (::mkdtemp(pattern.data()) == nullptr) {
      io.err << "atoms-edge demo: cannot create a temporary directory\n";
      return kExitFailure;
    }
    dir = pattern;
  }
  if (runFoundationDemo(dir, io.out, io.err) != 0) return kExitFailure;
  if (runSmsDemo(dir, io.out, io.err) != 0) return kExitFailure;
  // Someone at a terminal gets the phones after the walk-through; a pipe only with --interactive,
  // so CI and scripts see the scripted part alone.
  const bool terminal = ::isatty(STDIN_FILENO) == 1;
  CalloutDemoOptions options;
  options.siteFile = etc + "/" + kDemoSite;
  options.laborDir = etc + "/labor";
  if (terminal || args.has("interactive")) options.phones = &std::cin;
  options.prompt = terminal;
  if (runCalloutDemo(dir, options, io.out, io.err) != 0) return kExitFailure;
  std::error_code ec;
  const fs::path self = fs::read_symlink("/proc/self/exe", ec);
  if (Status s = demo::printPanelInvitation(dir, fs::absolute(etc, ec).string(),
                                            ec ? "atoms-edge" : self.string(), io.out);
      !s) {
    io.err << "atoms-edge demo: the panel's invite: " << s.message() << "\n";
    return kExitFailure;
  }
  return kExitOk;
}

}  // namespace

Command demoCommand() {
  return Command{
      .name = "demo",
      .summary = "run a small simulated site on this machine",
      .usage = "atoms-edge demo [--state-dir DIR] [--etc-dir DIR] [--interactive]",
      .help =
          "Creates a site store (in a new temporary directory unless --state-dir names a new\n"
          "one), replays a shift lead's text on a simulated clock through the engine, signs a\n"
          "receipt and checkpoints, fires a timer, then verifies the log end to end and checks\n"
          "an export with only the site's public key. Then simulated phones text the box\n"
          "through the real SMS layer: HELP, WHY, a number the site does not know, a notice\n"
          "held through quiet hours, STOP. Then a whole call-out at a simulated restaurant in\n"
          "San Francisco (etc/demo/callout-site.json, the labor rules of etc/labor): a lead\n"
          "texts that a cook isn't here; who is offered the shift and who is not, and why; the\n"
          "first taker gets it, a late one hears it is covered; an overtime cover waits for the\n"
          "manager's APPROVE; the general manager hears after 20 minutes; the receipts.\n"
          "Then, at a terminal (or with --interactive), type into the simulated phones:\n"
          "`Rosa: Omar isn't here`, `wait 5`, `phones`, `inbox Ana`, `help`, `quit`.\n"
          "Leaves the directory for inspection.\n",
      .options = {{"state-dir", "DIR", "where to create the demo site (default: a new temp dir)"},
                  {"etc-dir", "DIR",
                   "the shipped etc/ with labor/ and demo/ (default: found from the binary)"},
                  {"interactive", "", "read phone commands from stdin even when not a terminal"}},
      .minPositionals = 0,
      .maxPositionals = 0,
      .run = runDemo,
  };
}

}  // namespace atoms::cli
