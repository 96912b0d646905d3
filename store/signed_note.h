// C2SP signed notes (https://c2sp.org/signed-note) with Ed25519 keys: how the audit log signs its
// checkpoints and how the cloud signs commands.
//
//   <text, ending in "\n">
//   <blank line>
//   — <key name> base64(4-byte big-endian key id || 64-byte Ed25519 signature of the text)
//
// key id = first 4 bytes of SHA-256(name || 0x0A || 0x01 || 32-byte public key), big-endian.
// A verifier key is written "<name>+<8 lowercase hex key id>+<base64(0x01 || public key)>".
// Key names are non-empty UTF-8 with no Unicode space, no '+' and no control character.
//
// All functions are thread-safe; keys are immutable after construction. libsodium is initialised
// on first use.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "base/bytes.h"
#include "base/result.h"
#include "base/secret.h"

namespace atoms {

// Non-empty, valid UTF-8, no Unicode whitespace, no '+', no control character.
bool isValidKeyName(std::string_view name);

// The C2SP key id of an Ed25519 key.
std::uint32_t noteKeyId(std::string_view name, const std::array<std::uint8_t, 32>& publicKey);

class VerifierKey;

// An Ed25519 signing key with its note key name. Move-only: the secret lives in guarded memory
// (SecretBytes) and is never copied or printed.
class SigningKey {
 public:
  // `secret` is a 64-byte libsodium secret key (seed || public key). Errors: invalid name, wrong
  // length, or a public half that does not match the seed (a corrupted key file).
  static Result<SigningKey> fromSecret(std::string name, SecretBytes secret);
  // A fresh random key. Precondition: isValidKeyName(name); a bad name is a programming error and
  // throws std::invalid_argument.
  static SigningKey generate(std::string name);

  SigningKey(SigningKey&&) noexcept = default;
  SigningKey& operator=(SigningKey&&) noexcept = default;
  SigningKey(const SigningKey&) = delete;
  SigningKey& operator=(const SigningKey&) = delete;

  const std::string& name() const { return name_; }
  const std::array<std::uint8_t, 32>& publicKey() const { return publicKey_; }
  std::uint32_t keyId() const { return keyId_; }
  // The 64-byte libsodium secret key, for writing a key file.
  const SecretBytes& secret() const { return secret_; }

  // Ed25519 signature (deterministic, RFC 8032) of msg.
  std::array<std::uint8_t, 64> sign(std::span<const std::uint8_t> msg) const;
  // "<name>+<keyid hex>+<base64(0x01 || pk)>", the string an operator hands to verifiers.
  std::string verifierKey() const;
  VerifierKey verifier() const;

 private:
  SigningKey(std::string name, SecretBytes secret, const std::array<std::uint8_t, 32>& pk);

  std::string name_;
  SecretBytes secret_;
  std::array<std::uint8_t, 32> publicKey_{};
  std::uint32_t keyId_ = 0;
};

// The public half: name, key id, Ed25519 public key. Copyable.
class VerifierKey {
 public:
  // Parses "<name>+<8 lowercase hex>+<base64(0x01 || 32-byte key)>". Errors name what is wrong,
  // including a key id that does not match the name and key.
  static Result<VerifierKey> parse(std::string_view vkey);
  // Precondition: isValidKeyName(name); otherwise throws std::invalid_argument (a bug).
  static VerifierKey fromPublicKey(std::string name, const std::array<std::uint8_t, 32>& pk);

  const std::string& name() const { return name_; }
  std::uint32_t keyId() const { return keyId_; }
  const std::array<std::uint8_t, 32>& publicKey() const { return publicKey_; }
  // The vkey text (parse(toString()) gives this key back).
  std::string toString() const;

  // True when sig is a valid 64-byte Ed25519 signature of msg by this key.
  bool verify(std::span<const std::uint8_t> msg, std::span<const std::uint8_t> sig) const;

 private:
  VerifierKey(std::string name, const std::array<std::uint8_t, 32>& pk);

  std::string name_;
  std::array<std::uint8_t, 32> publicKey_{};
  std::uint32_t keyId_ = 0;
};

// One signature line of a note, not yet verified.
struct NoteSignature {
  std::string name;
  std::uint32_t keyId = 0;
  Bytes signature;  // the bytes after the key id (64 for Ed25519)
};

struct Note {
  std::string text;  // includes its final "\n"
  std::vector<NoteSignature> signatures;
};

// Maximum signature lines accepted in a note (the spec asks verifiers for at least 16).
inline constexpr std::size_t kMaxNoteSignatures = 100;

// Signs `text`: it must be non-empty, valid UTF-8, end with '\n' and contain no control
// character other than '\n'. Returns text + "\n" + "— " + name + " " + base64(keyid || sig) +
// "\n".
Result<std::string> signNote(std::string_view text, const SigningKey& key);

// Splits a note into text and signature lines, checking syntax only (no signature is verified).
// The text ends at the last blank line. Errors start with "malformed note".
Result<Note> parseNote(std::string_view note);

// Returns the text of `note` when it carries a signature line by `key` (same name and key id)
// that verifies. Lines by other keys are ignored, as the spec requires. Errors: "malformed note:
// ...", "no signature by key <name>", "signature by <name> does not verify" (any line by this key
// that fails rejects the note).
Result<std::string> openNote(std::string_view note, const VerifierKey& key);

}  // namespace atoms
