// The demo's simulated phones, typed into: after the scripted call-out, a newcomer (or a test, or
// later the panel) texts the box from any phone of the cast and watches what it does. One command
// a line:
//   Cleo: 4821          the text "4821" from Cleo's phone (a name, first name, id or phone number;
//                       an unknown number texts as a stranger)
//   wait 5              the simulated clock moves 5 minutes (1-1440): waves, escalations, expiries
//   phones              who is who: phone, stations, hours this week, what matters for call-outs
//   inbox Cleo          what Cleo's phone received
//   help                this list
//   quit                (or end of input) the end
// Every text the box sends is printed as it goes out, with what the box decided.
//
// Reads `in` until quit or its end; writes to `out` (flushed after each command, so a pipe sees
// each answer before the next command). Returns 0, or 1 when the box failed a step (named on err).
#pragma once

#include <iosfwd>
#include <map>
#include <string>

#include "daemon/demo/simulated_site.h"

namespace atoms::demo {

// `notes`: person id -> what the cast list says about them beyond their stations ("kitchen shift
// lead"). `prompt`: print "> " before each command (for a person at a terminal).
int runPhonePrompt(SimulatedSite& site, const std::map<std::string, std::string>& notes,
                   std::istream& in, std::ostream& out, std::ostream& err, bool prompt);

}  // namespace atoms::demo
