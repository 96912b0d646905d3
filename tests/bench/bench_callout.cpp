// bench_callout: from a lead's no-show text to the first offer handed to the SMS driver, on a
// generated site (tests/support/synthetic_site.h; default 200 people, four weeks of shifts, San
// Francisco rules). Issue 6: the seed allows two minutes for this.
//
// The pipeline is the one `atoms-edge serve` runs, on a fresh state directory: a TwilioGateway
// (drivers/sms/twilio) serves the signed webhook on loopback HTTP into the Inbox (committed to
// SQLCipher with its audit entry); the ConversationProcessor (daemon/sms/) built as serve builds
// it, with the call-out desk, the real labor rules (etc/labor) and the policy gate, handles it on
// the engine thread over a PostingStoreRunner; the offers go through Outreach into the Outbox; the
// Dispatcher hands them to the gateway, whose REST calls reach a fake Twilio on loopback
// (tests/support/fake_twilio.h). The engine runs on a SimulatedClock set to each report's
// time, so one run walks the whole schedule; nothing waits on it.
//
// Each sample is a new call-out: a co-worker texts "<name> didn't show" five minutes into a
// different absent person's shift (outside quiet hours, that shift being the one the desk finds),
// the shifts spread evenly over the whole schedule. t0 is taken just before the webhook POST is
// written; t1 when the Dispatcher calls send() on the driver with the call-out's first offer,
// seen by a thin SmsGateway wrapped around the TwilioGateway (TimedGateway below). The sample is
// also cut at the engine's conversation pass (its start and end, timed in the event the bench
// posts for it, as SmsSubsystem posts processPending). Samples run one at a time on a quiet
// pipeline. After each,
// the call-out is closed as a site would: the person offered first replies with the code, the
// manager APPROVEs if taking it costs a premium, and failing that the absent person says "I'm
// here"; so waves of earlier call-outs never run under a later sample.
//
// Two phases, each on its own fresh state directory:
//   autonomous  policy.graduation.staffing_scheduling = autonomous: the first text is an offer
//               to a candidate (the figure issue 6 asks for);
//   propose     the default graduation: the first text is the approval request to the manager.
//
// Usage: bench_callout [--people N] [--weeks K] [--samples S] [--seed X]
// Prints figures; asserts only correctness: every sample opened exactly one call-out for the
// chosen shift, and its first text at the driver went to an eligible person (role, consent, not
// the absent person, not denied by the labor rules at that instant) or, in propose, to the manager
// as that call-out's approval request; no message was handed to the driver twice.
#include <Poco/AutoPtr.h>
#include <Poco/ConsoleChannel.h>
#include <Poco/Logger.h>
#include <Poco/Net/HTTPClientSession.h>
#include <Poco/Net/HTTPRequest.h>
#include <Poco/Net/HTTPResponse.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "base/bytes.h"
#include "base/clock.h"
#include "daemon/engine/engine.h"
#include "daemon/sms/conversation_processor.h"
#include "domain/callout/callout_store.h"
#include "domain/labor/labor_engine.h"
#include "domain/labor/rule_table.h"
#include "domain/labor/schedule_change.h"
#include "domain/policy/policy_gate.h"
#include "domain/policy/shipped_actions.h"
#include "domain/site/site_model.h"
#include "domain/site/site_repository.h"
#include "domain/site/time_zone.h"
#include "drivers/sms/twilio/form_body.h"
#include "drivers/sms/twilio/twilio_gateway.h"
#include "drivers/sms/twilio/twilio_signature.h"
#include "sms/conversation/conversation_settings.h"
#include "sms/mailbox/dispatcher.h"
#include "sms/mailbox/inbox.h"
#include "sms/mailbox/outbox.h"
#include "store/site_store.h"
#include "store/state_dir.h"
#include "store/store_runner.h"
#include "tests/bench/bench_support.h"
#include "tests/support/build_paths.h"
#include "tests/support/fake_twilio.h"
#include "tests/support/synthetic_site.h"
#include "tests/support/temp_dir.h"

