#include "drivers/sms/twilio/twilio_webhook.h"

#include <algorithm>
#include <cctype>

#include "drivers/sms/twilio/twilio_signature.h"

namespace atoms::drivers::twilio {
namespace {

WebhookVerdict refuse(int status, std::string reason) {
  WebhookVerdict v;
  v.httpStatus = status;
  v.reason = std::move(reason);
  return v;
}

bool isFormContentType(std::string_view contentType) {
  const std::string_view mediaType = contentType.substr(0, contentType.find(';'));
  std::string lower;
  for (char c : mediaType) {
    if (c != ' ' && c != '\t') lower.push_back(static_cast<char>(std::tolower(c)));
  }
  return lower == "application/x-www-form-urlencoded";
}

// Provider ids become the inbox's dedup key: 1-64 ASCII letters and digits (Twilio: SM/MM + 32
// hex).
bool isProviderId(std::string_view v) {
  return !v.empty() && v.size() <= 64 && std::all_of(v.begin(), v.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c));
  });
}

// The value of the first of several names that is present (Twilio still sends legacy aliases).
// Sets `duplicate` when the chosen name appears more than once.
const std::string* pick(const FormFields& fields, std::initializer_list<std::string_view> names,
                        std::string_view& chosen, bool& duplicate) {
  for (std::string_view name : names) {
    if (const std::string* v = findField(fields, name)) {
      chosen = name;
      duplicate = countField(fields, name) > 1;
      return v;
    }
  }
  return nullptr;
}

std::string quoted(std::string_view v) { return "'" + printable(v, 40) + "'"; }

struct Fields {
  const FormFields& form;
  WebhookVerdict& verdict;
  // Ok when `name` (or an alias) is present once; otherwise a 400 refusal is set.
  const std::string* required(std::initializer_list<std::string_view> names) {
    std::string_view chosen;
    bool duplicate = false;
    const std::string* v = pick(form, names, chosen, duplicate);
    if (v == nullptr) {
      fail("missing field " + std::string(*names.begin()));
    } else if (duplicate) {
      fail("field " + std::string(chosen) + " appears more than once");
      return nullptr;
    }
    return v;
  }
  const std::string* optional(std::string_view name) {
    if (countField(form, name) > 1) {
      fail("field " + std::string(name) + " appears more than once");
      return nullptr;
    }
    return findField(form, name);
  }
  void fail(std::string reason) {
    verdict.httpStatus = 400;
    verdict.reason = std::move(reason);
  }
  bool failed() const { return !verdict.reason.empty(); }
};

void interpretInbound(const FormFields& form, SmsClock::time_point now, WebhookVerdict& v) {
  Fields f{form, v};
  const std::string* sid = f.required({"MessageSid", "SmsMessageSid", "SmsSid"});
  if (sid == nullptr) return;
  if (!isProviderId(*sid)) return f.fail("MessageSid " + quoted(*sid) + " is not a message SID");
  v.providerId = *sid;
  const std::string* from = f.required({"From"});
  if (from == nullptr) return;
  v.from = printable(*from, 64);
  const std::string* to = f.required({"To"});
  if (to == nullptr) return;
  const std::string* body = f.optional("Body");
  if (f.failed()) return;
  // A picture message without text has an empty Body; the text is judged by the sink.
  const std::string text = body != nullptr ? *body : std::string();
  v.inbound = InboundSms{*sid, *from, *to, text, now};
  v.httpStatus = 200;
}

