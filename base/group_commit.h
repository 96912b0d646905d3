// GroupCommit<Item>: many threads' items committed together, each caller answered only after the
// commit that holds its item. The way leveldb's DBImpl::Write groups writers: callers queue and
// block; the caller at the front of the queue becomes the leader, takes up to maxBatch queued items
// (its own first, then in arrival order), runs the batch function once for all of them (one
// transaction), then hands every caller of the batch its own Status and wakes the next leader.
// While one batch commits, the callers that arrive queue up and form the next one, so the batch
// size follows the load by itself: nobody sleeps or waits for a batch to fill.
//
// Contract:
// - The batch function runs on the leader's thread, never on two threads at once, without the
//   queue's lock. It gets 1..maxBatch items and a result per item (initially ok) to set; an item
//   whose result it leaves ok is committed. An exception from it fails every item of the batch.
// - submit() blocks until the item's batch has run and returns the item's result. The item is the
//   caller's: the batch function may read and write it until submit() returns (outputs go there).
// - Thread-safe. A caller must never hold what the batch function needs (a lock, the store's writer
//   thread) while it calls submit(): it may be a follower waiting for a leader that waits for it.
// - The GroupCommit must outlive every submit() in progress.
#pragma once

#include <algorithm>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <exception>
#include <functional>
#include <mutex>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "base/result.h"

namespace atoms {

// The most items one batch holds: sized to the audit log's batch bound with room to spare.
inline constexpr std::size_t kMaxGroupCommitItems = 128;

template <class Item>
class GroupCommit {
 public:
  using BatchFunction =
      std::function<void(std::span<Item* const> items, std::span<Status> results)>;

  // maxBatch is clamped to 1..kMaxGroupCommitItems; 1 commits every item on its own.
  GroupCommit(std::size_t maxBatch, BatchFunction commit)
      : maxBatch_(std::clamp<std::size_t>(maxBatch, 1, kMaxGroupCommitItems)),
        commit_(std::move(commit)) {}
  GroupCommit(const GroupCommit&) = delete;
  GroupCommit& operator=(const GroupCommit&) = delete;

  Status submit(Item& item) {
    Waiter self{&item};
    std::unique_lock<std::mutex> lock(mutex_);
    queue_.push_back(&self);
    self.wake.wait(lock, [&] { return self.done || queue_.front() == &self; });
    if (self.done) return std::move(self.result);

    // The leader: the oldest waiters, itself first, up to maxBatch_.
    const std::size_t n = std::min(queue_.size(), maxBatch_);
    std::vector<Waiter*> batch(queue_.begin(), queue_.begin() + static_cast<std::ptrdiff_t>(n));
    lock.unlock();
    std::vector<Item*> items;
    items.reserve(n);
    for (Waiter* w : batch) items.push_back(w->item);
    std::vector<Status> results(n);
    runBatch(items, results);

    lock.lock();
    for (std::size_t i = 0; i < n; ++i) {
      queue_.pop_front();  // the batch is the front of the queue: only a leader pops
      if (batch[i] == &self) continue;
      batch[i]->result = std::move(results[i]);
      batch[i]->done = true;
      batch[i]->wake.notify_one();
    }
    if (!queue_.empty()) queue_.front()->wake.notify_one();
    return std::move(results[0]);
  }

  std::size_t maxBatch() const { return maxBatch_; }
  // Callers waiting or being committed (the running batch's included): for tests and metrics.
  std::size_t queued() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return queue_.size();
  }

 private:
  struct Waiter {
    explicit Waiter(Item* i) : item(i) {}
    Item* item;
    Status result;
    bool done = false;
    std::condition_variable wake;
  };

  void runBatch(const std::vector<Item*>& items, std::vector<Status>& results) {
    try {
      commit_(std::span<Item* const>(items), std::span<Status>(results));
    } catch (const std::exception& e) {
      std::fill(results.begin(), results.end(),
                Status(makeError(std::string("group commit failed: ") + e.what())));
    } catch (...) {
      std::fill(results.begin(), results.end(),
                Status(makeError("group commit failed with an unknown exception")));
    }
  }

  const std::size_t maxBatch_;
  const BatchFunction commit_;
  mutable std::mutex mutex_;
  std::deque<Waiter*> queue_;  // front: the leader (running or about to run its batch)
};

}  // namespace atoms
