#include "drivers/sms/phone_number.h"

#include <algorithm>

namespace atoms::drivers {

bool isE164(std::string_view number) {
  if (number.size() < 9 || number.size() > 16 || number[0] != '+' || number[1] == '0') {
    return false;
  }
  return std::all_of(number.begin() + 1, number.end(), [](char c) { return c >= '0' && c <= '9'; });
}

}  // namespace atoms::drivers
