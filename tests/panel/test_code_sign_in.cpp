// Sign-in by a texted code (PanelAuth::startCodeSignIn, signInWithCode): the text goes through the
// real outbox to the number on file; wrong, expired, used-up and reused codes are refused.
#include <boost/test/unit_test.hpp>
#include <chrono>

#include "sms/mailbox/message_checks.h"
#include "tests/panel/panel_fixture.h"
#include "tests/support/fields.h"

namespace atoms::panel {

using namespace std::chrono_literals;
using atoms::testing::field;
using testing::kCook;
using testing::kLead;
using testing::kLeadPhone;
using testing::PanelFixture;

namespace {

SignInResult codeAttempt(PanelFixture& f, const std::string& code) {
  auto r = f.auth->signInWithCode(kLead, code, f.client);
  BOOST_TEST_REQUIRE(r.ok(), r.message());
  return std::move(*r);
}

std::string wrongCode(const std::string& right) { return right == "000000" ? "000001" : "000000"; }

}  // namespace

BOOST_AUTO_TEST_SUITE(code_sign_in)

BOOST_AUTO_TEST_CASE(theCodeIsTextedThroughTheOutboxAndSignsInOnce) {
  PanelFixture f;
  f.enroll(kLead);
  BOOST_TEST_REQUIRE(f.auth->startCodeSignIn(kLead, f.client).ok());

  const auto rows = f.outboxRows();
  BOOST_TEST_REQUIRE(rows.size() == 1u);
  const sms::mailbox::OutboxRow& row = rows[0];
  BOOST_TEST(row.to == kLeadPhone);
  BOOST_TEST((row.messageClass == sms::mailbox::MessageClass::kReply));
  BOOST_TEST(row.id.rfind("panel-code:p-leo:", 0) == 0u);
  BOOST_TEST_REQUIRE(row.expiresAt.has_value());
  BOOST_TEST((*row.expiresAt == f.clock.now() + 10min));
  const std::string code = f.lastTextedCode();
  BOOST_TEST(row.body == "Your sign-in code for the Bistro Maree panel is " + code +
                             ". It works for 10 minutes. If you did not ask for it, do not share "
                             "it, and tell your manager or the site owner in person or by phone.");
  // The text names nobody but the site.
  BOOST_TEST(row.body.find("Leo") == std::string::npos);
  BOOST_TEST(row.body.find("Maya") == std::string::npos);

  const SignInResult in = codeAttempt(f, code);
  BOOST_TEST_REQUIRE((in.outcome == SignInOutcome::kSignedIn), in.message);
  BOOST_TEST(in.session.method == "code");
  // Spent: the same code again is refused.
  BOOST_TEST((codeAttempt(f, code).outcome == SignInOutcome::kRefused));

  const auto sent = f.entries("panel.code.sent");
  BOOST_TEST_REQUIRE(sent.size() == 1u);
  BOOST_TEST(field(sent[0], "to") == sms::mailbox::maskNumber(kLeadPhone));
  const auto signins = f.entries("panel.signin");
  BOOST_TEST(field(signins.back(), "method") == "code");
  const std::string log = f.allEntryTexts();
  BOOST_TEST(log.find(code) == std::string::npos);
  BOOST_TEST(log.find(kLeadPhone) == std::string::npos);
  BOOST_TEST(f.queryText("SELECT count(*) FROM panel_sign_in_code") == "0");
}

BOOST_AUTO_TEST_CASE(aWrongCodeIsRefusedAndTheRightOneStillWorks) {
  PanelFixture f;
  f.enroll(kLead);
  BOOST_TEST_REQUIRE(f.auth->startCodeSignIn(kLead, f.client).ok());
  const std::string code = f.lastTextedCode();
  const SignInResult wrong = codeAttempt(f, wrongCode(code));
  BOOST_TEST((wrong.outcome == SignInOutcome::kRefused));
  BOOST_TEST(wrong.message == "that code did not work: check it, or ask for a new one");
  BOOST_TEST((codeAttempt(f, "12ab56").outcome == SignInOutcome::kRefused));
  BOOST_TEST((codeAttempt(f, code).outcome == SignInOutcome::kSignedIn));
  const auto failed = f.entries("panel.signin.failed");
  BOOST_TEST_REQUIRE(failed.size() == 2u);
  BOOST_TEST(field(failed[0], "reason") == "wrong_code");
}

BOOST_AUTO_TEST_CASE(aCodeExpiresAfterTenMinutes) {
  PanelFixture f;
  f.enroll(kLead);
  BOOST_TEST_REQUIRE(f.auth->startCodeSignIn(kLead, f.client).ok());
  const std::string code = f.lastTextedCode();
  f.clock.advance(10min);
  BOOST_TEST((codeAttempt(f, code).outcome == SignInOutcome::kRefused));
  BOOST_TEST(field(f.entries("panel.signin.failed").back(), "reason") == "code_expired");
}

BOOST_AUTO_TEST_CASE(fiveWrongEntriesUseTheCodeUp) {
  PanelFixture f;
  f.enroll(kLead);
  BOOST_TEST_REQUIRE(f.auth->startCodeSignIn(kLead, f.client).ok());
  const std::string code = f.lastTextedCode();
  for (int i = 0; i < 5; ++i) {
    f.client.address = "192.0.2." + std::to_string(40 + i);  // the account throttle aside
    BOOST_TEST((codeAttempt(f, wrongCode(code)).outcome == SignInOutcome::kRefused));
  }
  BOOST_TEST(field(f.entries("panel.signin.failed").back(), "reason") == "code_attempts_used");
  f.clock.advance(1min);  // past the account's first wait
  f.client.address = "192.0.2.50";
  BOOST_TEST((codeAttempt(f, code).outcome == SignInOutcome::kRefused));
  BOOST_TEST(field(f.entries("panel.signin.failed").back(), "reason") == "no_code");
}

BOOST_AUTO_TEST_CASE(oneCodeAtATimeAndNoSecondTextWithinAMinute) {
  PanelFixture f;
  f.enroll(kLead);
  BOOST_TEST_REQUIRE(f.auth->startCodeSignIn(kLead, f.client).ok());
  const std::string first = f.lastTextedCode();
  BOOST_TEST_REQUIRE(f.auth->startCodeSignIn(kLead, f.client).ok());
  BOOST_TEST(f.outboxRows().size() == 1u);
  f.clock.advance(1min);
  BOOST_TEST_REQUIRE(f.auth->startCodeSignIn(kLead, f.client).ok());
  BOOST_TEST_REQUIRE(f.outboxRows().size() == 2u);
  const std::string second = f.lastTextedCode();
  if (first != second) {
    BOOST_TEST((codeAttempt(f, first).outcome == SignInOutcome::kRefused));
  }
  BOOST_TEST((codeAttempt(f, second).outcome == SignInOutcome::kSignedIn));
}

BOOST_AUTO_TEST_CASE(noTextForPeopleWithoutAnAccountOrARole) {
  PanelFixture f;
  // kLead has a role but no account yet; kCook has no role; the third is nobody.
  for (const char* login : {kLead, kCook, "p-nobody"}) {
    BOOST_TEST_REQUIRE(f.auth->startCodeSignIn(login, f.client).ok());
  }
  BOOST_TEST(f.outboxRows().empty());
  const auto refused = f.entries("panel.code.refused");
  BOOST_TEST_REQUIRE(refused.size() == 3u);
  BOOST_TEST(field(refused[0], "reason") == "no_account");
  BOOST_TEST(field(refused[1], "reason") == "no_role");
  BOOST_TEST(field(refused[2], "reason") == "unknown_login");
  BOOST_TEST(f.allEntryTexts().find("p-nobody") == std::string::npos);
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace atoms::panel
