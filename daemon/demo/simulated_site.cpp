#include "daemon/demo/simulated_site.h"

#include <Poco/AutoPtr.h>
#include <Poco/ConsoleChannel.h>
#include <Poco/Logger.h>

#include <algorithm>
#include <cctype>
#include <optional>
#include <ostream>
#include <utility>

#include "daemon/engine/engine.h"
#include "daemon/service/sms_subsystem.h"
#include "daemon/sms/conversation_processor.h"
#include "domain/forecast/forecast_expectation.h"
#include "domain/forecast/special_day_store.h"
#include "domain/labor/rule_table.h"
#include "domain/policy/shipped_actions.h"
#include "domain/pos/labor_vs_sales_store.h"
#include "domain/site/site_repository.h"
#include "drivers/sms/simulated/simulated_gateway.h"
#include "sms/conversation/conversation_settings.h"
#include "sms/mailbox/dispatcher.h"
#include "sms/mailbox/inbox.h"
#include "sms/mailbox/outbox.h"
#include "store/store_runner.h"

namespace atoms::demo {
namespace {

constexpr const char* kSitePhone = "+14155550100";
// Real time the engine may take over one step; a step takes milliseconds.
constexpr std::chrono::seconds kStepDeadline{30};

std::string lower(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

std::string firstName(const std::string& name) { return name.substr(0, name.find(' ')); }

}  // namespace

// The service's SMS and call-out wiring, in the order `serve` builds it, over one engine. The
// processor's timers belong to the engine thread: the engine stops before they are destroyed.
class SimulatedSite::Wiring {
 public:
  Wiring(SiteStore& store, SimulatedClock& clock, std::ostream& err)
      : logger(Poco::Logger::get("demo")),
        engine(clock, logger),
        runner(store),
        outbox(
            runner, [&clock] { return clock.now(); }, [] { return 0.5; }),
        inbox(runner, outbox, std::string(gateway.name()), [&clock] { return clock.now(); }),
        dispatcher(outbox, gateway) {
    // Problems the conversation layer logs reach the demo's error stream; the rest is quiet.
    logger.setChannel(Poco::AutoPtr<Poco::Channel>(new Poco::ConsoleChannel(err)));
    logger.setLevel(Poco::Message::PRIO_WARNING);
  }
  ~Wiring() {
    engine.stop();
    processor.reset();
    gateway.stop();
    logger.setChannel(nullptr);
  }
  Wiring(const Wiring&) = delete;
  Wiring& operator=(const Wiring&) = delete;

