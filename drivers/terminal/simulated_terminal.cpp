#include "drivers/terminal/simulated_terminal.h"

#include <Poco/Exception.h>
#include <Poco/Net/HTTPClientSession.h>
#include <Poco/Net/HTTPRequest.h>
#include <Poco/Net/HTTPResponse.h>
#include <Poco/StreamCopier.h>

#include <cstdio>
#include <istream>
#include <ostream>
#include <thread>

#include "base/canonical_json.h"

namespace atoms::drivers::terminal {

SimulatedTerminal::SimulatedTerminal(SimulatedTerminalOptions options)
    : options_(std::move(options)) {
  if (!options_.backoff) {
    options_.backoff = [](int attempt) {
      std::this_thread::sleep_for(std::chrono::milliseconds(200) * attempt);
    };
  }
}

Punch SimulatedTerminal::punch(const std::string& person, PunchKind kind, PunchTime at) {
  char id[32];
  std::snprintf(id, sizeof id, "-%06llu", static_cast<unsigned long long>(next_++));
  return Punch{options_.terminal + id, person, kind, at};
}

PunchReply SimulatedTerminal::send(const std::vector<Punch>& punches) {
  return sendBody(encodePunchRequest(PunchBatch{options_.terminal, punches}));
}

PunchReply SimulatedTerminal::sendBody(const std::string& body) {
  PunchReply reply;
  for (int attempt = 1; attempt <= options_.attempts; ++attempt) {
    if (attempt > 1) options_.backoff(attempt - 1);
    PunchReply one = post(body);
    one.attempts = attempt;
    reply = std::move(one);
    // Only "not stored" is worth repeating: anything else would be answered the same again.
    if (reply.httpStatus != 0 && reply.httpStatus != 503) break;
  }
  return reply;
}

PunchReply SimulatedTerminal::post(const std::string& body) {
  PunchReply reply;
  try {
    Poco::Net::HTTPClientSession session(options_.host, options_.port);
    session.setTimeout(
        Poco::Timespan(options_.timeout.count() / 1000, (options_.timeout.count() % 1000) * 1000));
    Poco::Net::HTTPRequest request(Poco::Net::HTTPRequest::HTTP_POST, std::string(kPunchesPath),
                                   Poco::Net::HTTPMessage::HTTP_1_1);
    request.setContentType("application/json");
    request.set("Authorization", "Bearer " + options_.token);
    request.setContentLength(static_cast<std::streamsize>(body.size()));
    session.sendRequest(request) << body;
    Poco::Net::HTTPResponse response;
    std::istream& in = session.receiveResponse(response);
    std::string text;
    Poco::StreamCopier::copyToString(in, text);
    reply.httpStatus = static_cast<int>(response.getStatus());
    if (reply.httpStatus == 200) {
      auto outcomes = parsePunchResponse(text);
      if (!outcomes) {
        reply.error = outcomes.message();
      } else {
        reply.outcomes = std::move(*outcomes);
      }
    } else if (auto parsed = json::parse(text); parsed) {
      if (const json::Value* e = parsed->find("error"); e != nullptr && e->isString()) {
        reply.error = e->asString();
      }
    }
  } catch (const Poco::Exception& e) {
    reply.httpStatus = 0;
    reply.error = e.displayText();
  }
  return reply;
}

}  // namespace atoms::drivers::terminal
