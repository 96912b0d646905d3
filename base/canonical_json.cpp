#include "base/canonical_json.h"

#include <string>

#include "base/digits.h"
#include "base/one_line.h"

// GCC 12 reports -Wmaybe-uninitialized inside std::variant's move constructor when it inlines
// Value's (recursive) special members here; a known false positive of GCC 12 with recursive
// std::variant types. Value's special members are defined out of line below so other translation
// units never see it.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif

namespace atoms::json {

namespace {

// Length of the well-formed UTF-8 sequence starting at s[i] (Unicode 15, table 3-7), or 0 when the
// bytes there are not one: this rejects overlong forms, encoded surrogates (ED A0..BF) and
// anything above U+10FFFF (F4 90.., F5..FF).
std::size_t utf8SequenceLength(std::string_view s, std::size_t i) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char b0 = byte(i);
  if (b0 < 0x80) return 1;
  std::size_t len = 0;
  unsigned char lo = 0x80;
  unsigned char hi = 0xBF;
  if (b0 >= 0xC2 && b0 <= 0xDF) {
    len = 2;
  } else if (b0 >= 0xE0 && b0 <= 0xEF) {
    len = 3;
    if (b0 == 0xE0) lo = 0xA0;
    if (b0 == 0xED) hi = 0x9F;
  } else if (b0 >= 0xF0 && b0 <= 0xF4) {
    len = 4;
    if (b0 == 0xF0) lo = 0x90;
    if (b0 == 0xF4) hi = 0x8F;
  } else {
    return 0;
  }
  if (s.size() - i < len) return 0;
  const unsigned char b1 = byte(i + 1);
  if (b1 < lo || b1 > hi) return 0;
  for (std::size_t k = 2; k < len; ++k) {
    const unsigned char b = byte(i + k);
    if (b < 0x80 || b > 0xBF) return 0;
  }
  return len;
}

void appendUtf8(std::string& out, std::uint32_t cp) {
  if (cp < 0x80) {
    out.push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out.push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    out.push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out.push_back(static_cast<char>(0xF0 | (cp >> 18)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

int hexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// Which texts the parser accepts.
enum class Grammar {
  kJson,       // RFC 8259 (what parse() accepts)
  kCanonical,  // only what canonical() writes: no whitespace, keys in increasing order, the
               // shortest escapes. A refusal does not say why (parseCanonical() asks kJson).
};

// Recursive descent over the text. Recursion depth is bounded by kMaxDepth, so hostile input
// cannot exhaust the stack; every failure records the first error and unwinds. Every parse
// function takes its output by pointer; a null pointer checks the text without building it.
class Parser {
 public:
  explicit Parser(std::string_view text, Grammar grammar = Grammar::kJson, std::size_t pos = 0)
      : s_(text), pos_(pos), canonical_(grammar == Grammar::kCanonical) {}

  Result<Value> run() {
    Value v;
    skipWhitespace();
    if (!parseValue(&v, 0)) return failure();
    skipWhitespace();
    if (pos_ != s_.size()) {
      fail(pos_, "trailing data after the JSON value");
      return failure();
    }
    return v;
  }

  std::size_t position() const { return pos_; }

  bool parseValue(Value* out, int depth) {
    if (atEnd()) return fail(pos_, "unexpected end of input, expected a value");
    const char c = s_[pos_];
    switch (c) {
      case '{':
        return parseObject(out, depth + 1);
      case '[':
        return parseArray(out, depth + 1);
      case '"': {
        if (out == nullptr) return parseString(nullptr);
        std::string str;
        if (!parseString(&str)) return false;
        *out = Value(std::move(str));
        return true;
      }
      case 't':
        return parseLiteral("true", Value(true), out);
      case 'f':
        return parseLiteral("false", Value(false), out);
      case 'n':
        return parseLiteral("null", Value(nullptr), out);
      default:
        if (c == '-' || isDigit(c)) {
          std::int64_t i = 0;
          if (!parseInteger(i)) return false;
          if (out != nullptr) *out = Value(i);
          return true;
        }
        return fail(pos_, "unexpected character, expected a value");
    }
  }

  bool parseInteger(std::int64_t& out) {
    const std::size_t start = pos_;
    bool negative = false;
    if (!atEnd() && s_[pos_] == '-') {
      negative = true;
      ++pos_;
    }
    if (atEnd() || !isDigit(s_[pos_])) return fail(start, "invalid number");
    std::int64_t magnitude = 0;
    if (s_[pos_] == '0') {
      ++pos_;
      if (!atEnd() && isDigit(s_[pos_])) return fail(start, "leading zeros are not allowed");
    } else {
      while (!atEnd() && isDigit(s_[pos_])) {
        magnitude = magnitude * 10 + (s_[pos_] - '0');
        // Checked every digit: magnitude stays <= 2^53 before the next multiply, far from overflow.
        if (magnitude > kMaxSafeInteger) {
          return fail(start, "integer outside the safe range [-(2^53-1), 2^53-1]");
        }
        ++pos_;
      }
    }
    if (!atEnd() && (s_[pos_] == '.' || s_[pos_] == 'e' || s_[pos_] == 'E')) {
      return fail(start, "fractions and exponents are not allowed (integers only)");
    }
    if (negative && magnitude == 0) return fail(start, "-0 is not allowed");
    out = negative ? -magnitude : magnitude;
    return true;
  }

  bool parseString(std::string* out) {
    const std::size_t start = pos_;
    if (atEnd() || s_[pos_] != '"') return fail(pos_, "expected a string");
    ++pos_;  // opening quote
    while (true) {
      if (atEnd()) return fail(start, "unterminated string");
      const unsigned char c = static_cast<unsigned char>(s_[pos_]);
      if (c == '"') {
        ++pos_;
        return true;
      }
      if (c < 0x20) return fail(pos_, "unescaped control character in string");
      if (c == '\\') {
        if (!parseEscape(out)) return false;
        continue;
      }
      if (c < 0x80) {  // ASCII run: copy it in one append
        std::size_t end = pos_ + 1;
        while (end < s_.size()) {
          const auto d = static_cast<unsigned char>(s_[end]);
          if (d < 0x20 || d >= 0x80 || d == '"' || d == '\\') break;
          ++end;
        }
        if (out != nullptr) out->append(s_.data() + pos_, end - pos_);
        pos_ = end;
        continue;
      }
      const std::size_t len = utf8SequenceLength(s_, pos_);
      if (len == 0) return fail(pos_, "invalid UTF-8");
      if (out != nullptr) out->append(s_.substr(pos_, len));
      pos_ += len;
    }
  }

 private:
  bool fail(std::size_t at, std::string reason) {
    errorAt_ = at;
    reason_ = std::move(reason);
    return false;
  }

  Error failure() const {
    return makeError("invalid JSON at byte " + std::to_string(errorAt_) + ": " + reason_);
  }

  bool atEnd() const { return pos_ >= s_.size(); }

  void skipWhitespace() {
    if (canonical_) return;
    while (!atEnd()) {
      const char c = s_[pos_];
      if (c != ' ' && c != '\t' && c != '\n' && c != '\r') return;
      ++pos_;
    }
  }

  bool parseLiteral(std::string_view word, Value value, Value* out) {
    if (s_.substr(pos_, word.size()) != word) return fail(pos_, "invalid literal");
    pos_ += word.size();
    if (out != nullptr) *out = std::move(value);
    return true;
  }

  // Reads 4 hex digits at pos_ (just after "\u").
  bool readHex4(std::uint32_t& out) {
    if (s_.size() - pos_ < 4) return fail(pos_, "truncated \\u escape");
    std::uint32_t v = 0;
    for (int k = 0; k < 4; ++k) {
      const int d = hexDigit(s_[pos_ + static_cast<std::size_t>(k)]);
      if (d < 0) return fail(pos_, "invalid hex digit in \\u escape");
      v = v * 16 + static_cast<std::uint32_t>(d);
    }
    pos_ += 4;
    out = v;
    return true;
  }

  bool parseEscape(std::string* out) {
    const std::size_t escStart = pos_;
    ++pos_;  // backslash
    if (atEnd()) return fail(escStart, "unterminated escape");
    const char e = s_[pos_++];
    char plain = 0;
    switch (e) {
      case '"':
        plain = '"';
        break;
      case '\\':
        plain = '\\';
        break;
      case '/':
        if (canonical_) return fail(escStart, "not canonical");
        plain = '/';
        break;
      case 'b':
        plain = '\b';
        break;
      case 'f':
        plain = '\f';
        break;
      case 'n':
        plain = '\n';
        break;
      case 'r':
        plain = '\r';
        break;
      case 't':
        plain = '\t';
        break;
      case 'u':
        break;
      default:
        return fail(escStart, "invalid escape");
    }
    if (plain != 0) {
      if (out != nullptr) out->push_back(plain);
      return true;
    }
    std::uint32_t cp = 0;
    if (!readHex4(cp)) return false;
    if (canonical_ && !isCanonicalUnicodeEscape(s_.substr(pos_ - 4, 4), cp)) {
      return fail(escStart, "not canonical");
    }
    if (cp >= 0xDC00 && cp <= 0xDFFF) return fail(escStart, "lone low surrogate escape");
    if (cp >= 0xD800 && cp <= 0xDBFF) {
      // A high surrogate must be followed at once by an escaped low surrogate; the pair is one
      // code point above U+FFFF.
      if (s_.size() - pos_ < 2 || s_[pos_] != '\\' || s_[pos_ + 1] != 'u') {
        return fail(escStart, "lone high surrogate escape");
      }
      pos_ += 2;
      std::uint32_t low = 0;
      if (!readHex4(low)) return false;
      if (low < 0xDC00 || low > 0xDFFF) return fail(escStart, "lone high surrogate escape");
      cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
    }
    if (out != nullptr) appendUtf8(*out, cp);
    return true;
  }

  // canonical() writes \u only for the control characters without a short escape, in lowercase.
  static bool isCanonicalUnicodeEscape(std::string_view hex, std::uint32_t cp) {
    if (cp >= 0x20 || cp == '\b' || cp == '\f' || cp == '\n' || cp == '\r' || cp == '\t') {
      return false;
    }
    return hex[3] < 'A' || hex[3] > 'F';  // hex[0..2] are digits when cp < 0x20
  }

  bool parseArray(Value* out, int depth) {
    if (depth > kMaxDepth) return fail(pos_, "nesting deeper than " + std::to_string(kMaxDepth));
    ++pos_;  // [
    Array items;
    skipWhitespace();
    if (!atEnd() && s_[pos_] == ']') {
      ++pos_;
      if (out != nullptr) *out = Value(std::move(items));
      return true;
    }
    while (true) {
      skipWhitespace();
      Value item;
      if (!parseValue(out != nullptr ? &item : nullptr, depth)) return false;
      if (out != nullptr) items.push_back(std::move(item));
      skipWhitespace();
      if (atEnd()) return fail(pos_, "unterminated array");
      if (s_[pos_] == ',') {
        ++pos_;
        continue;
      }
      if (s_[pos_] == ']') {
        ++pos_;
        if (out != nullptr) *out = Value(std::move(items));
        return true;
      }
      return fail(pos_, "expected ',' or ']'");
    }
  }

  bool parseObject(Value* out, int depth) {
    if (depth > kMaxDepth) return fail(pos_, "nesting deeper than " + std::to_string(kMaxDepth));
    ++pos_;  // {
    Object members;
    std::string previousKey;  // canonical text orders the keys, each after the one before
    bool first = true;
    skipWhitespace();
    if (!atEnd() && s_[pos_] == '}') {
      ++pos_;
      if (out != nullptr) *out = Value(std::move(members));
      return true;
    }
    while (true) {
      skipWhitespace();
      if (atEnd() || s_[pos_] != '"') return fail(pos_, "expected a string key");
      const std::size_t keyAt = pos_;
      std::string key;
      if (!parseString(&key)) return false;
      skipWhitespace();
      if (atEnd() || s_[pos_] != ':') return fail(pos_, "expected ':'");
      ++pos_;
      skipWhitespace();
      Value item;
      if (!parseValue(out != nullptr ? &item : nullptr, depth)) return false;
      if (canonical_) {
        if (!first && !(previousKey < key)) return fail(keyAt, "not canonical");
        first = false;
        if (out != nullptr) {
          previousKey = key;
          members.emplace_hint(members.end(), std::move(key), std::move(item));
        } else {
          previousKey = std::move(key);
        }
      } else {
        const auto [it, inserted] = members.try_emplace(std::move(key), std::move(item));
        if (!inserted) {
          std::string reason = "duplicate key";
          // Named only when short printable ASCII: this reason is answered and logged as it is.
          if (it->first.size() <= 64 && isPrintableAscii(it->first)) {
            reason += " " + canonical(Value(it->first));
          }
          return fail(keyAt, std::move(reason));
        }
      }
      skipWhitespace();
      if (atEnd()) return fail(pos_, "unterminated object");
      if (s_[pos_] == ',') {
        ++pos_;
        continue;
      }
      if (s_[pos_] == '}') {
        ++pos_;
        if (out != nullptr) *out = Value(std::move(members));
        return true;
      }
      return fail(pos_, "expected ',' or '}'");
    }
  }

  std::string_view s_;
  std::size_t pos_ = 0;
  bool canonical_ = false;
  std::size_t errorAt_ = 0;
  std::string reason_;
};

void writeString(std::string& out, std::string_view s) {
  static constexpr char kHex[] = "0123456789abcdef";
  out.push_back('"');
  // Copies runs of characters that need no escape in one append: most text has no escapes.
  std::size_t runStart = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c >= 0x20 && c != '"' && c != '\\') continue;
    out.append(s.data() + runStart, i - runStart);
    runStart = i + 1;
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\b':
        out += "\\b";
        break;
      case '\f':
        out += "\\f";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        out += "\\u00";
        out.push_back(kHex[c >> 4]);
        out.push_back(kHex[c & 0xF]);
    }
  }
  out.append(s.data() + runStart, s.size() - runStart);
  out.push_back('"');
}

void write(std::string& out, const Value& v) {
  switch (v.type()) {
    case Type::kNull:
      out += "null";
      return;
    case Type::kBool:
      out += v.asBool() ? "true" : "false";
      return;
    case Type::kInt:
      out += std::to_string(v.asInt());
      return;
    case Type::kString:
      writeString(out, v.asString());
      return;
    case Type::kArray: {
      out.push_back('[');
      bool first = true;
      for (const Value& item : v.asArray()) {
        if (!first) out.push_back(',');
        first = false;
        write(out, item);
      }
      out.push_back(']');
      return;
    }
    case Type::kObject: {
      out.push_back('{');
      bool first = true;
      for (const auto& [key, item] : v.asObject()) {
        if (!first) out.push_back(',');
        first = false;
        writeString(out, key);
        out.push_back(':');
        write(out, item);
      }
      out.push_back('}');
      return;
    }
  }
}

Status validateAt(const Value& v, int depth) {
  switch (v.type()) {
    case Type::kNull:
    case Type::kBool:
      return Status::success();
    case Type::kInt:
      if (v.asInt() > kMaxSafeInteger || v.asInt() < -kMaxSafeInteger) {
        return makeError("integer " + std::to_string(v.asInt()) +
                         " is outside the safe range [-(2^53-1), 2^53-1]");
      }
      return Status::success();
    case Type::kString:
      if (!isValidUtf8(v.asString())) return makeError("string is not valid UTF-8");
      return Status::success();
    case Type::kArray:
      if (depth + 1 > kMaxDepth)
        return makeError("nesting deeper than " + std::to_string(kMaxDepth));
      for (const Value& item : v.asArray()) {
        if (Status s = validateAt(item, depth + 1); !s) return s;
      }
      return Status::success();
    case Type::kObject:
      if (depth + 1 > kMaxDepth)
        return makeError("nesting deeper than " + std::to_string(kMaxDepth));
      for (const auto& [key, item] : v.asObject()) {
        if (!isValidUtf8(key)) return makeError("object key is not valid UTF-8");
        if (Status s = validateAt(item, depth + 1); !s) return s;
      }
      return Status::success();
  }
  return Status::success();
}

}  // namespace

Value::Value(const Value& other) = default;
Value::Value(Value&& other) noexcept = default;
Value& Value::operator=(const Value& other) = default;
Value& Value::operator=(Value&& other) noexcept = default;
Value::~Value() = default;

const Value* Value::find(std::string_view key) const {
  if (!isObject()) return nullptr;
  const Object& members = asObject();
  const auto it = members.find(std::string(key));
  return it == members.end() ? nullptr : &it->second;
}

bool isValidUtf8(std::string_view s) {
  std::size_t i = 0;
  while (i < s.size()) {
    const std::size_t len = utf8SequenceLength(s, i);
    if (len == 0) return false;
    i += len;
  }
  return true;
}

Result<Value> parse(std::string_view text) { return Parser(text).run(); }

std::string canonical(const Value& v) {
  std::string out;
  write(out, v);
  return out;
}

Result<Value> parseCanonical(std::string_view text) {
  // One pass that accepts only canonical text; what it refuses is parsed again as plain JSON to
  // say why (a JSON error, or valid JSON that is "not canonical JSON").
  if (Result<Value> fast = Parser(text, Grammar::kCanonical).run()) return fast;
  Result<Value> v = parse(text);
  if (!v) return v;
  if (canonical(*v) != text) return makeError("not canonical JSON");
  return v;
}

Status validate(const Value& v) { return validateAt(v, 0); }

bool CanonicalReader::expect(std::string_view bytes) {
  if (text_.substr(pos_, bytes.size()) != bytes) return false;
  pos_ += bytes.size();
  return true;
}

bool CanonicalReader::readString(std::string& out) {
  out.clear();
  Parser p(text_, Grammar::kCanonical, pos_);
  if (!p.parseString(&out)) return false;
  pos_ = p.position();
  return true;
}

bool CanonicalReader::readPlainString(std::string_view& out) {
  if (peek() != '"') return false;
  for (std::size_t end = pos_ + 1; end < text_.size(); ++end) {
    const auto c = static_cast<unsigned char>(text_[end]);
    if (c == '"') {
      out = text_.substr(pos_ + 1, end - pos_ - 1);
      pos_ = end + 1;
      return true;
    }
    if (c < 0x20 || c >= 0x7f || c == '\\') return false;
  }
  return false;
}

bool CanonicalReader::readInteger(std::int64_t& out) {
  Parser p(text_, Grammar::kCanonical, pos_);
  if (!p.parseInteger(out)) return false;
  pos_ = p.position();
  return true;
}

bool CanonicalReader::skipValue(int depth) {
  Parser p(text_, Grammar::kCanonical, pos_);
  if (!p.parseValue(nullptr, depth)) return false;
  pos_ = p.position();
  return true;
}

bool CanonicalReader::readValue(Value& out, int depth) {
  Parser p(text_, Grammar::kCanonical, pos_);
  if (!p.parseValue(&out, depth)) return false;
  pos_ = p.position();
  return true;
}

}  // namespace atoms::json
