// Panel invites (docs/panel-accounts.md, "Invites"): a one-time code that lets a person with a
// panel role set their password. It is a token the box can check without having stored it:
//   base64url(person id "\n" issued-ms "\n" expires-ms) "." base64url(BLAKE2b-256 MAC)
// keyed by a key derived from the site key (derivedPanelKey(..., "invite")). That is what lets
// `atoms-edge panel invite` run while `serve` holds the store: the command only reads, and the
// running box honours the token. An invite is spent once a password is set with it or with any
// invite issued after it (panel_account.password_set_at), and lapses at its expiry (72 hours by
// default, panel.invite_valid_hours).
//
// Threading: pure functions.
#pragma once

#include <chrono>
#include <string>
#include <string_view>

#include "base/result.h"
#include "base/secret.h"
#include "base/time_point.h"

namespace atoms::panel {

struct Invite {
  std::string personId;
  TimePoint issuedAt{};
  TimePoint expiresAt{};
};

// The token for `invite` (issued and expiry instants are kept to the millisecond).
std::string issueInviteToken(const SecretBytes& key, const Invite& invite);
// The invite a token stands for. Errors (kRefused, one line, for the person): malformed, a MAC
// that does not match (another box's or altered), expired at `now`.
Result<Invite> readInviteToken(const SecretBytes& key, std::string_view token, TimePoint now);

}  // namespace atoms::panel
