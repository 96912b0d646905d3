#include "drivers/sms/modem/submit_builder.h"

#include <algorithm>
#include <cctype>

#include "drivers/sms/encoding/gsm7.h"
#include "drivers/sms/encoding/segmentation.h"
#include "drivers/sms/encoding/utf.h"

namespace atoms::drivers::modem {

bool isDialableNumber(std::string_view number) {
  const bool international = !number.empty() && number[0] == '+';
  const std::string_view digits = international ? number.substr(1) : number;
  const std::size_t min = international ? 1 : 2;
  const std::size_t max = international ? 15 : 20;
  return digits.size() >= min && digits.size() <= max &&
         std::all_of(digits.begin(), digits.end(),
                     [](char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; });
}

Result<std::vector<SubmitPdu>> buildSubmits(std::string_view to, std::string_view utf8,
                                            const SubmitSettings& settings,
                                            std::uint8_t concatReference) {
  if (!isDialableNumber(to))
    return makeError("destination \"" + std::string(to) + "\" is not a phone number");
  auto plan = planSegments(utf8);
  if (!plan) return plan.error();
  const std::size_t total = plan->segments.size();
  std::vector<SubmitPdu> out;
  out.reserve(total);
  for (std::size_t i = 0; i < total; ++i) {
    SubmitPdu p;
    p.smsc = settings.smsc;
    p.destination = std::string(to);
    p.statusReportRequest = settings.statusReportRequest;
    p.validity = settings.validity;
    const std::string& text = plan->segments[i].text;
    if (plan->encoding == SmsEncoding::kGsm7) {
      auto septets = encodeGsm7(text);
      if (!septets) return makeError("segment " + std::to_string(i + 1) + " is not GSM-7");
      p.userData.coding = DataCoding::kGsm7;
      p.userData.units = std::move(*septets);
    } else {
      auto units = utf8ToUtf16(text);
      if (!units) return units.error();
      p.userData.coding = DataCoding::kUcs2;
      for (char16_t u : *units) {
        p.userData.units.push_back(static_cast<std::uint8_t>(u >> 8));
        p.userData.units.push_back(static_cast<std::uint8_t>(u & 0xFF));
      }
    }
    if (total > 1) {
      p.userData.concat = ConcatInfo{concatReference, static_cast<std::uint8_t>(total),
                                     static_cast<std::uint8_t>(i + 1), false};
    }
    out.push_back(std::move(p));
  }
  return out;
}

}  // namespace atoms::drivers::modem
