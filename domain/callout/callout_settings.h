// CalloutSettings: the call-out desk's knobs (`callout.*` in the configuration, docs/callouts.md):
// how many offers a wave sends, how often, when a person must hear there is no cover, how long an
// approval waits, how far ahead a "next shift" is looked for, and who the general manager is.
//
// A value; validateCalloutSettings() is the desk's precondition. Thread-safe.
#pragma once

#include <chrono>
#include <string>

#include "base/result.h"

namespace atoms::callout {

struct CalloutSettings {
  int waveSize = 3;                         // offers per wave
  std::chrono::minutes waveInterval{5};     // between waves while nobody has taken it
  std::chrono::minutes escalateAfter{20};   // then the general manager is told
  std::chrono::minutes approvalExpiry{30};  // an approval not given by then lapses
  std::chrono::hours lookahead{12};         // how far ahead a "next shift" is looked for
  std::string generalManager;               // person id; empty: the site contact
};

// Ok, or one line naming the setting out of range.
Status validateCalloutSettings(const CalloutSettings& settings);

}  // namespace atoms::callout