namespace atoms {
namespace {

using bench::die;
using bench::must;
using Steady = bench::Clock;
using namespace std::chrono_literals;

const std::string kSiteNumber = "+14155550100";
const std::string kPublicUrl = "https://bench-site.example.net/atoms";
constexpr auto kReportAfter = 5min;        // the lead texts this long after the shift started
constexpr auto kQuietDeadline = 60'000ms;  // real time; a pipeline this slow is broken
constexpr double kSeedLimitMs = 120'000;   // seed 000: offers out within two minutes

struct Options {
  std::uint64_t people = 200;
  std::uint64_t weeks = 4;
  std::uint64_t samples = 500;
  std::uint64_t seed = 1;
};

double msBetween(Steady::time_point a, Steady::time_point b) {
  return std::chrono::duration<double, std::milli>(b - a).count();
}

double percentile(std::vector<double> values, double p) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  return values[static_cast<std::size_t>(p * static_cast<double>(values.size() - 1))];
}

site::Instant instant(TimePoint t) { return std::chrono::floor<std::chrono::seconds>(t); }
TimePoint timePoint(site::Instant t) { return TimePoint(t.time_since_epoch()); }

bool hasRole(const site::Person& p, std::string_view station) {
  return std::find(p.roles.begin(), p.roles.end(), station) != p.roles.end();
}

// The driver boundary: every send() the Dispatcher makes is timed at the call (the message is
// then the driver's) and when the driver returns (the provider accepted it), then passed on.
// Thread-safe: send() runs on the dispatcher thread, the rest on the main thread.
class TimedGateway final : public drivers::SmsGateway {
 public:
  struct Send {
    std::string key;  // the outbox id: "callout-3-offer-12", "approval-4-request", ...
    std::string to;
    std::string body;
    Steady::time_point handed;    // send() called
    Steady::time_point returned;  // the driver's answer
    bool accepted = false;
  };

  explicit TimedGateway(drivers::SmsGateway& inner) : inner_(inner) {}

  std::string_view name() const override { return inner_.name(); }
  Status start(drivers::SmsSink& sink) override { return inner_.start(sink); }
  void stop() override { inner_.stop(); }
  drivers::SendResult send(const drivers::OutboundSms& message) override {
    const Steady::time_point handed = Steady::now();
    drivers::SendResult result = inner_.send(message);
    const Steady::time_point returned = Steady::now();
    std::lock_guard lock(mutex_);
    sends_.push_back(
        {message.idempotencyKey, message.to, message.body, handed, returned, result.ok()});
    return result;
  }
  drivers::ReconcileResult reconcile(const drivers::OutboundSms& message,
                                     drivers::SmsClock::time_point since) override {
    return inner_.reconcile(message, since);
  }

  std::size_t count() const {
    std::lock_guard lock(mutex_);
    return sends_.size();
  }
  // The first send from index `from` on whose key starts with `prefix` and contains `part`.
  std::optional<Send> firstSince(std::size_t from, std::string_view prefix,
                                 std::string_view part) const {
    std::lock_guard lock(mutex_);
    for (std::size_t i = from; i < sends_.size(); ++i) {
      const Send& s = sends_[i];
      if (s.key.rfind(prefix, 0) == 0 && s.key.find(part) != std::string::npos) return s;
    }
    return std::nullopt;
  }
  // Keys handed to the driver more than once (none, or the outbox sent something twice).
  std::size_t repeatedKeys() const {
    std::lock_guard lock(mutex_);
    std::set<std::string> seen;
    std::size_t repeated = 0;
    for (const Send& s : sends_) repeated += seen.insert(s.key).second ? 0 : 1;
    return repeated;
  }

 private:
  drivers::SmsGateway& inner_;
  mutable std::mutex mutex_;
  std::vector<Send> sends_;
};

// Who may be offered a shift at an instant, decided apart from the desk: the station's role,
// consent to texts, not the absent person, and the labor engine does not deny the pickup. Keeps
// its own copy of the schedule, told of every shift the bench's call-outs give away.
class EligibilityCheck {
 public:
  EligibilityCheck(site::SiteModel model, labor::RuleBook rules)
      : model_(std::move(model)), rules_(std::move(rules)) {}
  EligibilityCheck(const EligibilityCheck&) = delete;
  EligibilityCheck& operator=(const EligibilityCheck&) = delete;

  const site::SiteModel& model() const { return model_; }
  site::SiteModel& model() { return model_; }  // assign() is how its shifts change

  void assign(std::string_view shiftId, const std::string& personId) {
    for (site::Shift& s : model_.shifts) {
      if (s.id == shiftId) s.assignee = personId;
    }
    changes_.reset();
    context_.reset();
  }

  bool eligible(const site::Person& p, const site::Shift& shift, TimePoint now) {
    if (!hasRole(p, shift.stationId) || !p.smsConsent.granted) return false;
    if (shift.assignee && *shift.assignee == p.id) return false;
    if (!changes_) {
      context_.emplace(must(labor::LaborContext::build(model_, rules_), "labor context"));
      changes_.emplace(must(labor::ChangeEvaluator::build(*context_), "change evaluator"));
    }
    const labor::ScheduleChange pickup{labor::AssignShift{p.id, shift.id}, true};
    const labor::ChangeVerdict verdict = must(changes_->evaluate(pickup, instant(now)), "evaluate");
    const labor::PersonVerdict* mine = verdict.person(p.id);
    return mine != nullptr && mine->verdict.kind != labor::VerdictKind::kDenied;
  }

