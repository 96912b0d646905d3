// fake_twilio_server: FakeTwilio (tests/support/fake_twilio.h) as a program of its own, for tests
// that are not C++ (the panel's browser test, tests/panel/browser/). It listens on 127.0.0.1 at a
// free port, prints one line on stdout and then serves until SIGTERM, SIGINT or SIGHUP:
//
//   fake-twilio url=http://127.0.0.1:PORT account_sid=AC... auth_token=...
//
// Its callers read the texts the box sent through the fake's own REST API (GET
// /2010-04-01/Accounts/{sid}/Messages.json with basic auth), as they would read Twilio's.
// Exit 0 after a signal; 1 when the server cannot start.
#include <signal.h>

#include <cstdio>

#include "tests/support/fake_twilio.h"

int main() {
  // Blocked before the server's threads start, so they inherit the mask and sigwait() below is
  // the one place the signals are taken.
  sigset_t stopSignals;
  sigemptyset(&stopSignals);
  sigaddset(&stopSignals, SIGTERM);
  sigaddset(&stopSignals, SIGINT);
  sigaddset(&stopSignals, SIGHUP);
  pthread_sigmask(SIG_BLOCK, &stopSignals, nullptr);

  atoms::drivers::twilio::FakeTwilio fake;
  atoms::Status started = fake.start();
  if (!started) {
    std::fprintf(stderr, "fake_twilio_server: %s\n", started.message().c_str());
    return 1;
  }
  std::printf("fake-twilio url=%s account_sid=%s auth_token=%s\n", fake.baseUrl().c_str(),
              fake.options().accountSid.c_str(), fake.options().authToken.c_str());
  std::fflush(stdout);
  int received = 0;
  sigwait(&stopSignals, &received);
  fake.stop();
  return 0;
}
