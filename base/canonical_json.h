// Canonical JSON (DESIGN.md section 4): the byte form of every audit entry, receipt and anything
// else that is hashed or signed. One value has exactly one text, so two parties that agree on a
// value agree on its hash.
//
// Value model: null, bool, integer, string, array, object. There are no floats: integers are
// limited to the I-JSON safe range [-(2^53-1), 2^53-1] so that verifiers written in JavaScript
// read the same numbers (docs/decisions/0002-json-integers.md). Strings are UTF-8.
//
// parse() is a strict RFC 8259 parser for untrusted input: it never throws, never crashes and
// recurses at most kMaxDepth levels. canonical() serialises; parseCanonical() accepts only text
// that canonical() would produce. All functions are pure and thread-safe; a Value is a plain
// value type (copyable, movable, not synchronised).
#pragma once

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "base/result.h"

namespace atoms::json {

class Value;
using Array = std::vector<Value>;
// std::map orders keys by std::string's byte comparison; for UTF-8 that is code point order, the
// order canonical() needs.
using Object = std::map<std::string, Value>;

// Largest magnitude of an integer that parse() accepts: 2^53-1.
inline constexpr std::int64_t kMaxSafeInteger = (std::int64_t{1} << 53) - 1;
// Deepest nesting of arrays/objects that parse() accepts (the outermost container is depth 1).
inline constexpr int kMaxDepth = 64;

enum class Type { kNull, kBool, kInt, kString, kArray, kObject };

template <class T>
concept JsonInteger =
    std::integral<T> && !std::same_as<T, bool> && !std::same_as<T, char> &&
    !std::same_as<T, wchar_t> && !std::same_as<T, char8_t> && !std::same_as<T, char16_t> &&
    !std::same_as<T, char32_t> && (std::is_signed_v<T> || sizeof(T) < sizeof(std::int64_t));

class Value {
 public:
  // Implicit constructors so values read naturally: Object{{"seq", 3}, {"kind", "sms.in"}}.
  Value() = default;        // null
  Value(std::nullptr_t) {}  // NOLINT(google-explicit-constructor)
  // Exactly bool: a pointer, double or std::uint64_t must not turn into a bool silently.
  template <std::same_as<bool> B>
  Value(B b) : v_(bool{b}) {}  // NOLINT(google-explicit-constructor)
  // Any signed integer, or an unsigned one narrower than 64 bits. std::uint64_t is deliberately
  // not accepted: cast it, after checking it is within kMaxSafeInteger.
  template <JsonInteger I>
  Value(I i) : v_(static_cast<std::int64_t>(i)) {}   // NOLINT(google-explicit-constructor)
  Value(std::string s) : v_(std::move(s)) {}         // NOLINT(google-explicit-constructor)
  Value(std::string_view s) : v_(std::string(s)) {}  // NOLINT(google-explicit-constructor)
  Value(const char* s) : v_(std::string(s)) {}       // NOLINT(google-explicit-constructor)
  Value(char* s) : v_(std::string(s)) {}             // NOLINT(google-explicit-constructor)
  Value(Array a) : v_(std::move(a)) {}               // NOLINT(google-explicit-constructor)
  Value(Object o) : v_(std::move(o)) {}              // NOLINT(google-explicit-constructor)
  // Out of line: inlined std::variant destructors of this recursive type trip GCC 12's
  // -Wmaybe-uninitialized false positive in every caller.
  Value(const Value& other);
  Value(Value&& other) noexcept;
  Value& operator=(const Value& other);
  Value& operator=(Value&& other) noexcept;
  ~Value();

  Type type() const { return static_cast<Type>(v_.index()); }
  bool isNull() const { return type() == Type::kNull; }
  bool isBool() const { return type() == Type::kBool; }
  bool isInt() const { return type() == Type::kInt; }
  bool isString() const { return type() == Type::kString; }
  bool isArray() const { return type() == Type::kArray; }
  bool isObject() const { return type() == Type::kObject; }

  // Precondition: the matching isX(). Calling the wrong one is a bug (std::bad_variant_access).
  bool asBool() const { return std::get<bool>(v_); }
  std::int64_t asInt() const { return std::get<std::int64_t>(v_); }
  const std::string& asString() const { return std::get<std::string>(v_); }
  std::string& asString() { return std::get<std::string>(v_); }
  const Array& asArray() const { return std::get<Array>(v_); }
  Array& asArray() { return std::get<Array>(v_); }
  const Object& asObject() const { return std::get<Object>(v_); }
  Object& asObject() { return std::get<Object>(v_); }

  // The member `key` of an object; nullptr when absent or when this is not an object. The pointer
  // is valid until the object is modified or destroyed.
  const Value* find(std::string_view key) const;

  friend bool operator==(const Value& a, const Value& b) { return a.v_ == b.v_; }

 private:
  std::variant<std::nullptr_t, bool, std::int64_t, std::string, Array, Object> v_{nullptr};
};

// Strict RFC 8259 parse of one JSON text (insignificant whitespace allowed). Rejects: duplicate
// keys, fractions and exponents, -0, leading zeros, integers beyond kMaxSafeInteger, invalid UTF-8
// (overlong forms, UTF-8-encoded surrogates, code points above U+10FFFF), lone surrogate \u
// escapes (a valid pair becomes one code point), unescaped control characters in strings, nesting
// deeper than kMaxDepth, trailing data. The error message names the byte offset, e.g.
// "invalid JSON at byte 7: duplicate key \"a\"".
Result<Value> parse(std::string_view text);

// The canonical text: object keys in code point order, no whitespace, strings escaping only '"',
// '\' and U+0000-U+001F (\b \f \n \r \t short, others \u00xx lowercase), all else literal UTF-8.
// Precondition: validate(v) succeeds (true of anything parse() returned). Values built by hand
// from untrusted strings must be validated first, otherwise the text may not parse back.
std::string canonical(const Value& v);

// parse(), then require that the text is exactly canonical(value); otherwise the error
// "not canonical JSON". Use for anything hashed or signed that arrives from outside.
Result<Value> parseCanonical(std::string_view text);

// Reads canonical JSON text piece by piece, for a reader that knows a document's layout (an audit
// entry's seven fields in their canonical order) and wants its fields without building a tree.
// Each read accepts only what canonical() would have written at the position and advances past
// it; on false the position is unchanged and the caller asks parseCanonical() for the reason.
// `depth` is the nesting depth of the container the value sits in (0 for a whole text).
class CanonicalReader {
 public:
  explicit CanonicalReader(std::string_view text) : text_(text) {}

  bool expect(std::string_view bytes);  // exactly these bytes next
  bool readString(std::string& out);    // a string, unescaped into `out`
  // A string of printable ASCII without escapes (hex, timestamps), as a view into the text;
  // false for any other string, which readString reads.
  bool readPlainString(std::string_view& out);
  bool readInteger(std::int64_t& out);  // an integer within kMaxSafeInteger
  bool skipValue(int depth);            // any value, checked but not built
  bool readValue(Value& out, int depth);

  std::size_t position() const { return pos_; }
  bool atEnd() const { return pos_ == text_.size(); }
  char peek() const { return atEnd() ? '\0' : text_[pos_]; }

 private:
  std::string_view text_;
  std::size_t pos_ = 0;
};

// Checks that a hand-built value is representable: strings and keys valid UTF-8, integers within
// kMaxSafeInteger, nesting within kMaxDepth. Returns the first problem found.
Status validate(const Value& v);

// True when `s` is well-formed UTF-8 (no overlongs, no surrogates, nothing above U+10FFFF).
bool isValidUtf8(std::string_view s);

}  // namespace atoms::json
