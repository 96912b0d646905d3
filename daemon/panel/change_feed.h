// ChangeFeed: what the panel's live updates wait on (GET /api/events, panel_api.h). Every commit
// to the audit log moves it to the log's new size (AuditLog::setCommitObserver, on the engine
// thread); each open event stream waits for a size it has not seen, with a deadline for its
// keep-alive, and tells its page to fetch again. Anything the box does that a page shows is an
// audit entry, so the size is all a page needs to know.
//
// Streams hold one of the server's threads each, so at most `maxStreams` run at once; a page
// refused one falls back to fetching every so often. close() wakes every stream for good (the
// server waits for its requests to end when it stops).
//
// Threading: every method is thread-safe.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <optional>

namespace atoms::panel {

class ChangeFeed {
 public:
  explicit ChangeFeed(int maxStreams = 4) : maxStreams_(maxStreams) {}

  // The log's size is now `size`.
  void published(std::uint64_t size);
  std::uint64_t size() const;

  // Until the size is not `seen`, `deadline` passes or the feed closes: the size then, or nullopt
  // when the feed is closed.
  std::optional<std::uint64_t> waitPast(std::uint64_t seen,
                                        std::chrono::steady_clock::time_point deadline);
  // Until `deadline` or the feed closes: whether it is still open. (A stream's pause between two
  // events, so that a burst of entries makes one fetch, not one per entry.)
  bool pauseUntil(std::chrono::steady_clock::time_point deadline);

  // A stream's place: false when maxStreams run already or the feed is closed. Each join() that
  // returned true is followed by one leave().
  bool join();
  void leave();

  void close();

 private:
  const int maxStreams_;
  mutable std::mutex mutex_;
  std::condition_variable changed_;
  std::uint64_t size_ = 0;
  int streams_ = 0;
  bool closed_ = false;
};

}  // namespace atoms::panel
