// What approving an intraday proposal does (domain/forecast/proposal_desk.h, issue 19 item 6), on
// the call-out fixture's restaurant with the real labor rules, gate and SMS layer: an approved add
// puts an extra shift on today's schedule and searches for someone to take it; an approved cut
// lets the person finish early, with the change engine's premium recorded and a kind text; a cut
// the schedule has moved past is refused and changes nothing; a proposal past its life lapses.
#include <boost/test/unit_test.hpp>
#include <chrono>
#include <string>

#include "domain/forecast/early_release.h"
#include "domain/forecast/intraday_proposals.h"
#include "domain/forecast/proposal_desk.h"
#include "tests/callout/callout_fixture.h"

namespace atoms::callout::testing {
namespace {

namespace chr = std::chrono;

struct IntradayFixture : CalloutFixture {
  IntradayFixture() : proposals(*desk, *runner) {}

  forecast::IntradaySignal signal(forecast::IntradayKind kind) const {
    forecast::IntradaySignal s;
    s.station = "line";
    s.kind = kind;
    s.measure = forecast::Measure::kCovers;
    s.windowStart = site->zone().toLocal(site::toInstant(now())) - chr::hours(1);
    s.windowEnd = s.windowStart + chr::hours(1);
    s.actual = kind == forecast::IntradayKind::kAdd ? 38 : 10;
    s.forecast = 25;
    return s;
  }

  // Files a proposal now (a cut quoted over the fixture's schedule); returns its id.
  std::int64_t file(forecast::IntradayKind kind) {
    std::optional<forecast::EarlyRelease> release;
    const site::Instant instant = site::toInstant(now());
    if (kind == forecast::IntradayKind::kCut) {
      auto quoted = forecast::quoteEarlyRelease(site->changes(), site->model(), site->zone(),
                                                "line", 0, instant);
      BOOST_TEST_REQUIRE(quoted.ok(), quoted.message());
      BOOST_TEST_REQUIRE(quoted->has_value());
      release = **quoted;
    }
    const auto day = chr::floor<chr::days>(site->zone().toLocal(instant));
    auto filed = forecast::fileProposal(*store, day, signal(kind), release, "summary", now());
    BOOST_TEST_REQUIRE(filed.ok(), filed.message());
    BOOST_TEST_REQUIRE(filed->has_value());
    return (*filed)->id;
  }

  // site_shift's end (local, "HH:MM") and assignee of `shiftId`, as stored.
  std::string storedEnd(const std::string& shiftId) {
    auto s = store->db().prepare("SELECT end_local FROM site_shift WHERE id = ?");
    BOOST_TEST_REQUIRE(s.ok(), s.message());
    s->bind(1, shiftId);
    auto row = s->step();
    BOOST_TEST_REQUIRE((row.ok() && *row));
    const auto local = chr::local_seconds(chr::seconds(s->columnInt64(0)));
    const auto minutes = chr::floor<chr::minutes>(local - chr::floor<chr::days>(local)).count();
    const auto two = [](long long n) { return std::string(n < 10 ? "0" : "") + std::to_string(n); };
    return two(minutes / 60) + ":" + two(minutes % 60);
  }

  forecast::ProposalState storedState(std::int64_t id) {
    auto p = forecast::proposalById(store->db(), id);
    BOOST_TEST_REQUIRE((p.ok() && p->has_value()));
    return (*p)->state;
  }

