#include "drivers/pos/feed_poller.h"

#include <algorithm>

namespace atoms::drivers::pos {

FeedPoller::FeedPoller(OrderFeed& feed, OrderSink& sink, FeedPollerOptions options,
                       SourceStatusListener listener)
    : feed_(feed),
      sink_(sink),
      options_(options),
      listener_(std::move(listener)),
      source_(feed.source()) {}

void FeedPoller::report(SourceStatus::Kind kind, const std::string& detail) {
  if (!listener_) return;
  try {
    listener_(SourceStatus{source_, kind, detail});
  } catch (...) {
    // A health listener must not stop the polling.
  }
}

std::chrono::seconds FeedPoller::failed(const std::string& message,
                                        std::optional<std::chrono::seconds> retryAfter) {
  lastError_ = message;
  backoff_ =
      backoff_.count() == 0 ? options_.interval : std::min(backoff_ * 2, options_.maxBackoff);
  report(SourceStatus::Kind::kFailing, message);
  if (retryAfter && retryAfter->count() > 0) return std::min(*retryAfter, options_.maxBackoff);
  return backoff_;
}

std::optional<std::chrono::seconds> FeedPoller::pollOnce(PosTime now) {
  if (halted_) return std::nullopt;
  auto cursor = sink_.cursor(source_);
  if (!cursor) return failed("cannot read the cursor of " + source_ + ": " + cursor.message(), {});
  PosTime latest = now - options_.firstLookback;
  if (*cursor) {
    const std::optional<PosTime> stored = parsePosTime(**cursor);
    if (stored) latest = *stored;
  }
  FeedQuery query{std::min(latest - options_.overlap, now), now, ""};
  for (int page = 0;; ++page) {
    if (page == options_.maxPagesPerPoll) {
      return failed(source_ + ": more than " + std::to_string(options_.maxPagesPerPoll) +
                        " pages in one poll; the rest waits for the next",
                    {});
    }
    std::variant<FeedPage, FeedError> fetched = feed_.fetch(query);
    if (auto* error = std::get_if<FeedError>(&fetched)) {
      if (error->kind == FeedError::Kind::kAuth) {
        halted_ = true;
        lastError_ = error->message;
        report(SourceStatus::Kind::kAuthFailed, error->message);
        return std::nullopt;
      }
      return failed(error->message, error->retryAfter);
    }
    FeedPage& got = std::get<FeedPage>(fetched);
    for (const PosOrder& o : got.orders) latest = std::max(latest, o.updatedAt);
    // The window is read through once the last page is in: the next poll starts from its end
    // (less the overlap), so a quiet night does not keep the first poll's long look back.
    if (got.next.empty()) latest = std::max(latest, query.to);
    OrderBatch batch{
        source_, std::move(got.orders), formatPosTime(latest),
        "poll from " + formatPosTime(query.from) + " page " + std::to_string(page + 1)};
    auto stored = sink_.accept(batch);
    if (!stored) return failed(stored.message(), {});
    if (got.next.empty()) break;
    query.page = std::move(got.next);
  }
  backoff_ = std::chrono::seconds(0);
  lastError_.clear();
  report(SourceStatus::Kind::kOk, "");
  return options_.interval;
}

}  // namespace atoms::drivers::pos
