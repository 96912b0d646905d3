// Roles (daemon/panel/panel_roles.h, PanelAuth::authorize and invite): owner ⊇ manager ⊇ lead,
// taken from policy.owners and the site; nobody else gets an account.
#include <boost/test/unit_test.hpp>

#include "domain/site/site_repository.h"
#include "tests/panel/panel_fixture.h"
#include "tests/support/fields.h"

namespace atoms::panel {

using atoms::testing::field;
using testing::kCook;
using testing::kLead;
using testing::kManager;
using testing::kOwner;
using testing::PanelFixture;

BOOST_AUTO_TEST_SUITE(roles)

BOOST_AUTO_TEST_CASE(eachRoleHoldsEverythingOfTheOneBelow) {
  for (PanelAction a :
       {PanelAction::kViewBoard, PanelAction::kAcknowledgeAlert, PanelAction::kViewAuditLog,
        PanelAction::kApprove, PanelAction::kEditSchedule, PanelAction::kFreezeOutreach,
        PanelAction::kInviteLead, PanelAction::kStopSite, PanelAction::kInviteManager,
        PanelAction::kManageAccounts, PanelAction::kChangePolicy}) {
    if (allows(PanelRole::kLead, a)) BOOST_TEST(allows(PanelRole::kManager, a));
    if (allows(PanelRole::kManager, a)) BOOST_TEST(allows(PanelRole::kOwner, a));
    BOOST_TEST(allows(PanelRole::kOwner, a), panelActionName(a));
  }
  BOOST_TEST(allows(PanelRole::kLead, PanelAction::kViewBoard));
  BOOST_TEST(!allows(PanelRole::kLead, PanelAction::kApprove));
  BOOST_TEST(!allows(PanelRole::kManager, PanelAction::kStopSite));
}

BOOST_AUTO_TEST_CASE(rolesComeFromTheOwnersListAndTheSite) {
  PanelFixture f;
  const std::vector<std::string> owners = {kOwner};
  auto role = [&](const char* id) {
    auto r = storedPanelRole(f.store->db(), owners, id);
    BOOST_TEST_REQUIRE(r.ok(), r.message());
    return *r;
  };
  BOOST_TEST((role(kOwner) == PanelRole::kOwner));
  BOOST_TEST((role(kManager) == PanelRole::kManager));
  BOOST_TEST((role(kLead) == PanelRole::kLead));
  BOOST_TEST(!role(kCook).has_value());
  BOOST_TEST(!role("p-nobody").has_value());
  // The model-based lookup agrees.
  auto model = site::loadSite(f.store->db());
  BOOST_TEST_REQUIRE(model.ok());
  for (const char* id : {kOwner, kManager, kLead, kCook, "p-nobody"}) {
    BOOST_TEST((panelRoleOf(*model, owners, id) == role(id)), id);
  }
}

BOOST_AUTO_TEST_CASE(aLeadCannotReachAnOwnersActionAndTheAttemptIsAudited) {
  PanelFixture f;
  const SignInResult lead = f.enroll(kLead);
  BOOST_TEST(f.auth->authorize(lead.session, PanelAction::kViewBoard).ok());
  Status stop = f.auth->authorize(lead.session, PanelAction::kStopSite);
  BOOST_TEST(!stop.ok());
  BOOST_TEST((stop.kind() == ErrorKind::kRefused));
  BOOST_TEST(stop.message() == "only an owner of the site can do that");
  Status approve = f.auth->authorize(lead.session, PanelAction::kApprove);
  BOOST_TEST(!approve.ok());
  const auto refused = f.entries("panel.refused");
  BOOST_TEST_REQUIRE(refused.size() == 2u);
  BOOST_TEST(field(refused[0], "person") == kLead);
  BOOST_TEST(field(refused[0], "action") == "stop_site");
  BOOST_TEST(field(refused[0], "needs") == "owner");

  const SignInResult owner = f.enroll(kOwner);
  BOOST_TEST(f.auth->authorize(owner.session, PanelAction::kStopSite).ok());
}

BOOST_AUTO_TEST_CASE(peopleWithoutAPanelRoleCannotBeInvited) {
  PanelFixture f;
  auto cook = prepareInvite(f.store->db(), f.store->identity(), f.options.owners, kCook,
                            f.clock.now(), f.options.inviteValidity);
  BOOST_TEST(!cook.ok());
  BOOST_TEST((cook.kind() == ErrorKind::kRefused));
  auto nobody = prepareInvite(f.store->db(), f.store->identity(), f.options.owners, "p-nobody",
                              f.clock.now(), f.options.inviteValidity);
  BOOST_TEST((nobody.kind() == ErrorKind::kNotFound));
}

BOOST_AUTO_TEST_CASE(aManagerInvitesLeadsAndOnlyAnOwnerInvitesManagers) {
  PanelFixture f;
  const SignInResult manager = f.enroll(kManager);
  auto lead = f.auth->invite(manager.session, kLead);
  BOOST_TEST_REQUIRE(lead.ok(), lead.message());
  BOOST_TEST((lead->role == PanelRole::kLead));
  auto peer = f.auth->invite(manager.session, kManager);
  BOOST_TEST((peer.kind() == ErrorKind::kRefused));
  auto cook = f.auth->invite(manager.session, kCook);
  BOOST_TEST((cook.kind() == ErrorKind::kRefused));
  const SignInResult owner = f.enroll(kOwner);
  BOOST_TEST(f.auth->invite(owner.session, kManager).ok());

  const auto invites = f.entries("panel.invite");
  BOOST_TEST_REQUIRE(invites.size() == 2u);
  BOOST_TEST(field(invites[0], "person") == kLead);
  BOOST_TEST(field(invites[0], "by") == kManager);
  BOOST_TEST(f.entries("panel.refused").size() == 1u);
  BOOST_TEST(f.allEntryTexts().find(lead->token) == std::string::npos);
  // The panel's invite works like the command's.
  auto accepted = f.auth->acceptInvite(lead->token, "a lead's own password", f.client);
  BOOST_TEST_REQUIRE(accepted.ok());
  BOOST_TEST((accepted->outcome == SignInOutcome::kSignedIn));
}

BOOST_AUTO_TEST_CASE(aPersonWhoLosesTheirRoleLosesTheirSession) {
  PanelFixture f;
  const SignInResult lead = f.enroll(kLead);
  // The site is imported again with Leo no longer on the lead station.
  auto model = site::loadSite(f.store->db());
  BOOST_TEST_REQUIRE(model.ok());
  for (site::Person& p : model->people) {
    if (p.id == kLead) p.roles = {"line"};
  }
  BOOST_TEST_REQUIRE(site::importSite(f.store->db(), *model).ok());
  auto s = f.auth->session(lead.cookieValue);
  BOOST_TEST_REQUIRE(s.ok());
  BOOST_TEST(!s->has_value());
  const auto ended = f.entries("panel.session.ended");
  BOOST_TEST_REQUIRE(ended.size() == 1u);
  BOOST_TEST(field(ended[0], "reason") == "no_role");
  auto again = f.auth->signInWithPassword(kLead, testing::kPassword, f.client);
  BOOST_TEST_REQUIRE(again.ok());
  BOOST_TEST((again->outcome == SignInOutcome::kRefused));
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace atoms::panel

namespace atoms::panel {

BOOST_AUTO_TEST_SUITE(accounts)

BOOST_AUTO_TEST_CASE(anOwnerDisablesAnAccountAndItsSessionsEndUntilANewInvite) {
  testing::PanelFixture f;
  const SignInResult lead = f.enroll(testing::kLead);
  const SignInResult manager = f.enroll(testing::kManager);
  // A manager may not.
  Status byManager = f.auth->disableAccount(manager.session, testing::kLead);
  BOOST_TEST((byManager.kind() == ErrorKind::kRefused));
  const SignInResult owner = f.enroll(testing::kOwner);
  BOOST_TEST_REQUIRE(f.auth->disableAccount(owner.session, testing::kLead).ok());
  auto s = f.auth->session(lead.cookieValue);
  BOOST_TEST_REQUIRE(s.ok());
  BOOST_TEST(!s->has_value());
  auto again = f.auth->signInWithPassword(testing::kLead, testing::kPassword, f.client);
  BOOST_TEST_REQUIRE(again.ok());
  BOOST_TEST((again->outcome == SignInOutcome::kRefused));
  BOOST_TEST(atoms::testing::field(f.entries("panel.signin.failed").back(), "reason") ==
             "disabled");
  const auto disabled = f.entries("panel.account.disabled");
  BOOST_TEST_REQUIRE(disabled.size() == 1u);
  BOOST_TEST(atoms::testing::field(disabled[0], "by") == testing::kOwner);
  BOOST_TEST(
      (f.auth->disableAccount(owner.session, testing::kCook).kind() == ErrorKind::kNotFound));
  f.clock.advance(std::chrono::minutes(1));
  f.enroll(testing::kLead);  // a new invite enables it again
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace atoms::panel