void interpretStatus(const FormFields& form, std::string_view query, SmsClock::time_point now,
                     WebhookVerdict& v) {
  Fields f{form, v};
  const std::string* sid = f.required({"MessageSid", "SmsSid"});
  if (sid == nullptr) return;
  if (!isProviderId(*sid)) return f.fail("MessageSid " + quoted(*sid) + " is not a message SID");
  v.providerId = *sid;
  const std::string* status = f.required({"MessageStatus", "SmsStatus"});
  if (status == nullptr) return;
  const std::string* code = f.optional("ErrorCode");
  if (f.failed()) return;
  std::string errorCode = code != nullptr ? *code : std::string();
  if (errorCode.size() > 10 || !std::all_of(errorCode.begin(), errorCode.end(),
                                            [](char c) { return c >= '0' && c <= '9'; })) {
    return f.fail("ErrorCode " + quoted(errorCode) + " is not a number");
  }
  Result<FormFields> params = parseForm(query);
  if (!params) return f.fail("status callback URL query: " + params.message());
  std::string key;
  if (countField(*params, kKeyParameter) > 1) {
    return f.fail("status callback URL has more than one " + std::string(kKeyParameter));
  }
  if (const std::string* k = findField(*params, kKeyParameter)) key = *k;
  const std::optional<DeliveryState> state = mapTwilioStatus(*status);
  if (!state) {
    v.httpStatus = 204;
    v.reason = "MessageStatus " + quoted(*status) + " is not one the driver records";
    return;
  }
  DeliveryReport report;
  report.providerId = *sid;
  report.state = *state;
  report.errorCode = std::move(errorCode);
  report.at = now;
  report.idempotencyKey = std::move(key);
  v.report = std::move(report);
  v.httpStatus = 204;
}

}  // namespace

std::optional<DeliveryState> mapTwilioStatus(std::string_view status) {
  if (status == "accepted" || status == "scheduled" || status == "queued") {
    return DeliveryState::kQueued;
  }
  if (status == "sending" || status == "sent") return DeliveryState::kSent;
  if (status == "delivered" || status == "read") return DeliveryState::kDelivered;
  if (status == "undelivered" || status == "partially_delivered") {
    return DeliveryState::kUndelivered;
  }
  if (status == "failed" || status == "canceled") return DeliveryState::kFailed;
  return std::nullopt;
}

WebhookVerdict interpretWebhook(const WebhookRequest& request, const WebhookPolicy& policy,
                                SmsClock::time_point now) {
  const std::size_t q = request.uri.find('?');
  const std::string_view path = std::string_view(request.uri).substr(0, q);
  const std::string_view query =
      q == std::string::npos ? std::string_view() : std::string_view(request.uri).substr(q + 1);
  const bool inbound = path == kInboundPath;
  if (!inbound && path != kStatusPath) return refuse(404, "no webhook at " + quoted(path));
  if (request.method != "POST")
    return refuse(405, "method " + quoted(request.method) + " not allowed");
  if (request.body.size() > policy.limits.maxBytes) {
    return refuse(413, "body of " + std::to_string(request.body.size()) +
                           " bytes is over the limit of " + std::to_string(policy.limits.maxBytes));
  }
  if (!isFormContentType(request.contentType)) {
    return refuse(415, "content type " + quoted(request.contentType) +
                           " is not application/x-www-form-urlencoded");
  }
  Result<FormFields> form = parseForm(request.body, policy.limits);
  if (!form) return refuse(400, "malformed form body: " + form.message());
  if (request.signatureSettings) {
    return refuse(403,
                  "X-Twilio-Webhooks-Signature-Settings is not supported (webhook rules "
                  "with a shared key): signature not checked");
  }
  if (!request.signature || request.signature->empty()) {
    return refuse(403, "missing X-Twilio-Signature");
  }
  if (!validTwilioSignature(policy.authToken, policy.publicUrl + request.uri, *form,
                            *request.signature)) {
    return refuse(403, "invalid X-Twilio-Signature");
  }
  WebhookVerdict v;
  v.authenticated = true;
  if (countField(*form, "AccountSid") > 1 ||
      (findField(*form, "AccountSid") != nullptr &&
       *findField(*form, "AccountSid") != policy.accountSid)) {
    v.httpStatus = 403;
    v.reason = "AccountSid does not match the configured account";
    return v;
  }
  if (inbound) {
    interpretInbound(*form, now, v);
  } else {
    interpretStatus(*form, query, now, v);
  }
  return v;
}

}  // namespace atoms::drivers::twilio
