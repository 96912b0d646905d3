#include "drivers/sms/twilio/twilio_rest.h"

#include <Poco/DateTimeFormat.h>
#include <Poco/DateTimeParser.h>
#include <Poco/Exception.h>
#include <Poco/JSON/Object.h>
#include <Poco/JSON/Parser.h>
#include <Poco/Net/Context.h>
#include <Poco/Net/HTTPClientSession.h>
#include <Poco/Net/HTTPRequest.h>
#include <Poco/Net/HTTPResponse.h>
#include <Poco/Net/HTTPSClientSession.h>
#include <Poco/Net/NetException.h>
#include <Poco/Net/NetSSL.h>
#include <Poco/Net/SSLException.h>
#include <openssl/crypto.h>

#include <charconv>
#include <ctime>
#include <istream>
#include <memory>

#include "base/bytes.h"
#include "drivers/http/base_url.h"
#include "drivers/http/client_tls.h"
#include "drivers/sms/twilio/twilio_webhook.h"

namespace atoms::drivers::twilio {
namespace {

constexpr std::size_t kMaxReplyBytes = 4 * 1024 * 1024;

std::string readBounded(std::istream& in) {
  std::string out;
  char buf[8192];
  while (in && out.size() < kMaxReplyBytes) {
    in.read(buf, sizeof buf);
    out.append(buf, static_cast<std::size_t>(in.gcount()));
  }
  return out;
}

std::string oneLine(std::string_view text) { return printable(text, 300); }

Poco::JSON::Object::Ptr parseObject(const std::string& json) {
  try {
    Poco::JSON::Parser parser;
    Poco::Dynamic::Var v = parser.parse(json);
    if (v.type() == typeid(Poco::JSON::Object::Ptr)) return v.extract<Poco::JSON::Object::Ptr>();
  } catch (const Poco::Exception&) {
  } catch (const std::exception&) {
  }
  return nullptr;
}

// A member as text: strings as they are, numbers in decimal; "" when absent, null or another type.
std::string text(const Poco::JSON::Object::Ptr& o, const std::string& key) {
  if (!o || !o->has(key) || o->isNull(key)) return {};
  try {
    const Poco::Dynamic::Var v = o->get(key);
    if (v.isString() || v.isInteger()) return v.convert<std::string>();
  } catch (const Poco::Exception&) {
  }
  return {};
}

std::optional<long> number(const std::string& s) {
  long n = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), n);
  if (ec != std::errc() || end != s.data() + s.size() || s.empty()) return std::nullopt;
  return n;
}

}  // namespace

TwilioRestClient::TwilioRestClient(const TwilioConfig& config)
    : accountSid_(config.accountSid),
      authToken_(config.authToken.clone()),
      connectTimeout_(config.connectTimeout),
      requestTimeout_(config.requestTimeout) {
  Poco::Net::initializeSSL();
  // validateTwilioConfig refuses a URL that does not parse; requests then fail with a clear error.
  const BaseUrl url = BaseUrl::parse(config.apiBaseUrl);
  scheme_ = url.scheme;
  host_ = url.host;
  port_ = url.port;
  basePath_ = url.basePath;
  if (scheme_ == "https") {
    try {
      tls_ = clientTlsContext();
    } catch (const Poco::Exception& e) {
      tlsError_ = "cannot set up TLS for Twilio: " + oneLine(e.displayText());
    }
  }
}

TwilioRestClient::~TwilioRestClient() { Poco::Net::uninitializeSSL(); }

std::string TwilioRestClient::messagesPath() const {
  return basePath_ + "/2010-04-01/Accounts/" + accountSid_ + "/Messages.json";
}

std::variant<HttpReply, TransportError> TwilioRestClient::post(const std::string& path,
                                                               const std::string& formBody) const {
  return request(Poco::Net::HTTPRequest::HTTP_POST, path, &formBody);
}

std::variant<HttpReply, TransportError> TwilioRestClient::get(
    const std::string& pathAndQuery) const {
  // next_page_uri is rooted at Twilio's host; under a base path (a proxy) it needs the prefix.
  std::string target = pathAndQuery;
  if (!basePath_.empty() && !target.starts_with(basePath_ + "/")) target = basePath_ + target;
  return request(Poco::Net::HTTPRequest::HTTP_GET, target, nullptr);
}

