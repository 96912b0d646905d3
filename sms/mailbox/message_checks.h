// What the mailbox accepts as the text and the addresses of a message, inbound or outbound. Text
// from outside (a provider, a modem) and text built by the box (templates with names in them) pass
// the same checks before anything stores or sends it; emoji and every script are welcome, the
// limits are those of the providers (Twilio: 1,600 characters) and of SQLite text.
//
// Pure functions, thread-safe. Errors are one line naming the problem and its byte offset.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "base/result.h"
#include "drivers/sms/encoding/utf.h"
#include "drivers/sms/phone_number.h"

namespace atoms::sms::mailbox {

// Characters are Unicode code points: "é" is one, a flag emoji (two regional indicators) is two.
inline constexpr std::size_t kMaxBodyCharacters = 1600;
// Longest provider id, outbox id or caller reference the mailbox stores.
inline constexpr std::size_t kMaxTokenLength = 128;

// Ok for well-formed UTF-8 without NUL bytes and at most kMaxBodyCharacters characters (empty is
// ok here: an inbound picture message has no text; the outbox refuses empty bodies itself).
// Errors: "body contains a NUL byte (at byte 4)", "body is not valid UTF-8 (at byte 17)" (kind
// kOther); "body is 1723 characters, over the limit of 1600" (kind kRefused: only its length is
// wrong, and the sender can be asked for a shorter one).
Status checkBody(std::string_view body);

// "+" then 8 to 15 digits, the first not 0 (drivers/sms/phone_number.h).
using drivers::isE164;

// 1..maxLength printable ASCII characters without spaces: provider ids, outbox ids.
bool isToken(std::string_view s, std::size_t maxLength = kMaxTokenLength);

// Text from a driver (an error message, a provider id) made safe to store and audit: invalid UTF-8
// and control characters become '?', and it is cut (at a character boundary) to maxBytes.
std::string sanitizeLine(std::string_view text, std::size_t maxBytes = 300);

// An address as the audit log shows it: "***" and its last four letters or digits
// ("+15551234567" -> "***4567"). Numbers are personal data and the log is kept forever and synced,
// so it names a number only enough to tell two apart; the mailbox rows hold the full number.
std::string maskNumber(std::string_view number);

}  // namespace atoms::sms::mailbox
