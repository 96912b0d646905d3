#include "drivers/http/printable.h"

namespace atoms::drivers {

std::string printable(std::string_view text, std::size_t maxBytes) {
  std::string out;
  for (std::size_t i = 0; i < text.size() && i < maxBytes; ++i) {
    const auto u = static_cast<unsigned char>(text[i]);
    out.push_back(u >= 0x20 && u < 0x7f ? text[i] : '?');
  }
  if (text.size() > maxBytes) out += "...";
  return out;
}

}  // namespace atoms::drivers
