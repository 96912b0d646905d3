// Health checks on every HTTP listener of the service (the Twilio webhooks, the time clocks, the
// API; docs/api.md "Health checks"), answered by HttpService before the listener's own handler,
// with no token and without an audit entry, so monitoring can probe as often as it likes:
//   GET /healthz  200 {"status":"ok"}: the process is up and this listener answers.
//   GET /readyz   200 {"status":"ready","checks":{...}} when every check passes, else 503
//                 {"status":"not ready","checks":{"engine":"no turn within 2000 ms",...}}; each
//                 check says "ok" or, in one line, what is wrong.
// HEAD is answered as GET without the body; any other method, and any other path, goes to the
// listener's handler as before. Answers are never cached (Cache-Control: no-store).
#pragma once

#include <Poco/Net/HTTPServerRequest.h>
#include <Poco/Net/HTTPServerResponse.h>

#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace atoms::drivers {

struct Readiness {
  bool ready = false;
  std::vector<std::pair<std::string, std::string>> checks;  // name -> "ok" or what is wrong
};

// Called on the listener's threads, concurrently; must be thread-safe and return within a few
// seconds. Empty: /readyz answers like /healthz (nothing to check: a test server, the fake
// provider).
using ReadinessCheck = std::function<Readiness()>;

// Answers the request when it is a health check and says so; false leaves it untouched.
bool answerHealthCheck(Poco::Net::HTTPServerRequest& request,
                       Poco::Net::HTTPServerResponse& response, const ReadinessCheck& readiness);

}  // namespace atoms::drivers
