#include "daemon/demo/panel_invitation.h"

#include <chrono>

#include "base/file_io.h"
#include "daemon/panel/panel_auth.h"
#include "store/state_dir.h"

namespace atoms::demo {

Status printPanelInvitation(const std::string& stateDir, const std::string& etcDir,
                            const std::string& binary, std::ostream& out) {
  const std::string config = stateDir + "/panel-demo.conf";
  const std::string text =
      std::string("# Written by `atoms-edge demo`: the panel on its simulated site.\n") +
      "state.dir = " + stateDir + "\n" + "labor.rules_dir = " + etcDir + "/labor\n" +
      "policy.owners = " + kDemoPanelOwner + "\n" + "panel.listen = " + kDemoPanelListen + "\n";
  if (Status s = replaceFileDurably(config, text); !s) return s;
  auto state = openStateDir(resolveStatePaths(stateDir), OpenMode::ReadOnly);
  if (!state) return state.error();
  auto invite = panel::prepareInvite(state->db, state->identity, {kDemoPanelOwner}, kDemoPanelOwner,
                                     std::chrono::system_clock::now(), std::chrono::hours(72));
  if (!invite) return invite.error();
  out << "\nThe manager's panel on this site: start the box on it with\n\n"
      << "  " << binary << " serve --config " << config << "\n\n"
      << "and open https://" << kDemoPanelListen << "/#invite=" << invite->token << "\n"
      << "to sign in as Kwame Asante, the general manager (choose a password; the invite works\n"
      << "once, for 72 hours). The browser warns about the box's own certificate: serve prints\n"
      << "its fingerprint (docs/panel.md, \"Trusting the certificate\"). Texts are off there.\n";
  return Status::success();
}

}  // namespace atoms::demo
