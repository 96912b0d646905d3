#include "tests/callout/served_site.h"

#include <sys/stat.h>

#include <boost/test/unit_test.hpp>
#include <cctype>
#include <fstream>

#include "base/writer_call.h"
#include "daemon/service/api_subsystem.h"
#include "daemon/service/engine_subsystem.h"
#include "daemon/service/policy_subsystem.h"
#include "daemon/service/sms_subsystem.h"
#include "daemon/service/store_subsystem.h"
#include "daemon/service/terminal_subsystem.h"
#include "domain/site/site_repository.h"
#include "drivers/http/bearer_tokens.h"
#include "drivers/sms/twilio/twilio_gateway.h"
#include "sms/mailbox/dispatcher.h"
#include "sms/mailbox/inbox.h"
#include "sms/mailbox/outbox.h"
#include "store/state_dir.h"
#include "tests/callout/callout_fixture.h"
#include "tests/support/audit_entries.h"
#include "tests/support/build_paths.h"

namespace atoms::callout::testing {

namespace {

using namespace std::chrono_literals;

const std::string kPublicUrl = "https://bistro.example.net/atoms";
const std::string kBoxNumber = "+15550001111";
// Generous for the sanitizer build; a passing run never waits this long.
constexpr std::chrono::milliseconds kDeadline = 60s;

drivers::twilio::FakeTwilioOptions providerOptions(const Clock& clock) {
  drivers::twilio::FakeTwilioOptions options;
  options.now = [&clock] { return clock.now(); };  // called once the site runs
  return options;
}

}  // namespace

ServedSite::ServedSite()
    : provider(providerOptions(clock_)),
      stateDir_(tmp_.sub("state")),
      clock_(CalloutFixture::localTime(0, 16, 55)) {
  BOOST_TEST_REQUIRE(initStateDir(stateDir_, {"callout-site"}).ok());
  {
    auto opened = SiteStore::open(stateDir_);
    BOOST_TEST_REQUIRE(opened.ok(), opened.message());
    Status imported = site::importSite((*opened)->db(), calloutRestaurant());
    BOOST_TEST_REQUIRE(imported.ok(), imported.message());
  }
  BOOST_TEST_REQUIRE(provider.start().ok());
  provider.setInboundUrl(kPublicUrl + "/sms/inbound");
  const std::string tokenFile = tmp_.write("twilio-auth-token", provider.options().authToken);
  BOOST_TEST_REQUIRE(::chmod(tokenFile.c_str(), 0600) == 0);
  config_ = {{"state.dir", stateDir_},
             {"sms.driver", "twilio"},
             {"sms.twilio.account-sid", provider.options().accountSid},
             {"sms.twilio.auth-token-file", tokenFile},
             {"sms.twilio.api-base-url", provider.baseUrl()},
             {"sms.twilio.from", kBoxNumber},
             {"sms.twilio.public-url", kPublicUrl},
             {"sms.twilio.listen-port", "0"},
             {"sms.retry.initial-delay-ms", "30000"},
             {"sms.retry.max-delay-ms", "120000"},
             {"sms.contact.name", "Kwame"},
             {"sms.contact.phone", kKwame},
             {"labor.rules_dir", atoms::testing::sourceDir() + "/etc/labor"},
             {"callout.general_manager", "p-kwame"},
             {"policy.graduation.staffing_scheduling", "autonomous"}};
  open();
}

ServedSite::~ServedSite() { close(); }

void ServedSite::open() {
  app_ = std::make_unique<atoms::test::TestApp>(config_);
  services_ = std::make_unique<EdgeServices>(*app_, clock_);
  Status started = services_->start();
  BOOST_TEST_REQUIRE(started.ok(), services_->failedService() + ": " + started.message());
  BOOST_TEST_REQUIRE(dynamic_cast<drivers::twilio::TwilioGateway*>(services_->sms().gateway()));
  provider.routeWebhooks(kPublicUrl, "http://127.0.0.1:" + std::to_string(webhookPort()));
  Engine& engine = services_->engine().engine();
  runner_ = std::make_unique<atoms::PostingStoreRunner>(services_->store().store(), engine);
  settle();  // what a previous run left due
}

std::uint16_t ServedSite::webhookPort() {
  auto* twilio = dynamic_cast<drivers::twilio::TwilioGateway*>(services_->sms().gateway());
  return twilio->webhookPort();
}

std::uint16_t ServedSite::terminalPort() { return services_->terminal().port(); }

void ServedSite::close() {
  if (!services_) return;
  runner_.reset();
  services_->stop();
  services_.reset();
  app_.reset();  // deletes the services
}

void ServedSite::settle() {
  const auto deadline = std::chrono::steady_clock::now() + kDeadline;
  const auto left = [&] {
    return std::max(std::chrono::milliseconds(1),
                    std::chrono::duration_cast<std::chrono::milliseconds>(
                        deadline - std::chrono::steady_clock::now()));
  };
  SmsSubsystem& sms = services_->sms();
  for (;;) {
    BOOST_TEST_REQUIRE(services_->engine().engine().drain(left()), "the engine did not settle");
    BOOST_TEST_REQUIRE(sms.dispatcher()->waitUntilIdle(left()), "the dispatcher did not settle");
    auto waiting = sms.inbox()->unhandled(1);
    BOOST_TEST_REQUIRE(waiting.ok(), waiting.message());
    auto due = sms.outbox()->nextDue();
    BOOST_TEST_REQUIRE(due.ok(), due.message());
    if (waiting->empty() && (!*due || **due > now())) return;
    BOOST_TEST_REQUIRE((std::chrono::steady_clock::now() < deadline), "the service did not settle");
  }
}

atoms::StoreRunner& ServedSite::runner() { return *runner_; }

void ServedSite::advance(std::chrono::minutes by) {
  clock_.advance(by);
  if (services_) settle();  // else the time passes while the service is down
}

void ServedSite::text(const std::string& from, const std::string& body) {
  textsTogether({{from, body}});
}

void ServedSite::textsTogether(const std::vector<std::pair<std::string, std::string>>& texts) {
  for (const auto& [from, body] : texts) {
    auto reply = provider.sendInbound(from, kBoxNumber, body);
    BOOST_TEST_REQUIRE(reply.ok(), reply.message());
    BOOST_TEST_REQUIRE(reply->status == 200, reply->body);
  }
  settle();
}

int ServedSite::due() {
  settle();
  return 0;
}

void ServedSite::addTimeClock() {
  const std::string token = "door-token-0123456789abcdef0123456789";
  const std::string tokens =
      tmp_.write("terminal-tokens", "door " + drivers::BearerTokens::hashHex(token) + "\n");
  BOOST_TEST_REQUIRE(::chmod(tokens.c_str(), 0600) == 0);
  config_["terminal.listen"] = "127.0.0.1:0";
  config_["terminal.tokens_file"] = tokens;
  close();
  open();
  drivers::terminal::SimulatedTerminalOptions options;
  options.port = services_->terminal().port();
  options.terminal = "door";
  options.token = token;
  options.backoff = [](int) {};
  terminal_ = std::make_unique<drivers::terminal::SimulatedTerminal>(options);
}

void ServedSite::addApi(const std::map<std::string, std::string>& tokens) {
  std::string lines;
  for (const auto& [person, token] : tokens) {
    lines += person + " " + drivers::BearerTokens::hashHex(token) + "\n";
  }
  const std::string file = tmp_.write("api-tokens", lines);
  BOOST_TEST_REQUIRE(::chmod(file.c_str(), 0600) == 0);
  config_["api.listen"] = "127.0.0.1:0";
  config_["api.tokens_file"] = file;
  close();
  open();
}

void ServedSite::importChange(const std::function<void(site::SiteModel&)>& change) {
  close();
  {
    auto opened = SiteStore::open(stateDir_);
    BOOST_TEST_REQUIRE(opened.ok(), opened.message());
    auto model = site::loadSite((*opened)->db());
    BOOST_TEST_REQUIRE(model.ok(), model.message());
    change(*model);
    Status imported = site::importSite((*opened)->db(), *model);
    BOOST_TEST_REQUIRE(imported.ok(), imported.message());
  }
  open();
}

void ServedSite::reassignByImport(const std::string& shiftId, const std::string& personId) {
  importChange([&](site::SiteModel& model) {
    bool found = false;
    for (site::Shift& s : model.shifts) {
      if (s.id == shiftId) {
        s.assignee = personId;
        found = true;
      }
    }
    BOOST_TEST_REQUIRE(found, shiftId);
  });
}

std::uint16_t ServedSite::apiPort() { return services_->api().port(); }

void ServedSite::punch(const std::string& personId, drivers::terminal::PunchKind kind,
                       TimePoint at) {
  BOOST_TEST_REQUIRE(terminal_ != nullptr, "addTimeClock() first");
  const auto punched =
      terminal_->punch(personId, kind, std::chrono::time_point_cast<std::chrono::milliseconds>(at));
  const drivers::terminal::PunchReply reply = terminal_->send({punched});
  BOOST_TEST_REQUIRE(reply.httpStatus == 200, reply.error);
  settle();
}

void ServedSite::setLevel(policy::KillSwitchLevel level) {
  PolicySubsystem& policy = services_->policy();
  const std::string ts = formatTimestamp(now());
  auto changed = callOnWriter(services_->engine().engine(), [&] {
    auto set = policy.killSwitch().set(ts, level, "test", {"panel:kwame", false});
    policy.levelMayHaveChanged();
    return set.ok() ? std::string() : set.message();
  });
  BOOST_TEST_REQUIRE(changed.has_value());
  BOOST_TEST_REQUIRE(changed->empty(), *changed);
  settle();
}

void ServedSite::withPolicy(const std::function<void(PolicySubsystem&)>& fn) {
  PolicySubsystem& policy = services_->policy();
  auto ran = callOnWriter(services_->engine().engine(), [&] {
    fn(policy);
    return true;
  });
  BOOST_TEST_REQUIRE(ran.has_value());
  settle();
}

void ServedSite::setGraduation(policy::Graduation graduation) {
  std::string value(policy::graduationName(graduation));
  for (char& c : value) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  configure("policy.graduation.staffing_scheduling", value);  // as the config file spells it
}

void ServedSite::setChecklists(const std::string& json) {
  configure("sms.checklists.file", tmp_.write("checklists.json", json));
}

void ServedSite::setWaveSize(int size) { configure("callout.wave_size", std::to_string(size)); }

void ServedSite::configure(const std::string& key, const std::string& value) {
  config_[key] = value;
  close();
  open();
}

std::vector<std::string> ServedSite::textsTo(const std::string& to) {
  std::vector<std::string> out;
  for (const drivers::twilio::FakeMessage& m : provider.messages()) {
    if (m.to == to) out.push_back(m.body);
  }
  return out;
}

std::string ServedSite::lastTo(const std::string& to) {
  auto all = textsTo(to);
  return all.empty() ? std::string() : all.back();
}

std::string ServedSite::codeFor(const std::string& to) { return offerCodeIn(textsTo(to)); }

int ServedSite::heldTo(const std::string& to) { return heldToVia(runner(), to); }

std::string ServedSite::storedAssignee(const std::string& shiftId) {
  return storedAssigneeVia(runner(), shiftId);
}

void ServedSite::writeToStore(const std::string& sql) {
  Status done = runner().run([&](SiteStore& store) { return store.db().exec(sql); });
  BOOST_TEST_REQUIRE(done.ok(), done.message());
}

std::vector<Entry> ServedSite::entries(std::string_view kind) {
  auto found = atoms::testing::entriesOfKindVia(runner(), kind);
  BOOST_TEST_REQUIRE(found.ok(), found.message());
  return std::move(*found);
}

std::uint64_t ServedSite::auditSize() {
  std::uint64_t size = 0;
  Status read = runner().run([&](SiteStore& store) -> Status {
    size = store.log().size();
    return Status::success();
  });
  BOOST_TEST_REQUIRE(read.ok(), read.message());
  return size;
}

json::Value ServedSite::receiptWithId(const std::string& id) {
  return receiptWithIdVia(runner(), id);
}

}  // namespace atoms::callout::testing