  forecast::ProposalDesk proposals;
};

}  // namespace

BOOST_FIXTURE_TEST_SUITE(intraday_decisions, IntradayFixture)

BOOST_AUTO_TEST_CASE(an_approved_add_puts_an_extra_shift_on_and_searches_for_someone) {
  setLocal(0, 17, 0);
  const std::int64_t id = file(forecast::IntradayKind::kAdd);
  advance(chr::minutes(5));
  auto answer = proposals.decide("p-kwame", id, true, "busy night");
  BOOST_TEST_REQUIRE(answer.ok(), answer.message());
  BOOST_TEST((answer->proposal.state == forecast::ProposalState::kApproved));
  BOOST_TEST(answer->shiftId == "extra-" + std::to_string(id));
  BOOST_TEST_REQUIRE(answer->calloutId.has_value());
  BOOST_TEST(answer->message.find("one more person") != std::string::npos, answer->message);

  // 17:05 + 30 minutes, on the next quarter hour; four hours (the line runs to 23:00).
  const site::Shift* extra = site->index().shift(answer->shiftId);
  BOOST_TEST_REQUIRE(extra != nullptr);
  BOOST_TEST(!extra->assignee.has_value());
  BOOST_TEST((extra->start.utc == site::toInstant(localTime(0, 17, 45))));
  BOOST_TEST((extra->end.utc == site::toInstant(localTime(0, 21, 45))));
  BOOST_TEST(storedEnd(answer->shiftId) == "21:45");

  const auto opened = entries("callout.open");
  BOOST_TEST_REQUIRE(opened.size() == 1u);
  BOOST_TEST(opened[0].body.asObject().at("origin").asString() == "extra_shift");
  BOOST_TEST(opened[0].body.asObject().at("absent").asString() == "");
  BOOST_TEST(entries("handoff.checkin").empty());  // nobody is out
  BOOST_TEST(entries("schedule.extra_shift").size() == 1u);

  // Ben (no shifts this week) is offered it, takes it, and the manager hears.
  const std::string code = codeFor(kBen);
  BOOST_TEST_REQUIRE(!code.empty());
  text(kBen, code);
  BOOST_TEST(storedAssignee(answer->shiftId) == "p-ben");
  BOOST_TEST(lastTo(kKwame).find("Ben") != std::string::npos, lastTo(kKwame));
}

BOOST_AUTO_TEST_CASE(under_propose_the_managers_approval_is_the_ok_the_offers_wait_for) {
  setGraduation(policy::Graduation::kPropose);
  setLocal(0, 17, 0);
  const std::int64_t id = file(forecast::IntradayKind::kAdd);
  auto answer = proposals.decide("p-kwame", id, true, "");
  BOOST_TEST_REQUIRE(answer.ok(), answer.message());
  BOOST_TEST(!codeFor(kBen).empty());  // offered at once: no second approval asked
  CalloutStore rows(store->db());
  auto asked = rows.approvalsFor(*answer->calloutId);
  BOOST_TEST_REQUIRE(asked.ok(), asked.message());
  BOOST_TEST(asked->empty());
  BOOST_TEST(textsTo(kKwame).empty());  // the manager is not asked again by text
}

BOOST_AUTO_TEST_CASE(an_approved_cut_ends_the_shift_early_and_texts_the_person_kindly) {
  setLocal(0, 19, 0);
  const std::int64_t id = file(forecast::IntradayKind::kCut);
  advance(chr::minutes(2));
  auto answer = proposals.decide("p-kwame", id, true, "");
  BOOST_TEST_REQUIRE(answer.ok(), answer.message());
  BOOST_TEST(answer->shiftId == "s-jamal");
  BOOST_TEST(storedEnd("s-jamal") == "19:15");
  BOOST_TEST((site->index().shift("s-jamal")->end.utc == site::toInstant(localTime(0, 19, 15))));

  const auto finished = entries("schedule.early_finish");
  BOOST_TEST_REQUIRE(finished.size() == 1u);
  const json::Object& body = finished[0].body.asObject();
  BOOST_TEST(body.at("person").asString() == "p-jamal");
  BOOST_TEST(body.at("approvedBy").asString() == "p-kwame");
  // The change engine's premium at the approval is the one quoted: none here (San Francisco's
  // predictability pay binds formula retail only, and this bistro is not one).
  BOOST_TEST(body.at("premiumCents").asInt() == answer->proposal.premiumCents);
  BOOST_TEST(body.at("premiumCents").asInt() == 0);

  const std::string told = lastTo(kJamal);
  BOOST_TEST(told.find("finish at 19:15 instead of 23:00") != std::string::npos, told);
  BOOST_TEST(told.find("premium") == std::string::npos, told);
  BOOST_TEST(told.find("Kwame") != std::string::npos, told);  // a person to ask
  BOOST_TEST(answer->message.find("Jamal can finish at 19:15") != std::string::npos,
             answer->message);
  BOOST_TEST(answer->message.find("Jamal was texted") != std::string::npos, answer->message);
}

BOOST_AUTO_TEST_CASE(a_cut_the_schedule_moved_past_is_refused_and_changes_nothing) {
  setLocal(0, 19, 0);
  const std::int64_t id = file(forecast::IntradayKind::kCut);
  // Meanwhile the shift was changed to end at 22:00 (another manager, a site import).
  {
    auto u = store->db().prepare(
        "UPDATE site_shift SET end_utc = end_utc - 3600, end_local = end_local - 3600"
        " WHERE id = 's-jamal'");
    BOOST_TEST_REQUIRE(u.ok());
    BOOST_TEST_REQUIRE(u->run().ok());
    site->invalidate();
  }
  const std::size_t textsBefore = textsTo(kJamal).size();
  auto answer = proposals.decide("p-kwame", id, true, "");
  BOOST_TEST_REQUIRE(!answer.ok());
  BOOST_TEST((answer.error().kind == ErrorKind::kRefused));
  BOOST_TEST(answer.message().find("now ends at 22:00") != std::string::npos, answer.message());
  BOOST_TEST(storedEnd("s-jamal") == "22:00");
  BOOST_TEST((storedState(id) == forecast::ProposalState::kPending));
  BOOST_TEST(entries("schedule.early_finish").empty());
  BOOST_TEST(entries("intraday.decided").empty());
  BOOST_TEST(textsTo(kJamal).size() == textsBefore);
}

BOOST_AUTO_TEST_CASE(a_proposal_past_its_life_lapses_and_a_deny_changes_nothing) {
  setLocal(0, 17, 0);
  const std::int64_t late = file(forecast::IntradayKind::kAdd);
  advance(forecast::kProposalLife + chr::minutes(1));
  auto lapsed = proposals.decide("p-kwame", late, true, "");
  BOOST_TEST_REQUIRE(!lapsed.ok());
  BOOST_TEST((lapsed.error().kind == ErrorKind::kRefused));
  BOOST_TEST(lapsed.message().find("lapsed at 17:45") != std::string::npos, lapsed.message());
  BOOST_TEST((storedState(late) == forecast::ProposalState::kExpired));
  BOOST_TEST(entries("intraday.expired").size() == 1u);
  BOOST_TEST(entries("callout.open").empty());

  const std::int64_t next = file(forecast::IntradayKind::kAdd);
  auto denied = proposals.decide("p-kwame", next, false, "we manage");
  BOOST_TEST_REQUIRE(denied.ok(), denied.message());
  BOOST_TEST((denied->proposal.state == forecast::ProposalState::kDenied));
  BOOST_TEST(!denied->calloutId.has_value());
  BOOST_TEST(entries("callout.open").empty());
  BOOST_TEST(site->index().shift("extra-" + std::to_string(next)) == nullptr);
}

BOOST_AUTO_TEST_CASE(a_filed_proposal_reaches_the_general_manager_once) {
  setLocal(0, 17, 0);
  const std::int64_t id = file(forecast::IntradayKind::kAdd);
  auto filed = forecast::proposalById(store->db(), id);
  BOOST_TEST_REQUIRE((filed.ok() && filed->has_value()));
  auto told = proposals.announce(**filed);
  BOOST_TEST_REQUIRE(told.ok(), told.message());
  BOOST_TEST_REQUIRE(told->has_value());
  BOOST_TEST(((*told)->outcome == sms::conversation::OutreachOutcome::kQueued));
  const std::string text = lastTo(kKwame);
  BOOST_TEST(text.find("Proposal " + std::to_string(id) + ": summary") == 0u, text);
  BOOST_TEST(text.find("Decide on the panel (Approvals) before 17:45.") != std::string::npos, text);
  auto again = proposals.announce(**filed);  // a restart re-announcing: the same id, not resent
  BOOST_TEST_REQUIRE(again.ok(), again.message());
  BOOST_TEST(textsTo(kKwame).size() == 1u);
}

BOOST_AUTO_TEST_CASE(expiry_sweeps_only_what_is_past_its_life) {
  setLocal(0, 19, 0);
  const std::int64_t cut = file(forecast::IntradayKind::kCut);  // lapses at its new end, 19:15
  advance(chr::minutes(14));
  auto none = forecast::expireProposals(*store, now());
  BOOST_TEST_REQUIRE(none.ok(), none.message());
  BOOST_TEST(*none == 0);
  advance(chr::minutes(1));
  auto one = forecast::expireProposals(*store, now());
  BOOST_TEST_REQUIRE(one.ok(), one.message());
  BOOST_TEST(*one == 1);
  BOOST_TEST((storedState(cut) == forecast::ProposalState::kExpired));
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace atoms::callout::testing