  bool anyoneEligible(const site::Shift& shift, TimePoint now) {
    return std::any_of(model_.people.begin(), model_.people.end(),
                       [&](const site::Person& p) { return eligible(p, shift, now); });
  }

 private:
  site::SiteModel model_;
  labor::RuleBook rules_;
  std::optional<labor::LaborContext> context_;  // points into model_ and rules_
  std::optional<labor::ChangeEvaluator> changes_;
};

// The shifts a report can be about: assigned, and the report time outside quiet hours (offers
// would be held till morning). In start order.
std::vector<site::Shift*> plannedShifts(site::SiteModel& model, const site::TimeZone& zone,
                                        const sms::OutreachSettings& outreach) {
  std::vector<site::Shift*> out;
  for (site::Shift& s : model.shifts) {
    if (s.assignee && !sms::inQuietHours(outreach, zone.toLocal(s.start.utc + kReportAfter))) {
      out.push_back(&s);
    }
  }
  return out;
}

// The shift the desk finds for a person at `at`: their current one, or their next one starting
// within the lookahead (CalloutDesk::shiftOf, the same rule).
const site::Shift* shiftOf(const site::SiteModel& model, std::string_view personId,
                           site::Instant at, std::chrono::hours lookahead) {
  const site::Shift* best = nullptr;
  for (const site::Shift& s : model.shifts) {
    if (!s.assignee || *s.assignee != personId || s.end.utc <= at) continue;
    if (s.start.utc > at + lookahead) continue;
    if (best == nullptr || s.start.utc < best->start.utc) best = &s;
  }
  return best;
}

// What Twilio POSTs for one inbound SMS, signed for the public URL.
struct Webhook {
  std::string body;
  std::string signature;
};

Webhook inboundWebhook(const std::string& token, const std::string& account, int serial,
                       const std::string& from, const std::string& text) {
  char sid[35];
  std::snprintf(sid, sizeof sid, "SM%032x", static_cast<unsigned>(serial));
  const drivers::twilio::FormFields fields{{"ToCountry", "US"},         {"ToState", "CA"},
                                           {"SmsMessageSid", sid},      {"NumMedia", "0"},
                                           {"ToCity", "SAN FRANCISCO"}, {"SmsSid", sid},
                                           {"SmsStatus", "received"},   {"Body", text},
                                           {"FromCountry", "US"},       {"To", kSiteNumber},
                                           {"NumSegments", "1"},        {"MessageSid", sid},
                                           {"AccountSid", account},     {"From", from},
                                           {"ApiVersion", "2010-04-01"}};
  return {drivers::twilio::encodeForm(fields),
          drivers::twilio::twilioSignature(asBytes(token), kPublicUrl + "/sms/inbound", fields)};
}

struct PhaseFigures {
  std::string name;
  std::vector<double> totalMs;     // t0 -> first text handed to the driver
  std::vector<double> webhookMs;   // t0 -> the webhook's 200 (the inbox row committed)
  std::vector<double> share;       // webhookMs / totalMs, per sample
  std::vector<double> providerMs;  // handed -> the driver's REST call to the provider returned
  // The sample in three parts: t0 -> the engine starts the conversation pass (webhook, inbox
  // commit, post); the pass (the turn and its commit); the pass's end -> t1 (dispatcher).
  std::vector<double> toEngineMs, passMs, toDriverMs;
  int skipped = 0;    // planned shifts passed over: not the one the desk finds, or nobody to offer
  int covered = 0;    // closed by the person offered first
  int approved = 0;   // ... after their manager's APPROVE
  int withdrawn = 0;  // closed by the absent person turning up
  std::size_t driverSends = 0;
  std::vector<std::vector<double>> byWeekMs;  // totalMs by week of the schedule
  std::string firstDay, lastDay;
};

// One phase: a fresh state directory with the site imported, the serve pipeline over it, and the
// samples. `firstKey`/`firstPart` say which text is the one measured.
class Phase {
 public:
  Phase(const Options& options, const site::SiteModel& model, labor::RuleBook rules,
        policy::Graduation graduation, Poco::Logger& logger)
      : options_(options),
        graduation_(graduation),
        logger_(logger),
        check_(model, std::move(rules)),
        zone_(must(site::TimeZone::locate(model.site.timeZone), "time zone")) {}

