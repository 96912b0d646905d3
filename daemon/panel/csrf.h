// CSRF protection for the panel's state-changing requests (docs/panel-accounts.md, "CSRF"): two
// checks, both required.
// 1. A token bound to the session: BLAKE2b keyed with the session id itself, so it needs no
//    storage, changes with every sign-in (rotation), and only someone holding the cookie value
//    can compute it. The page gets it with the session (PanelSession::csrfToken) and sends it back
//    in a header (X-CSRF-Token) or form field; it is compared in constant time.
// 2. The request's Origin header (or, when a browser sends none, its Referer) is the panel's own
//    origin, "https://host[:port]" as configured. "null", another scheme, host or port: refused.
//
// Threading: pure functions.
#pragma once

#include <string>
#include <string_view>

namespace atoms::panel {

// The token for the session whose cookie value is `sessionValue` (43 characters of base64url);
// empty when the value is not a session value.
std::string csrfTokenFor(std::string_view sessionValue);
// Whether `presented` is the token for `sessionValue` (constant time; false when either is empty
// or malformed).
bool csrfTokenMatches(std::string_view sessionValue, std::string_view presented);

// Whether the request comes from `panelOrigin`: by `origin` when the browser sent one (non-empty),
// else by `referer` (which must be panelOrigin followed by "/" or the end). Both empty: false.
// Scheme and host compare without regard to case; the port must be as configured.
bool sameOrigin(std::string_view origin, std::string_view referer, std::string_view panelOrigin);

enum class CsrfVerdict { kAllowed, kMissingToken, kWrongToken, kWrongOrigin };
std::string_view csrfVerdictName(CsrfVerdict v);  // "allowed", "missing_token", ...
// Both checks; the origin check first (a cross-site request is refused whatever it carries).
CsrfVerdict checkCsrf(std::string_view sessionValue, std::string_view presentedToken,
                      std::string_view origin, std::string_view referer,
                      std::string_view panelOrigin);

}  // namespace atoms::panel
