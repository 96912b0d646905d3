#include <sodium.h>

#include <boost/test/unit_test.hpp>
#include <stdexcept>
#include <string>

#include "base/canonical_json.h"
#include "store/checkpoint.h"
#include "store/merkle.h"
#include "store/signed_note.h"

using atoms::SigningKey;
using atoms::VerifierKey;

namespace {

// Interoperability vectors from golang.org/x/mod/sumdb/note (note_test.go and example_test.go),
// the reference implementation of the C2SP signed-note format. PeterNeumann's private key is
// given there as "PRIVATE+KEY+PeterNeumann+c74f20a3+<base64(0x01 || seed)>"; EnochRoot's key is
// the one Go's GenerateKey derives from an all-zero seed.
constexpr std::string_view kPeterSeedB64 = "AYEKFALVFGyNhPJEMzD1QIDr+Y7hfZx09iUvxdXHKDFz";
constexpr std::string_view kPeterVkey =
    "PeterNeumann+c74f20a3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW";
constexpr std::string_view kEnochVkey =
    "EnochRoot+af0cfe78+ATtqJ7zOtqQtYqOo0CpvDXNlMhV3HeJDpjrASKGLWdop";
constexpr std::string_view kText =
    "If you think cryptography is the answer to your problem,\n"
    "then you don't know what your problem is.\n";
constexpr std::string_view kPeterLine =
    "\xE2\x80\x94 PeterNeumann "
    "x08go/ZJkuBS9UG/"
    "SffcvIAQxVBtiFupLLr8pAcElZInNIuGUgYN1FFYC2pZSNXgKvqfqdngotpRZb6KE6RyyBwJnAM=\n";
constexpr std::string_view kEnochLine =
    "\xE2\x80\x94 EnochRoot "
    "rwz+eBzmZa0SO3NbfRGzPCpDckykFXSdeX+MNtCOXm2/"
    "5n2tiOHp+vAF1aGrQ5ovTG01oOTGwnWLox33WWd1RvMc+QQ=\n";

SigningKey keyFromSeed(std::string name, std::span<const std::uint8_t> seed) {
  BOOST_REQUIRE(seed.size() == crypto_sign_SEEDBYTES);
  BOOST_REQUIRE(atoms::initSodium());
  std::array<std::uint8_t, 32> pk{};
  atoms::SecretBytes sk(crypto_sign_SECRETKEYBYTES);
  crypto_sign_seed_keypair(pk.data(), sk.data(), seed.data());
  auto key = SigningKey::fromSecret(std::move(name), std::move(sk));
  BOOST_REQUIRE_MESSAGE(key.ok(), (key.ok() ? "" : key.message()));
  return std::move(key).value();
}

SigningKey peterKey() {
  auto blob = atoms::fromBase64(kPeterSeedB64);
  BOOST_REQUIRE(blob && blob->size() == 33 && (*blob)[0] == 0x01);
  return keyFromSeed("PeterNeumann", std::span(*blob).subspan(1));
}

SigningKey enochKey() {
  const std::array<std::uint8_t, 32> zero{};
  return keyFromSeed("EnochRoot", zero);
}

VerifierKey vkey(std::string_view text) {
  auto v = VerifierKey::parse(text);
  BOOST_REQUIRE_MESSAGE(v.ok(), (v.ok() ? "" : v.message()));
  return *v;
}

std::string signedNote(std::string_view text, const SigningKey& key) {
  auto n = atoms::signNote(text, key);
  BOOST_REQUIRE_MESSAGE(n.ok(), (n.ok() ? "" : n.message()));
  return *n;
}

std::string openError(std::string_view note, const VerifierKey& key) {
  auto r = atoms::openNote(note, key);
  BOOST_REQUIRE_MESSAGE(!r.ok(), "note unexpectedly opened");
  return r.message();
}

// Replaces the base64 blob of the first signature line with `blob`.
std::string withSignatureBlob(const std::string& note, std::span<const std::uint8_t> blob) {
  const std::size_t sep = note.rfind("\n\n");
  const std::size_t space = note.find(' ', sep + 2 + 4);  // after "— "
  const std::size_t end = note.find('\n', space);
  return note.substr(0, space + 1) + atoms::toBase64(blob) + note.substr(end);
}

atoms::Bytes signatureBlob(const std::string& note) {
  auto parsed = atoms::parseNote(note);
  BOOST_REQUIRE(parsed.ok());
  const auto& sig = parsed->signatures.at(0);
  atoms::Bytes blob(4 + sig.signature.size());
  for (int i = 0; i < 4; ++i)
    blob[static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(sig.keyId >> (24 - 8 * i));
  std::copy(sig.signature.begin(), sig.signature.end(), blob.begin() + 4);
  return blob;
}

atoms::Hash32 hashOf(std::string_view s) { return atoms::sha256(atoms::asBytes(s)); }

}  // namespace

BOOST_AUTO_TEST_SUITE(signed_note)

BOOST_AUTO_TEST_CASE(reproducesGoReferenceKeysAndSignatures) {
  const SigningKey peter = peterKey();
  BOOST_TEST(peter.verifierKey() == kPeterVkey);
  BOOST_TEST(peter.keyId() == 0xc74f20a3u);
  // Ed25519 is deterministic, so the note must match Go's byte for byte.
  BOOST_TEST(signedNote(kText, peter) == std::string(kText) + "\n" + std::string(kPeterLine));

  const SigningKey enoch = enochKey();
  BOOST_TEST(enoch.verifierKey() == kEnochVkey);
  BOOST_TEST(signedNote(kText, enoch) == std::string(kText) + "\n" + std::string(kEnochLine));
}

BOOST_AUTO_TEST_CASE(opensGoDoublySignedNoteWithEitherKey) {
  const std::string note =
      std::string(kText) + "\n" + std::string(kPeterLine) + std::string(kEnochLine);
  BOOST_TEST(atoms::openNote(note, vkey(kPeterVkey)).value() == kText);
  BOOST_TEST(atoms::openNote(note, vkey(kEnochVkey)).value() == kText);
  auto parsed = atoms::parseNote(note);
  BOOST_REQUIRE(parsed.ok());
  BOOST_TEST(parsed->signatures.size() == 2u);
  BOOST_TEST(parsed->signatures[0].name == "PeterNeumann");
  BOOST_TEST(parsed->signatures[0].keyId == 0xc74f20a3u);
  BOOST_TEST(parsed->signatures[1].name == "EnochRoot");
  BOOST_TEST(parsed->signatures[1].keyId == 0xaf0cfe78u);
  BOOST_TEST(parsed->signatures[1].signature.size() == 64u);
}

BOOST_AUTO_TEST_CASE(keyIdIsTruncatedSha256OfNameNewlineTypeAndKey) {
  const SigningKey key = SigningKey::generate("atoms-edge/site-1");
  atoms::Bytes pre(key.name().begin(), key.name().end());
  pre.push_back(0x0A);
  pre.push_back(0x01);
  pre.insert(pre.end(), key.publicKey().begin(), key.publicKey().end());
  const atoms::Hash32 digest = atoms::sha256(pre);
  const std::uint32_t expected = (std::uint32_t{digest[0]} << 24) |
                                 (std::uint32_t{digest[1]} << 16) |
                                 (std::uint32_t{digest[2]} << 8) | digest[3];
  BOOST_TEST(key.keyId() == expected);
  BOOST_TEST(atoms::noteKeyId(key.name(), key.publicKey()) == expected);
  BOOST_TEST(key.verifier().keyId() == expected);
}

BOOST_AUTO_TEST_CASE(signAndOpenRoundTrip) {
  const SigningKey key = SigningKey::generate("atoms-edge/site-1");
  const std::string text =
      "atoms-edge/site-1\n3\nabc\n\nan empty line above is allowed\n\xC3\xA9\n";
  const std::string note = signedNote(text, key);
  BOOST_TEST(note.starts_with(text + "\n\xE2\x80\x94 atoms-edge/site-1 "));
  BOOST_TEST(atoms::openNote(note, key.verifier()).value() == text);
  BOOST_TEST(atoms::openNote(note, vkey(key.verifierKey())).value() == text);
}

BOOST_AUTO_TEST_CASE(signatureIsOverTheExactText) {
  const SigningKey key = SigningKey::generate("k");
  const auto sig = key.sign(atoms::asBytes("hello\n"));
  BOOST_TEST(key.verifier().verify(atoms::asBytes("hello\n"), sig));
  BOOST_TEST(!key.verifier().verify(atoms::asBytes("hello"), sig));
  BOOST_TEST(!key.verifier().verify(atoms::asBytes("hello\n"), std::span(sig).first(63)));
}

BOOST_AUTO_TEST_CASE(tamperedTextIsRejected) {
  const SigningKey key = SigningKey::generate("atoms-edge/site-1");
  std::string note = signedNote("atoms-edge/site-1\n3\nroot\n", key);
  note[18] = '4';
  BOOST_TEST(openError(note, key.verifier()) == "signature by atoms-edge/site-1 does not verify");
}

BOOST_AUTO_TEST_CASE(tamperedSignatureIsRejected) {
  const SigningKey key = SigningKey::generate("atoms-edge/site-1");
  const std::string note = signedNote("hello\n", key);
  atoms::Bytes blob = signatureBlob(note);
  blob[10] ^= 0x01;
  BOOST_TEST(openError(withSignatureBlob(note, blob), key.verifier()) ==
             "signature by atoms-edge/site-1 does not verify");
  // A truncated signature with the right key id is a failing signature, not an unknown one.
  blob = signatureBlob(note);
  blob.pop_back();
  BOOST_TEST(openError(withSignatureBlob(note, blob), key.verifier()) ==
             "signature by atoms-edge/site-1 does not verify");
}

BOOST_AUTO_TEST_CASE(tamperedKeyIdMakesTheLineUnknown) {
  const SigningKey key = SigningKey::generate("atoms-edge/site-1");
  const std::string note = signedNote("hello\n", key);
  atoms::Bytes blob = signatureBlob(note);
  blob[0] ^= 0x80;
  BOOST_TEST(openError(withSignatureBlob(note, blob), key.verifier()) ==
             "no signature by key atoms-edge/site-1");
}

BOOST_AUTO_TEST_CASE(otherKeysDoNotOpenTheNote) {
  const SigningKey key = SigningKey::generate("atoms-edge/site-1");
  const SigningKey sameName = SigningKey::generate("atoms-edge/site-1");
  const SigningKey otherName = SigningKey::generate("atoms-edge/site-2");
  const std::string note = signedNote("hello\n", key);
  BOOST_TEST(openError(note, sameName.verifier()) == "no signature by key atoms-edge/site-1");
  BOOST_TEST(openError(note, otherName.verifier()) == "no signature by key atoms-edge/site-2");
  // Same key id under another name is a different key too (the spec: name AND id must match).
  const VerifierKey renamed = VerifierKey::fromPublicKey("atoms-edge/site-2", key.publicKey());
  BOOST_TEST(openError(note, renamed) == "no signature by key atoms-edge/site-2");
}

BOOST_AUTO_TEST_CASE(unknownSignersAreIgnoredButAFailingKnownOneRejects) {
  const SigningKey site = SigningKey::generate("atoms-edge/site-1");
  const SigningKey witness = SigningKey::generate("witness.example/w1");
  const std::string text = "atoms-edge/site-1\n1\nroot\n";
  const std::string bySite = signedNote(text, site);
  const std::string byWitness = signedNote(text, witness);
  const std::string witnessLine = byWitness.substr(byWitness.rfind("\n\n") + 2);
  const std::string both = bySite + witnessLine;
  BOOST_TEST(atoms::openNote(both, site.verifier()).value() == text);
  BOOST_TEST(atoms::openNote(both, witness.verifier()).value() == text);
  // A witness line over different text makes the note fail for the witness, not for the site.
  const std::string otherWitness = signedNote("other\n", witness);
  const std::string mixed = bySite + otherWitness.substr(otherWitness.rfind("\n\n") + 2);
  BOOST_TEST(atoms::openNote(mixed, site.verifier()).ok());
  BOOST_TEST(openError(mixed, witness.verifier()) ==
             "signature by witness.example/w1 does not verify");
}

BOOST_AUTO_TEST_CASE(malformedNotesAreRejected) {
  const SigningKey key = SigningKey::generate("k");
  const std::string good = signedNote("hello\n", key);
  const std::string line = good.substr(good.rfind("\n\n") + 2);
  const std::vector<std::string> bad = {
      "",
      "hello\n",                                              // no signatures at all
      "hello\n\n",                                            // blank line, no signature line
      good.substr(0, good.size() - 1),                        // no final newline
      "hello\n" + line,                                       // no blank line
      "hello\n\n-- k " + line.substr(line.find(' ', 4) + 1),  // ASCII dashes
      "hello\n\n\xE2\x80\x94k" + line.substr(5),              // no space after the dash
      "hello\n\n\xE2\x80\x94 k\n",                            // no signature
      "hello\n\n\xE2\x80\x94  AAAAAAA=\n",                    // empty name
      "hello\n\n\xE2\x80\x94 k !!!!\n",                       // not base64
      "hello\n\n\xE2\x80\x94 k AAAAAA==\n",                   // 4 bytes: key id only
      "hel\rlo\n\n" + line,                                   // control character in the text
      "hello\t\n\n" + line,                                   // tab
      "h\xC0\x80llo\n\n" + line,                              // invalid UTF-8
      good + "\n",                                            // blank line after the signatures
      good + "trailing\n",                                    // a non-signature line
  };
  for (const std::string& note : bad) {
    auto r = atoms::openNote(note, key.verifier());
    BOOST_REQUIRE_MESSAGE(!r.ok(), "opened: " << note);
    BOOST_TEST(r.message().starts_with("malformed note"), r.message());
  }
  std::string many = "hello\n\n";
  for (std::size_t i = 0; i <= atoms::kMaxNoteSignatures; ++i) many += line;
  BOOST_TEST(atoms::openNote(many, key.verifier()).message().starts_with("malformed note"));
  std::string enough = "hello\n\n";
  for (std::size_t i = 0; i < atoms::kMaxNoteSignatures; ++i) enough += line;
  BOOST_TEST(atoms::openNote(enough, key.verifier()).ok());
}

BOOST_AUTO_TEST_CASE(signNoteRejectsInvalidText) {
  const SigningKey key = SigningKey::generate("k");
  BOOST_TEST(!atoms::signNote("", key).ok());
  BOOST_TEST(!atoms::signNote("no newline", key).ok());
  BOOST_TEST(!atoms::signNote("tab\there\n", key).ok());
  BOOST_TEST(!atoms::signNote("cr\r\n", key).ok());
  BOOST_TEST(!atoms::signNote("bad \xFF utf8\n", key).ok());
  BOOST_TEST(atoms::signNote("\n", key).ok());
}

BOOST_AUTO_TEST_CASE(keyNamesFollowTheSpec) {
  for (const char* name : {"k", "atoms-edge/site-1", "example.com/log42", "\xC3\xA9t\xC3\xA9"}) {
    BOOST_TEST(atoms::isValidKeyName(name), name);
  }
  for (const char* name : {"", "a b", "a+b", "a\tb", "a\nb",
                           "a\xC2\xA0"
                           "b",
                           "a\xE3\x80\x80"
                           "b",
                           "a\xE2\x80\xA8"
                           "b",
                           "a\x7F", "a\xC2\x85", "\xFF"}) {
    BOOST_TEST(!atoms::isValidKeyName(name), name);
  }
  BOOST_CHECK_THROW(SigningKey::generate("bad name"), std::invalid_argument);
  BOOST_CHECK_THROW(VerifierKey::fromPublicKey("a+b", {}), std::invalid_argument);
}

BOOST_AUTO_TEST_CASE(fromSecretChecksTheKey) {
  const SigningKey key = SigningKey::generate("k");
  auto again = SigningKey::fromSecret("k", key.secret().clone());
  BOOST_REQUIRE(again.ok());
  BOOST_TEST((again->publicKey() == key.publicKey()));
  BOOST_TEST(again->verifierKey() == key.verifierKey());

  BOOST_TEST(!SigningKey::fromSecret("k", atoms::SecretBytes(32)).ok());
  BOOST_TEST(!SigningKey::fromSecret("bad name", key.secret().clone()).ok());
  atoms::SecretBytes corrupt = key.secret().clone();
  corrupt.data()[40] ^= 0x01;  // the public half no longer matches the seed
  auto r = SigningKey::fromSecret("k", std::move(corrupt));
  BOOST_REQUIRE(!r.ok());
  BOOST_TEST(r.message().find("corrupt") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(verifierKeyTextRoundTrips) {
  const SigningKey key = SigningKey::generate("atoms-edge/site-1");
  const VerifierKey v = vkey(key.verifierKey());
  BOOST_TEST(v.name() == key.name());
  BOOST_TEST(v.keyId() == key.keyId());
  BOOST_TEST((v.publicKey() == key.publicKey()));
  BOOST_TEST(v.toString() == key.verifierKey());
  BOOST_TEST(vkey(kPeterVkey).toString() == kPeterVkey);
}

BOOST_AUTO_TEST_CASE(malformedVerifierKeysAreRejected) {
  const std::string good(kPeterVkey);
  const std::vector<std::string> bad = {
      "",
      "PeterNeumann",
      "PeterNeumann+c74f20a3",
      "+c74f20a3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW",               // empty name
      "Peter Neumann+c74f20a3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW",  // space
      "PeterNeumann+C74F20A3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW",   // uppercase id
      "PeterNeumann+c74f20a+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW",    // short id
      "PeterNeumann+c74f20a4+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW",   // wrong id
      "PeterNeumann+c74f20a3+Apc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW",    // bad base64
      "PeterNeumann+c74f20a3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW+x",
      "EnochRoot+c74f20a3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW",  // id of another name
  };
  for (const std::string& s : bad) BOOST_TEST(!VerifierKey::parse(s).ok(), s);
  // Algorithm byte other than 0x01, and wrong key length.
  auto raw = atoms::fromBase64(good.substr(good.rfind('+') + 1)).value();
  raw[0] = 0x02;
  BOOST_TEST(!VerifierKey::parse("PeterNeumann+c74f20a3+" + atoms::toBase64(raw)).ok());
  raw[0] = 0x01;
  raw.push_back(0);
  BOOST_TEST(!VerifierKey::parse("PeterNeumann+c74f20a3+" + atoms::toBase64(raw)).ok());
  // Every truncation of a good key fails.
  for (std::size_t n = 0; n < good.size(); ++n) {
    BOOST_TEST(!VerifierKey::parse(good.substr(0, n)).ok(), good.substr(0, n));
  }
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(checkpoint)

BOOST_AUTO_TEST_CASE(bodyFormatAndOrigin) {
  BOOST_TEST(atoms::originForSite("site-1") == "atoms-edge/site-1");
  const atoms::Checkpoint c{atoms::originForSite("site-1"), 8, hashOf("root")};
  BOOST_TEST(atoms::checkpointBody(c) ==
             "atoms-edge/site-1\n8\n" + atoms::toBase64(hashOf("root")) + "\n");
  BOOST_TEST(atoms::checkpointBody({"o", 0, atoms::emptyRoot()}) ==
             "o\n0\n47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=\n");
}

BOOST_AUTO_TEST_CASE(parseRoundTrips) {
  for (std::uint64_t size : {0ull, 1ull, 1'000'000ull, 18446744073709551615ull}) {
    const atoms::Checkpoint c{"atoms-edge/site-1", size, hashOf(std::to_string(size))};
    auto back = atoms::parseCheckpointBody(atoms::checkpointBody(c));
    BOOST_REQUIRE_MESSAGE(back.ok(), (back.ok() ? "" : back.message()));
    BOOST_TEST((*back == c));
  }
}

BOOST_AUTO_TEST_CASE(extensionLinesAreAcceptedAndIgnored) {
  const atoms::Checkpoint c{"atoms-edge/site-1", 5, hashOf("x")};
  auto back = atoms::parseCheckpointBody(atoms::checkpointBody(c) + "ext one\next two\n");
  BOOST_REQUIRE(back.ok());
  BOOST_TEST((*back == c));
}

BOOST_AUTO_TEST_CASE(malformedBodiesAreRejected) {
  const std::string root = atoms::toBase64(hashOf("x"));
  const atoms::Hash32 x = hashOf("x");
  const std::string short31 = atoms::toBase64(std::span(x).first(31));
  atoms::Bytes long33(33, 7);
  const std::vector<std::string> bad = {
      "",
      "o\n1\n" + root,          // no final newline
      "o\n1\n",                 // no root
      "\n1\n" + root + "\n",    // empty origin
      "o\n01\n" + root + "\n",  // leading zero
      "o\n00\n" + root + "\n",
      "o\n-1\n" + root + "\n",
      "o\n+1\n" + root + "\n",
      "o\n 1\n" + root + "\n",
      "o\n\n" + root + "\n",  // empty size
      "o\n1x\n" + root + "\n",
      "o\n18446744073709551616\n" + root + "\n",  // 2^64
      "o\n99999999999999999999999\n" + root + "\n",
      "o\n1\n" + short31 + "\n",
      "o\n1\n" + atoms::toBase64(long33) + "\n",
      "o\n1\n" + root.substr(0, root.size() - 1) + "\n",  // bad padding
      "o\n1\n" + root + "\n\n",                           // empty extension line
      "o\n1\n" + root + "\next",                          // extension without newline
      "o\tx\n1\n" + root + "\n",                          // control character
      "o\n1\r\n" + root + "\n",
      "\xFF\n1\n" + root + "\n",  // invalid UTF-8
  };
  for (const std::string& text : bad) {
    BOOST_TEST(!atoms::parseCheckpointBody(text).ok(), text);
  }
}

BOOST_AUTO_TEST_CASE(signedCheckpointRoundTrip) {
  atoms::MerkleTree tree;
  for (int i = 0; i < 5; ++i) tree.append(atoms::leafHash(atoms::asBytes(std::to_string(i))));
  const SigningKey key = SigningKey::generate(atoms::originForSite("site-1"));
  const atoms::Checkpoint c{key.name(), tree.size(), tree.root()};
  const std::string note = signedNote(atoms::checkpointBody(c), key);
  auto text = atoms::openNote(note, vkey(key.verifierKey()));
  BOOST_REQUIRE(text.ok());
  auto back = atoms::parseCheckpointBody(*text);
  BOOST_REQUIRE(back.ok());
  BOOST_TEST((*back == c));
}

BOOST_AUTO_TEST_SUITE_END()

// The worked example of docs/audit-format.md, end to end. If this fails, either the doc or the
// wire format changed, and third-party verifiers built from the doc would break.
BOOST_AUTO_TEST_SUITE(audit_format_doc)

BOOST_AUTO_TEST_CASE(workedExampleMatchesTheDocumentation) {
  const std::vector<std::string> entries = {
      R"({"actor":"person:p-17","body":{"from":"+15550100","text":"Jamal didn't show, I'm alone on the line"},"kind":"sms.in","prev":"0000000000000000000000000000000000000000000000000000000000000000","seq":0,"site":"site-1","ts":"2024-05-01T14:03:07.120Z"})",
      R"({"actor":"engine","body":{"action":"callout.open","outcome":"execute"},"kind":"decision","prev":"2774aed3e263edcf8e42d8e5d5424acc7da0e338092e4fd8063034bad1174e2d","seq":1,"site":"site-1","ts":"2024-05-01T14:03:07.341Z"})",
      R"({"actor":"engine","body":{"text":"Can you cover the line 15:00-21:00 today? Reply YES or NO","to":"+15550123"},"kind":"sms.out","prev":"c9096f8fd62f22270286e11df700c7b623b81c1541c2627baba30bd25e3af959","seq":2,"site":"site-1","ts":"2024-05-01T14:03:08.002Z"})",
  };
  atoms::MerkleTree tree;
  for (const auto& e : entries) {
    BOOST_TEST(atoms::json::parseCanonical(e).ok());
    tree.append(atoms::leafHash(atoms::asBytes(e)));
  }
  BOOST_TEST(atoms::toHex(tree.leaf(0)) ==
             "2774aed3e263edcf8e42d8e5d5424acc7da0e338092e4fd8063034bad1174e2d");
  BOOST_TEST(atoms::toHex(tree.root()) ==
             "76e0015438ff3cd7308cd05daaa6b8e236119001f7a55384e7735d905e9b75f8");

  const atoms::Hash32 seed = hashOf("atoms-edge documentation example key");
  const SigningKey key = keyFromSeed(atoms::originForSite("site-1"), seed);
  BOOST_TEST(key.verifierKey() ==
             "atoms-edge/site-1+872e2f04+AVTWb9JoBSss2fXfFP+LAX5WVig+hKybbcMv2nXX/7D8");
  const std::string note =
      signedNote(atoms::checkpointBody({key.name(), tree.size(), tree.root()}), key);
  BOOST_TEST(note ==
             "atoms-edge/site-1\n3\nduABVDj/PNcwjNBdqqa44jYRkAH3pVOE53NdkF6bdfg=\n\n"
             "\xE2\x80\x94 atoms-edge/site-1 "
             "hy4vBNhVzqnf6Qodx/bhu6bN/46n/fUCi1DBfy036hpQrM5amff2NgujVGRlQcmDj/"
             "Aqh9Yen8NCq64C+gu1YL88XQI=\n");
}

BOOST_AUTO_TEST_SUITE_END()