  PhaseFigures run() {
    PhaseFigures figures;
    figures.name = std::string(policy::graduationName(graduation_));
    std::transform(figures.name.begin(), figures.name.end(), figures.name.begin(),
                   [](unsigned char ch) { return static_cast<char>(std::tolower(ch)); });
    const std::vector<site::Shift*> planned =
        plannedShifts(check_.model(), zone_, conversation_.outreach);
    if (planned.empty()) die("no shift on the site can be reported");
    start(timePoint(planned.front()->start.utc + kReportAfter) - 1h);

    const std::size_t n = planned.size();
    const std::size_t want = std::min<std::size_t>(options_.samples, n);
    std::size_t next = 0;
    for (std::size_t k = 0; k < want; ++k) {
      next = std::max(next, k * n / want);  // spread over the whole schedule
      while (next < n && !reportable(*planned[next])) {
        ++figures.skipped;
        ++next;
      }
      if (next == n) break;
      sample(*planned[next], figures);
      ++next;
    }
    figures.driverSends = gateway_->count();
    if (gateway_->repeatedKeys() != 0) die("a message was handed to the driver twice");
    stop();
    if (figures.totalMs.empty()) die("no call-out could be measured");
    return figures;
  }

 private:
  void start(TimePoint at) {
    const std::string stateDir = tmp_.sub("state");
    must(initStateDir(stateDir, {check_.model().site.id}), "init state dir");
    store_ = must(SiteStore::open(stateDir), "open store");
    must(site::importSite(store_->db(), check_.model()), "import site");

    clock_ = std::make_unique<SimulatedClock>(at);
    engine_ = std::make_unique<Engine>(*clock_, logger_);
    engine_->start();
    Engine& engine = *engine_;
    runner_ = std::make_unique<atoms::PostingStoreRunner>(*store_, engine);
    const Clock& clock = *clock_;
    auto now = [&clock] { return clock.now(); };
    outbox_ = std::make_unique<sms::mailbox::Outbox>(*runner_, now, [] { return 0.5; });
    inbox_ = std::make_unique<sms::mailbox::Inbox>(*runner_, *outbox_, "twilio", now);

    provider_ = std::make_unique<drivers::twilio::FakeTwilio>();
    must(provider_->start(), "fake Twilio");
    drivers::twilio::TwilioConfig config;
    config.accountSid = provider_->options().accountSid;
    config.authToken = SecretBytes(asBytes(provider_->options().authToken));
    config.apiBaseUrl = provider_->baseUrl();
    config.from = kSiteNumber;
    config.publicUrl = kPublicUrl;  // as behind a site's TLS proxy; served on loopback
    config.listenPort = 0;
    drivers::twilio::TwilioGatewayOptions gatewayOptions;
    gatewayOptions.now = now;
    gatewayOptions.onRefused = [](const drivers::twilio::RefusedWebhook& r) {
      std::fprintf(stderr, "webhook refused: %d %s\n", r.httpStatus, r.reason.c_str());
    };
    twilio_ = std::make_unique<drivers::twilio::TwilioGateway>(std::move(config), gatewayOptions);
    gateway_ = std::make_unique<TimedGateway>(*twilio_);

    // As EdgeServer's factory and SmsSubsystem build it.
    const site::Person& manager = check_.model().people.front();  // p-0000, everyone's manager
    contact_ = {manager.name, manager.phone};
    policy_.graduation["staffing_scheduling"] = graduation_;
    gate_ = std::make_unique<policy::PolicyGate>(must(policy::shippedActionTable(), "actions"));
    callout_.laborDir = atoms::testing::sourceDir() + "/etc/labor";
    // The generated site has no time clocks: with the watch on, every shift of the four weeks
    // would look like a no-show to ask the manager about. A site without clocks turns it off.
    callout_.noShowGrace = 0min;
    callout_.gate = [this](const policy::ProposedAction& a) { return gate_->decide(a, policy_); };
    const SmsMailbox mailbox{*runner_, *inbox_, *outbox_, conversation_, contact_};
    processor_ = must(sms_site::ConversationProcessor::create(mailbox, engine, logger_, &callout_),
                      "conversation processor");
    if (processor_->calloutDesk() == nullptr) die("call-outs are off (see the log above)");
    inbox_->setOnStored([this](const sms::mailbox::InboxRow&) {
      if (processingPosted_.exchange(true)) return;  // one pending pass covers a burst
      engine_->post([this] {
        processingPosted_ = false;
        const Steady::time_point begun = Steady::now();
        processor_->processPending();
        const Steady::time_point ended = Steady::now();
        std::lock_guard lock(passMutex_);
        passes_.push_back({begun, ended});
      });
    });

    sms::mailbox::DispatcherOptions dispatch;
    dispatch.followsSystemTime = false;
    dispatch.onError = [](const std::string& e) {
      std::fprintf(stderr, "dispatcher: %s\n", e.c_str());
    };
    dispatcher_ = std::make_unique<sms::mailbox::Dispatcher>(*outbox_, *gateway_, dispatch);
    clockListener_ = clock_->addListener([this] { dispatcher_->wake(); });
    must(gateway_->start(*inbox_), "webhook server");
    must(dispatcher_->start(), "dispatcher");
    session_ = std::make_unique<Poco::Net::HTTPClientSession>("127.0.0.1", twilio_->webhookPort());
    session_->setKeepAlive(true);
    session_->setTimeout(Poco::Timespan(60, 0));
  }

