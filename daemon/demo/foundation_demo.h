// The demo a newcomer runs first (`atoms-edge demo`). For now it walks through the foundation on a
// simulated clock: a fresh encrypted site store, events handled on the engine thread, a signed
// receipt, a timer, checkpoints, end-to-end verification and an export that is checked with
// nothing but the site's public key. The call-out issue grows it into a simulated site.
#pragma once

#include <iosfwd>
#include <string>

namespace atoms {

// Runs the demo in stateDir (which must not hold a database yet). Writes a readable account to
// out and problems to err. Returns 0 when every step, including every check, succeeded.
int runFoundationDemo(const std::string& stateDir, std::ostream& out, std::ostream& err);

}  // namespace atoms
