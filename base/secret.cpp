#include "base/secret.h"

#include <sodium.h>

#include <cstring>
#include <new>
#include <utility>

namespace atoms {

bool initSodium() { return sodium_init() >= 0; }

SecretBytes::SecretBytes(std::size_t size) : size_(size) {
  if (size == 0) return;
  initSodium();
  data_ = static_cast<std::uint8_t*>(sodium_malloc(size));
  if (data_ == nullptr) throw std::bad_alloc();
  sodium_memzero(data_, size);
}

SecretBytes::SecretBytes(std::span<const std::uint8_t> bytes) : SecretBytes(bytes.size()) {
  if (!bytes.empty()) std::memcpy(data_, bytes.data(), bytes.size());
}

SecretBytes::~SecretBytes() {
  if (data_ != nullptr) sodium_free(data_);  // sodium_free zeroes before releasing
}

SecretBytes::SecretBytes(SecretBytes&& other) noexcept
    : data_(std::exchange(other.data_, nullptr)), size_(std::exchange(other.size_, 0)) {}

SecretBytes& SecretBytes::operator=(SecretBytes&& other) noexcept {
  if (this != &other) {
    if (data_ != nullptr) sodium_free(data_);
    data_ = std::exchange(other.data_, nullptr);
    size_ = std::exchange(other.size_, 0);
  }
  return *this;
}

}  // namespace atoms