  void stop() {
    session_.reset();
    clock_->removeListener(clockListener_);
    dispatcher_->stop();
    gateway_->stop();
    // The processor's timers belong to the engine: destroyed on its thread.
    must(runner_->run([this](SiteStore&) {
      processor_.reset();
      return Status::success();
    }),
         "processor teardown");
    engine_->stop();
    provider_->stop();
  }

  // Everything the last input and clock change caused has run: the engine's events and due
  // timers, and the dispatcher's sends (each recorded through the engine).
  void quiet() {
    if (!engine_->drain(kQuietDeadline) || !dispatcher_->waitUntilIdle(kQuietDeadline) ||
        !engine_->drain(kQuietDeadline)) {
      die("the pipeline did not settle within a minute");
    }
  }

  // Sends one signed inbound text; returns when its 200 came back.
  Steady::time_point text(const std::string& from, const std::string& body) {
    const Webhook w = inboundWebhook(provider_->options().authToken,
                                     provider_->options().accountSid, ++serial_, from, body);
    Poco::Net::HTTPRequest req(Poco::Net::HTTPRequest::HTTP_POST, "/sms/inbound",
                               Poco::Net::HTTPMessage::HTTP_1_1);
    req.setKeepAlive(true);
    req.setContentType("application/x-www-form-urlencoded");
    req.setContentLength(static_cast<std::streamsize>(w.body.size()));
    req.set("X-Twilio-Signature", w.signature);
    try {
      session_->sendRequest(req) << w.body;
      Poco::Net::HTTPResponse resp;
      std::istream& in = session_->receiveResponse(resp);
      std::ostringstream answer;
      answer << in.rdbuf();
      if (resp.getStatus() != Poco::Net::HTTPResponse::HTTP_OK) {
        die("webhook answered " + std::to_string(resp.getStatus()));
      }
    } catch (const std::exception& e) {
      die(std::string("webhook request failed: ") + e.what());
    }
    return Steady::now();
  }

  // At the report's time the desk finds this shift for its assignee (no earlier shift of theirs,
  // one they took in an earlier sample say, still runs), and someone could be offered it (else the
  // desk rightly offers nobody: not a sample).
  bool reportable(const site::Shift& shift) {
    const site::Instant at = shift.start.utc + kReportAfter;
    return shiftOf(check_.model(), *shift.assignee, at, callout_.settings.lookahead) == &shift &&
           check_.anyoneEligible(shift, timePoint(at));
  }

  const site::Person& person(std::string_view id) const {
    const auto& people = check_.model().people;
    auto it = std::find_if(people.begin(), people.end(),
                           [&](const site::Person& p) { return p.id == id; });
    if (it == people.end()) die("no person " + std::string(id));
    return *it;
  }

  // A co-worker with texts on, rotating through the site: neither the absent person nor the
  // manager.
  const site::Person& reporterFor(const site::Person& absent) {
    const auto& people = check_.model().people;
    for (;;) {
      reporter_ = 1 + (reporter_ + 52) % (people.size() - 1);
      const site::Person& p = people[reporter_];
      if (p.id != absent.id && p.smsConsent.granted) return p;
    }
  }

  std::size_t passCount() {
    std::lock_guard lock(passMutex_);
    return passes_.size();
  }
  std::pair<Steady::time_point, Steady::time_point> pass(std::size_t index) {
    std::lock_guard lock(passMutex_);
    if (index >= passes_.size()) die("no conversation pass ran");
    return passes_[index];
  }

