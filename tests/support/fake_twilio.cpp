#include "tests/support/fake_twilio.h"

#include <Poco/Dynamic/Var.h>
#include <Poco/Exception.h>
#include <Poco/JSON/Array.h>
#include <Poco/JSON/Object.h>
#include <Poco/Net/HTTPBasicCredentials.h>
#include <Poco/Net/HTTPClientSession.h>
#include <Poco/Net/HTTPRequest.h>
#include <Poco/Net/HTTPResponse.h>
#include <Poco/Net/HTTPServerRequest.h>
#include <Poco/Net/HTTPServerResponse.h>
#include <Poco/URI.h>

#include <algorithm>
#include <charconv>
#include <ctime>
#include <sstream>

#include "base/bytes.h"
#include "drivers/http/http_service.h"
#include "drivers/sms/encoding/segmentation.h"
#include "drivers/sms/encoding/utf.h"
#include "drivers/sms/phone_number.h"
#include "drivers/sms/twilio/twilio_config.h"
#include "drivers/sms/twilio/twilio_rest.h"
#include "drivers/sms/twilio/twilio_signature.h"
#include "drivers/sms/twilio/twilio_webhook.h"

namespace atoms::drivers::twilio {
namespace {

constexpr const char* kApiVersion = "2010-04-01";
// Twilio's limit on a message body, in characters.
constexpr std::size_t kMaxBodyCharacters = 1600;

using JsonObject = Poco::JSON::Object;

Poco::JSON::Object::Ptr orderedObject() { return new JsonObject(Poco::JSON_PRESERVE_KEY_ORDER); }

Poco::Dynamic::Var orNull(const std::string& v) {
  return v.empty() ? Poco::Dynamic::Var() : Poco::Dynamic::Var(v);
}

void sendJson(Poco::Net::HTTPServerResponse& response, int status, const JsonObject::Ptr& body) {
  std::ostringstream text;
  body->stringify(text);
  const std::string s = text.str();
  response.setStatusAndReason(static_cast<Poco::Net::HTTPResponse::HTTPStatus>(status));
  response.setContentType("application/json; charset=utf-8");
  response.setContentLength(static_cast<std::streamsize>(s.size()));
  response.send() << s;
}

void sendError(Poco::Net::HTTPServerResponse& response, int status, int code,
               const std::string& message) {
  JsonObject::Ptr o = orderedObject();
  o->set("code", code);
  o->set("message", message);
  o->set("more_info", "https://www.twilio.com/docs/errors/" + std::to_string(code));
  o->set("status", status);
  sendJson(response, status, o);
}

// "2024-05-01" (midnight UTC) or "2024-05-01T12:00:00Z".
std::optional<SmsClock::time_point> parseFilterDate(const std::string& v) {
  std::tm tm{};
  int y = 0, mo = 0, d = 0, h = 0, mi = 0, s = 0;
  if (v.size() == 10 && std::sscanf(v.c_str(), "%4d-%2d-%2d", &y, &mo, &d) == 3) {
  } else if (v.size() == 20 &&
             std::sscanf(v.c_str(), "%4d-%2d-%2dT%2d:%2d:%2dZ", &y, &mo, &d, &h, &mi, &s) == 6) {
  } else {
    return std::nullopt;
  }
  tm.tm_year = y - 1900;
  tm.tm_mon = mo - 1;
  tm.tm_mday = d;
  tm.tm_hour = h;
  tm.tm_min = mi;
  tm.tm_sec = s;
  return SmsClock::from_time_t(::timegm(&tm));
}

std::optional<long> number(const std::string& s) {
  long n = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), n);
  if (ec != std::errc() || end != s.data() + s.size() || s.empty()) return std::nullopt;
  return n;
}

JsonObject::Ptr messageJson(const FakeMessage& m, const std::string& accountSid) {
  const std::string uri =
      std::string("/") + kApiVersion + "/Accounts/" + accountSid + "/Messages/" + m.sid;
  JsonObject::Ptr o = orderedObject();
  o->set("account_sid", accountSid);
  o->set("api_version", kApiVersion);
  o->set("body", m.body);
  o->set("date_created", formatTwilioDate(m.dateCreated));
  o->set("date_sent",
         m.dateSent ? Poco::Dynamic::Var(formatTwilioDate(*m.dateSent)) : Poco::Dynamic::Var());
  o->set("date_updated", formatTwilioDate(m.dateSent.value_or(m.dateCreated)));
  o->set("direction", m.direction);
  o->set("error_code",
         m.errorCode.empty() ? Poco::Dynamic::Var() : Poco::Dynamic::Var(*number(m.errorCode)));
  o->set("error_message", Poco::Dynamic::Var());
  o->set("from", orNull(m.from));
  o->set("messaging_service_sid", orNull(m.messagingServiceSid));
  o->set("num_media", "0");
  o->set("num_segments", std::to_string(m.numSegments));
  o->set("price", Poco::Dynamic::Var());
  o->set("price_unit", "USD");
  o->set("sid", m.sid);
  o->set("status", m.status);
  JsonObject::Ptr sub = orderedObject();
  sub->set("media", uri + "/Media.json");
  o->set("subresource_uris", sub);
  o->set("to", m.to);
  o->set("uri", uri + ".json");
  return o;
}

