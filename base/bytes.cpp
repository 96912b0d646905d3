#include "base/bytes.h"

#include <openssl/evp.h>
#include <sodium.h>

#include <cstdlib>

namespace atoms {

std::string toHex(std::span<const std::uint8_t> bytes) {
  std::string out(bytes.size() * 2 + 1, '\0');
  sodium_bin2hex(out.data(), out.size(), bytes.data(), bytes.size());
  out.pop_back();
  return out;
}

std::optional<Bytes> fromHex(std::string_view hex) {
  if (hex.size() % 2 != 0) return std::nullopt;
  if (hex.empty()) return Bytes{};  // sodium_hex2bin must not get a null output buffer
  Bytes out(hex.size() / 2);
  size_t len = 0;
  const char* end = nullptr;
  if (sodium_hex2bin(out.data(), out.size(), hex.data(), hex.size(), nullptr, &len, &end) != 0 ||
      len != out.size() || end != hex.data() + hex.size()) {
    return std::nullopt;
  }
  return out;
}

std::string toBase64(std::span<const std::uint8_t> bytes) {
  const size_t cap = sodium_base64_ENCODED_LEN(bytes.size(), sodium_base64_VARIANT_ORIGINAL);
  std::string out(cap, '\0');
  sodium_bin2base64(out.data(), cap, bytes.data(), bytes.size(), sodium_base64_VARIANT_ORIGINAL);
  out.resize(cap - 1);
  return out;
}

std::optional<Bytes> fromBase64(std::string_view text) {
  Bytes out(text.size() / 4 * 3 + 3);
  size_t len = 0;
  const char* end = nullptr;
  if (sodium_base642bin(out.data(), out.size(), text.data(), text.size(), nullptr, &len, &end,
                        sodium_base64_VARIANT_ORIGINAL) != 0 ||
      end != text.data() + text.size()) {
    return std::nullopt;
  }
  out.resize(len);
  // Reject non-canonical encodings (stray bits in the last character) so one value has one text.
  if (toBase64(out) != text) return std::nullopt;
  return out;
}

namespace {

// One digest context per thread, its algorithm fetched once: OpenSSL 3's one-shot SHA256() looks
// the algorithm up in the provider table on every call, which cost more than the hash itself on
// the audit log's short entries (bench_ingest).
class Sha256Context {
 public:
  Sha256Context() : md_(EVP_MD_fetch(nullptr, "SHA256", nullptr)), ctx_(EVP_MD_CTX_new()) {
    if (md_ == nullptr || ctx_ == nullptr) std::abort();  // libcrypto without SHA-256: unusable
  }
  ~Sha256Context() {
    EVP_MD_CTX_free(ctx_);
    EVP_MD_free(md_);
  }
  Sha256Context(const Sha256Context&) = delete;
  Sha256Context& operator=(const Sha256Context&) = delete;

  Hash32 digest(std::span<const std::uint8_t> head, std::span<const std::uint8_t> data) {
    Hash32 h;
    unsigned int len = 0;
    if (EVP_DigestInit_ex(ctx_, md_, nullptr) != 1 ||
        EVP_DigestUpdate(ctx_, head.data(), head.size()) != 1 ||
        EVP_DigestUpdate(ctx_, data.data(), data.size()) != 1 ||
        EVP_DigestFinal_ex(ctx_, h.data(), &len) != 1 || len != h.size()) {
      std::abort();  // cannot fail for SHA-256 on memory; a failure means a broken libcrypto
    }
    return h;
  }

 private:
  EVP_MD* md_;
  EVP_MD_CTX* ctx_;
};

Hash32 sha256Of(std::span<const std::uint8_t> head, std::span<const std::uint8_t> data) {
  thread_local Sha256Context context;
  return context.digest(head, data);
}

}  // namespace

// OpenSSL's SHA-256 rather than libsodium's: it uses the CPU's SHA extensions where present
// (several times faster on the audit log's hot path), and SQLCipher links libcrypto anyway.
Hash32 sha256(std::span<const std::uint8_t> data) { return sha256Of({}, data); }

Hash32 sha256Prefixed(std::uint8_t prefix, std::span<const std::uint8_t> data) {
  return sha256Of({&prefix, 1}, data);
}

}  // namespace atoms