  callout::CalloutRow calloutRow(std::int64_t id) {
    std::optional<callout::CalloutRow> row;
    must(runner_->run([&](SiteStore& st) -> Status {
      auto found = callout::CalloutStore(st.db()).callout(id);
      if (!found) return found.error();
      row = std::move(*found);
      return Status::success();
    }),
         "read call-out");
    if (!row) die("no call-out " + std::to_string(id));
    return *row;
  }

  std::int64_t calloutCount() {
    std::int64_t count = 0;
    must(runner_->run([&](SiteStore& st) -> Status {
      auto stmt = st.db().prepare("SELECT COUNT(*) FROM callout");
      if (!stmt) return stmt.error();
      auto row = stmt->step();
      if (!row) return row.error();
      count = stmt->columnInt64(0);
      return Status::success();
    }),
         "count call-outs");
    return count;
  }

  callout::ApprovalRow approval(std::int64_t id) {
    std::optional<callout::ApprovalRow> row;
    must(runner_->run([&](SiteStore& st) -> Status {
      auto found = callout::CalloutStore(st.db()).approval(id);
      if (!found) return found.error();
      row = std::move(*found);
      return Status::success();
    }),
         "read approval");
    if (!row) die("no approval " + std::to_string(id));
    return *row;
  }

  std::vector<callout::ApprovalRow> approvals(std::int64_t calloutId) {
    std::vector<callout::ApprovalRow> rows;
    must(runner_->run([&](SiteStore& st) -> Status {
      auto found = callout::CalloutStore(st.db()).approvalsFor(calloutId);
      if (!found) return found.error();
      rows = std::move(*found);
      return Status::success();
    }),
         "read approvals");
    return rows;
  }

  // "... Reply 4821 to take it ..." -> "4821".
  static std::string offerCode(const std::string& body) {
    const std::size_t at = body.find(" to take it");
    if (at == std::string::npos || at < 10 || body.compare(at - 10, 6, "Reply ") != 0) return "";
    return body.substr(at - 4, 4);
  }

  static std::int64_t idAfter(const std::string& key, std::string_view prefix) {
    return std::stoll(key.substr(prefix.size()));
  }

  void sample(const site::Shift& shift, PhaseFigures& figures) {
    const TimePoint at = timePoint(shift.start.utc + kReportAfter);
    clock_->set(at);
    quiet();  // timers the move made due, before t0
    const site::Person& absent = person(*shift.assignee);
    const site::Person& lead = reporterFor(absent);
    const std::int64_t calloutsBefore = calloutCount();
    const std::size_t sendsBefore = gateway_->count();
    const std::size_t passesBefore = passCount();

    const Steady::time_point t0 = Steady::now();
    const Steady::time_point answered =
        text(lead.phone, "Hey, " + absent.name + " didn't show, I'm alone on the line");
    quiet();

    const bool propose = graduation_ == policy::Graduation::kPropose;
    const std::optional<TimedGateway::Send> first =
        propose ? gateway_->firstSince(sendsBefore, "approval-", "-request")
                : gateway_->firstSince(sendsBefore, "callout-", "-offer-");
    const std::string what =
        "shift " + shift.id + " (" + absent.id + ", reported by " + lead.id + "): ";
    if (!first)
      die(what + "no " + (propose ? "approval request" : "offer") + " reached the driver");
    if (!first->accepted) die(what + "the driver did not accept " + first->key);
    if (calloutCount() != calloutsBefore + 1) die(what + "not exactly one call-out opened");
    const auto [passBegun, passEnded] = pass(passesBefore);
    if (passBegun < t0 || first->handed < passEnded) die(what + "the first pass did not send it");

    std::int64_t calloutId = 0;
    if (propose) {
      const callout::ApprovalRow asked = approval(idAfter(first->key, "approval-"));
      if (asked.kind != "callout.offer" || first->to != contact_.phone) {
        die(what + first->key + " is not an approval request for offers to the manager");
      }
      calloutId = asked.calloutId;
    } else {
      calloutId = idAfter(first->key, "callout-");
    }
    const callout::CalloutRow c = calloutRow(calloutId);
    if (c.shiftId != shift.id || c.absentId != absent.id || c.reporterId != lead.id) {
      die(what + "call-out " + std::to_string(calloutId) + " is for shift " + c.shiftId);
    }
    if (!propose) {
      const auto& people = check_.model().people;
      auto offered = std::find_if(people.begin(), people.end(),
                                  [&](const site::Person& p) { return p.phone == first->to; });
      if (offered == people.end() || offered->id == absent.id ||
          !check_.eligible(*offered, shift, at)) {
        die(what + first->key + " went to someone who may not work the shift");
      }
    }

    const double total = msBetween(t0, first->handed);
    figures.totalMs.push_back(total);
    figures.webhookMs.push_back(msBetween(t0, answered));
    figures.share.push_back(msBetween(t0, answered) / total);
    figures.providerMs.push_back(msBetween(first->handed, first->returned));
    figures.toEngineMs.push_back(msBetween(t0, passBegun));
    figures.passMs.push_back(msBetween(passBegun, passEnded));
    figures.toDriverMs.push_back(msBetween(passEnded, first->handed));
    const std::chrono::local_days local =
        std::chrono::floor<std::chrono::days>(zone_.toLocal(instant(at)));
    const std::chrono::local_days firstLocal =
        std::chrono::floor<std::chrono::days>(check_.model().shifts.front().start.local);
    const auto week = static_cast<std::size_t>((local - firstLocal).count() / 7);
    if (figures.byWeekMs.size() <= week) figures.byWeekMs.resize(week + 1);
    figures.byWeekMs[week].push_back(total);
    const std::chrono::year_month_day ymd{local};
    char day[32];
    std::snprintf(day, sizeof day, "%04d-%02u-%02u", static_cast<int>(ymd.year()),
                  static_cast<unsigned>(ymd.month()), static_cast<unsigned>(ymd.day()));
    if (figures.firstDay.empty()) figures.firstDay = day;
    figures.lastDay = day;

    close(c, propose ? std::nullopt : first, absent, figures);
  }