Result<WebhookReply> httpPost(const std::string& url, const std::string& body,
                              const std::string& contentType,
                              const std::optional<std::string>& signature) {
  try {
    const Poco::URI uri(url);
    if (uri.getScheme() != "http" || !isLoopbackHost(uri.getHost())) {
      return makeError("the fake provider only calls http:// URLs on loopback, not " + url);
    }
    Poco::Net::HTTPClientSession session(uri.getHost(), uri.getPort());
    session.setTimeout(Poco::Timespan(10, 0));
    Poco::Net::HTTPRequest request(Poco::Net::HTTPRequest::HTTP_POST, uri.getPathEtc(),
                                   Poco::Net::HTTPMessage::HTTP_1_1);
    request.setContentType(contentType);
    request.setContentLength(static_cast<std::streamsize>(body.size()));
    request.set("User-Agent", "TwilioProxy/1.1");
    request.set("I-Twilio-Idempotency-Token", toHex(asBytes(body)).substr(0, 32));
    if (signature && !signature->empty()) request.set("X-Twilio-Signature", *signature);
    session.sendRequest(request) << body;
    Poco::Net::HTTPResponse response;
    std::istream& in = session.receiveResponse(response);
    WebhookReply reply;
    reply.status = static_cast<int>(response.getStatus());
    reply.contentType = response.getContentType();
    std::ostringstream text;
    text << in.rdbuf();
    reply.body = text.str();
    return reply;
  } catch (const Poco::Exception& e) {
    return makeError("POST " + url + " failed: " + e.displayText());
  }
}

}  // namespace

FakeFailure FakeFailure::tooManyRequests() { return {429, 20429, "Too Many Requests"}; }
FakeFailure FakeFailure::serverError() { return {500, 20500, "Internal Server Error"}; }
FakeFailure FakeFailure::invalidTo() {
  return {400, 21211, "The 'To' number is not a valid phone number."};
}

FakeTwilio::FakeTwilio(FakeTwilioOptions options) : options_(std::move(options)) {}

FakeTwilio::~FakeTwilio() { stop(); }

SmsClock::time_point FakeTwilio::now() const {
  return options_.now ? options_.now() : SmsClock::now();
}

Status FakeTwilio::start(const std::string& address, std::uint16_t port) {
  {
    std::lock_guard lock(mutex_);
    stopping_ = false;
  }
  server_ = std::make_unique<HttpService>(
      "fake twilio", [this](Poco::Net::HTTPServerRequest& req,
                            Poco::Net::HTTPServerResponse& resp) { serve(req, resp); });
  if (Status s = server_->start(address, port, 4); !s) return s;
  if (options_.autoDeliver) deliverer_ = std::thread([this] { autoDeliverLoop(); });
  return {};
}

void FakeTwilio::stop() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
    held_ = false;
  }
  changed_.notify_all();
  if (server_) server_->stop();
  if (deliverer_.joinable()) deliverer_.join();
}

std::string FakeTwilio::baseUrl() const {
  return "http://127.0.0.1:" + std::to_string(server_ ? server_->boundPort() : 0);
}

void FakeTwilio::setInboundUrl(std::string url) {
  std::lock_guard lock(mutex_);
  options_.inboundUrl = std::move(url);
}

void FakeTwilio::routeWebhooks(std::string publicPrefix, std::string localPrefix) {
  std::lock_guard lock(mutex_);
  publicPrefix_ = std::move(publicPrefix);
  localPrefix_ = std::move(localPrefix);
}

void FakeTwilio::failNext(FakeFailure failure, int times) {
  std::lock_guard lock(mutex_);
  for (int i = 0; i < times; ++i) failures_.push_back(failure);
}

void FakeTwilio::setOutage(std::optional<FakeFailure> failure) {
  std::lock_guard lock(mutex_);
  outage_ = std::move(failure);
}

void FakeTwilio::holdRequests(bool on) {
  {
    std::lock_guard lock(mutex_);
    held_ = on;
  }
  changed_.notify_all();
}