std::variant<HttpReply, TransportError> TwilioRestClient::request(
    const std::string& method, const std::string& target, const std::string* formBody) const {
  const std::string where = scheme_ + "://" + host_ + ":" + std::to_string(port_);
  if (host_.empty() || (scheme_ != "https" && scheme_ != "http")) {
    return TransportError{false,
                          "Twilio API base URL is not usable: check sms.twilio.api-base-url"};
  }
  bool written = false;
  try {
    std::unique_ptr<Poco::Net::HTTPClientSession> session;
    if (scheme_ == "https") {
      if (!tls_) return TransportError{false, tlsError_};
      session = std::make_unique<Poco::Net::HTTPSClientSession>(host_, port_, tls_);
    } else {
      session = std::make_unique<Poco::Net::HTTPClientSession>(host_, port_);
    }
    session->setTimeout(Poco::Timespan(connectTimeout_.count() * 1000),
                        Poco::Timespan(requestTimeout_.count() * 1000),
                        Poco::Timespan(requestTimeout_.count() * 1000));
    Poco::Net::HTTPRequest req(method, target, Poco::Net::HTTPMessage::HTTP_1_1);
    req.set("Accept", "application/json");
    req.set("User-Agent", "atoms-edge");
    {
      std::string credentials = accountSid_ + ":";
      credentials.append(reinterpret_cast<const char*>(authToken_.data()), authToken_.size());
      req.set("Authorization", "Basic " + toBase64(asBytes(credentials)));
      OPENSSL_cleanse(credentials.data(), credentials.size());
    }
    if (formBody != nullptr) {
      req.setContentType("application/x-www-form-urlencoded");
      req.setContentLength(static_cast<std::streamsize>(formBody->size()));
    }
    std::ostream& out = session->sendRequest(req);
    written = true;
    if (formBody != nullptr) out << *formBody;
    Poco::Net::HTTPResponse response;
    std::istream& in = session->receiveResponse(response);
    HttpReply reply;
    reply.status = static_cast<int>(response.getStatus());
    reply.body = readBounded(in);
    return reply;
  } catch (const Poco::TimeoutException&) {
    return TransportError{written, "no answer from Twilio at " + where + " within the timeout" +
                                       (written ? "; the message may have been accepted" : "")};
  } catch (const Poco::Net::SSLException& e) {
    return TransportError{false,
                          "TLS with Twilio at " + where + " failed: " + oneLine(e.displayText())};
  } catch (const Poco::Exception& e) {
    return TransportError{written,
                          "cannot reach Twilio at " + where + ": " + oneLine(e.displayText())};
  } catch (const std::exception& e) {
    return TransportError{written, "cannot reach Twilio at " + where + ": " + oneLine(e.what())};
  }
}

std::string describeErrorReply(const HttpReply& reply) {
  std::string out = "HTTP " + std::to_string(reply.status);
  const Poco::JSON::Object::Ptr o = parseObject(reply.body);
  const std::string code = text(o, "code");
  const std::string message = text(o, "message");
  if (!code.empty()) out += ", Twilio error " + oneLine(code);
  if (!message.empty()) out += ": " + oneLine(message);
  return out;
}

SendResult classifySendReply(const HttpReply& reply) {
  if (reply.status >= 200 && reply.status < 300) {
    const Poco::JSON::Object::Ptr o = parseObject(reply.body);
    const std::string sid = text(o, "sid");
    if (sid.empty()) {
      return SendError{true,
                       "Twilio answered HTTP " + std::to_string(reply.status) +
                           " without a readable message sid; the message may have been accepted",
                       true};
    }
    SendAccepted accepted;
    accepted.providerId = sid;
    if (const std::optional<long> n = number(text(o, "num_segments")); n && *n > 0) {
      accepted.segments = static_cast<int>(*n);
    }
    return accepted;
  }
  const std::string code = text(parseObject(reply.body), "code");
  const bool retryable = reply.status == 429 || reply.status >= 500 || reply.status == 401 ||
                         reply.status == 404 || code == "20429" || code == "21611" ||
                         reply.status < 400;
  // A gateway error or timeout in front of Twilio's API may hide an accepted message.
  const bool maybeAccepted = reply.status == 502 || reply.status == 504;
  std::string what =
      retryable ? "Twilio did not take the message (" : "Twilio refused the message (";
  const bool authFailure = reply.status == 401 || reply.status == 403;
  SendError error{retryable, what + describeErrorReply(reply) + ")", maybeAccepted, authFailure};
  error.cause = authFailure ? SendErrorCause::kAccount : sendErrorCause(reply.status, code);
  return error;
}

