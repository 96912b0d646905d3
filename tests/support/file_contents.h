// Whole files read and written the plain way tests want them: no durability, no error (a file that
// cannot be read reads as ""), since the test's own assertions judge the contents.
#pragma once

#include <fstream>
#include <iterator>
#include <string>

namespace atoms::testing {

inline std::string readAll(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

inline void writeAll(const std::string& path, const std::string& data) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << data;
}

}  // namespace atoms::testing
