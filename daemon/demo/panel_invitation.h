// The end of `atoms-edge demo` (docs/demo.md, "The panel"): the way into the manager's panel on
// the simulated site just run. It writes DIR/panel-demo.conf (serve on the demo's state
// directory with the panel on 127.0.0.1:8443 and the general manager, Kwame, as owner) and prints
// the command to start it and the address to open, with an invite for Kwame in the address's
// fragment (never sent to the box). Texts are off there: the panel shows what the demo recorded.
//
// Errors: the state directory or the file cannot be read or written; one line.
#pragma once

#include <ostream>
#include <string>

#include "base/result.h"

namespace atoms::demo {

inline constexpr char kDemoPanelListen[] = "127.0.0.1:8443";
inline constexpr char kDemoPanelOwner[] = "p-kwame";

Status printPanelInvitation(const std::string& stateDir, const std::string& etcDir,
                            const std::string& binary, std::ostream& out);

}  // namespace atoms::demo
