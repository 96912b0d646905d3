#include "drivers/sms/twilio/form_body.h"

#include <optional>
#include <string>
#include <utility>

namespace atoms::drivers::twilio {
namespace {

int hexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// Decodes text[begin, end) into out; on a bad escape returns the offset of its '%'.
std::optional<std::size_t> decodeInto(std::string_view text, std::size_t begin, std::size_t end,
                                      std::string& out) {
  out.reserve(end - begin);
  for (std::size_t i = begin; i < end; ++i) {
    const char c = text[i];
    if (c == '+') {
      out.push_back(' ');
    } else if (c == '%') {
      const int hi = i + 1 < end ? hexDigit(text[i + 1]) : -1;
      const int lo = i + 2 < end ? hexDigit(text[i + 2]) : -1;
      if (hi < 0 || lo < 0) return i;
      out.push_back(static_cast<char>(hi * 16 + lo));
      i += 2;
    } else {
      out.push_back(c);
    }
  }
  return std::nullopt;
}

bool isLiteral(unsigned char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '*' ||
         c == '-' || c == '.' || c == '_';
}

}  // namespace

Result<FormFields> parseForm(std::string_view body, const FormLimits& limits) {
  if (body.size() > limits.maxBytes) {
    return makeError("form body is " + std::to_string(body.size()) + " bytes, over the limit of " +
                     std::to_string(limits.maxBytes));
  }
  FormFields fields;
  std::size_t pos = 0;
  while (pos <= body.size()) {
    std::size_t amp = body.find('&', pos);
    if (amp == std::string_view::npos) amp = body.size();
    if (amp > pos) {
      if (fields.size() == limits.maxFields) {
        return makeError("form body has more than " + std::to_string(limits.maxFields) + " fields");
      }
      std::size_t eq = body.find('=', pos);
      if (eq == std::string_view::npos || eq > amp) eq = amp;
      if (eq == pos) return makeError("empty field name at byte " + std::to_string(pos));
      FormField field;
      std::optional<std::size_t> bad = decodeInto(body, pos, eq, field.name);
      if (!bad && eq < amp) bad = decodeInto(body, eq + 1, amp, field.value);
      if (bad) return makeError("invalid percent-encoding at byte " + std::to_string(*bad));
      fields.push_back(std::move(field));
    }
    pos = amp + 1;
  }
  return fields;
}

std::string formEncode(std::string_view component) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  out.reserve(component.size());
  for (const char ch : component) {
    const auto c = static_cast<unsigned char>(ch);
    if (isLiteral(c)) {
      out.push_back(ch);
    } else if (c == ' ') {
      out.push_back('+');
    } else {
      out.push_back('%');
      out.push_back(kHex[c >> 4]);
      out.push_back(kHex[c & 0x0f]);
    }
  }
  return out;
}

std::string encodeForm(const FormFields& fields) {
  std::string out;
  for (const FormField& f : fields) {
    if (!out.empty()) out.push_back('&');
    out += formEncode(f.name);
    out.push_back('=');
    out += formEncode(f.value);
  }
  return out;
}

const std::string* findField(const FormFields& fields, std::string_view name) {
  for (const FormField& f : fields) {
    if (f.name == name) return &f.value;
  }
  return nullptr;
}

std::size_t countField(const FormFields& fields, std::string_view name) {
  std::size_t n = 0;
  for (const FormField& f : fields) n += f.name == name ? 1 : 0;
  return n;
}

}  // namespace atoms::drivers::twilio
