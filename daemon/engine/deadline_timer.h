// DeadlineTimer: one engine timer kept at the deadline its owner wants now (the next held message's
// release, the next safety reminder). setAt() moves it, cancels it (nullopt) or leaves it alone
// when the deadline is unchanged; when it fires it calls `fire` once, and is unset until set again.
//
// Threading: the engine thread only (Engine::schedule/cancel are engine-thread only), including
// the destructor, which cancels a pending timer. The Engine must outlive it.
#pragma once

#include <functional>
#include <optional>

#include "daemon/engine/engine.h"

namespace atoms {

class DeadlineTimer {
 public:
  DeadlineTimer(Engine& engine, std::function<void()> fire)
      : engine_(engine), fire_(std::move(fire)) {}
  ~DeadlineTimer() { setAt(std::nullopt); }
  DeadlineTimer(const DeadlineTimer&) = delete;
  DeadlineTimer& operator=(const DeadlineTimer&) = delete;

  void setAt(std::optional<TimePoint> at) {
    if (at == at_) return;
    if (timer_) engine_.cancel(*timer_);
    timer_.reset();
    at_ = at;
    if (!at_) return;
    timer_ = engine_.schedule(*at_, [this] {
      timer_.reset();
      at_.reset();
      fire_();
    });
  }
  std::optional<TimePoint> at() const { return at_; }

 private:
  Engine& engine_;
  std::function<void()> fire_;
  std::optional<Engine::TimerId> timer_;
  std::optional<TimePoint> at_;
};

}  // namespace atoms
