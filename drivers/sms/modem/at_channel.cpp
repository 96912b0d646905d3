#include "drivers/sms/modem/at_channel.h"

#include <array>
#include <utility>

namespace atoms::drivers::modem {

namespace {

using SteadyClock = std::chrono::steady_clock;

std::chrono::milliseconds leftUntil(SteadyClock::time_point deadline) {
  const auto left = std::chrono::ceil<std::chrono::milliseconds>(deadline - SteadyClock::now());
  return left.count() < 0 ? std::chrono::milliseconds(0) : left;
}

// "AT+CMGR=3" -> "+CMGR"; "ATE0" -> "".
std::string tagOf(std::string_view command) {
  if (command.substr(0, 3) != "AT+" && command.substr(0, 3) != "at+") return "";
  const std::size_t end = command.find_first_of("=?", 2);
  return std::string(command.substr(2, end == std::string_view::npos ? end : end - 2));
}

std::string_view withoutCtrlZ(std::string_view s) {
  while (!s.empty() && (s.back() == '\x1a' || s.back() == ' ')) s.remove_suffix(1);
  return s;
}

}  // namespace

std::string AtResponse::describe(std::string_view command) const {
  std::string out(command);
  out += ": ";
  switch (outcome) {
    case Outcome::kOk:
      return out + "OK";
    case Outcome::kError:
      return out + final.text;
    case Outcome::kTimeout:
      return out + "no answer in time";
    case Outcome::kNoPrompt:
      return out + "no \"> \" prompt in time";
    case Outcome::kIoError:
      return out + ioError;
  }
  return out;
}

AtChannel::AtChannel(SerialPort& port, Handler handler)
    : port_(port), handler_(std::move(handler)) {}

AtResponse AtChannel::command(std::string_view command, std::chrono::milliseconds timeout) {
  return run(command, {}, {}, timeout);
}

AtResponse AtChannel::commandWithPrompt(std::string_view command, std::string_view payload,
                                        std::chrono::milliseconds promptTimeout,
                                        std::chrono::milliseconds timeout) {
  return run(command, payload, promptTimeout, timeout);
}

AtResponse AtChannel::run(std::string_view command, std::string_view payload,
                          std::chrono::milliseconds promptTimeout,
                          std::chrono::milliseconds timeout) {
  AtResponse response;
  // Whatever arrived before this command (URCs, a late answer) is routed as unsolicited first.
  for (int i = 0; i < 64; ++i) {
    const auto r = readAndRoute(std::chrono::milliseconds(0), -1);
    if (!r) {
      response.outcome = AtResponse::Outcome::kIoError;
      response.ioError = r.error().message;
      return response;
    }
    if (*r != SerialPort::ReadOutcome::kData) break;
  }
  InFlight flight{std::string(command), tagOf(command), std::string(payload), &response, false};
  inFlight_ = &flight;
  const auto fail = [&](AtResponse::Outcome outcome, std::string error = {}) {
    inFlight_ = nullptr;
    response.outcome = outcome;
    response.ioError = std::move(error);
    return response;
  };
  const bool withPrompt = !payload.empty();
  if (Status s = port_.write(std::string(command) + "\r", timeout); !s)
    return fail(AtResponse::Outcome::kIoError, s.message());

  if (withPrompt) {
    const auto promptDeadline = SteadyClock::now() + promptTimeout;
    while (!flight.done && !splitter_.promptPending()) {
      const auto left = leftUntil(promptDeadline);
      if (left.count() == 0) {
        (void)port_.write("\x1b", std::chrono::milliseconds(1000));  // cancel the text entry
        return fail(AtResponse::Outcome::kNoPrompt);
      }
      if (const auto r = readAndRoute(left, -1); !r)
        return fail(AtResponse::Outcome::kIoError, r.error().message);
    }
    if (flight.done) {  // the modem refused before the prompt (e.g. +CMS ERROR: 304)
      inFlight_ = nullptr;
      return response;
    }
    splitter_.clearPending();
    if (Status s = port_.write(std::string(payload) + "\x1a", timeout); !s)
      return fail(AtResponse::Outcome::kIoError, s.message());
  }

  const auto deadline = SteadyClock::now() + timeout;
  while (!flight.done) {
    const auto left = leftUntil(deadline);
    if (left.count() == 0) return fail(AtResponse::Outcome::kTimeout);
    if (const auto r = readAndRoute(left, -1); !r)
      return fail(AtResponse::Outcome::kIoError, r.error().message);
  }
  inFlight_ = nullptr;
  return response;
}

Result<bool> AtChannel::pump(std::chrono::milliseconds timeout, int wakeFd) {
  const auto r = readAndRoute(timeout, wakeFd);
  if (!r) return r.error();
  return *r == SerialPort::ReadOutcome::kWoken;
}

Status AtChannel::drain(std::chrono::milliseconds quiet, std::chrono::milliseconds limit) {
  const auto deadline = SteadyClock::now() + limit;
  for (;;) {
    const auto left = leftUntil(deadline);
    if (left.count() == 0) return Status::success();
    std::array<std::uint8_t, 512> buf{};
    const auto r = port_.read(buf, std::min(quiet, left));
    if (!r) return r.error();
    if (r->outcome != SerialPort::ReadOutcome::kData) break;  // quiet for `quiet`
    std::vector<LineSplitter::Line> lines;
    splitter_.feed(std::string_view(reinterpret_cast<const char*>(buf.data()), r->bytes), lines);
    for (auto& line : lines) route(std::move(line));
  }
  if (!splitter_.pending().empty()) {
    handler_(UnsolicitedLine{
        UnsolicitedLine::Kind::kGarbage, {}, {}, splitter_.pending().substr(0, 200)});
    splitter_.clearPending();
  }
  return Status::success();
}

Result<SerialPort::ReadOutcome> AtChannel::readAndRoute(std::chrono::milliseconds timeout,
                                                        int wakeFd) {
  std::array<std::uint8_t, 512> buf{};
  const auto r = port_.read(buf, timeout, wakeFd);
  if (!r) return r.error();
  if (r->outcome != SerialPort::ReadOutcome::kData) return r->outcome;
  std::vector<LineSplitter::Line> lines;
  splitter_.feed(std::string_view(reinterpret_cast<const char*>(buf.data()), r->bytes), lines);
  for (auto& line : lines) route(std::move(line));
  return SerialPort::ReadOutcome::kData;
}

void AtChannel::route(LineSplitter::Line line) {
  const auto garbage = [&](const std::string& text) {
    handler_(UnsolicitedLine{UnsolicitedLine::Kind::kGarbage, {}, {}, text.substr(0, 200)});
  };
  if (line.overflowed) {
    awaitingBody_.reset();
    garbage(line.text);
    return;
  }
  if (awaitingBody_) {
    UnsolicitedLine u{UnsolicitedLine::Kind::kUrc, std::move(*awaitingBody_), line.text, {}};
    awaitingBody_.reset();
    handler_(std::move(u));
    return;
  }
  InFlight* f = inFlight_ != nullptr && !inFlight_->done ? inFlight_ : nullptr;
  if (f != nullptr) {
    if (line.text == f->command) {
      f->response->echoSeen = true;
      return;
    }
    if (!f->payload.empty() && withoutCtrlZ(line.text) == f->payload) return;  // payload echo
    if (auto final = parseFinalResult(line.text)) {
      f->response->outcome = final->kind == FinalResult::Kind::kOk ? AtResponse::Outcome::kOk
                                                                   : AtResponse::Outcome::kError;
      f->response->final = std::move(*final);
      f->done = true;
      return;
    }
  }
  if (auto urc = parseUrc(line.text)) {
    const bool answersCommand = f != nullptr && !f->tag.empty() &&
                                line.text.compare(0, f->tag.size() + 1, f->tag + ":") == 0;
    if (!answersCommand) {
      if (urcHasBody(*urc, pduMode_)) {
        awaitingBody_ = std::move(*urc);
      } else {
        handler_(UnsolicitedLine{UnsolicitedLine::Kind::kUrc, std::move(*urc), {}, {}});
      }
      return;
    }
  }
  if (f != nullptr) {
    f->response->lines.push_back(std::move(line.text));
    return;
  }
  garbage(line.text);
}

}  // namespace atoms::drivers::modem
