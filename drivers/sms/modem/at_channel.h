// AtChannel: AT commands and their responses over a SerialPort, plus the unsolicited result codes
// (URCs) the modem interleaves with them.
//
// Model: a poll loop, no thread of its own. The owner (ModemGateway's worker thread) is the only
// caller: it runs one command at a time with command(), and between commands calls pump() to
// wait for URCs. This keeps every byte of the conversation on one thread, so there is no lock
// around the modem and no race between a reader thread and a command in flight.
//
// Routing of each line received:
// - the echo of the command (a modem that rebooted has echo on again): skipped, flagged;
// - a final result (OK, ERROR, +CME ERROR, +CMS ERROR, NO CARRIER): ends the command;
// - a URC (+CMTI, +CMT + its PDU line, +CDS[I], RING, RDY, ...) that is not the answer to the
//   command in flight (an "+CPIN:" line answers AT+CPIN?): handed to the handler, at once,
//   also in the middle of a command;
// - anything else: an information line of the command in flight, or, when idle, garbage handed
//   to the handler. A line over LineSplitter::kMaxLineLength is garbage.
// The handler runs on the caller's thread, inside command()/pump(); it must not call back into
// the channel (it queues work for later).
#pragma once

#include <chrono>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"
#include "drivers/sms/modem/at_parser.h"
#include "drivers/sms/modem/serial_port.h"

namespace atoms::drivers::modem {

struct AtResponse {
  enum class Outcome { kOk, kError, kTimeout, kNoPrompt, kIoError };
  Outcome outcome = Outcome::kTimeout;
  FinalResult final;               // for kOk / kError: the final result line
  std::vector<std::string> lines;  // information lines (echo, URCs and the final line excluded)
  std::string ioError;             // kIoError: the port's error
  bool echoSeen = false;           // the modem echoed the command: it lost its ATE0 setting

  bool ok() const { return outcome == Outcome::kOk; }
  // True when the modem did not answer in time (or never showed the prompt).
  bool silent() const { return outcome == Outcome::kTimeout || outcome == Outcome::kNoPrompt; }
  // One line for logs and errors: "AT+CMGS=23: +CMS ERROR: 500", "AT: no answer within 5000 ms".
  std::string describe(std::string_view command) const;
};

struct UnsolicitedLine {
  enum class Kind { kUrc, kGarbage };
  Kind kind = Kind::kGarbage;
  Urc urc;           // kUrc
  std::string body;  // kUrc with a body (+CMT, +CDS in PDU mode): the line that followed
  std::string line;  // kGarbage: what arrived (cut to 200 bytes)
};

class AtChannel {
 public:
  using Handler = std::function<void(UnsolicitedLine)>;

  // `port` must outlive the channel.
  AtChannel(SerialPort& port, Handler handler);

  // Whether +CDS carries a PDU line (PDU mode) or not (text mode).
  void setPduMode(bool pduMode) { pduMode_ = pduMode; }

  // Sends `command` + CR and collects lines until a final result or `timeout`.
  AtResponse command(std::string_view command, std::chrono::milliseconds timeout);

  // AT+CMGS / AT+CNMA with data: sends `command`, waits for the "> " prompt (at most
  // `promptTimeout`; then ESC cancels the entry and the outcome is kNoPrompt), sends `payload`
  // and Ctrl-Z, and collects the answer until `timeout`.
  AtResponse commandWithPrompt(std::string_view command, std::string_view payload,
                               std::chrono::milliseconds promptTimeout,
                               std::chrono::milliseconds timeout);

  // Waits up to `timeout` for URCs, handing them to the handler. Returns true when it returned
  // early because `wakeFd` (>= 0) became readable; an Error when the port failed.
  Result<bool> pump(std::chrono::milliseconds timeout, int wakeFd);

  // Reads and routes until nothing arrives for `quiet` (but at most `limit`). After a command
  // timed out, its late answer must not be taken for the next command's: the owner drains first.
  Status drain(std::chrono::milliseconds quiet, std::chrono::milliseconds limit);

 private:
  struct InFlight {
    std::string command;  // without CR
    std::string tag;      // "+CMGR" of "AT+CMGR=3": lines starting "+CMGR:" answer it
    std::string payload;  // echoed payload to skip, if any
    AtResponse* response = nullptr;
    bool done = false;
  };

  // Reads once (up to `timeout`) and routes the lines.
  Result<SerialPort::ReadOutcome> readAndRoute(std::chrono::milliseconds timeout, int wakeFd);
  void route(LineSplitter::Line line);
  AtResponse run(std::string_view command, std::string_view payload,
                 std::chrono::milliseconds promptTimeout, std::chrono::milliseconds timeout);

  SerialPort& port_;
  Handler handler_;
  LineSplitter splitter_;
  bool pduMode_ = true;
  InFlight* inFlight_ = nullptr;
  std::optional<Urc> awaitingBody_;  // a +CMT/+CDS header whose second line is still to come
};

}  // namespace atoms::drivers::modem
