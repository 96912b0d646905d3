#include "tests/callout/callout_fixture.h"

#include <boost/test/unit_test.hpp>

#include "domain/labor/rule_table.h"
#include "domain/policy/shipped_actions.h"
#include "domain/site/site_repository.h"
#include "sms/conversation/conversation_tables.h"
#include "store/receipt.h"
#include "store/state_dir.h"
#include "tests/support/audit_entries.h"
#include "tests/support/build_paths.h"

namespace atoms::callout::testing {

namespace chr = std::chrono;

namespace {

const char* kZone = "America/Los_Angeles";

site::Stamp stamp(const site::TimeZone& zone, chr::local_days today, int day, int hour,
                  int minute = 0) {
  const site::LocalTime local{today + chr::days(day) + chr::hours(hour) + chr::minutes(minute)};
  auto utc = zone.toUtc(local);
  BOOST_TEST_REQUIRE(utc.ok(), utc.message());
  return {*utc, local};
}

site::Person cook(std::string id, std::string name, std::string phone) {
  site::Person p;
  p.id = std::move(id);
  p.name = std::move(name);
  p.phone = std::move(phone);
  p.roles = {"line"};
  p.certifications = {{"food-handler", std::nullopt}};
  p.birthDate = site::Date{chr::year{1995} / 5 / 5};
  p.hireDate = site::Date{chr::year{2024} / 1 / 8};
  p.smsConsent = {true, chr::sys_days{chr::year{2025} / 1 / 1}};
  p.managerOfRecord = "p-kwame";
  p.hourlyRateCents = 2200;
  return p;
}

}  // namespace

site::SiteModel calloutRestaurant(chr::local_days today) {
  auto zone = site::TimeZone::locate(kZone);
  BOOST_TEST_REQUIRE(zone.ok(), zone.message());
  site::SiteModel m;
  m.site = {"callout-site",
            "Bistro Maree",
            kZone,
            {"us", "us-ca", "us-ca-san-francisco"},
            "full_service_restaurant"};
  m.certifications = {{"food-handler", "Food handler card"}};
  m.stations = {{"line", "line cook", {"food-handler"}, std::nullopt, {}},
                {"lead", "shift lead", {}, std::nullopt, {"shift_lead"}}};
  m.people = {cook("p-rosa", "Rosa Diaz", kRosa), cook("p-jamal", "Jamal Reed", kJamal),
              cook("p-ana", "Ana Lima", kAna),    cook("p-ben", "Ben Ode", kBen),
              cook("p-cleo", "Cleo Park", kCleo), cook("p-mia", "Mia Chen", kMia),
              cook("p-tom", "Tom Gray", kTom),    cook("p-lea", "Lea Voss", kLea),
              cook("p-zed", "Zed Moss", kZed),    cook("p-kwame", "Kwame Asante", kKwame)};
  for (site::Person& p : m.people) {
    if (p.id == "p-tom") {
      p.minor = true;
      p.birthDate = site::Date{chr::year{2010} / 9 / 1};  // 15 on the day
    }
    if (p.id == "p-lea") p.smsConsent = {false, chr::sys_days{chr::year{2025} / 1 / 1}};
    if (p.id == "p-zed") p.certifications.clear();
    if (p.id == "p-rosa") p.roles.push_back("lead");
    if (p.id == "p-kwame") {
      p.roles.clear();
      p.managerOfRecord.reset();
    }
  }
  int n = 0;
  auto shift = [&](const std::string& who, int day, int from, int to) {
    site::Shift s;
    s.id = "s-" + std::to_string(++n);
    s.stationId = "line";
    s.start = stamp(*zone, today, day, from);
    s.end = stamp(*zone, today, day, to);
    s.assignee = who;
    m.shifts.push_back(s);
  };
  // The week runs from Sunday 2026-03-01 (day -3).
  m.shifts.push_back({"s-jamal", "line", stamp(*zone, today, 0, 17), stamp(*zone, today, 0, 23),
                      std::nullopt, "p-jamal"});
  shift("p-rosa", 0, 15, 23);
  m.shifts.back().stationId = "lead";  // the lead on duty: a no-show check asks her
  for (int d : {-3, -2}) shift("p-ana", d, 8, 16);
  shift("p-ana", 1, 8, 12);  // tomorrow morning
  for (int d : {-3, -2, -1}) shift("p-cleo", d, 8, 16);
  for (int d : {-3, -2, -1}) shift("p-mia", d, 8, 16);
  shift("p-mia", 0, 6, 12);  // 6 h today: another 6 h is daily overtime in California
  shift("p-tom", -3, 10, 14);
  // Everyone working today clocked in, a little early; Jamal did not.
  m.punches = {{"p-mia", site::PunchKind::kClockIn, stamp(*zone, today, 0, 5, 56).utc},
               {"p-rosa", site::PunchKind::kClockIn, stamp(*zone, today, 0, 14, 52).utc}};
  return m;
}

CalloutFixture::CalloutFixture()
    : stateDir(tmp.sub("state")), model(calloutRestaurant(kCalloutDay)) {
  BOOST_TEST_REQUIRE(initStateDir(stateDir, {"callout-site"}).ok());
  {
    auto opened = SiteStore::open(stateDir);
    BOOST_TEST_REQUIRE(opened.ok(), opened.message());
    Status imported = site::importSite((*opened)->db(), model);
    BOOST_TEST_REQUIRE(imported.ok(), imported.message());
  }
  policy.level = policy::KillSwitchLevel::kL0;
  policy.graduation["staffing_scheduling"] = policy::Graduation::kAutonomous;
  setLocal(0, 16, 55);
  open();
}

CalloutFixture::~CalloutFixture() { close(); }

void CalloutFixture::open() {
  auto opened = SiteStore::open(stateDir);
  BOOST_TEST_REQUIRE(opened.ok(), opened.message());
  store = std::move(*opened);
  auto stored = site::loadSite(store->db());
  BOOST_TEST_REQUIRE(stored.ok(), stored.message());
  runner = std::make_unique<atoms::LockedStoreRunner>(*store);
  const auto clock = [this] { return now(); };
  outbox = std::make_unique<sms::mailbox::Outbox>(*runner, clock, [] { return 0.5; });
  inbox =
      std::make_unique<sms::mailbox::Inbox>(*runner, *outbox, std::string(gateway.name()), clock);
  roster = std::make_unique<sms_site::SiteRoster>(sms::conversation::HumanContact{"Kwame", kKwame});
  roster->reset(*stored);
  auto zone = site::TimeZone::locate(kZone);
  BOOST_TEST_REQUIRE(zone.ok());
  siteTime = std::make_unique<sms_site::ZoneSiteTime>(*zone);
  outreach = std::make_unique<sms::conversation::Outreach>(*runner, *outbox, *roster, *siteTime,
                                                           conversationSettings, clock);
  auto rules =
      labor::loadRuleBook(atoms::testing::sourceDir() + "/etc/labor", stored->site.jurisdictions);
  BOOST_TEST_REQUIRE(rules.ok(), rules.message());
  auto built = SiteSnapshot::build(*stored, std::move(*rules));
  BOOST_TEST_REQUIRE(built.ok(), built.message());
  site = std::move(*built);
  auto table = policy::shippedActionTable();
  BOOST_TEST_REQUIRE(table.ok(), table.message());
  gate = std::make_unique<policy::PolicyGate>(std::move(*table));
  desk = std::make_unique<CalloutDesk>(
      *site, *outreach, *runner, settings,
      [this](const policy::ProposedAction& a) { return gate->decide(a, policy); },
      [this] {
        random_ = random_ * 1664525u + 1013904223u;
        return random_;
      });
  handler = std::make_unique<CalloutHandler>(*desk, *site);
  // As the daemon has it (conversation_processor.cpp): requests by text in front of the call-outs.
  requestDesk = std::make_unique<requests::RequestDesk>(desk->context());
  requestHandler = std::make_unique<requests::RequestHandler>(*requestDesk, *handler);
  conversation = std::make_unique<sms::conversation::Conversation>(*runner, *inbox, *outreach,
                                                                   requestHandler.get());
  BOOST_TEST_REQUIRE(gateway.start(*inbox).ok());
}

void CalloutFixture::close() {
  gateway.stop();
  conversation.reset();
  requestHandler.reset();
  requestDesk.reset();
  handler.reset();
  desk.reset();
  gate.reset();
  site.reset();
  outreach.reset();
  siteTime.reset();
  roster.reset();
  inbox.reset();
  outbox.reset();
  runner.reset();
  store.reset();
}

TimePoint CalloutFixture::localTime(int day, int hour, int minute) {
  auto zone = site::TimeZone::locate(kZone);
  BOOST_TEST_REQUIRE(zone.ok());
  return TimePoint(stamp(*zone, kCalloutDay, day, hour, minute).utc.time_since_epoch());
}

void CalloutFixture::text(const std::string& from, const std::string& body) {
  textsTogether({{from, body}});
}

void CalloutFixture::textsTogether(const std::vector<std::pair<std::string, std::string>>& texts) {
  for (const auto& [from, body] : texts) {
    drivers::InboundSms sms;
    sms.from = from;
    sms.to = "+15550001111";
    sms.body = body;
    sms.receivedAt = now();
    Status s = gateway.deliverInbound(sms);
    BOOST_TEST_REQUIRE(s.ok(), s.message());
  }
  auto handled = conversation->handlePending();
  BOOST_TEST_REQUIRE(handled.ok(), handled.message());
  BOOST_TEST_REQUIRE(*handled == static_cast<int>(texts.size()));
}

int CalloutFixture::due() {
  auto steps = desk->due(now());
  BOOST_TEST_REQUIRE(steps.ok(), steps.message());
  return *steps;
}

void CalloutFixture::setLevel(policy::KillSwitchLevel level) {
  policy.level = level;
  outreach->setOutreachFrozen(level >= policy::KillSwitchLevel::kL1);
  if (level == policy::KillSwitchLevel::kL0) {
    auto released = outreach->releaseDue(now());
    BOOST_TEST_REQUIRE(released.ok(), released.message());
  }
}

void CalloutFixture::setGraduation(policy::Graduation graduation) {
  policy.graduation["staffing_scheduling"] = graduation;
}

void CalloutFixture::setWaveSize(int size) {
  settings.waveSize = size;
  close();
  open();
}

std::vector<std::string> CalloutFixture::textsTo(const std::string& to) {
  sms::mailbox::OutboxQuery query;
  query.limit = 10000;
  auto rows = outbox->list(query);
  BOOST_TEST_REQUIRE(rows.ok(), rows.message());
  std::vector<std::string> out;
  for (auto it = rows->rbegin(); it != rows->rend(); ++it) {
    if (it->to == to) out.push_back(it->body);
  }
  return out;
}

std::string CalloutFixture::lastTo(const std::string& to) {
  auto all = textsTo(to);
  return all.empty() ? std::string() : all.back();
}

std::string CalloutFixture::codeFor(const std::string& to) { return offerCodeIn(textsTo(to)); }

int CalloutFixture::heldTo(const std::string& to) { return heldToVia(*runner, to); }

std::string CalloutFixture::storedAssignee(const std::string& shiftId) {
  return storedAssigneeVia(*runner, shiftId);
}

std::vector<Entry> CalloutFixture::entries(std::string_view kind) {
  auto found = atoms::testing::entriesOfKindVia(*runner, kind);
  BOOST_TEST_REQUIRE(found.ok(), found.message());
  return std::move(*found);
}

json::Value CalloutFixture::receiptWithId(const std::string& id) {
  return receiptWithIdVia(*runner, id);
}

std::string offerCodeIn(const std::vector<std::string>& bodies) {
  // "... Reply 4821 to take it ..." (no std::regex: GCC 12 warns inside it under ASan).
  std::string code;
  for (const std::string& body : bodies) {
    const std::size_t at = body.find(" to take it");
    if (at == std::string::npos || at < 11) continue;
    const std::string candidate = body.substr(at - 4, 4);
    if (body.compare(at - 10, 6, "Reply ") != 0) continue;
    if (candidate.find_first_not_of("0123456789") == std::string::npos) code = candidate;
  }
  return code;
}

int heldToVia(atoms::StoreRunner& runner, const std::string& to) {
  int held = 0;
  Status s = runner.run([&](SiteStore& st) -> Status {
    sms::conversation::ConversationTables tables(st.db());
    auto rows = tables.list(to, 1000);
    if (!rows) return rows.error();
    for (const auto& r : *rows) held += r.state == sms::conversation::LedgerState::kHeld ? 1 : 0;
    return Status::success();
  });
  BOOST_TEST_REQUIRE(s.ok(), s.message());
  return held;
}

std::string storedAssigneeVia(atoms::StoreRunner& runner, const std::string& shiftId) {
  std::string who;
  Status s = runner.run([&](SiteStore& st) -> Status {
    auto stored = site::loadSite(st.db());
    if (!stored) return stored.error();
    const site::Shift* shift = site::SiteIndex(*stored).shift(shiftId);
    if (shift == nullptr) return makeError("no shift " + shiftId);
    who = shift->assignee.value_or("");
    return Status::success();
  });
  BOOST_TEST_REQUIRE(s.ok(), s.message());
  return who;
}

json::Value receiptWithIdVia(atoms::StoreRunner& runner, const std::string& id) {
  json::Value found;
  Status s = runner.run([&](SiteStore& st) -> Status {
    auto receipts = atoms::testing::entriesOfKind(st.log(), "receipt");
    if (!receipts) return receipts.error();
    for (const Entry& e : *receipts) {
      const json::Object& body = e.body.asObject();
      auto it = body.find("id");
      if (it == body.end() || it->second.asString() != id) continue;
      if (Status v = verifyReceipt(e.body, st.verifierKey()); !v) return v;
      found = e.body;
    }
    return Status::success();
  });
  BOOST_TEST_REQUIRE(s.ok(), s.message());
  BOOST_TEST_REQUIRE(found.isObject(), "no receipt " + id);
  return found;
}

}  // namespace atoms::callout::testing
