#include "daemon/panel/panel_auth.h"

#include <sodium.h>

#include <algorithm>

#include "base/timestamp.h"
#include "base/unix_time.h"
#include "daemon/panel/invite.h"
#include "daemon/panel/panel_accounts.h"
#include "daemon/panel/sessions.h"
#include "daemon/panel/sign_in_code.h"
#include "sms/mailbox/message_checks.h"

namespace atoms::panel {
namespace {

using BatchWork = std::function<Status(Database&, AuditLog::Batch&)>;

// Runs `work` in one audit batch on the writer and commits when it returns ok.
Status inBatch(StoreRunner& store, const BatchWork& work) {
  return store.run([&](SiteStore& st) -> Status {
    auto batch = st.log().begin();
    if (!batch) return batch.error();
    if (Status s = work(st.db(), *batch); !s) return s;
    auto done = batch->commit();
    if (!done) return done.error();
    return Status::success();
  });
}

std::string actorFor(std::string_view personId) {
  return personId.empty() ? std::string("panel") : "panel:" + std::string(personId);
}

// Addresses come from the server; kept short and printable for the audit log.
std::string auditAddress(std::string_view address) {
  return sms::mailbox::sanitizeLine(address.empty() ? "unknown" : address, 64);
}

std::string minutesText(std::chrono::system_clock::duration d) {
  const auto minutes = std::max<std::int64_t>(
      1, std::chrono::duration_cast<std::chrono::minutes>(d + std::chrono::seconds(59)).count());
  return std::to_string(minutes) + (minutes == 1 ? " minute" : " minutes");
}

SignInResult signInRefusal(std::string message) {
  SignInResult r;
  r.outcome = SignInOutcome::kRefused;
  r.message = std::move(message);
  return r;
}

constexpr const char* kPasswordRefused = "sign-in failed: check your login and password";
constexpr const char* kCodeRefused = "that code did not work: check it, or ask for a new one";
constexpr std::chrono::minutes kTouchEvery{1};
constexpr int kSweepBatch = 200;

Result<std::optional<std::pair<std::string, std::string>>> findPerson(Database& db,
                                                                      std::string_view login) {
  auto stmt = db.cached("SELECT id, phone FROM site_person WHERE id = ? OR phone = ? LIMIT 1");
  if (!stmt) return stmt.error();
  stmt->bind(1, login).bind(2, login);
  auto row = stmt->step();
  if (!row) return row.error();
  if (!*row) return std::optional<std::pair<std::string, std::string>>();
  return std::optional<std::pair<std::string, std::string>>(
      std::make_pair(stmt->columnText(0), stmt->columnText(1)));
}

Result<std::string> storedSiteName(Database& db) {
  auto stmt = db.cached("SELECT name FROM site_info WHERE id = 1");
  if (!stmt) return stmt.error();
  auto row = stmt->step();
  if (!row) return row.error();
  return *row ? stmt->columnText(0) : std::string("this site");
}

}  // namespace

struct PanelAuth::Login {
  bool known = false;  // a person of the site
  std::string personId;
  std::string phone;
  std::string siteName;
  std::optional<PanelRole> role;
  std::optional<AccountRow> account;

