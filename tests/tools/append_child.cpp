// append_child DIR: appends batches of entries to the audit log of the state directory DIR until
// killed, printing "durable SIZE" on stdout after each commit returns (the entries are then
// durable). Each entry's body is {"n": seq} so the parent can tell a lost or repeated entry.
// Used by tests/store/test_crash.cpp, which kills it with SIGKILL at random points.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>

#include "store/audit_entry.h"
#include "store/site_store.h"

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: append_child DIR SEED\n");
    return 2;
  }
  auto store = atoms::SiteStore::open(argv[1]);
  if (!store) {
    std::fprintf(stderr, "append_child: %s\n", store.message().c_str());
    return 1;
  }
  atoms::AuditLog& log = (*store)->log();
  std::mt19937 rng(static_cast<unsigned>(std::strtoul(argv[2], nullptr, 10)));
  const auto ts = atoms::formatTimestamp(std::chrono::system_clock::time_point{});
  for (;;) {
    auto batch = log.begin();
    if (!batch) {
      std::fprintf(stderr, "append_child: %s\n", batch.message().c_str());
      return 1;
    }
    const int entries = 1 + static_cast<int>(rng() % 8);
    for (int i = 0; i < entries; ++i) {
      atoms::json::Object body;
      body["n"] = atoms::json::Value(static_cast<std::int64_t>(batch->nextSeq()));
      body["pad"] = atoms::json::Value(std::string(rng() % 300, 'x'));
      auto seq = batch->add(ts, "test.append", "append_child", atoms::json::Value(std::move(body)));
      if (!seq) {
        std::fprintf(stderr, "append_child: %s\n", seq.message().c_str());
        return 1;
      }
    }
    auto note = batch->commit();
    if (!note) {
      std::fprintf(stderr, "append_child: %s\n", note.message().c_str());
      return 1;
    }
    std::printf("durable %llu\n", static_cast<unsigned long long>(log.size()));
    std::fflush(stdout);
  }
}
