// Turns one outbound text message into the SMS-SUBMIT PDUs that AT+CMGS sends, one per segment:
// the encoding and the split come from planSegments() (drivers/sms/encoding/segmentation.h), so
// the modem sends exactly the segments the receipt counted; parts of a concatenated message carry
// an 8-bit concatenation IE with one reference. Pure and thread-safe.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"
#include "drivers/sms/modem/pdu.h"

namespace atoms::drivers::modem {

struct SubmitSettings {
  std::string smsc;  // "" = the SIM's default
  bool statusReportRequest = true;
  std::optional<std::chrono::minutes> validity;
};

// True for "+" and 1..15 digits (E.164) or 2..20 bare digits (a short code or national number).
bool isDialableNumber(std::string_view number);

// Errors (nothing to send; retrying will not help): a destination that is not a number, empty or
// invalid text, more parts than a concatenation reference can number.
Result<std::vector<SubmitPdu>> buildSubmits(std::string_view to, std::string_view utf8,
                                            const SubmitSettings& settings,
                                            std::uint8_t concatReference);

}  // namespace atoms::drivers::modem
