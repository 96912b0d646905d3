// Phone numbers as every part of the box writes them: E.164, "+" then 8 to 15 digits, the first
// not 0 ("+14155550123"). The site file, the mailbox, the configuration and the fake provider all
// check numbers with this one function. Pure, thread-safe.
#pragma once

#include <string_view>

namespace atoms::drivers {

bool isE164(std::string_view number);

}  // namespace atoms::drivers
