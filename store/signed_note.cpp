#include "store/signed_note.h"

#include <sodium.h>

#include <algorithm>
#include <stdexcept>
#include <utility>

#include "base/canonical_json.h"

namespace atoms {

namespace {

constexpr std::uint8_t kAlgEd25519 = 0x01;
constexpr std::string_view kSigPrefix = "\xE2\x80\x94 ";  // U+2014 EM DASH, space

// Decodes one code point of valid UTF-8 at s[i], advancing i. Precondition: isValidUtf8(s).
std::uint32_t nextCodePoint(std::string_view s, std::size_t& i) {
  const auto b = [&](std::size_t k) {
    return static_cast<std::uint32_t>(static_cast<unsigned char>(s[k]));
  };
  const std::uint32_t b0 = b(i);
  if (b0 < 0x80) {
    i += 1;
    return b0;
  }
  if (b0 < 0xE0) {
    const std::uint32_t cp = ((b0 & 0x1F) << 6) | (b(i + 1) & 0x3F);
    i += 2;
    return cp;
  }
  if (b0 < 0xF0) {
    const std::uint32_t cp = ((b0 & 0x0F) << 12) | ((b(i + 1) & 0x3F) << 6) | (b(i + 2) & 0x3F);
    i += 3;
    return cp;
  }
  const std::uint32_t cp = ((b0 & 0x07) << 18) | ((b(i + 1) & 0x3F) << 12) |
                           ((b(i + 2) & 0x3F) << 6) | (b(i + 3) & 0x3F);
  i += 4;
  return cp;
}

// Unicode White_Space (what Go's unicode.IsSpace, used by the reference implementation, tests).
bool isUnicodeSpace(std::uint32_t cp) {
  return (cp >= 0x09 && cp <= 0x0D) || cp == 0x20 || cp == 0x85 || cp == 0xA0 || cp == 0x1680 ||
         (cp >= 0x2000 && cp <= 0x200A) || cp == 0x2028 || cp == 0x2029 || cp == 0x202F ||
         cp == 0x205F || cp == 0x3000;
}

// The spec's rule for key names: non-empty UTF-8 with no Unicode space and no '+'. Used on
// signature lines of notes from elsewhere, so that we read exactly what other implementations
// write.
bool isSpecKeyName(std::string_view name) {
  if (name.empty() || !json::isValidUtf8(name)) return false;
  for (std::size_t i = 0; i < name.size();) {
    const std::uint32_t cp = nextCodePoint(name, i);
    if (cp == '+' || isUnicodeSpace(cp)) return false;
  }
  return true;
}

// Note text rule: valid UTF-8, no control character below U+0020 other than '\n'.
bool isValidNoteBytes(std::string_view s) {
  if (!json::isValidUtf8(s)) return false;
  return std::none_of(s.begin(), s.end(),
                      [](char c) { return static_cast<unsigned char>(c) < 0x20 && c != '\n'; });
}

std::array<std::uint8_t, 4> bigEndian(std::uint32_t v) {
  return {static_cast<std::uint8_t>(v >> 24), static_cast<std::uint8_t>(v >> 16),
          static_cast<std::uint8_t>(v >> 8), static_cast<std::uint8_t>(v)};
}

std::string keyIdHex(std::uint32_t id) {
  const auto be = bigEndian(id);
  return toHex(be);
}

std::string vkeyText(const std::string& name, std::uint32_t id,
                     const std::array<std::uint8_t, 32>& pk) {
  Bytes key;
  key.reserve(33);
  key.push_back(kAlgEd25519);
  key.insert(key.end(), pk.begin(), pk.end());
  return name + "+" + keyIdHex(id) + "+" + toBase64(key);
}

Error malformed(std::string_view why) { return makeError("malformed note: " + std::string(why)); }

}  // namespace

bool isValidKeyName(std::string_view name) {
  if (!isSpecKeyName(name)) return false;
  // Stricter than the spec for names we create or configure: no control characters (C0, DEL,
  // C1), which could never appear in a note line anyway or would confuse an operator's terminal.
  for (std::size_t i = 0; i < name.size();) {
    const std::uint32_t cp = nextCodePoint(name, i);
    if (cp < 0x20 || (cp >= 0x7F && cp <= 0x9F)) return false;
  }
  return true;
}

std::uint32_t noteKeyId(std::string_view name, const std::array<std::uint8_t, 32>& publicKey) {
  Bytes buf(name.begin(), name.end());
  buf.push_back(0x0A);
  buf.push_back(kAlgEd25519);
  buf.insert(buf.end(), publicKey.begin(), publicKey.end());
  const Hash32 h = sha256(buf);
  return (std::uint32_t{h[0]} << 24) | (std::uint32_t{h[1]} << 16) | (std::uint32_t{h[2]} << 8) |
         std::uint32_t{h[3]};
}

// ---- SigningKey ------------------------------------------------------------------------------

SigningKey::SigningKey(std::string name, SecretBytes secret, const std::array<std::uint8_t, 32>& pk)
    : name_(std::move(name)),
      secret_(std::move(secret)),
      publicKey_(pk),
      keyId_(noteKeyId(name_, pk)) {}

Result<SigningKey> SigningKey::fromSecret(std::string name, SecretBytes secret) {
  if (!isValidKeyName(name)) return makeError("invalid key name");
  if (secret.size() != crypto_sign_SECRETKEYBYTES) {
    return makeError("Ed25519 secret key must be " + std::to_string(crypto_sign_SECRETKEYBYTES) +
                     " bytes, got " + std::to_string(secret.size()));
  }
  if (!initSodium()) return makeError("libsodium could not be initialised");
  // Re-derive the key pair from the seed half: a secret whose public half does not match was
  // corrupted, and signing with it would produce signatures nobody can verify.
  SecretBytes derived(crypto_sign_SECRETKEYBYTES);
  std::array<std::uint8_t, 32> pk{};
  crypto_sign_seed_keypair(pk.data(), derived.data(), secret.data());
  if (sodium_memcmp(pk.data(), secret.data() + crypto_sign_SEEDBYTES, pk.size()) != 0) {
    return makeError("Ed25519 secret key is corrupt: public half does not match the seed");
  }
  return SigningKey(std::move(name), std::move(secret), pk);
}

SigningKey SigningKey::generate(std::string name) {
  if (!isValidKeyName(name)) throw std::invalid_argument("invalid note key name");
  if (!initSodium()) throw std::runtime_error("libsodium could not be initialised");
  SecretBytes sk(crypto_sign_SECRETKEYBYTES);
  std::array<std::uint8_t, 32> pk{};
  crypto_sign_keypair(pk.data(), sk.data());
  return SigningKey(std::move(name), std::move(sk), pk);
}

std::array<std::uint8_t, 64> SigningKey::sign(std::span<const std::uint8_t> msg) const {
  std::array<std::uint8_t, 64> sig{};
  crypto_sign_detached(sig.data(), nullptr, msg.data(), msg.size(), secret_.data());
  return sig;
}

std::string SigningKey::verifierKey() const { return vkeyText(name_, keyId_, publicKey_); }

VerifierKey SigningKey::verifier() const { return VerifierKey::fromPublicKey(name_, publicKey_); }

// ---- VerifierKey -----------------------------------------------------------------------------

VerifierKey::VerifierKey(std::string name, const std::array<std::uint8_t, 32>& pk)
    : name_(std::move(name)), publicKey_(pk), keyId_(noteKeyId(name_, pk)) {}

VerifierKey VerifierKey::fromPublicKey(std::string name, const std::array<std::uint8_t, 32>& pk) {
  if (!isValidKeyName(name)) throw std::invalid_argument("invalid note key name");
  return VerifierKey(std::move(name), pk);
}

Result<VerifierKey> VerifierKey::parse(std::string_view vkey) {
  const std::size_t plus1 = vkey.find('+');
  if (plus1 == std::string_view::npos) return makeError("verifier key: expected name+keyid+key");
  const std::size_t plus2 = vkey.find('+', plus1 + 1);
  if (plus2 == std::string_view::npos) return makeError("verifier key: expected name+keyid+key");
  const std::string_view name = vkey.substr(0, plus1);
  const std::string_view idHex = vkey.substr(plus1 + 1, plus2 - plus1 - 1);
  const std::string_view keyB64 = vkey.substr(plus2 + 1);
  if (!isValidKeyName(name)) return makeError("verifier key: invalid key name");
  const bool lowerHex = std::all_of(idHex.begin(), idHex.end(), [](char c) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
  });
  if (idHex.size() != 8 || !lowerHex) {
    return makeError("verifier key: key id must be 8 lowercase hex digits");
  }
  const std::optional<Bytes> key = fromBase64(keyB64);
  if (!key) return makeError("verifier key: key is not valid base64");
  if (key->size() != 33 || (*key)[0] != kAlgEd25519) {
    return makeError("verifier key: not an Ed25519 key (expected 0x01 and 32 bytes)");
  }
  std::array<std::uint8_t, 32> pk{};
  std::copy(key->begin() + 1, key->end(), pk.begin());
  VerifierKey v(std::string(name), pk);
  if (keyIdHex(v.keyId_) != idHex) {
    return makeError("verifier key: key id " + std::string(idHex) +
                     " does not match the name and key (expected " + keyIdHex(v.keyId_) + ")");
  }
  return v;
}

