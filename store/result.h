// Result<T>: the value of an operation that can fail in an expected way (bad input, missing file,
// wrong key). Errors are values at module boundaries; library exceptions and error codes are
// converted where the library is wrapped. An Error carries one human-readable line that names the
// problem (it is shown to operators as is).
#pragma once

#include <string>
#include <utility>
#include <variant>

namespace atoms {

struct Error {
  std::string message;
};

inline const std::string& emptyMessage() {
  static const std::string empty;
  return empty;
}

template <class T>
class [[nodiscard]] Result {
 public:
  Result(T value) : v_(std::move(value)) {}  // NOLINT(google-explicit-constructor)
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

 private:
  std::variant<T, Error> v_;
};

// Status: a Result with no value.
class [[nodiscard]] Status {
 public:
  Status() = default;
  Status(Error error) : error_(std::move(error)), ok_(false) {}  // NOLINT(google-explicit-constructor)
  static Status success() { return Status(); }

  bool ok() const { return ok_; }
  explicit operator bool() const { return ok_; }
  const Error& error() const { return error_; }
  const std::string& message() const { return error_.message; }  // empty when ok()

 private:
  Error error_;
  bool ok_ = true;
};

inline Error makeError(std::string message) { return Error{std::move(message)}; }

}  // namespace atoms
