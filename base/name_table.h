// NameTable: the names of an enum's values as a constexpr table, with the two look-ups an enum
// that is written to the store, the audit log, config or the wire needs (the name of a value, the
// value of a name when reading it back). One table per enum replaces a hand-written switch and
// parser pair. Header only; pure, thread-safe.
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <string_view>
#include <utility>

namespace atoms {

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

}  // namespace atoms
