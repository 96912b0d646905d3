// StoreRunner: how the mailbox reaches the site store from any thread while DESIGN.md section 2
// keeps a single writer. The mailbox is called from driver threads (inbound SMS and delivery
// reports), from its dispatcher thread and from the engine; each of its operations is one short
// function that the runner runs with exclusive use of the SiteStore (its Database and AuditLog),
// so every write, and every audit entry with it, goes through the one writer connection
// (docs/sms-mailbox.md, "Threads").
//
// Contract: run() blocks until fn has run and returns fn's Status, or returns an error saying why
// fn never ran. fn must be short and must not wait for other threads (no network I/O, no waiting
// on the dispatcher): it runs on the writer, holding up everything else the writer does. A run()
// from inside fn (same thread) runs inline. run() is thread-safe.
#pragma once

#include <functional>
#include <mutex>

#include "base/result.h"
#include "base/writer.h"
#include "store/site_store.h"

namespace atoms {

using StoreFunction = std::function<Status(SiteStore&)>;

class StoreRunner {
 public:
  virtual ~StoreRunner() = default;
  virtual Status run(const StoreFunction& fn) = 0;
  // Whether the caller is the thread run() hands work to, so that waiting for another thread's
  // run() would wait for itself (callers that batch across threads commit alone then).
  virtual bool onWriterThread() const { return false; }
};

// The store behind a mutex, for programs without an engine (tests, tools, one-shot commands).
// The SiteStore must outlive the runner and must not be used except through it while other
// threads use it.
class LockedStoreRunner final : public StoreRunner {
 public:
  explicit LockedStoreRunner(SiteStore& store) : store_(store) {}
  Status run(const StoreFunction& fn) override;

 private:
  SiteStore& store_;
  std::recursive_mutex mutex_;  // recursive: a nested run() on the same thread runs inline
};

// Runs fn on the writer thread (base/writer.h) by posting it there, as the service does with the
// engine: when the writer takes no more work, run() fails; when the caller already is the writer,
// fn runs inline. An event that the writer drops without running it (it is stopping) makes run()
// return an error, never hang. Never call run() from the writer while the writer waits for the
// caller (e.g. joining the dispatcher from an engine event): stop the dispatcher from the thread
// that owns it. The writer must outlive the runner.
class PostingStoreRunner final : public StoreRunner {
 public:
  PostingStoreRunner(SiteStore& store, Writer& writer) : store_(store), writer_(writer) {}
  Status run(const StoreFunction& fn) override;
  bool onWriterThread() const override { return writer_.onWriterThread(); }

 private:
  SiteStore& store_;
  Writer& writer_;
};

}  // namespace atoms
