// PanelAuth: accounts and sign-in for the manager's panel (docs/panel-accounts.md). The HTTPS
// server (someone else's code) calls it for every sign-in form, every request with a session
// cookie and every state change; it never sees a password hash, a stored session or a code.
//
//   sign-in page     signInWithPassword / startCodeSignIn + signInWithCode / acceptInvite
//                    -> SignInResult: on success the Set-Cookie value and the session
//   every request    session(cookie value) -> the person, their role and the CSRF token, or none
//   state changes    checkStateChange(cookie, token, Origin, Referer) then authorize(session, act)
//   sign-out         signOut(cookie value) -> Set-Cookie that clears it
//   a timer          sweepExpired() every few minutes (expiry is also checked at each lookup)
//
// Every sign-in, failure, invite, password set, sign-out, session end and refusal is an audit
// entry ("panel.*", listed in docs/panel-accounts.md), committed with the change it records.
// No entry or log line holds a password, a code, an invite token or a session id; phone numbers
// are masked (sms::mailbox::maskNumber). Unknown logins are not recorded either (people type
// passwords into the login field).
//
// Threading: every method is thread-safe (HTTP server threads). Store work runs through the
// StoreRunner on the single writer, in short runs; password hashing (tens of milliseconds, 64
// MiB) runs on the caller's thread between them, never on the writer. Holds references: the
// runner, the outbox and the clock must outlive it.
// Errors: values; only store failures are errors. A refused sign-in is an outcome, not an error.
#pragma once

#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/clock.h"
#include "base/result.h"
#include "base/secret.h"
#include "daemon/panel/csrf.h"
#include "daemon/panel/panel_roles.h"
#include "daemon/panel/panel_secrets.h"
#include "daemon/panel/password.h"
#include "daemon/panel/throttle.h"
#include "sms/mailbox/outbox.h"
#include "store/state_dir.h"
#include "store/store_runner.h"

namespace atoms::panel {

struct PanelAuthOptions {
  // The panel's own origin, "https://host[:port]", for the Origin/Referer check (csrf.h).
  std::string panelOrigin;
  std::chrono::minutes sessionIdle{30};   // panel.session_idle_minutes
  std::chrono::hours sessionMax{12};      // panel.session_max_hours
  std::chrono::hours inviteValidity{72};  // panel.invite_valid_hours
  std::vector<std::string> owners;        // policy.owners
  PasswordCost passwordCost = interactiveCost();
};

// A signed-in person, as a request sees them. The role is read again at every lookup.
struct PanelSession {
  std::string personId;
  PanelRole role = PanelRole::kLead;
  std::string method;     // "password" or "code"
  std::string csrfToken;  // to put in the page; state changes must send it back
  TimePoint createdAt{};
};

enum class SignInOutcome {
  kSignedIn,
  kRefused,    // wrong login, password or code; no account; no role; spent or expired code/invite
  kThrottled,  // too many failures: try again at retryAfter
};

struct SignInResult {
  SignInOutcome outcome = SignInOutcome::kRefused;
  // For the person: "signed in", "that login and password do not match", "try again in 4
  // minutes", "this invite has expired: ask for a new one". Never says which half was wrong.
  std::string message;
  std::optional<TimePoint> retryAfter;  // kThrottled
  // kSignedIn: the new session's cookie value, the Set-Cookie header value, and the session.
  std::string cookieValue;
  std::string setCookie;
  PanelSession session;
};

struct IssuedInvite {
  std::string personId;
  PanelRole role = PanelRole::kLead;
  std::string token;  // hand it to the person only
  TimePoint expiresAt{};
};

// Where a request comes from, for throttling and the audit log: the client address (as the
// server saw it) and the cookie value the browser sent, if any (ended at sign-in: rotation).
struct ClientContext {
  std::string address;
  std::string currentCookieValue;
};

// For `atoms-edge panel invite` (reads the store only, so it may run beside `serve`): the invite
// for `personId` if they hold a panel role. Errors: kNotFound (not a person of the site), kRefused
// (a person without a manager, owner or lead role), the store's.
Result<IssuedInvite> prepareInvite(Database& db, const SiteIdentity& identity,
                                   const std::vector<std::string>& owners,
                                   std::string_view personId, TimePoint now,
                                   std::chrono::hours validity);

class PanelAuth {
 public:
  // `identity` is the site's (its signing secret keys the invites and the sign-in codes).
  PanelAuth(StoreRunner& store, sms::mailbox::Outbox& outbox, const Clock& clock,
            const SiteIdentity& identity, PanelAuthOptions options,
            SecureRandom random = systemRandom());
  PanelAuth(const PanelAuth&) = delete;
  PanelAuth& operator=(const PanelAuth&) = delete;

