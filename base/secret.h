// SecretBytes: key material held in libsodium guarded memory (sodium_malloc: guard pages, mlock,
// zeroed on free). Move-only; never copied implicitly, never logged. Not thread-safe.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

namespace atoms {

class SecretBytes {
 public:
  SecretBytes() = default;
  // Allocates size zeroed bytes. Throws std::bad_alloc when guarded memory cannot be had.
  explicit SecretBytes(std::size_t size);
  SecretBytes(std::span<const std::uint8_t> bytes);  // NOLINT: copies bytes into guarded memory
  ~SecretBytes();
  SecretBytes(SecretBytes&& other) noexcept;
  SecretBytes& operator=(SecretBytes&& other) noexcept;
  SecretBytes(const SecretBytes&) = delete;
  SecretBytes& operator=(const SecretBytes&) = delete;

  std::uint8_t* data() { return data_; }
  const std::uint8_t* data() const { return data_; }
  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  std::span<const std::uint8_t> view() const { return {data_, size_}; }
  SecretBytes clone() const { return SecretBytes(view()); }

 private:
  std::uint8_t* data_ = nullptr;
  std::size_t size_ = 0;
};

// Must be called once before any libsodium use (idempotent, thread-safe). Returns false when the
// library cannot be initialised (no entropy source).
bool initSodium();

}  // namespace atoms
