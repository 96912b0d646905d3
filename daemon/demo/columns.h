#pragma once
// The demo's tables are printed in columns of fixed width.

#include <cstddef>
#include <string>

namespace atoms::demo {

// `text` padded with spaces to `width` characters. Names are short and mostly ASCII; a multi-byte
// letter only shifts a column.
inline std::string padded(std::string text, std::size_t width) {
  if (text.size() < width) text.append(width - text.size(), ' ');
  return text;
}

}  // namespace atoms::demo