void FakeTwilio::unsubscribe(const std::string& number) {
  std::lock_guard lock(mutex_);
  unsubscribed_.push_back(number);
}

std::vector<FakeMessage> FakeTwilio::messages() const {
  std::lock_guard lock(mutex_);
  return messages_;
}

std::optional<FakeMessage> FakeTwilio::message(const std::string& sid) const {
  std::lock_guard lock(mutex_);
  for (const FakeMessage& m : messages_) {
    if (m.sid == sid) return m;
  }
  return std::nullopt;
}

int FakeTwilio::createRequests() const {
  std::lock_guard lock(mutex_);
  return createRequests_;
}

int FakeTwilio::listRequests() const {
  std::lock_guard lock(mutex_);
  return listRequests_;
}

std::string FakeTwilio::newSid(const std::string& prefix) {
  std::uint64_t n = 0;
  {
    std::lock_guard lock(mutex_);
    n = ++sidCounter_;
  }
  const std::string seed = options_.accountSid + ":" + std::to_string(n);
  return prefix + toHex(sha256(asBytes(seed))).substr(0, 32);
}

std::string FakeTwilio::addMessage(FakeMessage message) {
  if (message.sid.empty()) message.sid = newSid("SM");
  std::lock_guard lock(mutex_);
  messages_.push_back(message);
  return message.sid;
}

void FakeTwilio::setOnMessage(std::function<void(const FakeMessage&)> onMessage) {
  std::lock_guard lock(mutex_);
  onMessage_ = std::move(onMessage);
}

void FakeTwilio::waitWhileHeld() {
  std::unique_lock lock(mutex_);
  changed_.wait(lock, [this] { return !held_ || stopping_; });
}

void FakeTwilio::serve(Poco::Net::HTTPServerRequest& request,
                       Poco::Net::HTTPServerResponse& response) {
  waitWhileHeld();
  const std::optional<std::string> body = readRequestBody(request, 1024 * 1024);
  if (!body) return sendError(response, 413, 20413, "Request Entity Too Large");
  bool authenticated = false;
  try {
    const Poco::Net::HTTPBasicCredentials credentials(request);
    authenticated = credentials.getUsername() == options_.accountSid &&
                    credentials.getPassword() == options_.authToken;
  } catch (const Poco::Exception&) {
  }
  if (!authenticated) return sendError(response, 401, 20003, "Authenticate");
  const std::string& uri = request.getURI();
  const std::size_t q = uri.find('?');
  const std::string path = uri.substr(0, q);
  const std::string query = q == std::string::npos ? "" : uri.substr(q + 1);
  if (path !=
      std::string("/") + kApiVersion + "/Accounts/" + options_.accountSid + "/Messages.json") {
    return sendError(response, 404, 20404, "The requested resource " + path + " was not found");
  }
  if (request.getMethod() == Poco::Net::HTTPRequest::HTTP_GET) return list(query, response);
  if (request.getMethod() != Poco::Net::HTTPRequest::HTTP_POST) {
    return sendError(response, 405, 20004, "Method not allowed");
  }
  Result<FormFields> form = parseForm(*body);
  if (!form) return sendError(response, 400, 20001, "Could not parse the request body");
  create(*form, response);
}

