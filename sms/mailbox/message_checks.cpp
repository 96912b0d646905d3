#include "sms/mailbox/message_checks.h"

#include "drivers/sms/encoding/utf.h"

namespace atoms::sms::mailbox {

Status checkBody(std::string_view body) {
  if (auto nul = body.find('\0'); nul != std::string_view::npos) {
    return makeError("body contains a NUL byte (at byte " + std::to_string(nul) + ")");
  }
  // Cheap bound first: more than 4 bytes per allowed character cannot be within the limit.
  if (body.size() > 4 * kMaxBodyCharacters) {
    return makeError("body is " + std::to_string(body.size()) + " bytes, over the limit of " +
                         std::to_string(kMaxBodyCharacters) + " characters",
                     ErrorKind::kRefused);
  }
  std::size_t characters = 0;
  for (std::size_t i = 0; i < body.size(); ++characters) {
    const auto cp = drivers::decodeUtf8At(body, i);
    if (!cp) return makeError("body is not valid UTF-8 (at byte " + std::to_string(i) + ")");
    i += cp->bytes;
  }
  if (characters > kMaxBodyCharacters) {
    return makeError("body is " + std::to_string(characters) + " characters, over the limit of " +
                         std::to_string(kMaxBodyCharacters),
                     ErrorKind::kRefused);
  }
  return Status::success();
}

bool isToken(std::string_view s, std::size_t maxLength) {
  if (s.empty() || s.size() > maxLength) return false;
  for (char c : s) {
    if (c <= ' ' || c > '~') return false;
  }
  return true;
}

std::string sanitizeLine(std::string_view text, std::size_t maxBytes) {
  std::string out;
  for (std::size_t i = 0; i < text.size();) {
    const auto cp = drivers::decodeUtf8At(text, i);
    const std::size_t bytes = cp ? cp->bytes : 1;
    const bool printable = cp && cp->value >= 0x20 && cp->value != 0x7F;
    const std::size_t needed = printable ? bytes : 1;
    if (out.size() + needed > maxBytes) break;
    if (printable) {
      out.append(text.substr(i, bytes));
    } else {
      out.push_back('?');
    }
    i += bytes;
  }
  return out;
}

std::string maskNumber(std::string_view number) {
  std::string tail;
  for (auto it = number.rbegin(); it != number.rend() && tail.size() < 4; ++it) {
    const char c = *it;
    if ((c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z')) {
      tail.insert(tail.begin(), c);
    }
  }
  return "***" + tail;
}

}  // namespace atoms::sms::mailbox
