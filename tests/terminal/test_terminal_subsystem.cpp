#include <boost/test/unit_test.hpp>
// TerminalSubsystem in-process with the real store and engine subsystems: punches posted over
// real HTTP by the simulated terminal are committed to site_punch, terminal_punch and the audit
// log before the terminal is answered; a retry is a duplicate; an unknown person or a clock far
// ahead is refused and audited; refused requests are audited; the listener hears of accepted
// punches on the engine thread.
#include <Poco/Net/ServerSocket.h>
#include <Poco/Net/SocketAddress.h>
#include <sys/stat.h>

#include <fstream>
#include <map>
#include <mutex>
#include <sstream>

#include "daemon/service/engine_subsystem.h"
#include "daemon/service/listen_address.h"
#include "daemon/service/store_subsystem.h"
#include "daemon/service/terminal_subsystem.h"
#include "domain/site/site_file.h"
#include "domain/site/site_repository.h"
#include "drivers/http/bearer_tokens.h"
#include "drivers/terminal/simulated_terminal.h"
#include "store/site_store.h"
#include "store/state_dir.h"
#include "tests/support/audit_entries.h"
#include "tests/support/build_paths.h"
#include "tests/support/temp_dir.h"
#include "tests/support/test_app.h"

namespace atoms::test {
namespace {

using namespace std::chrono;
using drivers::BearerTokens;
using drivers::terminal::PunchKind;
using drivers::terminal::PunchOutcome;
using drivers::terminal::PunchOutcomeKind;
using drivers::terminal::PunchReply;
using drivers::terminal::PunchTime;
using drivers::terminal::SimulatedTerminal;

const std::string kToken = "front-token-5f1c0a9e7d3b2c41";

std::string readText(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// A state directory with the demo site imported and a tokens file for terminal front-1.
struct TerminalSite {
  TerminalSite() : stateDir(tmp.file("state")) {
    Status s = initStateDir(stateDir, InitOptions{"site-terminal"});
    BOOST_REQUIRE_MESSAGE(s.ok(), s.message());
    auto model =
        site::parseSiteFile(readText(atoms::testing::sourceDir() + "/etc/sites/demo-site.json"));
    BOOST_REQUIRE_MESSAGE(model, model.message());
    sitePunches = model->punches.size();
    auto store = SiteStore::open(stateDir);
    BOOST_REQUIRE_MESSAGE(store, store.message());
    Status imported = site::importSite((*store)->db(), *model);
    BOOST_REQUIRE_MESSAGE(imported.ok(), imported.message());
    tokensFile = tokens("front-1 " + BearerTokens::hashHex(kToken) + "\n", 0600);
  }
  std::string tokens(const std::string& text, mode_t mode) const {
    const std::string path = tmp.write("terminals", text);
    BOOST_REQUIRE(::chmod(path.c_str(), mode) == 0);
    return path;
  }

  atoms::testing::TempDir tmp;
  std::string stateDir;
  std::string tokensFile;
  std::size_t sitePunches = 0;
};

// What the listener saw.
struct Heard {
  std::mutex mutex;
  std::vector<std::vector<site::Punch>> calls;
  bool offEngine = false;
};

struct Services {
  explicit Services(TerminalSite& site, std::map<std::string, std::string> keys = {})
      : app(withDefaults(site, std::move(keys))),
        store(std::make_unique<StoreSubsystem>(Poco::Logger::get("store"))),
        engine(std::make_unique<EngineSubsystem>(Poco::Logger::get("engine"))),
        terminal(
            std::make_unique<TerminalSubsystem>(Poco::Logger::get("terminal"), *store, *engine)) {
    terminal->setPunchListener([this](const std::vector<site::Punch>& punches) {
      std::lock_guard lock(heard.mutex);
      if (!engine->engine().onWriterThread()) heard.offEngine = true;
      heard.calls.push_back(punches);
    });
  }
  ~Services() { stop(); }

  static std::map<std::string, std::string> withDefaults(TerminalSite& site,
                                                         std::map<std::string, std::string> keys) {
    keys.emplace("state.dir", site.stateDir);
    keys.emplace("terminal.listen", "127.0.0.1:0");
    keys.emplace("terminal.tokens_file", site.tokensFile);
    return keys;
  }
  Status start() {
    for (ServiceSubsystem* s : {static_cast<ServiceSubsystem*>(store.get()),
                                static_cast<ServiceSubsystem*>(engine.get())}) {
      Status started = s->startService(app);
      BOOST_REQUIRE_MESSAGE(started, s->name() << ": " << started.message());
    }
    return terminal->startService(app);
  }
  void stop() {
    terminal->stopService();
    engine->stopService();
    store->stopService();
  }
  SimulatedTerminal clock(const std::string& token = kToken) {
    drivers::terminal::SimulatedTerminalOptions o;
    o.port = terminal->port();
    o.terminal = "front-1";
    o.token = token;
    o.backoff = [](int) {};
    return SimulatedTerminal(o);
  }

  TestApp app;
  std::unique_ptr<StoreSubsystem> store;
  std::unique_ptr<EngineSubsystem> engine;
  std::unique_ptr<TerminalSubsystem> terminal;
  Heard heard;
};

PunchTime minutesFromNow(int m) { return floor<milliseconds>(system_clock::now()) + minutes(m); }

// What the store holds once the services stopped.
struct Stored {
  std::vector<site::Punch> sitePunches;
  std::int64_t terminalRows = 0;
  std::vector<Entry> punchEntries;
  std::vector<Entry> refusedEntries;
};

Stored readStore(const std::string& stateDir) {
  auto store = SiteStore::open(stateDir);
  BOOST_REQUIRE_MESSAGE(store, store.message());
  Stored out;
  auto model = site::loadSite((*store)->db());
  BOOST_REQUIRE_MESSAGE(model, model.message());
  out.sitePunches = model->punches;
  auto count = (*store)->db().prepare("SELECT COUNT(*) FROM terminal_punch");
  BOOST_REQUIRE(count);
  BOOST_REQUIRE(count->step().ok());
  out.terminalRows = count->columnInt64(0);
  auto punches = atoms::testing::entriesOfKind((*store)->log(), "punch");
  BOOST_REQUIRE_MESSAGE(punches, punches.message());
  out.punchEntries = std::move(*punches);
  auto refused = atoms::testing::entriesOfKind((*store)->log(), "terminal.refused");
  BOOST_REQUIRE_MESSAGE(refused, refused.message());
  out.refusedEntries = std::move(*refused);
  return out;
}

std::string text(const json::Value* v) {
  return v != nullptr && v->isString() ? v->asString() : "";
}
std::int64_t number(const json::Value* v) { return v != nullptr && v->isInt() ? v->asInt() : -1; }

}  // namespace

BOOST_AUTO_TEST_SUITE(terminal_subsystem)

BOOST_AUTO_TEST_CASE(punchesOverHttpAreStoredAuditedOnceAndHeard) {
  TerminalSite site;
  Services s(site);
  BOOST_REQUIRE(s.start());
  BOOST_REQUIRE(s.terminal->port() != 0);
  SimulatedTerminal front = s.clock();
  const PunchTime at = minutesFromNow(-2);
  const auto punches = std::vector{front.punch("p-jamal", PunchKind::kClockIn, at),
                                   front.punch("p-ana", PunchKind::kBreakStart, at + 1500ms)};
  PunchReply first = front.send(punches);
  BOOST_TEST(first.httpStatus == 200);
  BOOST_TEST((first.outcomes ==
              std::vector<PunchOutcome>{{"front-1-000001", PunchOutcomeKind::kAccepted, ""},
                                        {"front-1-000002", PunchOutcomeKind::kAccepted, ""}}));
  // The terminal sends the same request again (its answer was lost): nothing new is stored.
  PunchReply again = front.send(punches);
  BOOST_TEST(again.httpStatus == 200);
  BOOST_TEST((again.outcomes ==
              std::vector<PunchOutcome>{{"front-1-000001", PunchOutcomeKind::kDuplicate, ""},
                                        {"front-1-000002", PunchOutcomeKind::kDuplicate, ""}}));
  {
    // The listener ran on the engine thread before the first answer was sent.
    std::lock_guard lock(s.heard.mutex);
    BOOST_TEST(!s.heard.offEngine);
    BOOST_REQUIRE(s.heard.calls.size() == 1u);
    const site::Instant seconds = floor<std::chrono::seconds>(at);
    BOOST_TEST((s.heard.calls[0] ==
                std::vector<site::Punch>{{"p-jamal", site::PunchKind::kClockIn, seconds},
                                         {"p-ana", site::PunchKind::kBreakStart,
                                          floor<std::chrono::seconds>(at + 1500ms)}}));
  }
  s.stop();

  const Stored stored = readStore(site.stateDir);
  BOOST_TEST(stored.terminalRows == 2);
  BOOST_REQUIRE(stored.sitePunches.size() == site.sitePunches + 2);
  BOOST_TEST((stored.sitePunches[site.sitePunches] ==
              site::Punch{"p-jamal", site::PunchKind::kClockIn, floor<std::chrono::seconds>(at)}));
  BOOST_REQUIRE(stored.punchEntries.size() == 1u);
  const Entry& entry = stored.punchEntries[0];
  BOOST_TEST(entry.actor == "terminal:front-1");
  BOOST_TEST(number(entry.body.find("accepted")) == 2);
  BOOST_TEST(number(entry.body.find("refused")) == 0);
  const json::Value* list = entry.body.find("punches");
  BOOST_REQUIRE((list != nullptr && list->isArray() && list->asArray().size() == 2u));
  const json::Value& p0 = list->asArray()[0];
  BOOST_TEST(text(p0.find("id")) == "front-1-000001");
  BOOST_TEST(text(p0.find("person")) == "p-jamal");
  BOOST_TEST(text(p0.find("kind")) == "clock_in");
  BOOST_TEST(text(p0.find("at")) == drivers::terminal::formatPunchTime(at));
  BOOST_TEST(text(p0.find("outcome")) == "accepted");
  BOOST_TEST(stored.refusedEntries.empty());
}

BOOST_AUTO_TEST_CASE(anUnknownPersonAndAClockFarAheadAreRefusedAndAudited) {
  TerminalSite site;
  Services s(site);
  BOOST_REQUIRE(s.start());
  SimulatedTerminal front = s.clock();
  PunchReply reply = front.send({front.punch("p-nobody", PunchKind::kClockIn, minutesFromNow(0)),
                                 front.punch("p-marco", PunchKind::kClockIn, minutesFromNow(10)),
                                 front.punch("p-marco", PunchKind::kClockIn, minutesFromNow(4))});
  BOOST_TEST(reply.httpStatus == 200);
  BOOST_TEST(
      (reply.outcomes ==
       std::vector<PunchOutcome>{{"front-1-000001", PunchOutcomeKind::kRefused, "unknown person"},
                                 {"front-1-000002", PunchOutcomeKind::kRefused, "clock skew"},
                                 {"front-1-000003", PunchOutcomeKind::kAccepted, ""}}));
  s.stop();

  const Stored stored = readStore(site.stateDir);
  BOOST_TEST(stored.terminalRows == 1);
  BOOST_TEST(stored.sitePunches.size() == site.sitePunches + 1);
  BOOST_REQUIRE(stored.punchEntries.size() == 1u);
  const json::Value& body = stored.punchEntries[0].body;
  BOOST_TEST(number(body.find("accepted")) == 1);
  BOOST_TEST(number(body.find("refused")) == 2);
  const json::Array& list = body.find("punches")->asArray();
  BOOST_REQUIRE(list.size() == 3u);
  BOOST_TEST(text(list[0].find("person")) == "p-nobody");
  BOOST_TEST(text(list[0].find("outcome")) == "refused");
  BOOST_TEST(text(list[0].find("reason")) == "unknown person");
  BOOST_TEST(text(list[1].find("reason")) == "clock skew");
  std::lock_guard lock(s.heard.mutex);
  BOOST_REQUIRE(s.heard.calls.size() == 1u);
  BOOST_TEST(s.heard.calls[0].size() == 1u);
}

BOOST_AUTO_TEST_CASE(aRequestOfRefusalsOnlyIsAuditedAndNotHeard) {
  TerminalSite site;
  Services s(site);
  BOOST_REQUIRE(s.start());
  SimulatedTerminal front = s.clock();
  PunchReply reply = front.send({front.punch("p-nobody", PunchKind::kClockOut, minutesFromNow(0))});
  BOOST_TEST(reply.httpStatus == 200);
  s.stop();
  const Stored stored = readStore(site.stateDir);
  BOOST_TEST(stored.punchEntries.size() == 1u);
  BOOST_TEST(stored.terminalRows == 0);
  std::lock_guard lock(s.heard.mutex);
  BOOST_TEST(s.heard.calls.empty());
}

BOOST_AUTO_TEST_CASE(refusedRequestsAreAuditedWithoutTheToken) {
  TerminalSite site;
  Services s(site);
  BOOST_REQUIRE(s.start());
  SimulatedTerminal stranger = s.clock("not-the-token-0123456789");
  PunchReply reply =
      stranger.send({stranger.punch("p-ana", PunchKind::kClockIn, minutesFromNow(0))});
  BOOST_TEST(reply.httpStatus == 401);
  SimulatedTerminal front = s.clock();
  BOOST_TEST(front.sendBody("{\"terminal\":\"front-1\",\"punches\":[]}").httpStatus == 400);
  s.stop();  // runs the audits posted before it

  const Stored stored = readStore(site.stateDir);
  BOOST_TEST(stored.punchEntries.empty());
  BOOST_REQUIRE(stored.refusedEntries.size() == 2u);
  const Entry& unauthorized = stored.refusedEntries[0];
  BOOST_TEST(unauthorized.actor == "terminal");
  BOOST_TEST(number(unauthorized.body.find("status")) == 401);
  BOOST_TEST(text(unauthorized.body.find("reason")) == "unknown token");
  BOOST_TEST(unauthorized.body.find("terminal") == nullptr);
  const Entry& bad = stored.refusedEntries[1];
  BOOST_TEST(bad.actor == "terminal:front-1");
  BOOST_TEST(text(bad.body.find("reason")) == "punches: empty");
  for (const Entry& e : stored.refusedEntries) {
    BOOST_TEST(json::canonical(e.body).find("not-the-token") == std::string::npos);
  }
}

BOOST_AUTO_TEST_CASE(offUnlessListenIsSet) {
  TerminalSite site;
  Services s(site, {{"terminal.listen", ""}, {"terminal.tokens_file", ""}});
  BOOST_REQUIRE(s.start());
  BOOST_TEST(s.terminal->port() == 0u);
}

BOOST_AUTO_TEST_CASE(misconfigurationsRefuseToStartNamingTheKey) {
  TerminalSite site;
  const std::string open = site.tokens("front-1 " + BearerTokens::hashHex(kToken) + "\n", 0644);
  const std::vector<std::pair<std::map<std::string, std::string>, std::string>> cases = {
      {{{"terminal.tokens_file", ""}}, "terminal.tokens_file must be set when terminal.listen is"},
      {{{"terminal.tokens_file", open}},
       "terminal.tokens_file " + open +
           " is accessible by group or others (mode 0644); run chmod 600 " + open},
      {{{"terminal.tokens_file", site.tmp.file("missing")}},
       "terminal.tokens_file " + site.tmp.file("missing") + " does not exist"},
      {{{"terminal.listen", "no-port"}}, "terminal.listen 'no-port': expected host:port"},
  };
  for (const auto& [keys, expected] : cases) {
    Services s(site, keys);
    Status started = s.start();
    BOOST_TEST_CONTEXT(expected) {
      BOOST_REQUIRE(!started);
      BOOST_TEST(started.message() == expected);
    }
  }
}

BOOST_AUTO_TEST_CASE(anAddressInUseIsNamed) {
  Poco::Net::ServerSocket other(Poco::Net::SocketAddress("127.0.0.1", 0));
  const std::string taken = "127.0.0.1:" + std::to_string(other.address().port());
  TerminalSite site;
  Services s(site, {{"terminal.listen", taken}});
  Status started = s.start();
  BOOST_REQUIRE(!started);
  BOOST_TEST(started.message().rfind("terminal.listen " + taken + ": ", 0) == 0u,
             started.message());
}

BOOST_AUTO_TEST_CASE(listenAddressesParse) {
  BOOST_TEST(parseListenAddress("0.0.0.0:8470")->host == "0.0.0.0");
  BOOST_TEST(parseListenAddress("[::1]:8470")->host == "::1");
  BOOST_TEST(parseListenAddress("box.local:65535")->port == 65535);
  for (const char* bad :
       {"", "8470", ":8470", "host:", "::1:8470", "host:65536", "host:80x", "a b:80", "[]:80"}) {
    BOOST_TEST(!parseListenAddress(bad).has_value(), bad);
  }
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace atoms::test
