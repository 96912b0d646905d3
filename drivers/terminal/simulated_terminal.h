// SimulatedTerminal: a time clock in software. It POSTs punches to a TerminalServer over real HTTP
// the way a well-behaved terminal does (docs/terminals.md, "Idempotency"): each punch gets its
// own id when it is made ("<terminal>-000001", ...), and a request that was not answered (a
// connection failure or timeout) or answered 503 is sent again, as is, with the same ids; so a
// retry of a punch the box already stored is answered `duplicate`, never stored twice. Used by the
// tests and the demo.
//
// Threading: not thread-safe; one thread uses a terminal. send() blocks on the network.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "base/result.h"
#include "drivers/terminal/punch_request.h"

namespace atoms::drivers::terminal {

struct SimulatedTerminalOptions {
  std::string host = "127.0.0.1";
  std::uint16_t port = 0;
  std::string terminal;  // its id, as in the tokens file
  std::string token;
  int attempts = 5;  // per send(), the first included
  std::chrono::milliseconds timeout{10000};
  // Waits between attempts (attempt 1, 2, ...); default: 200 ms times the attempt. Tests pass a
  // function that returns at once.
  std::function<void(int attempt)> backoff;
};

struct PunchReply {
  int httpStatus = 0;                  // of the last attempt; 0: no answer at all
  int attempts = 0;                    // requests made
  std::vector<PunchOutcome> outcomes;  // on 200
  std::string error;                   // the answer's "error" (4xx) or the transport error
};

class SimulatedTerminal {
 public:
  explicit SimulatedTerminal(SimulatedTerminalOptions options);

  // A punch with the terminal's next id (not sent yet).
  Punch punch(const std::string& person, PunchKind kind, PunchTime at);

  // POSTs the punches (retrying as above) and returns how the last attempt was answered.
  PunchReply send(const std::vector<Punch>& punches);
  // POSTs a raw body with this terminal's token (for tests of refusals).
  PunchReply sendBody(const std::string& body);

  const SimulatedTerminalOptions& options() const { return options_; }

 private:
  PunchReply post(const std::string& body);

  SimulatedTerminalOptions options_;
  std::uint64_t next_ = 1;
};

}  // namespace atoms::drivers::terminal
