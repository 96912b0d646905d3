// application/x-www-form-urlencoded: the body of every Twilio webhook and of every request the
// driver sends to the REST API, and the query string of the status callback URL.
//
// parseForm() is strict because its input comes from the network: '+' is a space, "%XY" needs two
// hex digits (anything else is an error naming the byte offset), a field needs a non-empty name,
// empty pieces ("a=1&&b=2") are skipped as browsers do, a piece without '=' is a name with an empty
// value. Names and values are returned as decoded bytes in the order sent, duplicates kept: the
// caller decides what a duplicate means. Decoded bytes are not checked for UTF-8 here (the webhook
// does that per field, so the signature is checked over exactly what was sent).
//
// encodeForm() is its inverse: parseForm(encodeForm(f)) == f for every f whose names are
// non-empty. All functions are pure and thread-safe.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"

namespace atoms::drivers::twilio {

struct FormField {
  std::string name;
  std::string value;
  friend bool operator==(const FormField&, const FormField&) = default;
};
using FormFields = std::vector<FormField>;

struct FormLimits {
  std::size_t maxBytes = 64 * 1024;  // of the encoded body
  std::size_t maxFields = 256;
};

// Errors (one line): "form body is N bytes, over the limit of M", "form body has more than M
// fields", "invalid percent-encoding at byte N", "empty field name at byte N".
Result<FormFields> parseForm(std::string_view body, const FormLimits& limits = {});

// "name=value&..." with ' ' as '+', ALPHA / DIGIT / "*-._" literal, every other byte as %XX.
std::string encodeForm(const FormFields& fields);

// One component encoded the same way (for building a query string by hand).
std::string formEncode(std::string_view component);

// The value of the first field called name, or nullptr.
const std::string* findField(const FormFields& fields, std::string_view name);
// How many fields are called name.
std::size_t countField(const FormFields& fields, std::string_view name);

}  // namespace atoms::drivers::twilio