SendErrorCause sendErrorCause(int status, std::string_view code) {
  // Twilio's error dictionary (twilio.com/docs/api/errors), the codes its Messages API answers a
  // create with. About the recipient: 21610 unsubscribed (the number sent STOP; Twilio blocks
  // it), 21211 not a valid 'To' number, 21612 not reachable by SMS from this sender, 21614 not a
  // mobile number (a landline), 21407 a number type that does not take SMS, 21265 a short code.
  // About the content: 21602 / 21619 no body, 21617 over 1,600 characters. The other 4xx refusals
  // are about the account or its configuration (a sender that cannot send, 21401; a region not
  // enabled, 21408; a trial account's unverified recipient, 21608): they repeat for every
  // message, which is what the connection breaker is for.
  static constexpr std::string_view kRecipient[] = {"21610", "21211", "21612",
                                                    "21614", "21407", "21265"};
  static constexpr std::string_view kContent[] = {"21602", "21619", "21617"};
  for (std::string_view c : kRecipient) {
    if (code == c) return SendErrorCause::kRecipient;
  }
  for (std::string_view c : kContent) {
    if (code == c) return SendErrorCause::kContent;
  }
  if (status == 429 || status >= 500 || status < 400 || code == "20429" || code == "21611") {
    return SendErrorCause::kTransport;
  }
  return SendErrorCause::kAccount;
}

Result<MessagePage> parseMessagePage(const std::string& json) {
  const Poco::JSON::Object::Ptr o = parseObject(json);
  if (!o) return makeError("Twilio message list is not a JSON object");
  Poco::JSON::Array::Ptr list;
  try {
    list = o->getArray("messages");
  } catch (const Poco::Exception&) {
  }
  if (!list) return makeError("Twilio message list has no messages array");
  MessagePage page;
  for (std::size_t i = 0; i < list->size(); ++i) {
    Poco::JSON::Object::Ptr m;
    try {
      m = list->getObject(static_cast<unsigned>(i));
    } catch (const Poco::Exception&) {
    }
    if (!m)
      return makeError("Twilio message list entry " + std::to_string(i) + " is not an object");
    ListedMessage lm;
    lm.sid = text(m, "sid");
    lm.to = text(m, "to");
    lm.body = text(m, "body");
    lm.direction = text(m, "direction");
    lm.status = text(m, "status");
    lm.dateCreated = parseTwilioDate(text(m, "date_created"));
    page.messages.push_back(std::move(lm));
  }
  page.nextPageUri = text(o, "next_page_uri");
  return page;
}

std::optional<SmsClock::time_point> parseTwilioDate(const std::string& value) {
  if (value.empty()) return std::nullopt;
  try {
    int tzd = 0;
    const Poco::DateTime dt =
        Poco::DateTimeParser::parse(Poco::DateTimeFormat::RFC1123_FORMAT, value, tzd);
    Poco::DateTime utc = dt;
    utc.makeUTC(tzd);
    return SmsClock::from_time_t(utc.timestamp().epochTime());
  } catch (const Poco::Exception&) {
    return std::nullopt;
  }
}

std::string formatTwilioDate(SmsClock::time_point t) {
  const std::time_t secs = SmsClock::to_time_t(t);
  std::tm tm{};
  ::gmtime_r(&secs, &tm);
  static constexpr const char* kDays[] = {"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"};
  static constexpr const char* kMonths[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                            "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
  char buf[96];
  std::snprintf(buf, sizeof buf, "%s, %02d %s %04d %02d:%02d:%02d +0000", kDays[tm.tm_wday],
                tm.tm_mday, kMonths[tm.tm_mon], tm.tm_year + 1900, tm.tm_hour, tm.tm_min,
                tm.tm_sec);
  return buf;
}

}  // namespace atoms::drivers::twilio
