// ReconnectBackoff: how long the modem worker waits before it opens a port again after a failure
// (docs/sms-modem.md, backoffInitial/backoffMax): the wait doubles from `initial` up to `max`, and
// each one is drawn between 0.8 and 1.2 times its nominal length (jitter), from the randomness the
// caller gives (base/random.h), so the same source gives the same waits. reset() after a success.
//
// Threading: one thread (the worker's).
#pragma once

#include <chrono>

#include "base/random.h"

namespace atoms::drivers::modem {

class ReconnectBackoff {
 public:
  ReconnectBackoff(std::chrono::milliseconds initial, std::chrono::milliseconds max,
                   UnitRandom random);

  // The wait before the next attempt; the one after it is twice as long (at most `max`).
  std::chrono::milliseconds next();
  // Back to `initial`.
  void reset() { nominal_ = initial_; }

 private:
  std::chrono::milliseconds initial_;
  std::chrono::milliseconds max_;
  std::chrono::milliseconds nominal_;
  UnitRandom random_;
};

}  // namespace atoms::drivers::modem
