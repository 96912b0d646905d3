// `atoms-edge init`: creates a state directory (keys, database, site identity) and opens the log.
#include <chrono>
#include <ostream>
#include <string>
#include <vector>

#include "base/bytes.h"
#include "daemon/cli/commands.h"
#include "daemon/cli/state_dir_option.h"
#include "daemon/panel/box_certificate.h"
#include "daemon/service/config_schema.h"
#include "store/audit_entry.h"
#include "store/site_store.h"

namespace atoms::cli {
namespace {

int runInit(const Args& args, Io& io) {
  const std::string dir = stateDirOf(args);
  const std::string siteId = args.get("site-id", "");
  if (siteId.empty()) {
    io.err << "atoms-edge init: --site-id is required\n";
    return kExitUsage;
  }
  const std::vector<std::string> panelNames =
      panel::boxCertificateNames(splitConfigList(args.get("panel-names", "")));
  for (const std::string& name : panelNames) {
    if (Status st = panel::checkCertificateName(name); !st) {
      io.err << "atoms-edge init: --panel-names: " << st.message() << "\n";
      return kExitUsage;
    }
  }
  // init makes new keys in DIR. Under systemd credentials the service would read other keys and
  // could never open this database, so refuse before creating anything.
  const StateDirPaths own = StateDirPaths::under(dir);
  const StateDirPaths resolved = statePathsOf(args);
  for (const std::string* key : {&resolved.dbKey, &resolved.siteKey}) {
    if (*key == own.dbKey || *key == own.siteKey) continue;
    io.err << "atoms-edge init: a systemd credential supplies " << *key << " ($"
           << kCredentialsDirectoryEnv << "), but init creates new keys in " << dir
           << " that the service would then not use; run init without credentials and move the "
              "keys afterwards (docs/store.md)\n";
    return kExitConfig;
  }
  if (Status st = initStateDir(dir, {siteId}); !st) {
    io.err << "atoms-edge init: " << st.message() << "\n";
    return kExitFailure;
  }
  auto store = SiteStore::open(own);
  if (!store) {
    io.err << "atoms-edge init: " << store.message() << "\n";
    return kExitFailure;
  }
  // The log's first entry names the site and its key, so the cloud's first segment says who it is.
  const std::string vkey = (*store)->verifierKey().toString();
  json::Object body{{"site", siteId}, {"verifierKey", vkey}};
  auto seq = (*store)->log().append(formatTimestamp(std::chrono::system_clock::now()), "site.init",
                                    "init", json::Value(std::move(body)));
  if (!seq) {
    io.err << "atoms-edge init: " << seq.message() << "\n";
    return kExitFailure;
  }
  // The panel's own certificate (docs/panel.md). Should this fail after the store exists, init
  // says so; `serve` makes the certificate (without the extra names) when it is missing.
  const auto certPaths = panel::BoxCertificatePaths::under(dir);
  if (Status st =
          panel::createBoxCertificate(certPaths, panelNames, std::chrono::system_clock::now());
      !st) {
    io.err << "atoms-edge init: the panel's certificate: " << st.message() << "\n";
    return kExitFailure;
  }
  auto cert = panel::readCertificate(certPaths.cert);
  if (!cert) {
    io.err << "atoms-edge init: " << cert.message() << "\n";
    return kExitFailure;
  }
  std::string names;
  for (const std::string& n : cert->names) names += (names.empty() ? "" : ", ") + n;
  // The verifier key stays the last line: scripts take it from there.
  io.out << "initialised " << dir << " for site " << siteId << "\n"
         << "panel certificate " << certPaths.cert << " for " << names << "\n"
         << "panel certificate SHA-256 fingerprint (compare it in the browser):\n"
         << cert->fingerprint << "\n"
         << "site verifier key (give it to the cloud and to auditors):\n"
         << vkey << "\n";
  return kExitOk;
}

}  // namespace

Command initCommand() {
  return Command{
      .name = "init",
      .summary = "create the state directory: keys, encrypted database, site identity",
      .usage = "atoms-edge init --site-id ID [--state-dir DIR] [--panel-names NAMES]",
      .help =
          "Creates DIR (mode 0700) with a random 256-bit database key (db.key) and an Ed25519\n"
          "site signing key (site.key), both mode 0600, and the encrypted database atoms.db,\n"
          "then writes the first audit entry (site.init) and prints the site's verifier key.\n"
          "Then makes the panel's self-signed ECDSA P-256 certificate (panel.crt, panel.key)\n"
          "for this host's name, localhost, 127.0.0.1, ::1 and --panel-names, and prints\n"
          "its SHA-256 fingerprint (docs/panel.md).\n"
          "Site ids are 1-64 characters of a-z, 0-9 and '-'. Refuses to touch a directory\n"
          "that already holds any of these files, and to run when systemd credentials\n"
          "($CREDENTIALS_DIRECTORY) supply a key. See docs/store.md.\n",
      .options = {stateDirOption(),
                  {"site-id", "ID", "this site's id (required)"},
                  {"panel-names", "NAMES",
                   "more host names and addresses for the panel's certificate, separated by "
                   "commas (e.g. box.example.lan,192.168.1.20)"}},
      .minPositionals = 0,
      .maxPositionals = 0,
      .run = runInit,
  };
}

}  // namespace atoms::cli