  // Why this person cannot sign in at all; empty when they can (given the right secret).
  std::string barrier() const {
    if (!known) return "unknown_login";
    if (!role) return "no_role";
    if (!account || account->passwordHash.empty()) return "no_account";
    if (account->disabled) return "disabled";
    return {};
  }
};

Result<IssuedInvite> prepareInvite(Database& db, const SiteIdentity& identity,
                                   const std::vector<std::string>& owners,
                                   std::string_view personId, TimePoint now,
                                   std::chrono::hours validity) {
  auto person = findPerson(db, personId);
  if (!person) return person.error();
  if (!*person || (*person)->first != personId) {
    return makeError("no person '" + std::string(personId) + "' on the site", ErrorKind::kNotFound);
  }
  auto role = storedPanelRole(db, owners, personId);
  if (!role) return role.error();
  if (!*role) {
    return makeError("'" + std::string(personId) +
                         "' is not an owner, a manager of record or a shift lead: only they "
                         "get panel accounts",
                     ErrorKind::kRefused);
  }
  const SecretBytes key = derivedPanelKey(identity.signingSecret, "invite");
  Invite invite{std::string(personId), now, now + validity};
  return IssuedInvite{invite.personId, **role, issueInviteToken(key, invite), invite.expiresAt};
}

PanelAuth::PanelAuth(StoreRunner& store, sms::mailbox::Outbox& outbox, const Clock& clock,
                     const SiteIdentity& identity, PanelAuthOptions options, SecureRandom random)
    : store_(store),
      outbox_(outbox),
      clock_(clock),
      options_(std::move(options)),
      random_(std::move(random)),
      inviteKey_(derivedPanelKey(identity.signingSecret, "invite")),
      codeKey_(derivedPanelKey(identity.signingSecret, "sign-in code")) {
  std::array<std::uint8_t, 32> noise{};
  random_(noise);
  auto dummy = hashPassword(toBase64Url(noise), options_.passwordCost);
  if (dummy) dummyHash_ = std::move(*dummy);
}

Result<PanelAuth::Login> PanelAuth::resolveLogin(std::string_view login) {
  Login who;
  Status s = store_.run([&](SiteStore& st) -> Status {
    Database& db = st.db();
    auto person = findPerson(db, login);
    if (!person) return person.error();
    if (!*person) return Status::success();
    who.known = true;
    who.personId = (*person)->first;
    who.phone = (*person)->second;
    auto role = storedPanelRole(db, options_.owners, who.personId);
    if (!role) return role.error();
    who.role = *role;
    auto account = findAccount(db, who.personId);
    if (!account) return account.error();
    who.account = std::move(*account);
    auto name = storedSiteName(db);
    if (!name) return name.error();
    who.siteName = std::move(*name);
    return Status::success();
  });
  if (!s) return s.error();
  return who;
}

std::optional<SignInResult> PanelAuth::throttledFor(const Login* who, const ClientContext& client) {
  const TimePoint now = clock_.now();
  std::optional<TimePoint> until = addresses_.waitUntil(client.address, now);
  if (who != nullptr && who->account && who->account->nextTryAt > now) {
    until = std::max(until.value_or(TimePoint{}), who->account->nextTryAt);
  }
  if (!until) return std::nullopt;
  SignInResult r;
  r.outcome = SignInOutcome::kThrottled;
  r.retryAfter = until;
  r.message = "too many attempts: try again in " + minutesText(*until - now);
  return r;
}

SignInResult PanelAuth::signedIn(const std::string& personId, PanelRole role,
                                 std::string_view method, std::string cookieValue, TimePoint at) {
  SignInResult r;
  r.outcome = SignInOutcome::kSignedIn;
  r.message = "signed in";
  r.setCookie = sessionCookie(cookieValue);
  r.session = PanelSession{personId, role, std::string(method), csrfTokenFor(cookieValue), at};
  r.cookieValue = std::move(cookieValue);
  return r;
}

// One run for the outcome of an attempt: `check` (run first, inside the batch) returns the
// failure reason, or "" when the secret was right; then the session or the failure is recorded.
Result<SignInResult> PanelAuth::finishSignIn(
    const Login& who, std::string_view method, const ClientContext& client,
    std::optional<std::string> newHash, const std::function<Result<std::string>(Database&)>& check,
    const char* refusedMessage) {
  const TimePoint now = clock_.now();
  const std::string address = auditAddress(client.address);
  std::optional<SignInResult> result;
  bool failed = false;
  Status s = inBatch(store_, [&](Database& db, AuditLog::Batch& batch) -> Status {
    auto reason = check(db);
    if (!reason) return reason.error();
    if (reason->empty()) {
      if (Status st = saveFailures(db, who.personId, 0, TimePoint{}, now); !st) return st;
      if (newHash) {
        if (Status st = savePasswordHash(db, who.personId, *newHash, now); !st) return st;
      }
      if (auto old = sessionIdHash(client.currentCookieValue)) {
        if (auto gone = deleteSession(db, *old); !gone) return gone.error();
      }
      std::string value = newSessionValue(random_);
      const auto idHash = sessionIdHash(value);
      if (!idHash) return makeError("panel: a new session id did not read back");
      if (Status st =
              insertSession(db, SessionRow{*idHash, who.personId, std::string(method), now, now});
          !st) {
        return st;
      }
      if (Status st = batch.record(now, "panel.signin", actorFor(who.personId),
                                   json::Object{{"person", who.personId},
                                                {"role", panelRoleName(*who.role)},
                                                {"method", method},
                                                {"address", address}});
          !st) {
        return st;
      }
      result = signedIn(who.personId, *who.role, method, std::move(value), now);
      return Status::success();
    }
    failed = true;
    json::Object body{{"method", method}, {"reason", *reason}, {"address", address}};
    if (who.known) body["person"] = who.personId;
    if (who.account) {
      auto fresh = findAccount(db, who.personId);
      if (!fresh) return fresh.error();
      const int failures = (*fresh ? (*fresh)->failedCount : 0) + 1;
      const auto delay = throttleDelay(failures);
      const TimePoint nextTry = delay.count() > 0 ? now + delay : TimePoint{};
      if (Status st = saveFailures(db, who.personId, failures, nextTry, now); !st) return st;
      body["failures"] = failures;
      if (delay.count() > 0) {
        body["waitUntil"] = formatTimestamp(nextTry);
      }
    }
    result = signInRefusal(refusedMessage);
    return batch.record(now, "panel.signin.failed", actorFor(who.known ? who.personId : ""),
                        std::move(body));
  });
  if (!s) return s.error();
  if (failed) {
    addresses_.recordFailure(client.address, now);
  } else {
    addresses_.recordSuccess(client.address);
  }
  return std::move(*result);
}

Result<SignInResult> PanelAuth::signInWithPassword(std::string_view login,
                                                   std::string_view password,
                                                   const ClientContext& client) {
  auto who = resolveLogin(login);
  if (!who) return who.error();
  if (auto throttled = throttledFor(&*who, client)) return std::move(*throttled);
  const std::string barrier = who->barrier();
  // Unknown logins and accounts without a password take as long as a wrong password.
  const std::string& stored = barrier.empty() ? who->account->passwordHash : dummyHash_;
  const bool matches = verifyPassword(password, stored) && barrier.empty();
  std::optional<std::string> newHash;
  if (matches && needsRehash(stored, options_.passwordCost)) {
    auto rehashed = hashPassword(password, options_.passwordCost);
    if (rehashed) newHash = std::move(*rehashed);
  }
  const std::string reason = barrier.empty() ? (matches ? "" : "wrong_password") : barrier;
  return finishSignIn(
      *who, "password", client, std::move(newHash),
      [&](Database&) -> Result<std::string> { return reason; }, kPasswordRefused);
}

Status PanelAuth::startCodeSignIn(std::string_view login, const ClientContext& client) {
  auto who = resolveLogin(login);
  if (!who) return who.error();
  if (throttledFor(&*who, client)) return Status::success();
  const TimePoint now = clock_.now();
  const std::string address = auditAddress(client.address);
  std::string barrier = who->barrier();
  if (barrier.empty() && !sms::mailbox::isE164(who->phone)) barrier = "no_phone";
  if (!barrier.empty()) {
    addresses_.recordFailure(client.address, now);
    json::Object body{{"reason", barrier}, {"address", address}};
    if (who->known) body["person"] = who->personId;
    return inBatch(store_, [&](Database&, AuditLog::Batch& batch) -> Status {
      return batch.record(now, "panel.code.refused", actorFor(who->known ? who->personId : ""),
                          std::move(body));
    });
  }
  return inBatch(store_, [&](Database& db, AuditLog::Batch& batch) -> Status {
    auto current = findSignInCode(db, who->personId);
    if (!current) return current.error();
    if (*current && (*current)->expiresAt > now && now - (*current)->createdAt < kCodeResendAfter) {
      return Status::success();  // the last one is on its way
    }
    std::string code = newSignInCode(random_);
    CodeRow row{who->personId, signInCodeHash(codeKey_, who->personId, code), now,
                now + kCodeLifetime, 0};
    sms::mailbox::OutboundRequest request;
    request.id = "panel-code:" + who->personId + ":" + std::to_string(toUnixMillis(now));
    request.to = who->phone;
    request.body = signInCodeText(who->siteName, code);
    sodium_memzero(code.data(), code.size());
    // A reply in the person's own thread: a kill switch at L1 does not hold it, so a manager can
    // always sign in to lift it.
    request.messageClass = sms::mailbox::MessageClass::kReply;
    request.ref = "panel.signin";
    request.expiresAt = row.expiresAt;
    request.actor = actorFor(who->personId);
    if (Status s = saveSignInCode(db, row); !s) return s;
    auto queued = outbox_.enqueueIn(db, batch, request);
    sodium_memzero(request.body.data(), request.body.size());
    if (!queued) return queued.error();
    return batch.record(now, "panel.code.sent", actorFor(who->personId),
                        json::Object{{"person", who->personId},
                                     {"to", sms::mailbox::maskNumber(who->phone)},
                                     {"outbox", *queued},
                                     {"expires", formatTimestamp(row.expiresAt)},
                                     {"address", address}});
  });
}

Result<SignInResult> PanelAuth::signInWithCode(std::string_view login, std::string_view code,
                                               const ClientContext& client) {
  auto who = resolveLogin(login);
  if (!who) return who.error();
  if (auto throttled = throttledFor(&*who, client)) return std::move(*throttled);
  const std::string barrier = who->barrier();
  const TimePoint now = clock_.now();
  const std::string personId = who->personId;
  const std::string presented(code);
  return finishSignIn(
      *who, "code", client, std::nullopt,
      [&](Database& db) -> Result<std::string> {
        if (!barrier.empty()) return barrier;
        auto row = findSignInCode(db, personId);
        if (!row) return row.error();
        if (!*row) return std::string("no_code");
        if ((*row)->expiresAt <= now) {
          if (Status s = deleteSignInCode(db, personId); !s) return s.error();
          return std::string("code_expired");
        }
        const Hash32 h = signInCodeHash(codeKey_, personId, presented);
        const bool right = looksLikeSignInCode(presented) &&
                           sodium_memcmp(h.data(), (*row)->codeHash.data(), h.size()) == 0;
        if (right) {
          if (Status s = deleteSignInCode(db, personId); !s) return s.error();
          return std::string();
        }
        const int attempts = (*row)->attempts + 1;
        if (attempts >= kCodeAttempts) {
          if (Status s = deleteSignInCode(db, personId); !s) return s.error();
          return std::string("code_attempts_used");
        }
        if (Status s = countCodeAttempt(db, personId, attempts); !s) return s.error();
        return std::string("wrong_code");
      },
      kCodeRefused);
}

Result<IssuedInvite> PanelAuth::invite(const PanelSession& by, std::string_view personId) {
  const TimePoint now = clock_.now();
  std::optional<IssuedInvite> issued;
  std::optional<Error> refused;
  Status s = store_.run([&](SiteStore& st) -> Status {
    auto prepared = prepareInvite(st.db(), st.identity(), options_.owners, personId, now,
                                  options_.inviteValidity);
    if (!prepared) {
      if (prepared.kind() == ErrorKind::kOther) return prepared.error();
      refused = prepared.error();
      return Status::success();
    }
    auto batch = st.log().begin();
    if (!batch) return batch.error();
    const PanelAction action = inviteActionFor(prepared->role);
    if (!allows(by.role, action)) {
      refused = makeError("only an owner can invite a manager or an owner", ErrorKind::kRefused);
      if (Status r = batch->record(now, "panel.refused", actorFor(by.personId),
                                   json::Object{{"person", by.personId},
                                                {"role", panelRoleName(by.role)},
                                                {"action", panelActionName(action)},
                                                {"subject", std::string(personId)}});
          !r) {
        return r;
      }
    } else {
      if (Status r = batch->record(now, "panel.invite", actorFor(by.personId),
                                   json::Object{{"person", prepared->personId},
                                                {"role", panelRoleName(prepared->role)},
                                                {"by", by.personId},
                                                {"expires", formatTimestamp(prepared->expiresAt)}});
          !r) {
        return r;
      }
      issued = std::move(*prepared);
    }
    auto done = batch->commit();
    if (!done) return done.error();
    return Status::success();
  });
  if (!s) return s.error();
  if (refused) return *refused;
  return std::move(*issued);
}

Result<SignInResult> PanelAuth::acceptInvite(std::string_view token, std::string_view password,
                                             const ClientContext& client) {
  const TimePoint now = clock_.now();
  const std::string address = auditAddress(client.address);
  // Only the address can be waiting here: an invite cannot be guessed, so a guesser's wait on
  // the account must not keep its owner from a fresh invite (which clears that count).
  if (auto throttled = throttledFor(nullptr, client)) return std::move(*throttled);
  auto invite = readInviteToken(inviteKey_, token, now);
  if (!invite) {
    addresses_.recordFailure(client.address, now);
    Status s = inBatch(store_, [&](Database&, AuditLog::Batch& batch) -> Status {
      return batch.record(now, "panel.invite.refused", "panel",
                          json::Object{{"reason", invite.message()}, {"address", address}});
    });
    if (!s) return s.error();
    return signInRefusal(invite.message());
  }
  if (std::string problem = passwordProblem(password); !problem.empty()) {
    return signInRefusal(problem);
  }
  auto who = resolveLogin(invite->personId);
  if (!who) return who.error();
  auto hashed = hashPassword(password, options_.passwordCost);
  if (!hashed) return hashed.error();
  std::optional<SignInResult> result;
  Status s = inBatch(store_, [&](Database& db, AuditLog::Batch& batch) -> Status {
    std::string reason;
    auto account = findAccount(db, invite->personId);
    if (!account) return account.error();
    if (!who->known || !who->role) {
      reason = "no_role";
    } else if (*account && (*account)->passwordSetAt >= invite->issuedAt) {
      reason = "invite_spent";
    }
    if (!reason.empty()) {
      result = signInRefusal(reason == "no_role"
                                 ? "this account cannot use the panel: ask the site owner"
                                 : "this invite was already used: ask for a new one");
      return batch.record(
          now, "panel.invite.refused", actorFor(invite->personId),
          json::Object{{"person", invite->personId}, {"reason", reason}, {"address", address}});
    }
    AccountRow row;
    row.personId = invite->personId;
    row.passwordHash = *hashed;
    row.createdAt = *account ? (*account)->createdAt : now;
    row.updatedAt = now;
    row.passwordSetAt = now;
    if (Status st = saveAccount(db, row); !st) return st;
    // A new password ends every session the person had (a reset after a lost device).
    auto sessions = sessionsOf(db, invite->personId);
    if (!sessions) return sessions.error();
    for (const SessionRow& old : *sessions) {
      if (auto gone = deleteSession(db, old.idHash); !gone) return gone.error();
    }
    if (auto old = sessionIdHash(client.currentCookieValue)) {
      if (auto gone = deleteSession(db, *old); !gone) return gone.error();
    }
    if (Status st = batch.record(
            now, "panel.password.set", actorFor(invite->personId),
            json::Object{{"person", invite->personId},
                         {"role", panelRoleName(*who->role)},
                         {"invitedAt", formatTimestamp(invite->issuedAt)},
                         {"sessionsEnded", static_cast<std::int64_t>(sessions->size())},
                         {"address", address}});
        !st) {
      return st;
    }
    std::string value = newSessionValue(random_);
    const auto idHash = sessionIdHash(value);
    if (!idHash) return makeError("panel: a new session id did not read back");
    if (Status st = insertSession(db, SessionRow{*idHash, invite->personId, "password", now, now});
        !st) {
      return st;
    }
    if (Status st = batch.record(now, "panel.signin", actorFor(invite->personId),
                                 json::Object{{"person", invite->personId},
                                              {"role", panelRoleName(*who->role)},
                                              {"method", "invite"},
                                              {"address", address}});
        !st) {
      return st;
    }
    result = signedIn(invite->personId, *who->role, "password", std::move(value), now);
    return Status::success();
  });
  if (!s) return s.error();
  if (result->outcome == SignInOutcome::kSignedIn) addresses_.recordSuccess(client.address);
  return std::move(*result);
}

Result<std::optional<PanelSession>> PanelAuth::session(std::string_view cookieValue) {
  const auto idHash = sessionIdHash(cookieValue);
  if (!idHash) return std::optional<PanelSession>();
  const TimePoint now = clock_.now();
  std::optional<PanelSession> found;
  // Most lookups only read; a write (and its transaction) only to end a session or, once a
  // minute, to record that it is in use.
  Status s = store_.run([&](SiteStore& st) -> Status {
    Database& db = st.db();
    auto row = findSession(db, *idHash);
    if (!row) return row.error();
    if (!*row) return Status::success();
    const SessionRow& r = **row;
    std::string ended;
    const char* kind = "panel.session.expired";
    if (now - r.createdAt >= options_.sessionMax) {
      ended = "absolute";
    } else if (now - r.lastSeenAt >= options_.sessionIdle) {
      ended = "idle";
    }
    std::optional<PanelRole> role;
    if (ended.empty()) {
      auto stored = storedPanelRole(db, options_.owners, r.personId);
      if (!stored) return stored.error();
      role = *stored;
      if (!role) {
        ended = "no_role";
        kind = "panel.session.ended";
      }
    }
    if (ended.empty() && now - r.lastSeenAt < kTouchEvery) {
      found = PanelSession{r.personId, *role, r.method, csrfTokenFor(cookieValue), r.createdAt};
      return Status::success();
    }
    auto batch = st.log().begin();
    if (!batch) return batch.error();
    if (!ended.empty()) {
      if (auto gone = deleteSession(db, *idHash); !gone) return gone.error();
      if (Status st2 = batch->record(now, kind, actorFor(r.personId),
                                     json::Object{{"person", r.personId}, {"reason", ended}});
          !st2) {
        return st2;
      }
    } else {
      if (Status st2 = touchSession(db, *idHash, now); !st2) return st2;
    }
    auto done = batch->commit();
    if (!done) return done.error();
    if (ended.empty()) {
      found = PanelSession{r.personId, *role, r.method, csrfTokenFor(cookieValue), r.createdAt};
    }
    return Status::success();
  });
  if (!s) return s.error();
  return found;
}

Status PanelAuth::signOut(std::string_view cookieValue, const ClientContext& client) {
  const auto idHash = sessionIdHash(cookieValue);
  if (!idHash) return Status::success();
  const TimePoint now = clock_.now();
  const std::string address = auditAddress(client.address);
  return inBatch(store_, [&](Database& db, AuditLog::Batch& batch) -> Status {
    auto row = findSession(db, *idHash);
    if (!row) return row.error();
    if (!*row) return Status::success();
    if (auto gone = deleteSession(db, *idHash); !gone) return gone.error();
    return batch.record(now, "panel.signout", actorFor((*row)->personId),
                        json::Object{{"person", (*row)->personId}, {"address", address}});
  });
}

Status PanelAuth::checkStateChange(std::string_view cookieValue, std::string_view presentedToken,
                                   std::string_view origin, std::string_view referer,
                                   const ClientContext& client) {
  const CsrfVerdict verdict =
      checkCsrf(cookieValue, presentedToken, origin, referer, options_.panelOrigin);
  if (verdict == CsrfVerdict::kAllowed) return Status::success();
  const TimePoint now = clock_.now();
  const std::string address = auditAddress(client.address);
  Status s = inBatch(store_, [&](Database&, AuditLog::Batch& batch) -> Status {
    return batch.record(now, "panel.csrf.refused", "panel",
                        json::Object{{"reason", csrfVerdictName(verdict)},
                                     {"origin", sms::mailbox::sanitizeLine(origin, 200)},
                                     {"address", address}});
  });
  if (!s) return s;
  return makeError("this request did not come from the panel's own page: reload it and try again",
                   ErrorKind::kRefused);
}

Status PanelAuth::authorize(const PanelSession& session, PanelAction action) {
  if (allows(session.role, action)) return Status::success();
  const TimePoint now = clock_.now();
  const PanelRole needed = requiredRole(action);
  Status s = inBatch(store_, [&](Database&, AuditLog::Batch& batch) -> Status {
    return batch.record(now, "panel.refused", actorFor(session.personId),
                        json::Object{{"person", session.personId},
                                     {"role", panelRoleName(session.role)},
                                     {"action", panelActionName(action)},
                                     {"needs", panelRoleName(needed)}});
  });
  if (!s) return s;
  return makeError(needed == PanelRole::kOwner ? "only an owner of the site can do that"
                                               : "only a manager or an owner can do that",
                   ErrorKind::kRefused);
}

Status PanelAuth::disableAccount(const PanelSession& by, std::string_view personId) {
  if (Status allowed = authorize(by, PanelAction::kManageAccounts); !allowed) return allowed;
  const TimePoint now = clock_.now();
  bool missing = false;
  Status s = inBatch(store_, [&](Database& db, AuditLog::Batch& batch) -> Status {
    auto account = findAccount(db, personId);
    if (!account) return account.error();
    if (!*account) {
      missing = true;
      return Status::success();
    }
    AccountRow row = std::move(**account);
    row.disabled = true;
    row.updatedAt = now;
    if (Status st = saveAccount(db, row); !st) return st;
    auto sessions = sessionsOf(db, personId);
    if (!sessions) return sessions.error();
    for (const SessionRow& old : *sessions) {
      if (auto gone = deleteSession(db, old.idHash); !gone) return gone.error();
    }
    return batch.record(
        now, "panel.account.disabled", actorFor(by.personId),
        json::Object{{"person", std::string(personId)},
                     {"by", by.personId},
                     {"sessionsEnded", static_cast<std::int64_t>(sessions->size())}});
  });
  if (!s) return s;
  if (missing) {
    return makeError("'" + std::string(personId) + "' has no panel account", ErrorKind::kNotFound);
  }
  return Status::success();
}

Result<int> PanelAuth::sweepExpired() {
  const TimePoint now = clock_.now();
  int ended = 0;
  Status s = inBatch(store_, [&](Database& db, AuditLog::Batch& batch) -> Status {
    auto expired = expiredSessions(db, now - options_.sessionIdle, now - options_.sessionMax);
    if (!expired) return expired.error();
    for (const SessionRow& r : *expired) {
      if (ended == kSweepBatch) break;  // the next sweep takes the rest
      if (auto gone = deleteSession(db, r.idHash); !gone) return gone.error();
      const bool absolute = now - r.createdAt >= options_.sessionMax;
      if (Status st = batch.record(
              now, "panel.session.expired", actorFor(r.personId),
              json::Object{{"person", r.personId}, {"reason", absolute ? "absolute" : "idle"}});
          !st) {
        return st;
      }
      ++ended;
    }
    auto codes = db.cached("DELETE FROM panel_sign_in_code WHERE expires_at <= ?");
    if (!codes) return codes.error();
    codes->bindTime(1, now);
    return codes->run();
  });
  if (!s) return s.error();
  return ended;
}

}  // namespace atoms::panel