  // Ends the call-out as a site would, so its later waves never run under another sample.
  void close(const callout::CalloutRow& c, const std::optional<TimedGateway::Send>& offer,
             const site::Person& absent, PhaseFigures& figures) {
    if (offer) {
      const std::string code = offerCode(offer->body);
      if (code.empty()) die(offer->key + " has no reply code: " + offer->body);
      text(offer->to, code);
      quiet();
      if (calloutRow(c.id).state == callout::CalloutState::kOpen) {
        for (const callout::ApprovalRow& a : approvals(c.id)) {
          if (a.state != callout::ApprovalState::kPending || a.approverPhone.empty()) continue;
          text(a.approverPhone, "APPROVE " + std::to_string(a.id));
          quiet();
        }
      }
      const callout::CalloutRow after = calloutRow(c.id);
      if (after.state == callout::CalloutState::kCovered) {
        ++(approvals(c.id).empty() ? figures.covered : figures.approved);
        check_.assign(c.shiftId, after.coveredBy);
        return;
      }
    }
    text(absent.phone, "I'm here");
    quiet();
    if (calloutRow(c.id).state != callout::CalloutState::kWithdrawn) {
      die("call-out " + std::to_string(c.id) + " did not close when the absent person arrived");
    }
    ++figures.withdrawn;
  }

  const Options& options_;
  policy::Graduation graduation_;
  Poco::Logger& logger_;
  EligibilityCheck check_;
  site::TimeZone zone_;
  sms::conversation::ConversationSettings conversation_;
  sms::conversation::HumanContact contact_;
  policy::PolicyState policy_;
  sms_site::CalloutOptions callout_;
  std::size_t reporter_ = 0;
  int serial_ = 0;

