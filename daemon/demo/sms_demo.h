// The SMS part of `atoms-edge demo`: the real SMS layer (inbox, outbox, dispatcher, conversation
// rules) over the simulated gateway, on a simulated clock, in the demo's store. Simulated phones
// text the box; the demo prints what each phone receives and what was decided:
//   - a cook asks HELP, then WHY (the sources of the last text's receipt);
//   - a number the site does not know writes twice (one polite reply a day);
//   - a notice at 22:30 waits for the end of quiet hours and goes out at 08:00;
//   - STOP is confirmed once, and nothing else reaches that phone afterwards.
// Single-threaded: messages are handled and sent in passes the demo runs itself.
#pragma once

#include <iosfwd>
#include <string>

namespace atoms {

// Runs in stateDir, a state directory made by runFoundationDemo (same site id). Returns 0 when
// every step did what the demo says it does.
int runSmsDemo(const std::string& stateDir, std::ostream& out, std::ostream& err);

}  // namespace atoms
