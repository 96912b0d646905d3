#include "store/store_runner.h"

#include <exception>
#include <future>
#include <memory>

namespace atoms {
namespace {

// fn's Status; an exception (bad_alloc, a bug) becomes an error instead of crossing threads.
Status guarded(const StoreFunction& fn, SiteStore& store) {
  try {
    return fn(store);
  } catch (const std::exception& e) {
    return makeError(std::string("SMS store operation failed: ") + e.what());
  } catch (...) {
    return makeError("SMS store operation failed with an unknown exception");
  }
}

// The result slot of one posted call. Whoever destroys the last copy of the event without it
// having run (the writer dropping its queue at stop) answers the waiter with an error.
class PostedCall {
 public:
  PostedCall() = default;
  PostedCall(const PostedCall&) = delete;
  PostedCall& operator=(const PostedCall&) = delete;
  ~PostedCall() {
    if (!answered_) {
      answer(makeError("the SMS store operation did not run: the engine is stopping"));
    }
  }
  std::future<Status> future() { return promise_.get_future(); }
  void answer(Status status) {
    answered_ = true;
    promise_.set_value(std::move(status));
  }

 private:
  std::promise<Status> promise_;
  bool answered_ = false;
};

}  // namespace

Status LockedStoreRunner::run(const StoreFunction& fn) {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  return guarded(fn, store_);
}

Status PostingStoreRunner::run(const StoreFunction& fn) {
  if (writer_.onWriterThread()) return guarded(fn, store_);
  auto call = std::make_shared<PostedCall>();
  std::future<Status> result = call->future();
  // fn is captured by reference: this frame waits for the answer, so it outlives the event.
  const bool posted = writer_.post([call, &fn, this] { call->answer(guarded(fn, store_)); });
  if (!posted) {
    return makeError("the SMS store operation did not run: the engine takes no more events");
  }
  call.reset();  // from here the event alone owns the call
  return result.get();
}

}  // namespace atoms