  Poco::Logger& logger;
  Engine engine;
  atoms::LockedStoreRunner runner;
  drivers::SimulatedSmsGateway gateway;
  sms::mailbox::Outbox outbox;
  sms::mailbox::Inbox inbox;
  sms::mailbox::Dispatcher dispatcher;
  sms::conversation::ConversationSettings conversation;
  sms::conversation::HumanContact contact;
  std::unique_ptr<policy::PolicyGate> gate;
  policy::PolicyState policy;
  std::unique_ptr<sms_site::ConversationProcessor> processor;
};

SimulatedSite::SimulatedSite(std::ostream& out, site::SiteModel model, site::TimeZone zone,
                             Narrate narrate)
    : out_(out), model_(std::move(model)), zone_(std::move(zone)), narrate_(std::move(narrate)) {
  for (const site::Person& p : model_.people) names_[p.phone] = p.name;
}

SimulatedSite::~SimulatedSite() = default;

Result<std::unique_ptr<SimulatedSite>> SimulatedSite::open(SiteStore& store, const SiteSetup& setup,
                                                           std::ostream& out, std::ostream& err,
                                                           Narrate narrate) {
  auto model = site::loadSite(store.db());
  if (!model) return makeError("the demo site: " + model.message());
  auto zone = site::TimeZone::locate(model->site.timeZone);
  if (!zone) return zone.error();
  // The processor would only log it and run without call-outs; the demo needs them.
  auto rules = labor::loadRuleBook(setup.laborDir, model->site.jurisdictions);
  if (!rules) return makeError("the labor rules: " + rules.message());
  auto table = policy::shippedActionTable();
  if (!table) return table.error();

  std::unique_ptr<SimulatedSite> site(
      new SimulatedSite(out, std::move(*model), std::move(*zone), std::move(narrate)));
  site->rules_ = std::move(*rules);
  site->clock_ = std::make_unique<SimulatedClock>(setup.start);
  site->wiring_ = std::make_unique<Wiring>(store, *site->clock_, err);
  Wiring& w = *site->wiring_;
  w.contact = setup.contact;
  w.gate = std::make_unique<policy::PolicyGate>(std::move(*table));
  w.policy.level = policy::KillSwitchLevel::kL0;
  w.policy.graduation["staffing_scheduling"] = setup.graduation;
  SimulatedSite* self = site.get();
  w.gateway.setOnTransmitted([self](const drivers::SimulatedTransmission& t) {
    const std::string& to = t.message.to;
    auto name = self->names_.find(to);
    self->line() << "-> phone of " << (name == self->names_.end() ? to : name->second) << ": \""
                 << t.message.body << "\"\n";
    self->received_[to].push_back({self->clockText(), t.message.body});
  });
  if (Status s = w.gateway.start(w.inbox); !s) return s.error();

  sms_site::CalloutOptions callout;
  callout.laborDir = setup.laborDir;
  callout.settings = setup.settings;
  callout.noShowGrace = setup.noShowGrace;
  site->noShowGrace_ = setup.noShowGrace;
  callout.gate = [&w](const policy::ProposedAction& action) {
    return w.gate->decide(action, w.policy);
  };
  const SmsMailbox mailbox{w.runner, w.inbox, w.outbox, w.conversation, w.contact};
  auto processor = sms_site::ConversationProcessor::create(mailbox, w.engine, w.logger, &callout);
  if (!processor) return processor.error();
  w.processor = std::move(*processor);
  if (w.processor->calloutDesk() == nullptr) return makeError("call-outs did not start");
  // Everyone at work already clocked in when their shift started.
  if (Status s = site->punchArrivals(setup.start - std::chrono::hours(12), setup.start); !s) {
    return s.error();
  }
  // The register: a seeded simulated POS in the site's zone, polled like Square would be. The
  // first poll reads kSalesHistoryDays back, so the demo opens on a site with sales and a forecast.
  drivers::pos::SimulatedPosOptions register_;
  register_.seed = 2026;
  register_.utcOffset = std::chrono::duration_cast<std::chrono::minutes>(
      site->zone_.offsetAt(site::toInstant(setup.start)));
  site->register_ = std::make_unique<drivers::pos::SimulatedPos>(register_);
  site->sales_ = std::make_unique<pos::SalesBook>(w.runner, site->zone_,
                                                  [self] { return self->clock_->now(); });
  drivers::pos::FeedPollerOptions polling;
  polling.firstLookback = std::chrono::hours(24 * kSalesHistoryDays);
  site->salesPoller_ =
      std::make_unique<drivers::pos::FeedPoller>(*site->register_, *site->sales_, polling);
  site->nextSalesPoll_ = setup.start;
  if (Status s = site->pollSales(); !s) return s.error();
  w.engine.start();
  if (Status s = w.runner.run([self](SiteStore& st) -> Status {
        self->narrated_ = st.log().size();
        return Status::success();
      });
      !s) {
    return s.error();
  }
  return site;
}

Status SimulatedSite::text(const std::string& from, const std::string& body) {
  auto name = names_.find(from);
  line(true) << (name == names_.end() ? from : name->second) << " texts: \"" << body << "\"\n";
  drivers::InboundSms sms;
  // The inbox keeps one row per provider id; the simulated gateway numbers from 1 in each run.
  sms.providerId = "SMdemo-callout-" + std::to_string(++inbound_);
  sms.from = from;
  sms.to = kSitePhone;
  sms.body = body;
  sms.receivedAt = clock_->now();
  if (Status s = wiring_->gateway.deliverInbound(sms); !s) return s;
  // What SmsSubsystem does after each stored message.
  sms_site::ConversationProcessor* processor = wiring_->processor.get();
  wiring_->engine.post([processor] { processor->processPending(); });
  if (!wiring_->engine.drain(kStepDeadline)) return makeError("the engine did not finish in time");
  return settle();
}

Status SimulatedSite::wait(std::chrono::minutes minutes) {
  for (int i = 0; i < minutes.count(); ++i) {
    // Punches first: the timers that fire as the clock moves see who is in.
    const TimePoint now = clock_->now();
    if (Status s = punchArrivals(now, now + std::chrono::minutes(1)); !s) return s;
    clock_->advance(std::chrono::minutes(1));
    if (Status s = pollSales(); !s) return s;
    if (!wiring_->engine.drain(kStepDeadline)) {
      return makeError("the engine did not finish in time");
    }
    if (Status s = settle(); !s) return s;
  }
  return Status::success();
}

Status SimulatedSite::settle() {
  std::vector<Entry> entries;
  Status read = wiring_->runner.run([&](SiteStore& st) -> Status {
    auto texts = st.log().entryTexts(narrated_, st.log().size());
    if (!texts) return texts.error();
    for (const std::string& text : *texts) {
      auto entry = parseEntry(text);
      if (!entry) return entry.error();
      entries.push_back(std::move(*entry));
    }
    narrated_ = st.log().size();
    return Status::success();
  });
  if (!read) return read;
  if (!entries.empty() && narrate_) narrate_(entries);
  return wiring_->dispatcher.runPass();
}

Status SimulatedSite::punchArrivals(TimePoint from, TimePoint to) {
  const TimePoint now = clock_->now();
  return wiring_->runner.run([&](SiteStore& st) -> Status {
    auto punched = timeClock_.punchArrivals(st, from, to, now);
    if (!punched) return punched.error();
    return Status::success();
  });
}

Status SimulatedSite::pollSales() {
  const TimePoint now = clock_->now();
  if (now < nextSalesPoll_) return Status::success();
  nextSalesPoll_ = now + kSalesPollInterval;
  (void)salesPoller_->pollOnce(std::chrono::time_point_cast<std::chrono::milliseconds>(now));
  if (!salesPoller_->lastError().empty()) {
    return makeError("the demo register: " + salesPoller_->lastError());
  }
  return Status::success();
}

Result<forecast::SiteForecast> SimulatedSite::forecastToday() {
  const auto today =
      std::chrono::floor<std::chrono::days>(zone_.toLocal(site::toInstant(clock_->now())));
  std::optional<forecast::SiteForecast> out;
  Status read = wiring_->runner.run([&](SiteStore& st) -> Status {
    auto made = forecast::forecastFromSales(st.db(), zone_, today, 1, {});
    if (!made) return made.error();
    out = std::move(*made);
    return Status::success();
  });
  if (!read) return read.error();
  return std::move(*out);
}

Result<SimulatedSite::SalesToday> SimulatedSite::salesToday() {
  const site::LocalTime local = zone_.toLocal(site::toInstant(clock_->now()));
  const auto day = std::chrono::floor<std::chrono::days>(local);
  const site::Instant from = zone_.startOfDay(day);
  const site::Instant to = zone_.startOfDay(day + std::chrono::days(1));
  SalesToday today;
  Status read = wiring_->runner.run([&](SiteStore& st) -> Status {
    auto rows = pos::salesIntervals(st.db(), from, to);
    if (!rows) return rows.error();
    for (const pos::SalesInterval& i : *rows) {
      today.netCents += i.netCents;
      today.transactions += i.transactions;
      today.covers += i.covers;
    }
    forecast::ForecastSales expectation(forecast::ForecastSettings{},
                                        [&st] { return forecast::loadSpecialDays(st.db()); });
    pos::LaborVsSalesSources sources;
    sources.db = &st.db();
    sources.rules = [this](const site::SiteModel&) -> Result<labor::RuleBook> { return *rules_; };
    sources.expectation = &expectation;
    auto labor = pos::readLaborVsSalesDay(sources, day, site::toInstant(clock_->now()));
    if (!labor) return labor.error();
    today.laborSoFar = labor->soFar.laborBasisPoints();
    today.laborProjected = labor->projected.laborBasisPoints();
    return Status::success();
  });
  if (!read) return read.error();
  return today;
}

const site::Person* SimulatedSite::find(std::string_view who) const {
  const std::string key = lower(who);
  const site::Person* found = nullptr;
  for (const site::Person& p : model_.people) {
    if (key == p.phone || key == p.id || key == lower(p.name) || key == lower(firstName(p.name))) {
      if (found != nullptr && found != &p) return nullptr;
      found = &p;
    }
  }
  return found;
}

std::string SimulatedSite::nameOf(std::string_view personId) const {
  for (const site::Person& p : model_.people) {
    if (p.id == personId) return p.name;
  }
  return std::string(personId);
}

std::vector<ReceivedText> SimulatedSite::received(const std::string& phone) const {
  auto it = received_.find(phone);
  return it == received_.end() ? std::vector<ReceivedText>() : it->second;
}

Result<site::SiteModel> SimulatedSite::storedModel() {
  std::optional<site::SiteModel> model;
  Status s = wiring_->runner.run([&](SiteStore& st) -> Status {
    auto stored = site::loadSite(st.db());
    if (!stored) return stored.error();
    model = std::move(*stored);
    return Status::success();
  });
  if (!s) return s.error();
  return std::move(*model);
}

Result<std::string> SimulatedSite::assigneeOf(const std::string& shiftId) {
  auto stored = storedModel();
  if (!stored) return stored.error();
  const site::Shift* shift = site::SiteIndex(*stored).shift(shiftId);
  return shift == nullptr ? std::string() : shift->assignee.value_or("");
}

site::LocalTime SimulatedSite::localNow() const {
  return zone_.toLocal(std::chrono::floor<std::chrono::seconds>(clock_->now()));
}

std::string SimulatedSite::clockText() const { return site::formatLocal(localNow()).substr(11, 5); }

std::string SimulatedSite::dayText() const {
  static constexpr const char* kDays[] = {"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"};
  const site::LocalTime local = localNow();
  const std::chrono::weekday day{std::chrono::floor<std::chrono::days>(local)};
  return std::string(kDays[day.c_encoding()]) + " " + site::formatLocal(local).substr(0, 10);
}

std::string SimulatedSite::hoursOf(const site::Shift& shift) const {
  return site::formatLocal(shift.start.local).substr(11, 5) + "-" +
         site::formatLocal(shift.end.local).substr(11, 5);
}

std::ostream& SimulatedSite::line(bool stamp) {
  const std::string now = clockText();
  if (stamp || now != stampedMinute_) {
    stampedMinute_ = now;
    return out_ << now << "  ";
  }
  return out_ << "       ";
}

}  // namespace atoms::demo
