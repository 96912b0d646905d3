// Fuzz target: the Twilio webhook parser (drivers/sms/twilio/form_body.h, twilio_webhook.h): the
// form-encoded body and the decision about a request that anyone on the internet can send to the
// box's public webhook URL.
//
// Input: "<uri>\n<X-Twilio-Signature or '-' for none>\n<body>". Each input is interpreted twice:
// as sent, and (when the body parses) re-signed with the fixed token, so mutations reach the code
// behind the signature check. Properties, beyond "no crash, no sanitizer report":
//   - parseForm(encodeForm(fields)) == fields, and parsed names are never empty;
//   - a verdict carries a message, a report, or a one-line reason, never two of them;
//   - nothing unauthenticated reaches the sink or names a sender;
//   - an accepted inbound message carries the Body exactly as sent (the sink judges the text);
//   - a correctly signed request is never refused for its signature.
#include <cstddef>
#include <cstdint>
#include <string>

#include "base/bytes.h"
#include "drivers/sms/twilio/form_body.h"
#include "drivers/sms/twilio/twilio_signature.h"
#include "drivers/sms/twilio/twilio_webhook.h"
#include "tests/fuzz/fuzz_support.h"

namespace {

using namespace atoms::drivers;
using namespace atoms::drivers::twilio;
using atoms::fuzz::isOneLine;
using atoms::fuzz::require;

const std::string kToken = "fuzz-auth-token-0123456789abcdef";
const std::string kAccount = "AC0123456789abcdef0123456789abcdef";
const std::string kPublic = "https://shop.example.net/atoms";

void checkVerdict(const WebhookVerdict& v, const atoms::Result<FormFields>& form) {
  const int outcomes = (v.inbound ? 1 : 0) + (v.report ? 1 : 0) + (v.reason.empty() ? 0 : 1);
  require(outcomes == 1, "a verdict is exactly one of message, report, reason");
  require(isOneLine(v.reason), "a refusal reason is one line of printable ASCII");
  require(v.reason.size() < 400, "a refusal reason is short");
  if (!v.authenticated) {
    require(!v.inbound && !v.report, "nothing unauthenticated reaches the sink");
    require(v.from.empty() && v.providerId.empty(), "an unauthenticated request names nobody");
  }
  if (v.httpStatus == 403) require(!v.inbound && !v.report, "a 403 stores nothing");
  if (v.inbound) {
    require(v.httpStatus == 200, "an inbound message is answered 200");
    require(form.ok(), "an inbound message comes from a parsed form");
    const std::string* body = findField(*form, "Body");
    require(v.inbound->body == (body != nullptr ? *body : std::string()),
            "an accepted message carries the Body exactly as sent");
    require(!v.inbound->providerId.empty() && v.inbound->providerId.size() <= 64,
            "an accepted message has a bounded id");
  }
  if (v.report) require(v.httpStatus == 204, "a report is answered 204");
  if (!v.reason.empty()) {
    require(v.httpStatus == 204 || (v.httpStatus >= 400 && v.httpStatus < 500),
            "a refusal is a 4xx (or an ignored status, 204)");
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text = atoms::fuzz::asText(data, size);
  const auto [uri, rest] = atoms::fuzz::splitFirstLine(text);
  const auto [signature, body] = atoms::fuzz::splitFirstLine(rest);

  const FormLimits limits{4096, 64};
  const atoms::Result<FormFields> form = parseForm(body, limits);
  if (form) {
    for (const FormField& f : *form) require(!f.name.empty(), "parsed names are not empty");
    const std::string encoded = encodeForm(*form);
    const atoms::Result<FormFields> again = parseForm(encoded, FormLimits{1 << 20, 1 << 20});
    require(again.ok() && *again == *form, "parseForm(encodeForm(f)) == f");
  } else {
    require(!form.message().empty() && isOneLine(form.message()), "a form error is one line");
  }

  WebhookRequest request;
  request.method = "POST";
  request.uri = std::string(uri);
  request.contentType = "application/x-www-form-urlencoded";
  if (signature != "-") request.signature = std::string(signature);
  request.body = std::string(body);
  const WebhookPolicy policy{atoms::asBytes(kToken), kAccount, kPublic, limits};
  const SmsClock::time_point now{};
  checkVerdict(interpretWebhook(request, policy, now), form);

  if (form) {
    request.signature = twilioSignature(atoms::asBytes(kToken), kPublic + request.uri, *form);
    require(validTwilioSignature(atoms::asBytes(kToken), kPublic + request.uri, *form,
                                 *request.signature),
            "a computed signature validates");
    const WebhookVerdict v = interpretWebhook(request, policy, now);
    checkVerdict(v, form);
    // Exactly the signature refusals: other reasons may quote the path, which can hold any text.
    require(v.reason != "missing X-Twilio-Signature" && v.reason != "invalid X-Twilio-Signature",
            "a correctly signed request passes the signature check");
  }
  return 0;
}
