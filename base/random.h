// Randomness as code receives it (STYLE.md: time and randomness are passed in), so a test or a
// simulation replays the same run from a seed.
#pragma once

#include <functional>

namespace atoms {

// Returns a number uniformly distributed in [0, 1). Its user says which threads may call it.
using UnitRandom = std::function<double()>;

}  // namespace atoms
