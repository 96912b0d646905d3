// Panel sessions (docs/panel-accounts.md, "Sessions"): a random 256-bit id that lives only in the
// person's cookie; the store keeps its SHA-256 (table panel_session), so a copy of the database
// gives no live session. A session ends at sign-out, after panel.session_idle_minutes without a
// request, panel.session_max_hours after sign-in whatever happens, when the person loses their
// role, and when they sign in again from the same browser (rotation: a new id at every sign-in).
//
// The cookie: __Host-atoms_session=<43 characters of base64url>; Path=/; Secure; HttpOnly;
// SameSite=Strict. No Max-Age: the browser forgets it when it closes, the box when it expires.
// The __Host- prefix makes browsers refuse it without Secure, with a Domain or another Path.
//
// Threading: the table functions use the caller's Database (the writer: they run inside
// PanelAuth's store runs). The others are pure. Errors: the store's, as values.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/bytes.h"
#include "base/result.h"
#include "base/time_point.h"
#include "daemon/panel/panel_secrets.h"
#include "store/database.h"

namespace atoms::panel {

inline constexpr std::string_view kSessionCookieName = "__Host-atoms_session";

// A fresh cookie value: 32 bytes from `random`, base64url (43 characters).
std::string newSessionValue(const SecureRandom& random);
// SHA-256 of the 32 bytes a cookie value stands for; nullopt when the value is not one that
// newSessionValue could have made (wrong length or alphabet): such a value is never looked up.
std::optional<Hash32> sessionIdHash(std::string_view cookieValue);

// The Set-Cookie header value that gives the browser `cookieValue`.
std::string sessionCookie(std::string_view cookieValue);
// The Set-Cookie header value that makes the browser drop the session cookie (sign-out, expiry).
std::string clearedSessionCookie();
// The session cookie's value among a Cookie request header's pairs ("a=1; __Host-atoms_session=
// v"); empty when absent.
std::string sessionValueFromCookieHeader(std::string_view cookieHeader);

// One row of panel_session.
struct SessionRow {
  Hash32 idHash{};
  std::string personId;
  std::string method;  // how they signed in: "password" or "code"
  TimePoint createdAt{};
  TimePoint lastSeenAt{};
};

Status insertSession(Database& db, const SessionRow& row);
Result<std::optional<SessionRow>> findSession(Database& db, const Hash32& idHash);
Status touchSession(Database& db, const Hash32& idHash, TimePoint at);
// Whether a row was deleted.
Result<bool> deleteSession(Database& db, const Hash32& idHash);
// Sessions whose last request is at or before `idleBefore` or that began at or before
// `createdBefore`: what an expiry sweep ends.
Result<std::vector<SessionRow>> expiredSessions(Database& db, TimePoint idleBefore,
                                                TimePoint createdBefore);
// Every session of `personId` (to end them when an account is reset or disabled).
Result<std::vector<SessionRow>> sessionsOf(Database& db, std::string_view personId);

}  // namespace atoms::panel
