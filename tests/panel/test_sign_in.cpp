// Invites and password sign-in (PanelAuth::acceptInvite, signInWithPassword): the whole path from
// an invite to a session, spent and forged invites, wrong passwords throttled per account and per
// address and the wait lifting on the simulated clock, and what the audit log keeps (no secret).
#include <boost/test/unit_test.hpp>
#include <chrono>

#include "daemon/panel/invite.h"
#include "daemon/panel/panel_secrets.h"
#include "tests/panel/panel_fixture.h"
#include "tests/support/fields.h"

namespace atoms::panel {

using namespace std::chrono_literals;
using atoms::testing::field;
using atoms::testing::intField;
using testing::kLead;
using testing::kLeadPhone;
using testing::kManager;
using testing::kPassword;
using testing::PanelFixture;

namespace {

IssuedInvite inviteFor(PanelFixture& f, const std::string& person) {
  auto invite = prepareInvite(f.store->db(), f.store->identity(), f.options.owners, person,
                              f.clock.now(), f.options.inviteValidity);
  BOOST_TEST_REQUIRE(invite.ok(), invite.message());
  return std::move(*invite);
}

SignInResult passwordAttempt(PanelFixture& f, const std::string& login,
                             const std::string& password) {
  auto r = f.auth->signInWithPassword(login, password, f.client);
  BOOST_TEST_REQUIRE(r.ok(), r.message());
  return std::move(*r);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(sign_in)

BOOST_AUTO_TEST_CASE(anInviteSetsThePasswordAndThenThePasswordSignsIn) {
  PanelFixture f;
  const IssuedInvite invite = inviteFor(f, kLead);
  BOOST_TEST((invite.role == PanelRole::kLead));
  BOOST_TEST((invite.expiresAt == f.clock.now() + 72h));

  // Before the invite is used there is no account: the password means nothing yet.
  BOOST_TEST((passwordAttempt(f, kLead, kPassword).outcome == SignInOutcome::kRefused));

  auto accepted = f.auth->acceptInvite(invite.token, kPassword, f.client);
  BOOST_TEST_REQUIRE(accepted.ok(), accepted.message());
  BOOST_TEST_REQUIRE((accepted->outcome == SignInOutcome::kSignedIn), accepted->message);
  BOOST_TEST(accepted->session.personId == kLead);

  // By person id and by the phone number on file.
  BOOST_TEST((passwordAttempt(f, kLead, kPassword).outcome == SignInOutcome::kSignedIn));
  BOOST_TEST((passwordAttempt(f, kLeadPhone, kPassword).outcome == SignInOutcome::kSignedIn));
  const SignInResult wrong = passwordAttempt(f, kLead, "correct horse battery!");
  BOOST_TEST((wrong.outcome == SignInOutcome::kRefused));
  BOOST_TEST(wrong.cookieValue.empty());

  const std::string hash = f.queryText("SELECT password_hash FROM panel_account");
  BOOST_TEST(hash.rfind("$argon2id$", 0) == 0u);

  const auto set = f.entries("panel.password.set");
  BOOST_TEST_REQUIRE(set.size() == 1u);
  BOOST_TEST(field(set[0], "person") == kLead);
  BOOST_TEST(field(set[0], "role") == "lead");
  BOOST_TEST(f.entries("panel.signin").size() == 3u);
  const auto failed = f.entries("panel.signin.failed");
  BOOST_TEST_REQUIRE(failed.size() == 2u);
  BOOST_TEST(field(failed[0], "reason") == "no_account");
  BOOST_TEST(field(failed[1], "reason") == "wrong_password");

  const std::string log = f.allEntryTexts();
  BOOST_TEST(log.find(kPassword) == std::string::npos);
  BOOST_TEST(log.find(invite.token) == std::string::npos);
  BOOST_TEST(log.find(hash) == std::string::npos);
  BOOST_TEST(log.find(accepted->cookieValue) == std::string::npos);
}

BOOST_AUTO_TEST_CASE(anInviteWorksOnceAndANewerOneSpendsOlderOnes) {
  PanelFixture f;
  const IssuedInvite older = inviteFor(f, kLead);
  f.clock.advance(1min);
  const IssuedInvite newer = inviteFor(f, kLead);
  f.clock.advance(1min);
  auto first = f.auth->acceptInvite(newer.token, kPassword, f.client);
  BOOST_TEST_REQUIRE(first.ok());
  BOOST_TEST((first->outcome == SignInOutcome::kSignedIn));
  for (const IssuedInvite* spent : {&newer, &older}) {
    auto again = f.auth->acceptInvite(spent->token, "another password 2", f.client);
    BOOST_TEST_REQUIRE(again.ok());
    BOOST_TEST((again->outcome == SignInOutcome::kRefused));
    BOOST_TEST(again->message == "this invite was already used: ask for a new one");
  }
  // The password set first still holds.
  BOOST_TEST((passwordAttempt(f, kLead, kPassword).outcome == SignInOutcome::kSignedIn));
  BOOST_TEST(f.entries("panel.invite.refused").size() == 2u);
}

BOOST_AUTO_TEST_CASE(aNewPasswordByInviteEndsThePersonsOtherSessions) {
  PanelFixture f;
  const SignInResult before = f.enroll(kLead);
  f.clock.advance(1min);
  f.enroll(kLead, "a brand new password");
  auto old = f.auth->session(before.cookieValue);
  BOOST_TEST_REQUIRE(old.ok());
  BOOST_TEST(!old->has_value());
  BOOST_TEST((passwordAttempt(f, kLead, kPassword).outcome == SignInOutcome::kRefused));
}

BOOST_AUTO_TEST_CASE(expiredForgedOrOtherBoxesInvitesAreRefused) {
  PanelFixture f;
  const IssuedInvite invite = inviteFor(f, kLead);
  // Altered: the person id swapped for the owner's.
  const std::string forged =
      toBase64Url(asBytes(std::string(testing::kOwner) + "\n0\n99999999999999")) +
      invite.token.substr(invite.token.find('.'));
  // Made with another key (another box's site key).
  SecretBytes otherKey(32);
  const std::string foreign =
      issueInviteToken(otherKey, Invite{kLead, f.clock.now(), f.clock.now() + 72h});
  for (const std::string& token : {forged, foreign, std::string("garbage"), std::string()}) {
    auto r = f.auth->acceptInvite(token, kPassword, f.client);
    BOOST_TEST_REQUIRE(r.ok());
    BOOST_TEST((r->outcome == SignInOutcome::kRefused));
    BOOST_TEST(r->message == "this invite code is not valid");
  }
  f.clock.advance(72h);
  auto late = f.auth->acceptInvite(invite.token, kPassword, f.client);
  BOOST_TEST_REQUIRE(late.ok());
  BOOST_TEST(late->message == "this invite has expired: ask for a new one");
  BOOST_TEST(f.queryInt("SELECT count(*) FROM panel_account") == 0);
}

BOOST_AUTO_TEST_CASE(aWeakPasswordIsRefusedAndLeavesTheInviteUsable) {
  PanelFixture f;
  const IssuedInvite invite = inviteFor(f, kLead);
  auto weak = f.auth->acceptInvite(invite.token, "short", f.client);
  BOOST_TEST_REQUIRE(weak.ok());
  BOOST_TEST((weak->outcome == SignInOutcome::kRefused));
  BOOST_TEST(weak->message.find("at least 10") != std::string::npos);
  auto good = f.auth->acceptInvite(invite.token, kPassword, f.client);
  BOOST_TEST_REQUIRE(good.ok());
  BOOST_TEST((good->outcome == SignInOutcome::kSignedIn));
}

BOOST_AUTO_TEST_CASE(wrongPasswordsAreThrottledPerAccountAndTheWaitLifts) {
  PanelFixture f;
  f.enroll(kLead);
  // Four free failures, each from another address (so only the account counts).
  for (int i = 0; i < 4; ++i) {
    f.client.address = "192.0.2." + std::to_string(20 + i);
    BOOST_TEST((passwordAttempt(f, kLead, "not the password").outcome == SignInOutcome::kRefused));
  }
  f.client.address = "192.0.2.30";
  BOOST_TEST((passwordAttempt(f, kLead, "not the password").outcome == SignInOutcome::kRefused));
  const auto fifth = f.entries("panel.signin.failed").back();
  BOOST_TEST(intField(fifth.body, "failures") == 5);
  BOOST_TEST(!field(fifth.body, "waitUntil").empty());

  // Now even the right password waits, from any address, and is not checked.
  f.client.address = "192.0.2.31";
  const SignInResult held = passwordAttempt(f, kLead, kPassword);
  BOOST_TEST((held.outcome == SignInOutcome::kThrottled));
  BOOST_TEST((held.retryAfter == f.clock.now() + 1min));
  BOOST_TEST(held.message == "too many attempts: try again in 1 minute");

  f.clock.advance(1min);
  // One more failure doubles the wait.
  BOOST_TEST((passwordAttempt(f, kLead, "still not it").outcome == SignInOutcome::kRefused));
  const SignInResult longer = passwordAttempt(f, kLead, kPassword);
  BOOST_TEST((longer.outcome == SignInOutcome::kThrottled));
  BOOST_TEST((longer.retryAfter == f.clock.now() + 2min));

  f.clock.advance(2min);
  BOOST_TEST((passwordAttempt(f, kLead, kPassword).outcome == SignInOutcome::kSignedIn));
  BOOST_TEST(f.queryInt("SELECT failed_count FROM panel_account") == 0);
}

BOOST_AUTO_TEST_CASE(oneAddressGuessingManyLoginsIsThrottled) {
  PanelFixture f;
  f.enroll(kLead);
  const std::vector<std::string> guesses = {"p-ana", "p-bob", "+14155550199", "admin", "root"};
  for (const std::string& login : guesses) {
    BOOST_TEST((passwordAttempt(f, login, "password123").outcome == SignInOutcome::kRefused));
  }
  const SignInResult held = passwordAttempt(f, kLead, kPassword);
  BOOST_TEST((held.outcome == SignInOutcome::kThrottled));
  // Another address is not held up by this one.
  f.client.address = "192.0.2.99";
  BOOST_TEST((passwordAttempt(f, kLead, kPassword).outcome == SignInOutcome::kSignedIn));
  // Unknown logins are recorded without the login (people type passwords there).
  const std::string log = f.allEntryTexts();
  for (const std::string& login : guesses) BOOST_TEST(log.find(login) == std::string::npos);
  BOOST_TEST(field(f.entries("panel.signin.failed").front(), "reason") == "unknown_login");
  f.clock.advance(1min);
  f.client.address = "192.0.2.10";
  BOOST_TEST((passwordAttempt(f, kLead, kPassword).outcome == SignInOutcome::kSignedIn));
}

BOOST_AUTO_TEST_CASE(aPasswordHashedAtAnOlderCostIsRehashedAtSignIn) {
  PanelFixture f;
  f.enroll(kLead);
  // The box now wants the interactive cost; the stored hash has the minimum.
  PanelAuthOptions stronger = f.options;
  stronger.passwordCost = interactiveCost();
  PanelAuth auth(*f.runner, *f.outbox, f.clock, f.store->identity(), stronger);
  const std::string before = f.queryText("SELECT password_hash FROM panel_account");
  BOOST_TEST(needsRehash(before));
  auto r = auth.signInWithPassword(kLead, kPassword, f.client);
  BOOST_TEST_REQUIRE(r.ok());
  BOOST_TEST((r->outcome == SignInOutcome::kSignedIn));
  const std::string after = f.queryText("SELECT password_hash FROM panel_account");
  BOOST_TEST(after != before);
  BOOST_TEST(!needsRehash(after));
  BOOST_TEST(verifyPassword(kPassword, after));
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace atoms::panel

namespace atoms::panel {

BOOST_AUTO_TEST_SUITE(sign_in_invites)

BOOST_AUTO_TEST_CASE(aFreshInviteIsNotHeldUpByAGuessersWaitOnTheAccount) {
  testing::PanelFixture f;
  f.enroll(testing::kLead);
  f.client.address = "198.51.100.7";  // the guesser
  for (int i = 0; i < 6; ++i) {
    auto r = f.auth->signInWithPassword(testing::kLead, "guess " + std::to_string(i), f.client);
    BOOST_TEST_REQUIRE(r.ok());
  }
  f.clock.advance(std::chrono::seconds(10));
  f.client.address = "192.0.2.10";  // the lead, at the office, with a new invite
  auto invite = prepareInvite(f.store->db(), f.store->identity(), f.options.owners, testing::kLead,
                              f.clock.now(), f.options.inviteValidity);
  BOOST_TEST_REQUIRE(invite.ok());
  auto accepted = f.auth->acceptInvite(invite->token, "a new password for leo", f.client);
  BOOST_TEST_REQUIRE(accepted.ok());
  BOOST_TEST((accepted->outcome == SignInOutcome::kSignedIn), accepted->message);
  BOOST_TEST(f.queryInt("SELECT failed_count FROM panel_account") == 0);
}

BOOST_AUTO_TEST_CASE(anAddressSendingBadInvitesIsMadeToWait) {
  testing::PanelFixture f;
  for (int i = 0; i < 5; ++i) {
    auto r = f.auth->acceptInvite("bogus." + std::to_string(i), testing::kPassword, f.client);
    BOOST_TEST_REQUIRE(r.ok());
    BOOST_TEST((r->outcome == SignInOutcome::kRefused));
  }
  auto held = f.auth->acceptInvite("bogus.6", testing::kPassword, f.client);
  BOOST_TEST_REQUIRE(held.ok());
  BOOST_TEST((held->outcome == SignInOutcome::kThrottled));
  BOOST_TEST(f.entries("panel.invite.refused").size() == 5u);  // the waits are not recorded
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace atoms::panel