  const PanelAuthOptions& options() const { return options_; }

  // An invite issued from the panel by `by` (audited "panel.invite"): a manager invites leads, an
  // owner anyone with a role. Errors: kRefused (audited "panel.refused") when `by` may not,
  // kNotFound / kRefused as prepareInvite.
  Result<IssuedInvite> invite(const PanelSession& by, std::string_view personId);
  // Sets the password with an invite token and signs the person in (audited
  // "panel.password.set", then "panel.signin"). Refused: bad/expired/spent token, a person who
  // lost their role, a password passwordProblem() rejects (message says why).
  Result<SignInResult> acceptInvite(std::string_view token, std::string_view password,
                                    const ClientContext& client);

  // `login` is the person id or their phone number on file (E.164).
  Result<SignInResult> signInWithPassword(std::string_view login, std::string_view password,
                                          const ClientContext& client);
  // Texts a sign-in code to the person's number on file when they have an account and a role,
  // are not throttled, and did not get one in the last minute. Always succeeds alike for the
  // caller (the page says "if that account exists, a code is on its way"); only store errors are
  // errors.
  Status startCodeSignIn(std::string_view login, const ClientContext& client);
  Result<SignInResult> signInWithCode(std::string_view login, std::string_view code,
                                      const ClientContext& client);

  // The session a cookie value stands for; nullopt when none (unknown, malformed, ended). An
  // expired one is ended here (audited "panel.session.expired"), as is one whose person lost
  // their role ("panel.session.ended").
  Result<std::optional<PanelSession>> session(std::string_view cookieValue);
  // Ends the session (audited "panel.signout"); ok also when there was none. The caller sends
  // clearedSessionCookie() either way.
  Status signOut(std::string_view cookieValue, const ClientContext& client);

  // CSRF for a state change (csrf.h): the session's token and the Origin/Referer. A refusal is
  // audited ("panel.csrf.refused") and returned as kRefused.
  Status checkStateChange(std::string_view cookieValue, std::string_view presentedToken,
                          std::string_view origin, std::string_view referer,
                          const ClientContext& client);
  // For the sign-in forms (no session yet, so no token): whether the request's Origin (or
  // Referer) is the panel's own (csrf.h sameOrigin). The server refuses a sign-in POST otherwise
  // (login CSRF).
  bool fromPanelOrigin(std::string_view origin, std::string_view referer) const {
    return sameOrigin(origin, referer, options_.panelOrigin);
  }

  // Disables `personId`'s account and ends their sessions (audited "panel.account.disabled"); a new
  // invite enables it again. Needs kManageAccounts (an owner); a refusal is audited
  // ("panel.refused") and returned as kRefused. kNotFound when the person has no account.
  Status disableAccount(const PanelSession& by, std::string_view personId);

  // Whether the session's role allows `action`; a refusal is audited ("panel.refused") and
  // returned as kRefused with a line for the person.
  Status authorize(const PanelSession& session, PanelAction action);

  // Ends every session past its idle or absolute limit and drops expired codes; returns how many
  // sessions ended.
  Result<int> sweepExpired();

 private:
  struct Login;

  Result<Login> resolveLogin(std::string_view login);
  Result<SignInResult> finishSignIn(const Login& who, std::string_view method,
                                    const ClientContext& client, std::optional<std::string> newHash,
                                    const std::function<Result<std::string>(Database&)>& check,
                                    const char* refusedMessage);
  // A wait on the client's address or (when `who` is given) on the account, if any.
  std::optional<SignInResult> throttledFor(const Login* who, const ClientContext& client);
  SignInResult signedIn(const std::string& personId, PanelRole role, std::string_view method,
                        std::string cookieValue, TimePoint at);

  StoreRunner& store_;
  sms::mailbox::Outbox& outbox_;
  const Clock& clock_;
  PanelAuthOptions options_;
  SecureRandom random_;
  SecretBytes inviteKey_;
  SecretBytes codeKey_;
  std::string dummyHash_;  // verified against for unknown logins, so they take as long
  AddressThrottle addresses_;
};

}  // namespace atoms::panel
