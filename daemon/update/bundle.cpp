#include "daemon/update/bundle.h"

#include <sodium.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <vector>

#include "base/bytes.h"
#include "base/canonical_json.h"
#include "base/file_io.h"
#include "base/file_system.h"

namespace atoms::update {
namespace {

constexpr std::string_view kBundleMagic = "atoms-edge-bundle v1\n";
constexpr std::size_t kMaxManifestLine = 4096;
constexpr std::size_t kBundleChunk = 64 * 1024;

bool isDottedVersion(const std::string& v) {
  if (v.empty() || v.size() > 64 || v.front() == '.' || v.back() == '.') return false;
  for (std::size_t i = 0; i < v.size(); ++i) {
    const char c = v[i];
    if (c == '.') {
      if (v[i - 1] == '.') return false;
    } else if (std::isdigit(static_cast<unsigned char>(c)) == 0) {
      return false;
    }
  }
  return true;
}

// What the vendor signs: the magic line, then the manifest line (without its newline).
std::string signedText(const std::string& manifestLine) {
  return std::string(kBundleMagic) + manifestLine;
}

// Reads one '\n'-ended line of at most `limit` bytes from the file; the newline is consumed, not
// returned. nullopt at a missing newline within the limit.
Result<std::string> readBundleLine(ReadableFile& file, std::size_t limit, const std::string& path,
                                   const char* what) {
  std::string line;
  std::uint8_t c = 0;
  while (line.size() <= limit) {
    auto n = file.read(std::span<std::uint8_t>(&c, 1));
    if (!n) return makeError("cannot read the bundle " + path + ": " + n.message(), ErrorKind::kIo);
    if (*n == 0) break;
    if (c == '\n') return line;
    line.push_back(static_cast<char>(c));
  }
  return makeError("bundle " + path + " is damaged: its " + what + " line is missing or too long",
                   ErrorKind::kCorrupt);
}

}  // namespace

std::string manifestJson(const Manifest& m) {
  json::Object binary{{"blake2b", m.binaryHash}, {"size", static_cast<std::int64_t>(m.binarySize)}};
  return json::canonical(json::Object{
      {"binary", std::move(binary)}, {"format", 1}, {"schema", m.schema}, {"version", m.version}});
}

Result<Manifest> parseManifest(const std::string& text) {
  auto parsed = json::parseCanonical(text);
  if (!parsed) return makeError("manifest is not canonical JSON: " + parsed.message());
  const json::Value& v = *parsed;
  auto bad = [](const std::string& why) { return makeError("manifest " + why); };
  if (!v.isObject() || v.asObject().size() != 4) {
    return bad("must be an object of binary, format, schema and version");
  }
  const json::Value* format = v.find("format");
  const json::Value* schema = v.find("schema");
  const json::Value* version = v.find("version");
  const json::Value* binary = v.find("binary");
  if (format == nullptr || !format->isInt() || format->asInt() != 1) {
    return bad("has a format this atoms-edge does not read (it reads format 1)");
  }
  if (schema == nullptr || !schema->isInt() || schema->asInt() < 1 || schema->asInt() > 1000000) {
    return bad("has no valid schema version");
  }
  if (version == nullptr || !version->isString() || !isDottedVersion(version->asString())) {
    return bad("has no valid version (digits and dots, like 1.4.2)");
  }
  if (binary == nullptr || !binary->isObject() || binary->asObject().size() != 2) {
    return bad("has no valid binary (blake2b and size)");
  }
  const json::Value* hash = binary->find("blake2b");
  const json::Value* size = binary->find("size");
  if (hash == nullptr || !hash->isString() || hash->asString().size() != 128 ||
      !fromHex(hash->asString()).has_value()) {
    return bad("has no valid binary.blake2b (128 hex digits)");
  }
  if (size == nullptr || !size->isInt() || size->asInt() < 1 ||
      static_cast<std::uint64_t>(size->asInt()) > kMaxBundleBinary) {
    return bad("has no valid binary.size");
  }
  return Manifest{.version = version->asString(),
                  .schema = static_cast<int>(schema->asInt()),
                  .binarySize = static_cast<std::uint64_t>(size->asInt()),
                  .binaryHash = hash->asString()};
}

std::string keyId(const PublicKey& key) {
  std::array<std::uint8_t, 32> digest{};
  crypto_generichash(digest.data(), digest.size(), key.data(), key.size(), nullptr, 0);
  return toHex(std::span<const std::uint8_t>(digest.data(), 8));
}

PublicKey publicKeyOf(const SecretBytes& secretKey) {
  PublicKey pk{};
  if (secretKey.size() == crypto_sign_SECRETKEYBYTES) {
    crypto_sign_ed25519_sk_to_pk(pk.data(), secretKey.data());
  }
  return pk;
}

Status makeBundle(const std::string& binary, const std::string& version, int schema,
                  const SecretBytes& secretKey, const std::string& out) {
  if (secretKey.size() != crypto_sign_SECRETKEYBYTES) return makeError("not an Ed25519 secret key");
  if (!isDottedVersion(version)) {
    return makeError("version '" + version + "' is not digits and dots, like 1.4.2",
                     ErrorKind::kInvalid);
  }
  if (schema < 1) return makeError("schema must be 1 or more", ErrorKind::kInvalid);
  FileSystem& fs = posixFileSystem();
  // First pass: size and hash.
  crypto_generichash_state state;
  crypto_generichash_init(&state, nullptr, 0, crypto_generichash_BYTES_MAX);
  std::uint64_t size = 0;
  std::vector<std::uint8_t> buffer(kBundleChunk);
  {
    auto in = fs.openForRead(binary);
    if (!in) return makeError("cannot read the binary " + binary + ": " + in.message());
    for (;;) {
      auto n = (*in)->read(buffer);
      if (!n) return makeError("cannot read the binary " + binary + ": " + n.message());
      if (*n == 0) break;
      size += *n;
      if (size > kMaxBundleBinary) return makeError("the binary " + binary + " is too big");
      crypto_generichash_update(&state, buffer.data(), *n);
    }
  }
  if (size == 0) return makeError("the binary " + binary + " is empty", ErrorKind::kInvalid);
  std::array<std::uint8_t, crypto_generichash_BYTES_MAX> digest{};
  crypto_generichash_final(&state, digest.data(), digest.size());
  const std::string manifest = manifestJson(
      {.version = version, .schema = schema, .binarySize = size, .binaryHash = toHex(digest)});
  const std::string message = signedText(manifest);
  std::array<std::uint8_t, crypto_sign_BYTES> sig{};
  crypto_sign_detached(sig.data(), nullptr, asBytes(message).data(), message.size(),
                       secretKey.data());
  const std::string header =
      message + "\n" + keyId(publicKeyOf(secretKey)) + " " + toBase64(sig) + "\n";

  auto outFile = fs.createFile(out, CreateMode::kExclusive, 0644);
  if (!outFile) {
    return makeError(
        "cannot create " + out + ": " + outFile.message() +
            (outFile.kind() == ErrorKind::kRefused ? " (a bundle is never overwritten)" : ""),
        outFile.kind());
  }
  auto fail = [&](const std::string& what) {
    (void)fs.remove(out);
    return makeError("cannot write " + out + ": " + what);
  };
  if (Status s = (*outFile)->append(header); !s) return fail(s.message());
  auto in = fs.openForRead(binary);
  if (!in) return fail(in.message());
  std::uint64_t copied = 0;
  for (;;) {
    auto n = (*in)->read(buffer);
    if (!n) return fail(n.message());
    if (*n == 0) break;
    copied += *n;
    std::string_view chunk(reinterpret_cast<const char*>(buffer.data()), *n);
    if (Status s = (*outFile)->append(chunk); !s) return fail(s.message());
  }
  if (copied != size) return fail("the binary changed while it was read");
  if (Status s = (*outFile)->sync(); !s) return fail(s.message());
  if (Status s = (*outFile)->close(); !s) return fail(s.message());
  return fsyncDirectory(directoryOf(out));
}

Result<SignedBundle> openBundle(const std::string& path, const PublicKey& trusted) {
  FileSystem& fs = posixFileSystem();
  auto file = fs.openForRead(path);
  if (!file)
    return makeError("cannot read the bundle " + path + ": " + file.message(), file.kind());
  auto info = (*file)->info();
  if (!info) return makeError("cannot read the bundle " + path + ": " + info.message());
  if (info->type != FileType::kRegular) {
    return makeError("bundle " + path + " is not a regular file", ErrorKind::kInvalid);
  }
  auto magic = readBundleLine(**file, kBundleMagic.size(), path, "first");
  if (!magic) return magic.error();
  if (*magic + "\n" != kBundleMagic) {
    return makeError(path + " is not an atoms-edge update bundle (it must start with '" +
                         std::string(kBundleMagic.substr(0, kBundleMagic.size() - 1)) + "')",
                     ErrorKind::kInvalid);
  }
  auto manifestLine = readBundleLine(**file, kMaxManifestLine, path, "manifest");
  if (!manifestLine) return manifestLine.error();
  auto sigLine = readBundleLine(**file, 200, path, "signature");
  if (!sigLine) return sigLine.error();

  const auto space = sigLine->find(' ');
  auto sig = space == std::string::npos ? std::nullopt : fromBase64(sigLine->substr(space + 1));
  if (!sig || sig->size() != crypto_sign_BYTES) {
    return makeError(
        "bundle " + path + " is damaged: its signature line is not '<key id> <base64>'",
        ErrorKind::kCorrupt);
  }
  // The key id is only for the message: named when it looks like one, never echoed otherwise.
  std::string signer = sigLine->substr(0, space);
  if (signer.size() != 16 || !fromHex(signer).has_value()) signer = "(an unreadable key id)";
  const std::string message = signedText(*manifestLine);
  if (crypto_sign_verify_detached(sig->data(), asBytes(message).data(), message.size(),
                                  trusted.data()) != 0) {
    if (signer != keyId(trusted)) {
      return makeError("bundle " + path + " is signed by key " + signer +
                           ", not by the update key this atoms-edge trusts (" + keyId(trusted) +
                           "); it was not made for this box",
                       ErrorKind::kRefused);
    }
    return makeError(
        "bundle " + path + " does not match its signature: it was changed after it was signed",
        ErrorKind::kCorrupt);
  }
  auto manifest = parseManifest(*manifestLine);
  if (!manifest) {
    return makeError("bundle " + path + ": " + manifest.message(), ErrorKind::kInvalid);
  }
  const std::uint64_t offset = kBundleMagic.size() + manifestLine->size() + 1 + sigLine->size() + 1;
  if (info->size != offset + manifest->binarySize) {
    return makeError("bundle " + path + " is damaged: it holds " +
                         std::to_string(info->size - std::min(info->size, offset)) +
                         " bytes of binary, its manifest says " +
                         std::to_string(manifest->binarySize),
                     ErrorKind::kCorrupt);
  }
  return SignedBundle{.manifest = std::move(*manifest), .binaryOffset = offset};
}

Status extractBinary(const std::string& path, const SignedBundle& bundle, const std::string& to) {
  FileSystem& fs = posixFileSystem();
  auto in = fs.openForRead(path);
  if (!in) return makeError("cannot read the bundle " + path + ": " + in.message());
  std::vector<std::uint8_t> buffer(kBundleChunk);
  // Skip the header (already checked by openBundle).
  std::uint64_t skipped = 0;
  while (skipped < bundle.binaryOffset) {
    const std::size_t want = static_cast<std::size_t>(
        std::min<std::uint64_t>(buffer.size(), bundle.binaryOffset - skipped));
    auto n = (*in)->read(std::span<std::uint8_t>(buffer.data(), want));
    if (!n || *n == 0) return makeError("cannot read the bundle " + path, ErrorKind::kIo);
    skipped += *n;
  }
  std::unique_ptr<WritableFile> out;
  if (!to.empty()) {
    auto created = fs.createFile(to, CreateMode::kExclusive, 0755);
    if (!created) return makeError("cannot create " + to + ": " + created.message());
    out = std::move(*created);
  }
  auto fail = [&](Error e) {
    if (out) {
      (void)out->close();
      (void)fs.remove(to);
    }
    return e;
  };
  crypto_generichash_state state;
  crypto_generichash_init(&state, nullptr, 0, crypto_generichash_BYTES_MAX);
  std::uint64_t size = 0;
  for (;;) {
    auto n = (*in)->read(buffer);
    if (!n) return fail(makeError("cannot read the bundle " + path + ": " + n.message()));
    if (*n == 0) break;
    size += *n;
    if (size > bundle.manifest.binarySize) break;
    crypto_generichash_update(&state, buffer.data(), *n);
    if (out) {
      std::string_view chunk(reinterpret_cast<const char*>(buffer.data()), *n);
      if (Status s = out->append(chunk); !s) {
        return fail(makeError("cannot write " + to + ": " + s.message()));
      }
    }
  }
  std::array<std::uint8_t, crypto_generichash_BYTES_MAX> digest{};
  crypto_generichash_final(&state, digest.data(), digest.size());
  if (size != bundle.manifest.binarySize || toHex(digest) != bundle.manifest.binaryHash) {
    return fail(makeError("bundle " + path +
                              " is damaged: its binary does not match the signed manifest "
                              "(changed after it was signed, or cut short)",
                          ErrorKind::kCorrupt));
  }
  if (out) {
    if (Status s = out->setMode(0755); !s) return fail(makeError("cannot chmod " + to));
    if (Status s = out->sync(); !s)
      return fail(makeError("cannot sync " + to + ": " + s.message()));
    if (Status s = out->close(); !s)
      return fail(makeError("cannot close " + to + ": " + s.message()));
  }
  return Status::success();
}

Result<Manifest> verifyBundle(const std::string& path, const PublicKey& trusted) {
  auto bundle = openBundle(path, trusted);
  if (!bundle) return bundle.error();
  if (Status s = extractBinary(path, *bundle, ""); !s) return s.error();
  return bundle->manifest;
}

int compareVersions(const std::string& a, const std::string& b) {
  auto parts = [](const std::string& v) {
    std::vector<std::uint64_t> out;
    std::uint64_t n = 0;
    for (char c : v) {
      if (c == '.') {
        out.push_back(n);
        n = 0;
      } else {
        n = n * 10 + static_cast<std::uint64_t>(c - '0');
      }
    }
    out.push_back(n);
    return out;
  };
  std::vector<std::uint64_t> x = parts(a);
  std::vector<std::uint64_t> y = parts(b);
  const std::size_t n = std::max(x.size(), y.size());
  x.resize(n, 0);
  y.resize(n, 0);
  if (x < y) return -1;
  return x == y ? 0 : 1;
}

}  // namespace atoms::update
