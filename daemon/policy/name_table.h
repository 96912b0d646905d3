// NameTable: the names of an enum's values as a constexpr table, with the two look-ups the policy
// enums need (the name of a value for audit entries and files, the value of a name when reading
// them back). Header only; pure, thread-safe.
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <string_view>
#include <utility>

namespace atoms::policy {

template <class E, std::size_t N>
using NameTable = std::array<std::pair<E, std::string_view>, N>;

// The name of `value`; "?" when the table lacks it (a table missing a value is a bug).
template <class E, std::size_t N>
std::string_view nameOf(const NameTable<E, N>& table, E value) {
  for (const auto& [v, name] : table) {
    if (v == value) return name;
  }
  return "?";
}

// The value named `name`; nullopt when no value has that name.
template <class E, std::size_t N>
std::optional<E> fromName(const NameTable<E, N>& table, std::string_view name) {
  for (const auto& [v, n] : table) {
    if (n == name) return v;
  }
  return std::nullopt;
}

}  // namespace atoms::policy