std::string VerifierKey::toString() const { return vkeyText(name_, keyId_, publicKey_); }

bool VerifierKey::verify(std::span<const std::uint8_t> msg,
                         std::span<const std::uint8_t> sig) const {
  if (sig.size() != crypto_sign_BYTES) return false;
  return crypto_sign_verify_detached(sig.data(), msg.data(), msg.size(), publicKey_.data()) == 0;
}

// ---- notes -----------------------------------------------------------------------------------

Result<std::string> signNote(std::string_view text, const SigningKey& key) {
  if (text.empty()) return makeError("note text is empty");
  if (text.back() != '\n') return makeError("note text must end with a newline");
  if (!isValidNoteBytes(text)) {
    return makeError("note text must be UTF-8 without control characters other than newline");
  }
  const auto sig = key.sign(asBytes(text));
  Bytes blob;
  blob.reserve(4 + sig.size());
  const auto id = bigEndian(key.keyId());
  blob.insert(blob.end(), id.begin(), id.end());
  blob.insert(blob.end(), sig.begin(), sig.end());
  std::string note(text);
  note += "\n";
  note += kSigPrefix;
  note += key.name();
  note += " ";
  note += toBase64(blob);
  note += "\n";
  return note;
}

Result<Note> parseNote(std::string_view note) {
  if (!isValidNoteBytes(note)) {
    return malformed("not UTF-8 text without control characters other than newline");
  }
  if (note.empty() || note.back() != '\n') return malformed("does not end with a newline");
  const std::size_t split = note.rfind("\n\n");
  if (split == std::string_view::npos) return malformed("no blank line before the signatures");
  Note out;
  out.text = std::string(note.substr(0, split + 1));
  std::string_view rest = note.substr(split + 2);
  if (rest.empty()) return malformed("no signature lines");
  while (!rest.empty()) {
    const std::size_t nl = rest.find('\n');  // exists: the note ends with '\n'
    std::string_view line = rest.substr(0, nl);
    rest.remove_prefix(nl + 1);
    if (out.signatures.size() == kMaxNoteSignatures) {
      return malformed("more than " + std::to_string(kMaxNoteSignatures) + " signatures");
    }
    if (!line.starts_with(kSigPrefix)) {
      return malformed("signature line does not start with an em dash and a space");
    }
    line.remove_prefix(kSigPrefix.size());
    const std::size_t space = line.find(' ');
    if (space == std::string_view::npos) return malformed("signature line has no signature");
    const std::string_view name = line.substr(0, space);
    if (!isSpecKeyName(name)) return malformed("invalid key name in signature line");
    const std::optional<Bytes> blob = fromBase64(line.substr(space + 1));
    if (!blob) return malformed("signature is not valid base64");
    if (blob->size() < 5) return malformed("signature is too short");
    NoteSignature sig;
    sig.name = std::string(name);
    sig.keyId = (std::uint32_t{(*blob)[0]} << 24) | (std::uint32_t{(*blob)[1]} << 16) |
                (std::uint32_t{(*blob)[2]} << 8) | std::uint32_t{(*blob)[3]};
    sig.signature.assign(blob->begin() + 4, blob->end());
    out.signatures.push_back(std::move(sig));
  }
  return out;
}

Result<std::string> openNote(std::string_view note, const VerifierKey& key) {
  Result<Note> parsed = parseNote(note);
  if (!parsed) return parsed.error();
  bool verified = false;
  for (const NoteSignature& sig : parsed->signatures) {
    if (sig.name != key.name() || sig.keyId != key.keyId()) continue;  // not ours: ignore
    // The spec says a failing signature from a known key should reject the whole note.
    if (!key.verify(asBytes(parsed->text), sig.signature)) {
      return makeError("signature by " + key.name() + " does not verify");
    }
    verified = true;
  }
  if (!verified) return makeError("no signature by key " + key.name());
  return std::move(parsed->text);
}

}  // namespace atoms
