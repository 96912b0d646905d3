// `atoms-edge site import|export|validate`: moves the site model between a site file
// (docs/site-file.md) and the store.
#include <chrono>
#include <ostream>
#include <sstream>

#include "base/bytes.h"
#include "base/file_io.h"
#include "daemon/cli/commands.h"
#include "daemon/cli/site_file_input.h"
#include "daemon/cli/state_dir_option.h"
#include "domain/site/site_file.h"
#include "domain/site/site_repository.h"
#include "store/audit_entry.h"
#include "store/site_store.h"
#include "store/state_dir.h"

namespace atoms::cli {
namespace {

std::string summary(const site::SiteModel& m) {
  std::ostringstream s;
  s << "site " << m.site.id << " (" << m.site.timeZone << "): " << m.stations.size()
    << " stations, " << m.people.size() << " people, " << m.shifts.size() << " shifts, "
    << m.scheduleVersions.size() << " schedule versions, " << m.punches.size() << " punches";
  return s.str();
}

int runImport(const Args& args, Io& io, const std::string& path) {
  auto model = readSiteFile(path);
  if (!model) {
    io.err << "atoms-edge site import: " << model.message() << "\n";
    return kExitFailure;
  }
  auto store = SiteStore::open(statePathsOf(args));
  if (!store) {
    io.err << "atoms-edge site import: " << store.message() << "\n";
    return kExitFailure;
  }
  const std::string& boxSite = (*store)->identity().siteId;
  if (model->site.id != boxSite) {
    io.err << "atoms-edge site import: " << path << ": site id '" << model->site.id
           << "' is not this box's site '" << boxSite << "'\n";
    return kExitFailure;
  }
  // The rows and the audit entry commit together (AuditLog batch): the log never misses an import
  // and never records one that did not happen.
  auto batch = (*store)->log().begin();
  if (!batch) {
    io.err << "atoms-edge site import: " << batch.message() << "\n";
    return kExitFailure;
  }
  if (Status s = site::writeSiteRows((*store)->db(), *model); !s) {
    io.err << "atoms-edge site import: " << path << ": " << s.message() << "\n";
    return kExitFailure;
  }
  const std::string canonicalText = site::writeSiteFile(*model);
  const auto* bytes = reinterpret_cast<const std::uint8_t*>(canonicalText.data());
  json::Object body{
      {"site", model->site.id},
      {"stations", static_cast<std::int64_t>(model->stations.size())},
      {"people", static_cast<std::int64_t>(model->people.size())},
      {"shifts", static_cast<std::int64_t>(model->shifts.size())},
      {"scheduleVersions", static_cast<std::int64_t>(model->scheduleVersions.size())},
      {"punches", static_cast<std::int64_t>(model->punches.size())},
      {"sha256", toHex(sha256({bytes, canonicalText.size()}))},
  };
  auto seq = batch->add(formatTimestamp(std::chrono::system_clock::now()), "site.import", "cli",
                        json::Value(std::move(body)));
  if (!seq) {
    io.err << "atoms-edge site import: " << seq.message() << "\n";
    return kExitFailure;
  }
  if (auto done = batch->commit(); !done) {
    io.err << "atoms-edge site import: " << done.message() << "\n";
    return kExitFailure;
  }
  io.out << "imported " << summary(*model) << " (audit seq " << *seq << ")\n";
  return kExitOk;
}

int runSiteExport(const Args& args, Io& io) {
  auto state = openStateDir(statePathsOf(args), OpenMode::ReadOnly);
  if (!state) {
    io.err << "atoms-edge site export: " << state.message() << "\n";
    return kExitFailure;
  }
  auto model = site::loadSite(state->db);
  if (!model) {
    io.err << "atoms-edge site export: " << model.message() << "\n";
    return kExitFailure;
  }
  const std::string text = site::writeSiteFile(*model);
  if (!args.has("out")) {
    io.out << text;
    return kExitOk;
  }
  if (Status s = replaceFileDurably(args.get("out", ""), text); !s) {
    io.err << "atoms-edge site export: " << s.message() << "\n";
    return kExitFailure;
  }
  return kExitOk;
}

int runValidate(Io& io, const std::string& path) {
  auto model = readSiteFile(path);
  if (!model) {
    io.err << "atoms-edge site validate: " << model.message() << "\n";
    return kExitFailure;
  }
  io.out << "ok: " << summary(*model) << "\n";
  return kExitOk;
}

int runSite(const Args& args, Io& io) {
  const std::string& action = args.positionals[0];
  const bool hasFile = args.positionals.size() == 2;
  if (action == "import" && hasFile) return runImport(args, io, args.positionals[1]);
  if (action == "validate" && hasFile) return runValidate(io, args.positionals[1]);
  if (action == "export" && !hasFile) return runSiteExport(args, io);
  io.err << "atoms-edge site: expected 'import FILE', 'export' or 'validate FILE'\n"
         << "usage: atoms-edge site import FILE [--state-dir DIR] | export [--state-dir DIR] "
            "[--out FILE] | validate FILE\n";
  return kExitUsage;
}

}  // namespace

Command siteCommand() {
  return Command{
      .name = "site",
      .summary = "import, export or validate the site file (people, stations, shifts)",
      .usage =
          "atoms-edge site import FILE [--state-dir DIR] | export [--state-dir DIR] "
          "[--out FILE] | validate FILE",
      .help =
          "import FILE    validates the site file and replaces the site in the store, all or\n"
          "               nothing, with a site.import entry in the audit log.\n"
          "export         writes the stored site as a site file (stdout, or --out FILE).\n"
          "validate FILE  checks a site file without touching any state directory.\n"
          "A bad file gets one line naming the first bad record, exit 1, nothing changed.\n"
          "The format is described in docs/site-file.md.\n",
      .options = {stateDirOption(), {"out", "FILE", "export: write to FILE instead of stdout"}},
      .minPositionals = 1,
      .maxPositionals = 2,
      .run = runSite,
  };
}

}  // namespace atoms::cli
