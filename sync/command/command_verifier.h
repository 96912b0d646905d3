// The pure check of a payload from atoms/v1/<site>/cmd: size, signed-note syntax, a signature by
// the PINNED cloud key, the strict command text (sync/command/command.h), the target site and the
// validity window. Replays are not its business (the store's CommandJournal remembers ids).
//
// Pure: no I/O, no clock (now is passed in), thread-safe.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <string_view>

#include "store/signed_note.h"
#include "sync/command/command.h"
#include "sync/entry_time.h"

namespace atoms::sync::command {

// Why a command was refused. The wire name (refusalCodeName) is the "code" of a result.
enum class RefusalCode {
  kNone,          // accepted ("applied" once applied)
  kOversize,      // "oversize": more than kMaxCommandBytes
  kNoCloudKey,    // "no_cloud_key": sync.cloud_key is not set; every command is refused
  kMalformed,     // "malformed": not a signed note
  kUnsigned,      // "unsigned": a note without any signature line
  kUnknownKey,    // "unknown_key": signed, but not by the pinned cloud key
  kBadSignature,  // "bad_signature": the pinned key's signature does not verify (tampered)
  kInvalid,       // "invalid": the text is not a valid command (field, type, kind, args)
  kWrongSite,     // "wrong_site": for another site
  kNotYetValid,   // "not_yet_valid": issuedAt is more than the allowed skew ahead of the box
  kExpired,       // "expired": expiresAt has passed
  kReplay,        // "replay": this id was decided before (the stored result is sent again)
  kRejected,      // "rejected": valid, but the box will not apply it (whitelist, policy)
  kError,         // "error": the box could not record the outcome; nothing changed, resend
};
std::string_view refusalCodeName(RefusalCode code);

struct VerifyOptions {
  // How far issuedAt may be ahead of the box's clock (clocks drift, NTP may be late).
  std::chrono::seconds clockSkew{300};
};

struct Verdict {
  RefusalCode code = RefusalCode::kNone;
  std::string reason;  // one line; empty when accepted
  // Set once the signature verified and the text parsed: also for wrong-site and time refusals,
  // whose id is then recorded like an accepted one's.
  std::optional<Command> command;

  bool accepted() const { return code == RefusalCode::kNone; }
};

// cloudKey null: nothing is configured ("no cloud key pinned"). `site` is the box's site id.
Verdict verifyCommand(std::string_view payload, const VerifierKey* cloudKey, std::string_view site,
                      TimePoint now, const VerifyOptions& options = {});

}  // namespace atoms::sync::command
