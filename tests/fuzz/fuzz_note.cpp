// Fuzz target: VerifierKey::parse, parseNote, openNote (store/signed_note.h) and openCheckpoint
// (store/log_verifier.h): how a checkpoint or a cloud command arrives.
//
// Input: "<verifier key>\n<note>". The key line lets a seed made by a real site (its key, its
// signatures) reach the code behind the signature check; when it does not parse, the fixed key
// is used. Properties: a parsed key prints back to the same text; openNote succeeds only on a note
// parseNote accepts, and returns its text; any text parseNote accepts can be signed, and the
// signed note opens to the same text.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "store/log_verifier.h"
#include "store/signed_note.h"
#include "tests/fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace atoms;
  using fuzz::require;
  const auto [keyLine, note] = fuzz::splitFirstLine(fuzz::asText(data, size));

  const Result<VerifierKey> parsedKey = VerifierKey::parse(keyLine);
  if (parsedKey) {
    require(parsedKey->toString() == keyLine, "VerifierKey::parse(k).toString() == k");
    require(isValidKeyName(parsedKey->name()), "a parsed key has a valid name");
  }
  const VerifierKey key = parsedKey ? *parsedKey : fuzz::fixedKey().verifier();

  const Result<Note> parsed = parseNote(note);
  const Result<std::string> opened = openNote(note, key);
  const Result<Checkpoint> cp = openCheckpoint(note, key);
  if (cp) require(opened.ok(), "openCheckpoint accepts only notes that open");
  if (!parsed) {
    require(!opened && !cp, "openNote refuses what parseNote refuses");
    return 0;
  }
  require(parsed->signatures.size() >= 1 && parsed->signatures.size() <= kMaxNoteSignatures,
          "a parsed note has 1..kMaxNoteSignatures signatures");
  if (opened) {
    require(*opened == parsed->text, "openNote returns the text parseNote found");
    require(std::any_of(parsed->signatures.begin(), parsed->signatures.end(),
                        [&](const NoteSignature& s) {
                          return s.name == key.name() && s.keyId == key.keyId();
                        }),
            "an opened note carries a line by the key");
  }

  // What a verifier accepts as a note text, a signer can sign, and the result opens again.
  const Result<std::string> resigned = signNote(parsed->text, fuzz::fixedKey());
  require(resigned.ok(), "signNote signs any text parseNote accepts");
  const Result<std::string> reopened = openNote(*resigned, fuzz::fixedKey().verifier());
  require(reopened.ok() && *reopened == parsed->text, "a signed note opens to its text");
  return 0;
}