  atoms::testing::TempDir tmp_;
  std::unique_ptr<SiteStore> store_;
  std::unique_ptr<SimulatedClock> clock_;
  std::unique_ptr<Engine> engine_;
  std::unique_ptr<atoms::PostingStoreRunner> runner_;
  std::unique_ptr<sms::mailbox::Outbox> outbox_;
  std::unique_ptr<sms::mailbox::Inbox> inbox_;
  std::unique_ptr<drivers::twilio::FakeTwilio> provider_;
  std::unique_ptr<drivers::twilio::TwilioGateway> twilio_;
  std::unique_ptr<TimedGateway> gateway_;
  std::unique_ptr<policy::PolicyGate> gate_;
  std::unique_ptr<sms_site::ConversationProcessor> processor_;
  std::atomic<bool> processingPosted_{false};
  std::mutex passMutex_;  // passes_ is written on the engine thread, read on the main thread
  std::vector<std::pair<Steady::time_point, Steady::time_point>> passes_;  // conversation passes
  std::unique_ptr<sms::mailbox::Dispatcher> dispatcher_;
  Clock::ListenerId clockListener_ = 0;
  std::unique_ptr<Poco::Net::HTTPClientSession> session_;
};

void print(const PhaseFigures& f, const char* first) {
  std::printf("%s: %zu call-outs, local days %s to %s, each a different absent person's shift",
              f.name.c_str(), f.totalMs.size(), f.firstDay.c_str(), f.lastDay.c_str());
  std::printf(
      " (%d passed over: another shift of the person's would be found first, or nobody could be "
      "offered it)\n",
      f.skipped);
  std::printf(
      "  webhook POST -> %s handed to the driver (ms): p50 %.2f  p90 %.2f  p99 %.2f  max %.2f"
      "   (the seed allows %.0f)\n",
      first, percentile(f.totalMs, 0.50), percentile(f.totalMs, 0.90), percentile(f.totalMs, 0.99),
      *std::max_element(f.totalMs.begin(), f.totalMs.end()), kSeedLimitMs);
  std::printf(
      "  of which the webhook, POST -> 200 (inbox row committed) (ms): p50 %.2f  p99 %.2f;"
      " median share of a sample %.0f%%\n",
      percentile(f.webhookMs, 0.50), percentile(f.webhookMs, 0.99), 100 * percentile(f.share, 0.5));
  std::printf(
      "  in three parts (ms, p50 / p99): to the engine %.2f / %.2f; conversation pass %.2f / "
      "%.2f; outbox to the driver %.2f / %.2f\n",
      percentile(f.toEngineMs, 0.5), percentile(f.toEngineMs, 0.99), percentile(f.passMs, 0.5),
      percentile(f.passMs, 0.99), percentile(f.toDriverMs, 0.5), percentile(f.toDriverMs, 0.99));
  std::printf("  p50 by week of the schedule (ms):");
  for (const std::vector<double>& week : f.byWeekMs) std::printf(" %.2f", percentile(week, 0.5));
  std::printf("\n");
  std::printf("  then the driver's REST call to the provider (ms): p50 %.2f  p99 %.2f\n",
              percentile(f.providerMs, 0.50), percentile(f.providerMs, 0.99));
  std::printf(
      "  after each sample: %d covered by the first person offered, %d after their manager's "
      "APPROVE, %d withdrawn (the absent person turned up); %zu texts handed to the driver in "
      "all\n",
      f.covered, f.approved, f.withdrawn, f.driverSends);
}

int run(const Options& o) {
  if (o.people < 2 || o.weeks < 1 || o.samples < 1)
    die("--people >= 2, --weeks and --samples >= 1");
  atoms::testing::SyntheticSiteSpec spec;
  spec.seed = o.seed;
  spec.people = static_cast<int>(o.people);
  spec.stations = 8;
  spec.weeks = static_cast<int>(o.weeks);
  spec.industry = "retail";
  const site::SiteModel model = atoms::testing::syntheticSite(spec);
  const std::string laborDir = atoms::testing::sourceDir() + "/etc/labor";
  std::size_t assigned = 0;
  for (const site::Shift& s : model.shifts) assigned += s.assignee ? 1 : 0;
  std::string codes;
  for (const std::string& c : model.site.jurisdictions) codes += (codes.empty() ? "" : ",") + c;

  Poco::Logger& logger = Poco::Logger::get("bench_callout");
  logger.setChannel(Poco::AutoPtr<Poco::Channel>(new Poco::ConsoleChannel));
  logger.setLevel(Poco::Message::PRIO_WARNING);

  std::printf(
      "call-out benchmark: %llu people, %zu stations, %llu weeks, %zu shifts (%zu assigned), "
      "rules %s\n",
      static_cast<unsigned long long>(o.people), model.stations.size(),
      static_cast<unsigned long long>(o.weeks), model.shifts.size(), assigned, codes.c_str());
  std::printf(
      "pipeline: signed Twilio webhook over loopback HTTP -> Inbox (SQLCipher, WAL, "
      "synchronous=FULL) -> ConversationProcessor and call-out desk on the engine thread -> "
      "Outbox -> Dispatcher -> TwilioGateway::send (timed at the call) -> fake Twilio REST\n");
  for (policy::Graduation g : {policy::Graduation::kAutonomous, policy::Graduation::kPropose}) {
    const labor::RuleBook rules =
        must(labor::loadRuleBook(laborDir, model.site.jurisdictions), "rule tables");
    const PhaseFigures f = Phase(o, model, rules, g, logger).run();
    print(f,
          g == policy::Graduation::kAutonomous ? "first offer" : "approval request to the manager");
  }
  return 0;
}

}  // namespace
}  // namespace atoms

int main(int argc, char** argv) {
  atoms::Options o;
  atoms::bench::parseOptions(argc, argv,
                             {{"--people", &o.people},
                              {"--weeks", &o.weeks},
                              {"--samples", &o.samples},
                              {"--seed", &o.seed}});
  return atoms::run(o);
}
