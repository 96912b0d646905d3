#include "daemon/engine/stall_watchdog.h"

#include <exception>

#include "daemon/log/log.h"

namespace atoms {
namespace {

// "1 minute", "12 minutes".
std::string minutesBetween(TimePoint from, TimePoint to) {
  const auto n = std::chrono::duration_cast<std::chrono::minutes>(to - from).count();
  return std::to_string(n) + (n == 1 ? " minute" : " minutes");
}

std::string prefix(const StallWatchdogOptions& o) {
  return (o.site.empty() ? std::string("The site") : o.site) + " box: ";
}

}  // namespace

StallWatchdog::StallWatchdog(Clock& clock, Poco::Logger& logger, StallWatchdogOptions options,
                             Callback escalate, Callback audit)
    : clock_(clock),
      logger_(logger),
      options_(std::move(options)),
      escalate_(std::move(escalate)),
      audit_(std::move(audit)) {}

StallWatchdog::~StallWatchdog() { stop(); }

void StallWatchdog::beat(TimePoint at) {
  std::lock_guard lock(mutex_);
  lastBeat_ = at;
}

void StallWatchdog::publish(std::vector<WatchedItem> items, TimePoint at) {
  std::lock_guard lock(mutex_);
  items_ = std::move(items);
  itemsAt_ = at;
}

std::vector<Stall> StallWatchdog::stallsAt(TimePoint now) {
  std::vector<Stall> out;
  const std::string who = prefix(options_);
  if (lastBeat_ && now > *lastBeat_ + options_.heartbeatEvery + options_.missAfter) {
    out.push_back({"engine", who + "the scheduling engine has not run for " +
                                 minutesBetween(*lastBeat_, now) +
                                 ", so texts and reminders may be stuck. Please restart the box "
                                 "or call your support contact."});
  }
  for (const WatchedItem& item : items_) {
    const std::string waited = minutesBetween(item.since, now);
    switch (item.kind) {
      case WatchedItem::Kind::kApproval:
        if (itemsAt_ > item.since) {
          out.push_back({"approval:" + item.id,
                         who + "approval " + item.id + " expired " + waited +
                             " ago and is still waiting. Please check the approvals."});
        }
        break;
      case WatchedItem::Kind::kHumanPacket:
        if (itemsAt_ > item.since + 2 * item.sla) {
          out.push_back({"human_packet:" + item.id, who + "a decision for a person (packet " +
                                                        item.id + ") has waited " + waited +
                                                        ". Please check the approvals."});
        }
        break;
      case WatchedItem::Kind::kSafetyIncident:
        if (itemsAt_ > item.since + 2 * item.sla) {
          out.push_back({"safety:" + item.id, who + "safety alert " + item.id + " has been open " +
                                                  waited +
                                                  " with no ACK. Please call the site now."});
        }
        break;
    }
  }
  return out;
}

std::vector<Stall> StallWatchdog::check() {
  const TimePoint now = clock_.now();  // the watchdog's own reading, not the engine's
  std::vector<Stall> due;
  {
    std::lock_guard lock(mutex_);
    // What was escalated within repeatAfter stays here; older entries may be escalated again.
    std::erase_if(escalatedAt_,
                  [&](const auto& e) { return now - e.second >= options_.repeatAfter; });
    for (Stall& stall : stallsAt(now)) {
      if (escalatedAt_.count(stall.key) != 0) continue;
      escalatedAt_[stall.key] = now;  // before the call: never twice, even if it throws
      due.push_back(std::move(stall));
    }
  }
  for (const Stall& stall : due) {
    logError(logger_, "silent stall: escalated", {{"stall", stall.key}, {"text", stall.text}});
    call(escalate_, stall, "escalation");
    call(audit_, stall, "audit");
  }
  {
    std::lock_guard lock(mutex_);
    if (!checkedAt_ || *checkedAt_ < now) checkedAt_ = now;
  }
  changed_.notify_all();
  return due;
}

void StallWatchdog::call(const Callback& callback, const Stall& stall, const char* what) {
  if (!callback) return;
  try {
    callback(stall);
  } catch (const std::exception& e) {
    logError(logger_, "silent stall: the callback failed",
             {{"stall", stall.key}, {"step", what}, {"error", e.what()}});
  } catch (...) {
    logError(logger_, "silent stall: the callback failed", {{"stall", stall.key}, {"step", what}});
  }
}

void StallWatchdog::start() {
  if (thread_.joinable()) return;
  // Registered outside mutex_: the clock calls listeners under its own lock.
  std::optional<Clock::ListenerId> listener;
  if (!clock_.followsSystemTime()) {
    listener = clock_.addListener([this] {
      {
        std::lock_guard lock(mutex_);
        woken_ = true;
      }
      changed_.notify_all();
    });
  }
  std::lock_guard lock(mutex_);
  stopping_ = false;
  woken_ = true;  // the first pass runs at once
  startedAt_ = std::chrono::steady_clock::now();
  listener_ = listener;
  thread_ = std::thread([this] { threadMain(); });
}

void StallWatchdog::stop() {
  std::optional<Clock::ListenerId> listener;
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
    listener = listener_;
    listener_.reset();
  }
  if (listener) clock_.removeListener(*listener);
  changed_.notify_all();
  if (thread_.joinable()) thread_.join();
}

bool StallWatchdog::waitUntilChecked(TimePoint at, std::chrono::milliseconds deadline) {
  std::unique_lock lock(mutex_);
  return changed_.wait_for(lock, deadline, [&] { return checkedAt_ && *checkedAt_ >= at; });
}

void StallWatchdog::threadMain() {
  for (;;) {
    {
      std::unique_lock lock(mutex_);
      const auto ready = [this] { return stopping_ || woken_; };
      if (clock_.followsSystemTime()) {
        changed_.wait_for(lock, options_.checkEvery, ready);
      } else {
        changed_.wait(lock, ready);
      }
      if (stopping_) return;
      woken_ = false;
    }
    try {
      (void)check();
    } catch (const std::exception& e) {
      logError(logger_, "silent stall watchdog: a check failed", {{"error", e.what()}});
    } catch (...) {
      logError(logger_, "silent stall watchdog: a check failed");
    }
    std::lock_guard lock(mutex_);
    passedAt_ = std::chrono::steady_clock::now();
  }
}

bool StallWatchdog::passIsRecent(std::optional<std::chrono::steady_clock::time_point> lastPass,
                                 std::chrono::steady_clock::time_point now,
                                 std::chrono::milliseconds checkEvery) {
  return lastPass && now - *lastPass <= 3 * checkEvery;
}

bool StallWatchdog::vouches(std::chrono::steady_clock::time_point now) const {
  std::lock_guard lock(mutex_);
  if (!startedAt_ || stopping_ || !clock_.followsSystemTime()) return true;
  // Until the first pass, the start counts as one: the thread has just been made.
  return passIsRecent(passedAt_ ? passedAt_ : startedAt_, now, options_.checkEvery);
}

}  // namespace atoms
