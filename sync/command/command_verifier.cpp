#include "sync/command/command_verifier.h"

#include <algorithm>

#include "base/one_line.h"
#include "store/audit_entry.h"

namespace atoms::sync::command {
namespace {

Verdict refuse(RefusalCode code, std::string reason) {
  Verdict v;
  v.code = code;
  v.reason = oneLine(reason);
  return v;
}

}  // namespace

std::string_view refusalCodeName(RefusalCode code) {
  switch (code) {
    case RefusalCode::kNone:
      return "applied";
    case RefusalCode::kOversize:
      return "oversize";
    case RefusalCode::kNoCloudKey:
      return "no_cloud_key";
    case RefusalCode::kMalformed:
      return "malformed";
    case RefusalCode::kUnsigned:
      return "unsigned";
    case RefusalCode::kUnknownKey:
      return "unknown_key";
    case RefusalCode::kBadSignature:
      return "bad_signature";
    case RefusalCode::kInvalid:
      return "invalid";
    case RefusalCode::kWrongSite:
      return "wrong_site";
    case RefusalCode::kNotYetValid:
      return "not_yet_valid";
    case RefusalCode::kExpired:
      return "expired";
    case RefusalCode::kReplay:
      return "replay";
    case RefusalCode::kRejected:
      return "rejected";
    case RefusalCode::kError:
      return "error";
  }
  return "error";
}

Verdict verifyCommand(std::string_view payload, const VerifierKey* cloudKey, std::string_view site,
                      TimePoint now, const VerifyOptions& options) {
  if (payload.size() > kMaxCommandBytes) {
    return refuse(RefusalCode::kOversize, "the command is " + std::to_string(payload.size()) +
                                              " bytes; at most " +
                                              std::to_string(kMaxCommandBytes) + " are accepted");
  }
  if (cloudKey == nullptr) {
    return refuse(RefusalCode::kNoCloudKey,
                  "no cloud key pinned (sync.cloud_key is not set): every command is refused");
  }
  // A payload with no signature line at all is "unsigned", whatever else is wrong with it.
  const bool hasSignatureBlock = payload.find("\n\n\xE2\x80\x94 ") != std::string_view::npos;
  auto note = parseNote(payload);
  if (!note) {
    if (!hasSignatureBlock) return refuse(RefusalCode::kUnsigned, "the command is not signed");
    return refuse(RefusalCode::kMalformed, "not a signed note: " + note.message());
  }
  const bool byPinnedKey =
      std::any_of(note->signatures.begin(), note->signatures.end(), [&](const NoteSignature& s) {
        return s.name == cloudKey->name() && s.keyId == cloudKey->keyId();
      });
  if (!byPinnedKey) {
    return refuse(RefusalCode::kUnknownKey,
                  "not signed by the pinned cloud key " + cloudKey->name());
  }
  auto text = openNote(payload, *cloudKey);
  if (!text) {
    return refuse(RefusalCode::kBadSignature, "the signature by " + cloudKey->name() +
                                                  " does not verify (altered in transit?)");
  }
  auto cmd = parseCommandText(*text);
  if (!cmd) return refuse(RefusalCode::kInvalid, cmd.message());

  Verdict v;
  if (cmd->site != site) {
    v.code = RefusalCode::kWrongSite;
    v.reason = oneLine("the command is for site \"" + cmd->site + "\"");
  } else if (cmd->issuedAt > now + options.clockSkew) {
    v.code = RefusalCode::kNotYetValid;
    v.reason = "issued at " + cmd->issuedAtText + ", ahead of this box's clock (" +
               formatTimestamp(now) + ") by more than " +
               std::to_string(options.clockSkew.count()) + " s";
  } else if (now >= cmd->expiresAt) {
    v.code = RefusalCode::kExpired;
    v.reason = "expired at " + cmd->expiresAtText + " (box time " + formatTimestamp(now) + ")";
  }
  v.command = std::move(*cmd);
  return v;
}

}  // namespace atoms::sync::command
