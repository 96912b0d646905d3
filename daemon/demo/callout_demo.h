// The call-out part of `atoms-edge demo` (docs/demo.md): a simulated restaurant in San Francisco
// (etc/demo/callout-site.json: 31 people on 6 stations, a week of shifts, two minors, people near
// overtime) run by the real call-out flow (simulated_site.h) on a simulated clock, told as it
// happens (callout_narrator.h):
//   1. 16:55 the kitchen lead texts that Jamal isn't here: who is offered the shift and in what
//      order, who is not and why (the 15-year-old by the minors' hours rules, no food handler
//      card, no consent, already working...), the check-in handoff; the first cook to reply with
//      their code gets it, a later one hears it is already covered, the lead gets a confirmation;
//      WHY reads out a text's sources.
//   2. 17:10 the floor lead says the bartender can't make it: the only one who may take it would
//      be on overtime; nobody covers it in 20 minutes, so the general manager is told; the
//      bartender takes it, and it waits for their manager of record's APPROVE.
// Each step is checked: the demo is also a smoke test of the flow. Then, with `phones`, the
// newcomer types into the phones (phone_prompt.h).
#pragma once

#include <iosfwd>
#include <string>

namespace atoms {

struct CalloutDemoOptions {
  std::string siteFile;  // etc/demo/callout-site.json
  std::string laborDir;  // etc/labor
  // Non-null: after the walk-through, commands for the simulated phones are read from it.
  std::istream* phones = nullptr;
  bool prompt = false;  // print a prompt before each command (a person at a terminal)
};

// Runs in stateDir, made by runFoundationDemo (site id demo-bistro); replaces its site with the
// demo site. Returns 0 when every step did what the demo says it does.
int runCalloutDemo(const std::string& stateDir, const CalloutDemoOptions& options,
                   std::ostream& out, std::ostream& err);

}  // namespace atoms
