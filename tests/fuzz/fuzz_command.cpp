// Fuzz target: verifyCommand (sync/command/command_verifier.h), what the box runs on every message
// of its atoms/v1/<site>/cmd topic, and parseAck (sync/ack.h), what it runs on every message of
// its ack topic. Both come from the broker, so from anyone holding the site's credentials.
//
// Input: any bytes. They are verified as they are (a payload: signed-note syntax, the pinned key),
// and, when they are valid note text, signed with the fixed key first so mutations reach the
// strict command parser, the site check and the validity window. They are also read as an ack.
//
// Properties: a verdict is accepted exactly when its code says so; a refusal has a one-line
// reason; an accepted verdict carries the command, for this site; a command whose signature
// verified is never refused as unsigned, tampered or malformed; with no pinned key everything is
// refused. An accepted ack is canonical: ackJson(parseAck(t)) == t.
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string>

#include "sync/ack.h"
#include "sync/command/command_verifier.h"
#include "tests/fuzz/fuzz_support.h"

namespace {

using atoms::fuzz::require;
using atoms::sync::command::RefusalCode;
using atoms::sync::command::Verdict;
using atoms::sync::command::verifyCommand;

constexpr std::string_view kSite = "site-a";

void checkVerdict(const Verdict& v) {
  require(v.accepted() == (v.code == RefusalCode::kNone), "accepted() matches the code");
  if (v.accepted()) {
    require(v.command.has_value(), "an accepted verdict carries its command");
    require(v.reason.empty(), "an accepted verdict has no reason");
  } else {
    require(!v.reason.empty(), "a refusal has a reason");
    require(v.reason.find('\n') == std::string::npos, "a refusal's reason is one line");
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input = atoms::fuzz::asText(data, size);
  const atoms::VerifierKey key = atoms::fuzz::fixedKey().verifier();
  // A fixed instant: 2026-11-30T00:00:00Z.
  const atoms::sync::TimePoint now{std::chrono::seconds(1'795'996'800)};

  const Verdict raw = verifyCommand(input, &key, kSite, now);
  checkVerdict(raw);
  const Verdict unpinned = verifyCommand(input, nullptr, kSite, now);
  checkVerdict(unpinned);
  require(!unpinned.accepted(), "with no pinned key nothing is accepted");

  if (input.size() < atoms::sync::command::kMaxCommandBytes / 2) {
    const atoms::Result<std::string> signedNote = atoms::signNote(input, atoms::fuzz::fixedKey());
    if (signedNote) {
      const Verdict v = verifyCommand(*signedNote, &key, kSite, now);
      checkVerdict(v);
      require(v.code != RefusalCode::kUnsigned && v.code != RefusalCode::kUnknownKey &&
                  v.code != RefusalCode::kBadSignature && v.code != RefusalCode::kMalformed &&
                  v.code != RefusalCode::kNoCloudKey,
              "a note signed by the pinned key is judged on its text");
      if (v.accepted()) require(v.command->site == kSite, "an accepted command is for this site");
    }
  }

  const atoms::Result<atoms::sync::Ack> ack = atoms::sync::parseAck(input);
  if (ack) require(atoms::sync::ackJson(*ack) == input, "an accepted ack is canonical");
  return 0;
}
