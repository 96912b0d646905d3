// `atoms-edge panel invite PERSON`: a one-time invite with which a person who holds a panel role
// (owner, manager of record, shift lead) sets their panel password (docs/panel-accounts.md).
#include <sys/stat.h>

#include <chrono>
#include <ostream>

#include "base/timestamp.h"
#include "daemon/cli/commands.h"
#include "daemon/cli/state_dir_option.h"
#include "daemon/panel/panel_auth.h"
#include "daemon/panel/panel_config.h"
#include "daemon/service/config_schema.h"
#include "daemon/service/service.h"
#include "store/state_dir.h"

namespace atoms::cli {
namespace {

// The configuration `serve` would read: --config FILE, else the default file when there is one,
// else the defaults.
Result<Poco::AutoPtr<Poco::Util::AbstractConfiguration>> panelConfig(const Args& args) {
  const std::string path = args.get("config", kDefaultConfigPath);
  struct stat st {};
  if (!args.has("config") && ::stat(path.c_str(), &st) != 0) {
    return configDefaults(serviceConfigSchema());
  }
  return loadServiceConfig(path);
}

int runInvite(const Args& args, Io& io, const std::string& personId) {
  auto config = panelConfig(args);
  if (!config) {
    io.err << "atoms-edge panel invite: " << config.message() << "\n";
    return kExitConfig;
  }
  const panel::PanelAuthOptions options = panel::panelAuthOptionsFrom(**config);
  const std::string dir =
      args.has("state-dir") ? stateDirOf(args) : configString(**config, "state.dir");
  // Read-only: `serve` may be running and is the store's only writer. The invite is a token the
  // running box checks by itself; the audit log records it when it is used.
  auto state = openStateDir(resolveStatePaths(dir), OpenMode::ReadOnly);
  if (!state) {
    io.err << "atoms-edge panel invite: " << state.message() << "\n";
    return kExitFailure;
  }
  auto invite = panel::prepareInvite(state->db, state->identity, options.owners, personId,
                                     std::chrono::system_clock::now(), options.inviteValidity);
  if (!invite) {
    io.err << "atoms-edge panel invite: " << invite.message() << "\n";
    return kExitFailure;
  }
  io.out << "invite for " << invite->personId << " (" << panel::panelRoleName(invite->role)
         << "), valid until " << formatTimestamp(invite->expiresAt) << ":\n\n"
         << "  " << invite->token << "\n\n"
         << "Give it to them yourself (not by a shared channel). On the panel's sign-in page,\n"
         << "'I have an invite', they enter it and choose their password. It works once; a\n"
         << "newer invite for the same person also spends it. The audit log records it when\n"
         << "it is used (panel.password.set).\n";
  return kExitOk;
}

int runPanel(const Args& args, Io& io) {
  const std::string& action = args.positionals[0];
  if (action == "invite" && args.positionals.size() == 2) {
    return runInvite(args, io, args.positionals[1]);
  }
  io.err << "atoms-edge panel: expected 'invite PERSON'\n"
         << "usage: atoms-edge panel invite PERSON [--state-dir DIR] [--config FILE]\n";
  return kExitUsage;
}

}  // namespace

Command panelCommand() {
  return Command{
      .name = "panel",
      .summary = "panel accounts: invite a person to set their panel password",
      .usage = "atoms-edge panel invite PERSON [--state-dir DIR] [--config FILE]",
      .help =
          "invite PERSON  prints a one-time invite (valid panel.invite_valid_hours, 72 by\n"
          "               default) with which PERSON sets their panel password on the sign-in\n"
          "               page. Only owners (policy.owners), managers of record and shift\n"
          "               leads get accounts; anyone else is refused (exit 1). Reads the\n"
          "               state directory only, so it may run while serve runs.\n"
          "Roles and sign-in are described in docs/panel-accounts.md.\n",
      .options = {stateDirOption(),
                  {"config", "FILE",
                   std::string("configuration with policy.owners and panel.* (default ") +
                       kDefaultConfigPath + " if it exists)"}},
      .minPositionals = 1,
      .maxPositionals = 2,
      .run = runPanel,
  };
}

}  // namespace atoms::cli
