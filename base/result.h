// Result<T>: the value of an operation that can fail in an expected way (bad input, missing file,
// wrong key). Errors are values at module boundaries; library exceptions and error codes are
// converted where the library is wrapped. An Error carries one human-readable line that names the
// problem (it is shown to operators as is) and a kind, which is what callers branch on: no caller
// matches on the message's text.
#pragma once

#include <string>
#include <utility>
#include <variant>

namespace atoms {

// What went wrong, for a caller that acts differently on it. kOther when nobody branches on it.
enum class ErrorKind {
  kOther,
  kInvalid,      // the input is malformed or breaks a rule (bad config, bad request, bad file)
  kNotFound,     // the thing asked for does not exist
  kCorrupt,      // stored or received data fails its own checks (hash, signature, format)
  kIo,           // the operating system refused: file, socket, disk full, port taken
  kRefused,      // a rule or a peer said no (policy, permission, authentication)
  kUnavailable,  // a dependency is not there or not running now; trying later may work
};

struct Error {
  std::string message;
  ErrorKind kind = ErrorKind::kOther;
};

inline const std::string& emptyMessage() {
  static const std::string empty;
  return empty;
}

template <class T>
class [[nodiscard]] Result {
 public:
  Result(T value) : v_(std::move(value)) {}      // NOLINT(google-explicit-constructor)
  Result(Error error) : v_(std::move(error)) {}  // NOLINT(google-explicit-constructor)

  bool ok() const { return v_.index() == 0; }
  explicit operator bool() const { return ok(); }

  // Precondition: ok().
  T& value() & { return std::get<0>(v_); }
  const T& value() const& { return std::get<0>(v_); }
  T&& value() && { return std::get<0>(std::move(v_)); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }

  // Precondition: !ok().
  const Error& error() const { return std::get<1>(v_); }
  // The error's message; empty when ok(), so test and log messages may name it unconditionally.
  const std::string& message() const { return ok() ? emptyMessage() : error().message; }
  // The error's kind; kOther when ok().
  ErrorKind kind() const { return ok() ? ErrorKind::kOther : error().kind; }

 private:
  std::variant<T, Error> v_;
};

// Status: a Result with no value.
class [[nodiscard]] Status {
 public:
  Status() = default;
  Status(Error error)
      : error_(std::move(error)), ok_(false) {}  // NOLINT(google-explicit-constructor)
  static Status success() { return Status(); }

  bool ok() const { return ok_; }
  explicit operator bool() const { return ok_; }
  const Error& error() const { return error_; }
  const std::string& message() const { return error_.message; }  // empty when ok()
  ErrorKind kind() const { return error_.kind; }                 // kOther when ok()

 private:
  Error error_;
  bool ok_ = true;
};

inline Error makeError(std::string message, ErrorKind kind = ErrorKind::kOther) {
  return Error{std::move(message), kind};
}

}  // namespace atoms
