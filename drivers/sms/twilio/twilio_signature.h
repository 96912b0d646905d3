// X-Twilio-Signature (Twilio "Webhooks security"): base64(HMAC-SHA1(auth token, URL + the POST
// fields sorted by name, each as name followed by value, no separators)). A name sent several
// times contributes each distinct value once, values sorted, as Twilio's own helper libraries do
// (their published vectors are in tests/drivers/twilio/test_signature.cpp).
//
// The URL is the full URL Twilio requested, scheme to query string, exactly as configured there.
// Because Twilio is not consistent about an explicit default port, validation accepts a signature
// computed with or without ":443" / ":80" (as the official helpers do); nothing else is relaxed.
// Pure functions, thread-safe; the token is only read, never copied or logged.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "drivers/sms/twilio/form_body.h"

namespace atoms::drivers::twilio {

// The signature Twilio would send for this request (28 characters of base64).
std::string twilioSignature(std::span<const std::uint8_t> authToken, std::string_view url,
                            const FormFields& fields);

// True when signature (the header value) is the signature of url and fields, compared in constant
// time. An empty signature or token never validates.
bool validTwilioSignature(std::span<const std::uint8_t> authToken, std::string_view url,
                          const FormFields& fields, std::string_view signature);

// url with its default port made explicit ("https://h/x" -> "https://h:443/x") when it has none,
// or removed when it has one; url itself when it is neither http nor https or has another port.
std::string toggleDefaultPort(std::string_view url);

}  // namespace atoms::drivers::twilio