void FakeTwilio::create(const FormFields& form, Poco::Net::HTTPServerResponse& response) {
  std::optional<FakeFailure> failure;
  bool unsubscribed = false;
  const std::string to = findField(form, "To") ? *findField(form, "To") : "";
  {
    std::lock_guard lock(mutex_);
    ++createRequests_;
    if (!failures_.empty()) {
      failure = failures_.front();
      failures_.pop_front();
    } else if (outage_) {
      failure = outage_;
    }
    unsubscribed = std::find(unsubscribed_.begin(), unsubscribed_.end(), to) != unsubscribed_.end();
  }
  if (failure) return sendError(response, failure->httpStatus, failure->code, failure->message);
  FakeMessage m;
  m.to = to;
  m.body = findField(form, "Body") ? *findField(form, "Body") : "";
  m.from = findField(form, "From") ? *findField(form, "From") : "";
  m.messagingServiceSid =
      findField(form, "MessagingServiceSid") ? *findField(form, "MessagingServiceSid") : "";
  m.statusCallback = findField(form, "StatusCallback") ? *findField(form, "StatusCallback") : "";
  if (m.to.empty()) return sendError(response, 400, 21604, "A 'To' phone number is required.");
  if (m.body.empty()) return sendError(response, 400, 21602, "Message body is required.");
  if (m.from.empty() && m.messagingServiceSid.empty()) {
    return sendError(response, 400, 21603, "A 'From' phone number is required.");
  }
  if (!isE164(m.to)) {
    return sendError(response, 400, 21211,
                     "The 'To' number " + m.to + " is not a valid phone number.");
  }
  if (unsubscribed) {
    return sendError(response, 400, 21610, "Attempt to send to unsubscribed recipient");
  }
  if (!validateUtf8(m.body) || countCodePoints(m.body) > kMaxBodyCharacters) {
    return sendError(response, 400, 21617,
                     "The concatenated message body exceeds the 1600 character limit.");
  }
  const Result<int> segments = countSegments(m.body);
  m.numSegments = segments ? *segments : 1;
  m.sid = newSid("SM");
  m.dateCreated = now();
  m.status = m.from.empty() ? "accepted" : "queued";
  std::function<void(const FakeMessage&)> onMessage;
  {
    std::lock_guard lock(mutex_);
    messages_.push_back(m);
    onMessage = onMessage_;
    if (options_.autoDeliver && !m.statusCallback.empty()) {
      pendingDeliveries_.emplace_back(m.sid, "sent");
      pendingDeliveries_.emplace_back(m.sid, "delivered");
    }
  }
  changed_.notify_all();
  if (onMessage) onMessage(m);
  sendJson(response, 201, messageJson(m, options_.accountSid));
}

void FakeTwilio::list(const std::string& query, Poco::Net::HTTPServerResponse& response) {
  Result<FormFields> params = parseForm(query);
  if (!params) return sendError(response, 400, 20001, "Invalid query string");
  auto param = [&](const char* name) {
    const std::string* v = findField(*params, name);
    return v ? *v : std::string();
  };
  std::optional<SmsClock::time_point> sentOn, sentAfter, sentBefore;
  for (auto [name, target] : {std::pair{"DateSent", &sentOn}, std::pair{"DateSent>", &sentAfter},
                              std::pair{"DateSent<", &sentBefore}}) {
    const std::string v = param(name);
    if (v.empty()) continue;
    *target = parseFilterDate(v);
    if (!*target) return sendError(response, 400, 20001, std::string("Invalid ") + name);
  }
  const long pageSize = std::clamp(number(param("PageSize")).value_or(50), 1L, 1000L);
  const long page = std::max(number(param("Page")).value_or(0), 0L);
  std::vector<FakeMessage> matching;
  {
    std::lock_guard lock(mutex_);
    ++listRequests_;
    for (const FakeMessage& m : messages_) {
      if (!param("To").empty() && m.to != param("To")) continue;
      if (!param("From").empty() && m.from != param("From")) continue;
      if (sentOn || sentAfter || sentBefore) {
        // Like Twilio, a message that has not been sent has no date_sent and matches no filter.
        if (!m.dateSent) continue;
        if (sentOn && (*m.dateSent < *sentOn || *m.dateSent >= *sentOn + std::chrono::hours(24))) {
          continue;
        }
        if (sentAfter && *m.dateSent < *sentAfter) continue;
        if (sentBefore && *m.dateSent >= *sentBefore + std::chrono::hours(24)) continue;
      }
      matching.push_back(m);
    }
  }
  // Newest first; the creation order breaks ties within a second.
  std::reverse(matching.begin(), matching.end());
  std::stable_sort(matching.begin(), matching.end(),
                   [](const FakeMessage& a, const FakeMessage& b) {
                     return std::chrono::floor<std::chrono::seconds>(a.dateCreated) >
                            std::chrono::floor<std::chrono::seconds>(b.dateCreated);
                   });
  const std::size_t start = static_cast<std::size_t>(page * pageSize);
  const std::size_t end = std::min(matching.size(), start + static_cast<std::size_t>(pageSize));
  const std::string base =
      std::string("/") + kApiVersion + "/Accounts/" + options_.accountSid + "/Messages.json";
  FormFields kept;
  for (const FormField& f : *params) {
    if (f.name != "Page" && f.name != "PageToken" && f.name != "PageSize") kept.push_back(f);
  }
  auto pageUri = [&](long n) {
    FormFields fields = kept;
    fields.push_back({"PageSize", std::to_string(pageSize)});
    fields.push_back({"Page", std::to_string(n)});
    if (n > 0) fields.push_back({"PageToken", "PA" + std::to_string(n)});
    return base + "?" + encodeForm(fields);
  };
  Poco::JSON::Array::Ptr items = new Poco::JSON::Array;
  for (std::size_t i = start; i < end; ++i)
    items->add(messageJson(matching[i], options_.accountSid));
  JsonObject::Ptr o = orderedObject();
  o->set("end", end == 0 ? 0 : static_cast<int>(end) - 1);
  o->set("first_page_uri", pageUri(0));
  o->set("messages", items);
  o->set("next_page_uri",
         end < matching.size() ? Poco::Dynamic::Var(pageUri(page + 1)) : Poco::Dynamic::Var());
  o->set("page", static_cast<int>(page));
  o->set("page_size", static_cast<int>(pageSize));
  o->set("previous_page_uri",
         page > 0 ? Poco::Dynamic::Var(pageUri(page - 1)) : Poco::Dynamic::Var());
  o->set("start", static_cast<int>(start));
  o->set("uri", pageUri(page));
  sendJson(response, 200, o);
}

