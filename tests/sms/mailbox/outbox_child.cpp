// outbox_child DIR LEDGER ROUND SEED: the process that test_crash.cpp kills. It opens the state
// directory DIR, starts a dispatcher sending to a LedgerGateway on LEDGER (which keeps what it
// accepted in that file, outside this process), and enqueues messages "rROUND-N" as fast as it
// can, printing "durable ID" after each enqueue returned ok (the message is then committed). The
// dispatcher meanwhile reconciles whatever the previous round left in doubt and sends. It runs
// until killed (after 400 messages it only dispatches).
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>

#include "sms/mailbox/dispatcher.h"
#include "sms/mailbox/outbox.h"
#include "store/site_store.h"
#include "store/store_runner.h"
#include "tests/sms/mailbox/ledger_gateway.h"

using namespace atoms::sms::mailbox;
using atoms::LockedStoreRunner;

int main(int argc, char** argv) {
  if (argc != 5) {
    std::fprintf(stderr, "usage: outbox_child DIR LEDGER ROUND SEED\n");
    return 2;
  }
  const std::string round = argv[3];
  const auto seed = static_cast<unsigned>(std::strtoul(argv[4], nullptr, 10));
  auto store = atoms::SiteStore::open(argv[1]);
  if (!store) {
    std::fprintf(stderr, "outbox_child: %s\n", store.message().c_str());
    return 1;
  }
  LockedStoreRunner runner(**store);
  std::mt19937 jitter(seed);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  RetryPolicy policy;
  policy.initialDelay = std::chrono::milliseconds(1);
  policy.maxDelay = std::chrono::milliseconds(20);
  policy.maxAttempts = 1000;  // the ledger's faults are all retryable: nothing may fail for good
  Outbox outbox(
      runner, [] { return std::chrono::system_clock::now(); },
      [&] { return std::min(unit(jitter), 0.999999); }, policy);
  testing::LedgerGateway gateway(argv[2], seed, 15);
  DispatcherOptions options;
  options.followsSystemTime = true;
  options.idleRecheck = std::chrono::milliseconds(20);
  options.errorPause = std::chrono::milliseconds(20);
  options.onError = [](const std::string& e) {
    std::fprintf(stderr, "outbox_child: %s\n", e.c_str());
  };
  Dispatcher dispatcher(outbox, gateway, options);
  if (auto s = dispatcher.start(); !s) {
    std::fprintf(stderr, "outbox_child: %s\n", s.message().c_str());
    return 1;
  }
  for (int n = 0; n < 400; ++n) {
    OutboundRequest request;
    request.id = "r" + round + "-" + std::to_string(n);
    request.to = "+1555000" + std::to_string(1000 + n % 9000);
    request.body = "Crash test message " + std::to_string(n) + " \xF0\x9F\x93\xA6";
    auto id = outbox.enqueue(request);
    if (!id) {
      std::fprintf(stderr, "outbox_child: %s\n", id.message().c_str());
      return 1;
    }
    std::printf("durable %s\n", id->c_str());
    std::fflush(stdout);
  }
  for (;;) ::pause();  // keeps dispatching until killed
}
