#include "drivers/sms/twilio/twilio_gateway.h"

#include <Poco/Net/HTTPServerRequest.h>
#include <Poco/Net/HTTPServerResponse.h>

#include <algorithm>
#include <ctime>

#include "drivers/http/http_service.h"
#include "drivers/sms/encoding/utf.h"
#include "drivers/sms/twilio/form_body.h"
#include "drivers/sms/twilio/twilio_rest.h"
#include "drivers/sms/twilio/twilio_webhook.h"

namespace atoms::drivers::twilio {
namespace {

// Pages read per list query before reconcile gives up with kUnknown.
constexpr int kMaxPages = 5;
// How far a message's date_created may precede `since` (clocks of the box and Twilio differ).
constexpr auto kClockSkew = std::chrono::minutes(10);

std::string utcDate(SmsClock::time_point t) {
  const std::time_t secs = SmsClock::to_time_t(t);
  std::tm tm{};
  ::gmtime_r(&secs, &tm);
  char buf[48];
  std::snprintf(buf, sizeof buf, "%04d-%02d-%02d", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday);
  return buf;
}

void answer(Poco::Net::HTTPServerResponse& response, int status, std::string_view contentType,
            std::string_view body) {
  response.setStatusAndReason(static_cast<Poco::Net::HTTPResponse::HTTPStatus>(status));
  if (status == 405) response.set("Allow", "POST");
  if (status == 413) response.setKeepAlive(false);  // the rest of the body is not read
  if (!body.empty()) response.setContentType(std::string(contentType));
  response.setContentLength(static_cast<std::streamsize>(body.size()));
  std::ostream& out = response.send();
  if (!body.empty()) out.write(body.data(), static_cast<std::streamsize>(body.size()));
}

}  // namespace

TwilioGateway::TwilioGateway(TwilioConfig config, TwilioGatewayOptions options)
    : config_(std::move(config)),
      options_(std::move(options)),
      configStatus_(validateTwilioConfig(config_)),
      rest_(std::make_unique<TwilioRestClient>(config_)) {
  if (!options_.now) options_.now = [] { return SmsClock::now(); };
}

TwilioGateway::~TwilioGateway() { stop(); }

Status TwilioGateway::start(SmsSink& sink) {
  if (!configStatus_) return configStatus_;
  if (server_ && server_->running())
    return makeError("the Twilio webhook server is already running");
  sink_ = &sink;
  server_ = std::make_unique<HttpService>(
      "atoms-edge twilio webhooks",
      [this](Poco::Net::HTTPServerRequest& req, Poco::Net::HTTPServerResponse& resp) {
        serve(req, resp);
      },
      options_.readiness);
  return server_->start(config_.listenAddress, config_.listenPort, config_.webhookThreads);
}

void TwilioGateway::stop() {
  if (server_) server_->stop();
}

std::uint16_t TwilioGateway::webhookPort() const { return server_ ? server_->boundPort() : 0; }

std::string TwilioGateway::statusCallbackUrl(const std::string& idempotencyKey) const {
  return config_.publicUrl + std::string(kStatusPath) + "?" + std::string(kKeyParameter) + "=" +
         formEncode(idempotencyKey);
}

SendResult TwilioGateway::send(const OutboundSms& message) {
  if (!configStatus_) return SendError{true, configStatus_.message()};
  if (message.to.empty()) return SendError{false, "message has no recipient number"};
  if (message.body.empty()) return SendError{false, "message has no text"};
  if (Status s = validateUtf8(message.body); !s) {
    return SendError{false, "message text is not valid UTF-8: " + s.message()};
  }
  FormFields fields{{"To", message.to}, {"Body", message.body}};
  if (!config_.from.empty()) fields.push_back({"From", config_.from});
  if (!config_.messagingServiceSid.empty()) {
    fields.push_back({"MessagingServiceSid", config_.messagingServiceSid});
  }
  fields.push_back({"StatusCallback", statusCallbackUrl(message.idempotencyKey)});
  auto reply = rest_->post(rest_->messagesPath(), encodeForm(fields));
  if (const auto* error = std::get_if<TransportError>(&reply)) {
    return SendError{true, error->message, error->mayHaveReachedTwilio};
  }
  return classifySendReply(std::get<HttpReply>(reply));
}

std::optional<ReconcileResult> TwilioGateway::searchOnce(const OutboundSms& message,
                                                         std::string target,
                                                         SmsClock::time_point windowStart,
                                                         bool newestFirst,
                                                         std::set<std::string>& matches) const {
  const ReconcileResult unavailable{ReconcileResult::Kind::kUnavailable, {}};
  for (int page = 0; page < kMaxPages; ++page) {
    auto reply = rest_->get(target);
    const auto* http = std::get_if<HttpReply>(&reply);
    if (http == nullptr || http->status != 200) return unavailable;
    Result<MessagePage> parsed = parseMessagePage(http->body);
    if (!parsed) return unavailable;
    bool allOlder = !parsed->messages.empty();
    for (const ListedMessage& m : parsed->messages) {
      // An unreadable date counts as inside the window: a false "not found" sends twice.
      const bool inWindow = !m.dateCreated || *m.dateCreated >= windowStart;
      allOlder = allOlder && !inWindow;
      if (inWindow && m.direction.starts_with("outbound") && m.to == message.to &&
          m.body == message.body && !m.sid.empty()) {
        matches.insert(m.sid);
      }
    }
    if (parsed->nextPageUri.empty() || (newestFirst && allOlder)) return std::nullopt;
    target = parsed->nextPageUri;
  }
  // More pages than the cap: asking again later would not finish the search either.
  return ReconcileResult{ReconcileResult::Kind::kUnknown, {}};
}

ReconcileResult TwilioGateway::reconcile(const OutboundSms& message, SmsClock::time_point since) {
  if (!configStatus_) return {ReconcileResult::Kind::kUnavailable, {}};
  if (message.to.empty()) return {ReconcileResult::Kind::kUnknown, {}};
  const SmsClock::time_point windowStart = since - kClockSkew;
  const std::string base = rest_->messagesPath() + "?To=" + formEncode(message.to);
  std::set<std::string> matches;
  // Sent messages: the documented DateSent filter (whole UTC days; a day earlier for skew).
  const std::string sentQuery = base + "&" + formEncode("DateSent>") + "=" +
                                utcDate(windowStart - std::chrono::hours(24)) + "&PageSize=100";
  if (auto r = searchOnce(message, sentQuery, windowStart, false, matches)) return *r;
  // Messages not sent yet have no date_sent; they are the newest to this number.
  if (auto r = searchOnce(message, base + "&PageSize=100", windowStart, true, matches)) return *r;
  if (matches.empty()) return {ReconcileResult::Kind::kNotFound, {}};
  if (matches.size() == 1) return {ReconcileResult::Kind::kAccepted, *matches.begin()};
  return {ReconcileResult::Kind::kUnknown, {}};
}

void TwilioGateway::refused(RefusedWebhook event) const {
  if (!options_.onRefused) return;
  try {
    options_.onRefused(event);
  } catch (...) {
    // An auditing hook must not turn an answered request into a 500.
  }
}

void TwilioGateway::serve(Poco::Net::HTTPServerRequest& request,
                          Poco::Net::HTTPServerResponse& response) {
  RefusedWebhook event;
  event.path = printable(request.getURI().substr(0, request.getURI().find('?')), 100);
  event.peer = request.clientAddress().toString();

  std::optional<std::string> body = readRequestBody(request, config_.maxWebhookBytes);
  if (!body) {
    event.httpStatus = 413;
    event.reason = "body over the limit of " + std::to_string(config_.maxWebhookBytes) + " bytes";
    answer(response, 413, "text/plain", "body too large\n");
    return refused(std::move(event));
  }
  WebhookRequest req;
  req.method = request.getMethod();
  req.uri = request.getURI();
  req.contentType = request.get("Content-Type", "");
  if (request.has("X-Twilio-Signature")) req.signature = request.get("X-Twilio-Signature");
  req.signatureSettings = request.has("X-Twilio-Webhooks-Signature-Settings");
  req.body = std::move(*body);
  WebhookPolicy policy{config_.authToken.view(), config_.accountSid, config_.publicUrl,
                       FormLimits{config_.maxWebhookBytes, 256}};
  WebhookVerdict verdict = interpretWebhook(req, policy, options_.now());
  event.authenticated = verdict.authenticated;
  event.providerId = verdict.providerId;
  event.from = verdict.from;

  if (verdict.inbound || verdict.report) {
    Status stored;
    try {
      stored = verdict.inbound ? sink_->acceptInbound(*verdict.inbound)
                               : sink_->acceptReport(*verdict.report);
    } catch (const std::exception& e) {
      stored = makeError(std::string("the sink threw: ") + e.what());
    } catch (...) {
      stored = makeError("the sink threw");
    }
    if (!stored) {
      event.httpStatus = 503;
      event.reason = "not stored: " + stored.message();
      answer(response, 503, "text/plain", "not stored, try again\n");
      return refused(std::move(event));
    }
    if (verdict.inbound) {
      answer(response, 200, "text/xml", kEmptyTwiml);
    } else {
      answer(response, 204, "", "");
    }
    return;
  }
  event.httpStatus = verdict.httpStatus;
  event.reason = verdict.reason;
  // 403 says nothing more to an unauthenticated caller; other refusals help whoever reads
  // Twilio's debugger.
  const std::string text = verdict.httpStatus == 403  ? std::string("forbidden\n")
                           : verdict.httpStatus < 300 ? std::string()
                                                      : verdict.reason + "\n";
  answer(response, verdict.httpStatus, "text/plain", text);
  // Another path or method without Twilio's signature is no webhook at all (a monitor, a
  // scanner): answered, not reported, so probing cannot fill the audit log. Signed, it is Twilio
  // set up wrongly (a webhook configured as GET) and is reported.
  const bool notAWebhook = verdict.httpStatus == 404 || verdict.httpStatus == 405;
  if (notAWebhook && !req.signature) return;
  refused(std::move(event));
}

}  // namespace atoms::drivers::twilio