Result<WebhookReply> FakeTwilio::deliver(const std::string& sid, const std::string& status,
                                         const std::string& errorCode) {
  FakeMessage m;
  {
    std::lock_guard lock(mutex_);
    auto it = std::find_if(messages_.begin(), messages_.end(),
                           [&](const FakeMessage& x) { return x.sid == sid; });
    if (it == messages_.end()) return makeError("the fake provider has no message " + sid);
    it->status = status;
    it->errorCode = errorCode;
    if (!it->dateSent && status != "queued" && status != "accepted" && status != "scheduled") {
      it->dateSent = now();
    }
    m = *it;
  }
  if (m.statusCallback.empty()) return makeError("message " + sid + " has no StatusCallback");
  FormFields fields{{"AccountSid", options_.accountSid},
                    {"ApiVersion", kApiVersion},
                    {"From", m.from},
                    {"MessageSid", m.sid},
                    {"MessageStatus", status},
                    {"SmsSid", m.sid},
                    {"SmsStatus", status},
                    {"To", m.to}};
  if (!m.messagingServiceSid.empty())
    fields.push_back({"MessagingServiceSid", m.messagingServiceSid});
  if (!errorCode.empty()) fields.push_back({"ErrorCode", errorCode});
  return postWebhook(m.statusCallback, fields);
}

Result<WebhookReply> FakeTwilio::sendInbound(const std::string& from, const std::string& to,
                                             const std::string& body, const FormFields& extra,
                                             const std::string& sid, std::string* sidOut) {
  const std::string messageSid = sid.empty() ? newSid("SM") : sid;
  if (sidOut != nullptr) *sidOut = messageSid;
  const Result<int> segments = countSegments(body);
  FormFields fields{{"ToCountry", "US"},
                    {"ToState", "CA"},
                    {"SmsMessageSid", messageSid},
                    {"NumMedia", "0"},
                    {"ToCity", ""},
                    {"FromZip", ""},
                    {"SmsSid", messageSid},
                    {"FromState", "CA"},
                    {"SmsStatus", "received"},
                    {"FromCity", ""},
                    {"Body", body},
                    {"FromCountry", "US"},
                    {"To", to},
                    {"ToZip", ""},
                    {"NumSegments", std::to_string(segments ? *segments : 1)},
                    {"MessageSid", messageSid},
                    {"AccountSid", options_.accountSid},
                    {"From", from},
                    {"ApiVersion", kApiVersion}};
  fields.insert(fields.end(), extra.begin(), extra.end());
  std::string url;
  {
    std::lock_guard lock(mutex_);
    url = options_.inboundUrl;
  }
  if (url.empty()) return makeError("the fake provider has no inbound URL configured");
  return postWebhook(url, fields);
}

Result<WebhookReply> FakeTwilio::postWebhook(const std::string& url, const FormFields& fields,
                                             const std::optional<std::string>& signature,
                                             const std::string& contentType) {
  const std::string sig =
      signature ? *signature : twilioSignature(asBytes(options_.authToken), url, fields);
  std::string target = url;
  {
    std::lock_guard lock(mutex_);
    if (!publicPrefix_.empty() && url.starts_with(publicPrefix_)) {
      target = localPrefix_ + url.substr(publicPrefix_.size());
    }
  }
  return httpPost(target, encodeForm(fields), contentType, sig);
}

void FakeTwilio::autoDeliverLoop() {
  for (;;) {
    std::pair<std::string, std::string> next;
    {
      std::unique_lock lock(mutex_);
      changed_.wait(lock, [this] { return stopping_ || !pendingDeliveries_.empty(); });
      if (stopping_) return;
      next = pendingDeliveries_.front();
      pendingDeliveries_.pop_front();
    }
    // A failed callback is what Twilio would log in its debugger; the fake just moves on.
    (void)deliver(next.first, next.second);
  }
}

}  // namespace atoms::drivers::twilio
