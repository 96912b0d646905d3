#include "daemon/service/api_subsystem.h"

#include <algorithm>

#include "base/writer_call.h"
#include "daemon/api/api_router.h"
#include "daemon/api/approvals_resource.h"
#include "daemon/api/approvals_server.h"
#include "daemon/api/audit_resource.h"
#include "daemon/api/callout_json.h"
#include "daemon/api/callouts_resource.h"
#include "daemon/api/forecast_resource.h"
#include "daemon/api/killswitch_resource.h"
#include "daemon/api/offers_resource.h"
#include "daemon/api/packets_resource.h"
#include "daemon/api/people_resource.h"
#include "daemon/api/policy_resource.h"
#include "daemon/api/pos_health_json.h"
#include "daemon/api/requests_resource.h"
#include "daemon/api/safety_resource.h"
#include "daemon/api/sales_labor_resource.h"
#include "daemon/api/schedule_resource.h"
#include "daemon/api/settings_resource.h"
#include "daemon/api/shadow_resource.h"
#include "daemon/api/today_resource.h"
#include "daemon/engine/engine.h"
#include "daemon/log/log.h"
#include "daemon/panel/panel_roles.h"
#include "daemon/service/config_schema.h"
#include "daemon/service/engine_subsystem.h"
#include "daemon/service/forecast_config.h"
#include "daemon/service/intraday_watcher.h"
#include "daemon/service/listen_address.h"
#include "daemon/service/policy_subsystem.h"
#include "daemon/service/pos_subsystem.h"
#include "daemon/service/refusal_audit.h"
#include "daemon/service/site_breakers.h"
#include "daemon/service/store_subsystem.h"
#include "domain/callout/callout_store.h"
#include "domain/callout/shadow_judge.h"
#include "domain/forecast/forecast_expectation.h"
#include "domain/forecast/proposal_desk.h"
#include "domain/forecast/special_day_store.h"
#include "domain/site/site_repository.h"
#include "domain/week/week_desk.h"
#include "drivers/http/bearer_tokens.h"
#include "sms/conversation/checklist_desk.h"
#include "sms/conversation/offers_pause.h"
#include "sms/conversation/safety_desk.h"
#include "sms/mailbox/message_checks.h"

namespace atoms {
namespace {

// Whether any POS driver is configured (docs/pos.md).
bool posConfigured(const Poco::Util::AbstractConfiguration& config) {
  return !configString(config, "pos.square.location_ids").empty() ||
         !configString(config, "pos.push.listen").empty() ||
         !configString(config, "pos.csv.directory").empty();
}

}  // namespace

ApiSubsystem::ApiSubsystem(Poco::Logger& logger, StoreSubsystem& store, EngineSubsystem& engine)
    : logger_(logger), store_(store), engine_(engine) {}

ApiSubsystem::~ApiSubsystem() { tearDown(); }

std::uint16_t ApiSubsystem::port() const { return server_ ? server_->port() : 0; }

Status ApiSubsystem::start(Poco::Util::Application& app) {
  const auto timeout =
      std::chrono::milliseconds(configInteger(app.config(), "api.request_timeout_ms"));
  owners_ = splitConfigList(configString(app.config(), "policy.owners"));
  syncConfigured_ = !configString(app.config(), "sync.broker").empty();
  refusalAudit_ =
      std::make_unique<RefusalAudit>("api.refused", "api request refused", kRefusalAuditsPerMinute);
  salesLabor_ = salesLaborAccess(app.config());
  std::vector<std::shared_ptr<api::ApiResource>> resources;
  resources.push_back(offersResource());
  resources.push_back(todayResource(
      std::chrono::minutes(configInteger(app.config(), "callout.no_show_grace_minutes"))));
  resources.push_back(calloutsResource());
  resources.push_back(auditResource());
  resources.push_back(peopleResource(
      std::chrono::minutes(configInteger(app.config(), "callout.no_show_grace_minutes"))));
  resources.push_back(safetyResource());
  resources.push_back(scheduleResource(configString(app.config(), "labor.rules_dir")));
  resources.push_back(settingsResource(app.config()));
  resources.push_back(std::make_shared<api::SalesLaborResource>(salesLabor_));
  auto forecast = forecastResource(app.config());
  if (!forecast) return forecast.error();
  resources.push_back(std::move(*forecast));
  if (policy_ != nullptr) {
    resources.push_back(killSwitchResource());
    resources.push_back(policyResource());
    resources.push_back(packetsResource());
    resources.push_back(shadowResource());
  }
  const api::BookSource books = [this]() -> callout::ApprovalBook* {
    return active_ ? book_ : nullptr;
  };
  resources.push_back(std::make_shared<api::RequestsResource>(
      [this]() -> requests::RequestBook* { return active_ ? requests_ : nullptr; }));
  std::vector<std::shared_ptr<api::ApiResource>> all{
      std::make_shared<api::ApprovalsResource>(books)};
  all.insert(all.end(), resources.begin(), resources.end());
  router_ = std::make_unique<api::ApiRouter>(engine_.engine(), std::move(all),
                                             api::ApiRouterOptions{kMaxBodyBytes, timeout});
  active_ = true;  // before anything can post to the engine

  const std::string listenText = configString(app.config(), "api.listen");
  if (listenText.empty()) {
    logInfo(logger_, "the API port is off (api.listen is empty); the panel serves the API");
    return Status::success();
  }
  const std::optional<ListenAddress> listen = parseListenAddress(listenText, kApiBareHost);
  if (!listen) {
    tearDown();
    return makeError("api.listen '" + listenText + "': expected host:port or a port");
  }
  const std::string tokensFile = configString(app.config(), "api.tokens_file");
  if (tokensFile.empty()) {
    tearDown();
    return makeError("api.tokens_file must be set when api.listen is");
  }
  auto tokens = drivers::BearerTokens::load(tokensFile, "api.tokens_file", "person");
  if (!tokens) {
    tearDown();
    return tokens.error();
  }
  const std::size_t people = tokens->size();

  api::ApprovalsServerOptions options;
  options.readiness = readiness_;
  options.address = listen->host;
  options.port = listen->port;
  options.maxBodyBytes = kMaxBodyBytes;
  options.writerTimeout = timeout;
  options.onRefused = [this](const api::RefusedApiRequest& e) { reportRefused(e); };
  options.resources = std::move(resources);
  server_ = std::make_unique<api::ApprovalsServer>(std::move(*tokens), books, engine_.engine(),
                                                   std::move(options));
  if (Status s = server_->start(); !s) {
    tearDown();
    return makeError("api.listen " + listenText + ": " + s.message());
  }
  logInfo(logger_, "approvals API started",
          {{"listen", listen->host + ":" + std::to_string(server_->port())},
           {"people", static_cast<std::int64_t>(people)}});
  if (people == 0) {
    logWarning(logger_, "api.tokens_file lists nobody: every request is refused",
               {{"file", tokensFile}});
  }
  if (book_ == nullptr) {
    logWarning(logger_, "no call-out desk (SMS or call-outs off): the approvals API answers 503");
  }
  return Status::success();
}

void ApiSubsystem::reportRefused(const api::RefusedApiRequest& e) {
  // A server thread: hand the audit to the engine, which owns the store; never wait here.
  Clock& clock = engine_.clock();
  (void)engine_.engine().post([this, e, &clock] {
    if (!active_) return;
    json::Object body{{"status", static_cast<std::int64_t>(e.httpStatus)},
                      {"reason", e.reason},
                      {"method", e.method},
                      {"path", e.path},
                      {"peer", e.peer}};
    if (!e.person.empty()) body["person"] = e.person;
    if (!e.via.empty()) body["via"] = e.via;
    const std::string actor = e.person.empty() ? e.via : e.via + ":" + e.person;
    refusalAudit_->record(store_.store(), logger_, actor, std::move(body), clock.now(),
                          {{"status", e.httpStatus},
                           {"reason", e.reason},
                           {"path", e.path},
                           {"person", e.person},
                           {"peer", e.peer}});
  });
}

Result<std::optional<policy::PanelRoles>> ApiSubsystem::rolesOf(const std::string& person) {
  return api::siteRoles(store_.store().db(), owners_, person);
}

std::shared_ptr<api::ApiResource> ApiSubsystem::policyResource() {
  api::PolicyAccess access;
  access.roles = [this](const std::string& person) { return rolesOf(person); };
  access.trust = [this]() -> Result<json::Value> {
    auto budgets = policy_->trustBudgets();
    if (!budgets) return budgets.error();
    json::Array functions;
    for (const PolicySubsystem::FunctionTrust& f : *budgets) functions.push_back(f.toJson());
    return json::Value(json::Object{{"functions", std::move(functions)}});
  };
  access.breakers = [this]() -> Result<json::Value> {
    json::Array breakers;
    for (const policy::BreakerView& b : policy_->breakers().list()) breakers.push_back(b.toJson());
    return json::Value(json::Object{{"breakers", std::move(breakers)}});
  };
  const auto describe = [](const policy::TrustUpdate& u) {
    std::string out;
    for (const policy::GraduationChange& g : u.graduation) {
      out += (out.empty() ? "" : "; ") + g.describe();
    }
    return out.empty() ? std::string("nothing changed") : out;
  };
  access.advance = [this, describe](const std::string& function,
                                    const std::string& person) -> Result<std::string> {
    auto done = policy_->advance(function, "panel:" + person);
    if (!done) return done.error();
    return describe(*done);
  };
  access.regress = [this, describe](const std::string& function, const api::RegressRequest& r,
                                    const std::string& person) -> Result<std::string> {
    auto to = policy::graduationFromName(r.to);
    if (!to) return makeError("to: expected SHADOW or PROPOSE");
    auto done = policy_->regress(function, *to, r.reason, "panel:" + person);
    if (!done) return done.error();
    return describe(*done);
  };
  const auto sevText = [](const policy::TrustUpdate& u, const std::string& graduation) {
    std::string out = u.trust ? u.trust->describe() : std::string();
    if (graduation != "nothing changed") out += (out.empty() ? "" : "; ") + graduation;
    return out.empty() ? std::string("nothing changed") : out;
  };
  access.incident = [this, describe, sevText](const std::string& function,
                                              const api::IncidentRequest& r,
                                              const std::string& person) -> Result<std::string> {
    auto done = policy_->recordIncident(function, r.id, r.level, "panel:" + person);
    if (!done) return done.error();
    return sevText(*done, describe(*done));
  };
  access.closeIncident = [this](const std::string& function, const std::string& id,
                                const std::string& person) -> Result<std::string> {
    auto done = policy_->closeIncident(function, id, "panel:" + person);
    if (!done) return done.error();
    return "incident " + id + " of " + function + " closed";
  };
  access.acknowledge = [this](const std::string& breaker,
                              const std::string& person) -> Result<std::string> {
    auto done = policy_->breakers().acknowledge(breaker, policy::BreakerAcker{"panel:" + person});
    if (!done) return done.error();
    return done->describe();
  };
  return std::make_shared<api::PolicyResource>(std::move(access));
}

std::shared_ptr<api::ApiResource> ApiSubsystem::packetsResource() {
  api::PacketsAccess access;
  access.roles = [this](const std::string& person) { return rolesOf(person); };
  access.list = [this]() {
    SiteStore& store = store_.store();
    return policy::PacketBook(store.log(), store.db()).list();
  };
  access.find = [this](std::int64_t id) {
    SiteStore& store = store_.store();
    return policy::PacketBook(store.log(), store.db()).find(id);
  };
  access.close = [this](std::int64_t id, const std::string& person, const std::string& note) {
    SiteStore& store = store_.store();
    return policy::PacketBook(store.log(), store.db())
        .close(engine_.clock().now(), id, "panel:" + person, note);
  };
  access.ask = [this](const policy::ActionAsk& ask) {
    SiteStore& store = store_.store();
    PolicySubsystem* policy = policy_;
    policy::ActionRequests requests(policy->gate(), store.log(), store.db(),
                                    [policy] { return policy->state(); });
    auto result = requests.ask(engine_.clock().now(), ask);
    if (result && result->outcome == policy::AskOutcome::kPacket) {
      logWarning(logger_, "a request is for a person, not the box: packet opened",
                 {{"person", ask.person}, {"kind", ask.kind}, {"rule", result->decision.rule}});
    }
    return result;
  };
  return std::make_shared<api::PacketsResource>(std::move(access));
}

std::shared_ptr<api::ApiResource> ApiSubsystem::todayResource(std::chrono::minutes noShowGrace) {
  api::TodayAccess access;
  access.roles = [this](const std::string& person) { return rolesOf(person); };
  access.store = [this]() -> SiteStore& { return store_.store(); };
  access.now = [this] { return engine_.clock().now(); };
  access.noShowGrace = noShowGrace;
  access.syncConfigured = syncConfigured_;
  access.sales = [this] { return api::todaySalesJson(salesLabor_); };
  if (policy_ != nullptr) {
    PolicySubsystem* policy = policy_;
    access.killSwitch = [policy] { return policy->killSwitch().current(); };
    access.breakersNotClosed = [policy] {
      json::Array breakers;
      for (const policy::BreakerView& b : policy->breakers().list()) {
        if (b.state != policy::BreakerState::kClosed) breakers.push_back(b.toJson());
      }
      return breakers;
    };
  }
  return std::make_shared<api::TodayResource>(std::move(access));
}

std::shared_ptr<api::ApiResource> ApiSubsystem::auditResource() {
  api::AuditAccess access;
  access.roles = [this](const std::string& person) { return rolesOf(person); };
  access.store = [this]() -> SiteStore& { return store_.store(); };
  access.paths = resolveStatePaths(store_.stateDir());
  return std::make_shared<api::AuditResource>(std::move(access));
}

std::shared_ptr<api::ApiResource> ApiSubsystem::calloutsResource() {
  api::CalloutsAccess access;
  access.roles = [this](const std::string& person) { return rolesOf(person); };
  access.store = [this]() -> SiteStore& { return store_.store(); };
  return std::make_shared<api::CalloutsResource>(std::move(access));
}

std::shared_ptr<api::ApiResource> ApiSubsystem::peopleResource(std::chrono::minutes noShowGrace) {
  api::PeopleAccess access;
  access.roles = [this](const std::string& person) { return rolesOf(person); };
  access.db = [this]() -> Database& { return store_.store().db(); };
  access.now = [this] { return engine_.clock().now(); };
  access.owners = owners_;
  access.noShowGrace = noShowGrace;
  return std::make_shared<api::PeopleResource>(std::move(access));
}

std::shared_ptr<api::ApiResource> ApiSubsystem::safetyResource() {
  api::SafetyAccess access;
  access.roles = [this](const std::string& person) { return rolesOf(person); };
  access.lead = [this](const std::string& person) -> Result<bool> {
    auto role = panel::storedPanelRole(store_.store().db(), owners_, person);
    if (!role) return role.error();
    return role->has_value();
  };
  access.db = [this]() -> Database& { return store_.store().db(); };
  access.now = [this] { return engine_.clock().now(); };
  // Read when asked: the SMS layer's processor (and its desks) may be made after this resource.
  access.checklists = [this](TimePoint now) -> std::optional<std::vector<api::ChecklistToday>> {
    if (!active_ || checklists_ == nullptr) return std::nullopt;
    std::vector<api::ChecklistToday> out;
    for (const auto& due : checklists_->dueToday(now)) {
      const sms::conversation::Checklist& c = *due.list;
      out.push_back(api::ChecklistToday{c.id, c.name, due.day, due.dueAt, due.overdueAt,
                                        c.ownerPerson, c.ownerStation, c.temperature});
    }
    return out;
  };
  access.acknowledge = [this](
                           const std::string& person,
                           std::int64_t incident) -> Result<std::optional<api::SafetyAckOutcome>> {
    if (!active_ || safety_ == nullptr) return std::optional<api::SafetyAckOutcome>();
    SiteStore& store = store_.store();
    auto standing = site::personStanding(store.db(), person);
    if (!standing) return standing.error();
    auto names = api::peopleNames(store.db());
    if (!names) return names.error();
    sms::conversation::Contact by;
    by.personId = person;
    by.phone = standing->phone;
    if (auto it = names->find(person); it != names->end()) by.name = it->second;
    auto batch = store.log().begin();
    if (!batch) return batch.error();
    auto answer = safety_->acknowledgeFromPanel(store, *batch, by, incident, engine_.clock().now());
    if (!answer) return answer.error();
    if (answer->outcome == "safety_ack_unknown")
      return std::optional(api::SafetyAckOutcome::kUnknown);
    if (answer->outcome == "safety_ack_closed")
      return std::optional(api::SafetyAckOutcome::kClosed);
    if (auto committed = batch->commit(); !committed) return committed.error();
    logInfo(logger_, "a safety alert was acknowledged on the panel",
            {{"incident", incident}, {"person", person}});
    return std::optional(api::SafetyAckOutcome::kAcknowledged);
  };
  return std::make_shared<api::SafetyResource>(std::move(access));
}

Result<labor::RuleBook> ApiSubsystem::ruleBookFor(const std::string& laborDir,
                                                  const site::SiteModel& site) {
  if (!rules_ || rulesFor_ != site.site.jurisdictions) {
    auto loaded = labor::loadRuleBook(laborDir, site.site.jurisdictions);
    if (!loaded) return loaded.error();
    rules_ = std::move(*loaded);
    rulesFor_ = site.site.jurisdictions;
  }
  return *rules_;
}

api::SalesLaborAccess ApiSubsystem::salesLaborAccess(
    const Poco::Util::AbstractConfiguration& config) {
  api::SalesLaborAccess access;
  access.roles = [this](const std::string& person) { return rolesOf(person); };
  access.db = [this]() -> Database& { return store_.store().db(); };
  access.now = [this] { return engine_.clock().now(); };
  access.rules = [this, laborDir = configString(config, "labor.rules_dir")](
                     const site::SiteModel& site) { return ruleBookFor(laborDir, site); };
  // The projection's source: the forecast GET /v1/forecast serves (its settings are the
  // library's; the configuration sets only staffing and intraday), the weekday average before
  // the site has a week of sales.
  access.expectation = std::make_shared<forecast::ForecastSales>(
      forecast::ForecastSettings{},
      [this] { return forecast::loadSpecialDays(store_.store().db()); });
  if (pos_ != nullptr && posConfigured(config)) {
    PosSubsystem* pos = pos_;
    EngineSubsystem* engine = &engine_;
    access.posHealth = [pos, engine] {
      return api::posHealthJson(pos->health(), engine->clock().now());
    };
  }
  return access;
}

std::shared_ptr<api::ApiResource> ApiSubsystem::scheduleResource(const std::string& laborDir) {
  week::RulesSource rules = [this, laborDir](const site::SiteModel& site) {
    return ruleBookFor(laborDir, site);
  };
  week::ScheduleTexter texter = [this](AuditLog::Batch& batch,
                                       const sms::conversation::OutreachRequest& request)
      -> Result<sms::conversation::OutreachResult> {
    return outreach_->sendIn(store_.store(), batch, request);
  };
  weekDesk_ =
      std::make_unique<week::WeekDesk>(store_.store(), std::move(rules), labor::LaborOptions{},
                                       outreach_ != nullptr ? texter : week::ScheduleTexter{});
  api::ScheduleAccess access;
  access.roles = [this](const std::string& person) { return rolesOf(person); };
  access.desk = [this]() -> week::WeekDesk* { return active_ ? weekDesk_.get() : nullptr; };
  access.now = [this] { return engine_.clock().now(); };
  access.published = [this] {
    if (shiftsChanged_) shiftsChanged_();
  };
  return std::make_shared<api::ScheduleResource>(std::move(access));
}

std::shared_ptr<api::ApiResource> ApiSubsystem::settingsResource(
    const Poco::Util::AbstractConfiguration& config) {
  api::SettingsAccess access;
  access.roles = [this](const std::string& person) { return rolesOf(person); };
  access.store = [this]() -> SiteStore& { return store_.store(); };
  access.owners = owners_;
  access.smsDriver = configString(config, "sms.driver");
  access.syncConfigured = !configString(config, "sync.broker").empty();
  if (policy_ != nullptr) {
    PolicySubsystem* policy = policy_;
    const std::string breaker = "BRK-CONN-" + access.smsDriver;
    access.smsConnection = [policy, breaker]() -> json::Value {
      for (const policy::BreakerView& b : policy->breakers().list()) {
        if (b.id == breaker) return b.toJson();
      }
      return json::Value();
    };
  }
  // Ids only: the files are read again on each request so the page shows what is on the box now.
  const auto idsOf = [](const std::string& file, const std::string& key, const std::string& what) {
    return [file, key, what]() -> Result<std::vector<std::string>> {
      auto tokens = drivers::BearerTokens::load(file, key, what);
      if (!tokens) return tokens.error();
      return tokens->ids();
    };
  };
  if (!configString(config, "terminal.listen").empty()) {
    access.terminalIds =
        idsOf(configString(config, "terminal.tokens_file"), "terminal.tokens_file", "terminal");
  }
  if (!configString(config, "api.listen").empty()) {
    access.apiTokenPeople =
        idsOf(configString(config, "api.tokens_file"), "api.tokens_file", "person");
  }
  access.pos = salesLabor_.posHealth;
  return std::make_shared<api::SettingsResource>(std::move(access));
}

Result<std::shared_ptr<api::ApiResource>> ApiSubsystem::forecastResource(
    const Poco::Util::AbstractConfiguration& config) {
  auto settings = forecastSettings(config);
  if (!settings) return settings.error();
  api::ForecastAccess access;
  access.roles = [this](const std::string& person) { return rolesOf(person); };
  if (pos_ != nullptr && posConfigured(config)) {
    access.freshness = [this]() -> std::optional<pos::PosFreshness> {
      return pos_->health().freshness(engine_.clock().now());
    };
  }
  access.forecast = [this, settings = std::move(*settings)](
                        std::chrono::local_days from, int days) -> Result<forecast::SiteForecast> {
    Database& db = store_.store().db();
    auto model = site::loadSite(db);
    if (!model) return model.error();
    auto zone = site::TimeZone::locate(model->site.timeZone);
    if (!zone) return zone.error();
    return forecast::forecastFromSales(db, *zone, from, days, settings);
  };
  access.mark = [this](const forecast::SpecialDay& day, const std::string& person) {
    return forecast::markSpecialDay(store_.store(), day, "person:" + person, engine_.clock().now());
  };
  access.unmark = [this](std::chrono::local_days day, const std::string& person) {
    return forecast::unmarkSpecialDay(store_.store(), day, "person:" + person,
                                      engine_.clock().now());
  };
  access.proposals = [this](std::chrono::local_days day) {
    return forecast::proposalsOn(store_.store().db(), day);
  };
  access.decide = [this](std::int64_t id, bool approve, const std::string& person,
                         const std::string& reason) -> Result<forecast::ProposalAnswer> {
    if (proposals_ == nullptr) {
      return makeError("proposals are decided through the call-out flow, which is not running",
                       ErrorKind::kUnavailable);
    }
    return proposals_->decide(person, id, approve, reason);
  };
  access.check = [this]() -> Result<std::optional<forecast::IntradayCheckRun>> {
    IntradayWatcher* watcher = pos_ != nullptr ? pos_->intraday() : nullptr;
    if (watcher == nullptr) return std::optional<forecast::IntradayCheckRun>();
    auto ran = watcher->checkNow();
    if (!ran) return ran.error();
    return std::optional<forecast::IntradayCheckRun>(std::move(*ran));
  };
  return std::shared_ptr<api::ApiResource>(
      std::make_shared<api::ForecastResource>(std::move(access)));
}

std::shared_ptr<api::ApiResource> ApiSubsystem::offersResource() {
  api::OffersAccess access;
  access.roles = [this](const std::string& person) { return rolesOf(person); };
  access.subject = [this](const std::string& person) -> Result<std::optional<api::OffersSubject>> {
    auto standing = site::personStanding(store_.store().db(), person);
    if (!standing) return standing.error();
    if (!standing->onSite) return std::optional<api::OffersSubject>();
    return std::optional<api::OffersSubject>(
        api::OffersSubject{standing->phone, standing->managerId});
  };
  access.state = [this](const api::OffersSubject& subject) -> Result<api::OffersPauseState> {
    auto since = sms::conversation::OffersPause(store_.store().db()).pausedSince(subject.phone);
    if (!since) return since.error();
    if (!*since) return api::OffersPauseState{};
    return api::OffersPauseState{true, formatTimestamp(**since)};
  };
  access.resume = [this](const std::string& person, const api::OffersSubject& subject,
                         const std::string& actor) -> Result<bool> {
    SiteStore& store = store_.store();
    auto batch = store.log().begin();
    if (!batch) return batch.error();
    auto resumed = sms::conversation::OffersPause(store.db()).resume(subject.phone);
    if (!resumed || !*resumed) return resumed;  // nothing to record: the batch rolls back
    json::Object body{
        {"phone", sms::mailbox::maskNumber(subject.phone)}, {"person", person}, {"via", "api"}};
    if (auto seq = batch->add(formatTimestamp(engine_.clock().now()), "sms.offers_resumed", actor,
                              json::Value(std::move(body)));
        !seq) {
      return seq.error();
    }
    if (auto committed = batch->commit(); !committed) return committed.error();
    logInfo(logger_, "shift offers resumed from the API", {{"person", person}, {"by", actor}});
    return true;
  };
  return std::make_shared<api::OffersResource>(std::move(access));
}

std::shared_ptr<api::ApiResource> ApiSubsystem::shadowResource() {
  api::ShadowAccess access;
  access.roles = [this](const std::string& person) { return rolesOf(person); };
  access.awaiting = [this]() -> Result<json::Value> {
    auto rows = callout::ShadowBook(store_.store().db()).awaiting(true);
    if (!rows) return rows.error();
    json::Array decisions;
    for (const callout::ShadowRow& row : *rows) decisions.push_back(row.toJson());
    return json::Value(json::Object{{"decisions", std::move(decisions)}});
  };
  access.judge = [this](std::int64_t id, bool agree,
                        const std::string& person) -> Result<api::ShadowJudgement> {
    SiteStore& store = store_.store();
    auto row = callout::ShadowBook(store.db()).find(id);
    if (!row) return row.error();
    if (!*row) {
      auto callout = callout::CalloutStore(store.db()).callout(id);
      if (!callout) return callout.error();
      return *callout ? api::ShadowJudgement::kNotShadow : api::ShadowJudgement::kUnknown;
    }
    if ((*row)->verdict && *(*row)->verdict != callout::ShadowVerdict::kUnknown) {
      return api::ShadowJudgement::kAlreadyJudged;
    }
    PolicySubsystem* policy = policy_;
    callout::TrustFeedback feedback;
    feedback.shadow = [policy](AuditLog::Batch& batch, TimePoint at, std::string_view kind,
                               bool agreed, std::string_view ref) {
      policy->recordShadowOutcome(batch, at, kind, agreed, ref);
    };
    auto batch = store.log().begin();
    if (!batch) return batch.error();
    const auto verdict =
        agree ? callout::ShadowVerdict::kAgreed : callout::ShadowVerdict::kDisagreed;
    if (Status s =
            callout::recordShadowVerdict(*batch, store.db(), **row, verdict, std::nullopt, "panel",
                                         "panel:" + person, "", engine_.clock().now(), feedback);
        !s) {
      return s.error();
    }
    if (auto committed = batch->commit(); !committed) return committed.error();
    return api::ShadowJudgement::kJudged;
  };
  return std::make_shared<api::ShadowResource>(std::move(access));
}

std::shared_ptr<api::ApiResource> ApiSubsystem::killSwitchResource() {
  api::KillSwitchAccess access;
  access.current = [this]() -> Result<policy::KillSwitchState> {
    return policy_->killSwitch().current();
  };
  access.roles = [this](const std::string& person) { return rolesOf(person); };
  access.set = [this](
                   const std::string& person, const policy::PanelRoles& roles,
                   const api::KillSwitchRequest& request) -> Result<policy::PanelKillSwitchResult> {
    PolicySubsystem* policy = policy_;
    policy::PanelKillSwitch panel(policy->gate(), policy->killSwitch(), store_.store().log(),
                                  [policy] { return policy->state(); });
    auto result = panel.set(formatTimestamp(engine_.clock().now()), person, roles, request.level,
                            request.reason);
    if (result && result->outcome == policy::PanelOutcome::kChanged) {
      logWarning(logger_, "kill switch changed from the API",
                 {{"person", person}, {"message", result->message}, {"reason", request.reason}});
      policy->levelMayHaveChanged();
    }
    return result;
  };
  return std::make_shared<api::KillSwitchResource>(std::move(access));
}

void ApiSubsystem::stop() { tearDown(); }

void ApiSubsystem::tearDown() {
  // After the server stopped (it joins its threads) no request waits for the engine, and the
  // tasks of requests that gave up are skipped when their turn comes.
  if (server_) server_->stop();
  if (active_) {
    // Refusal audits already posted run before this; after it, none touches us. nullopt means the
    // engine stopped: then it runs nothing more either.
    (void)callOnWriter(engine_.engine(), [this] {
      active_ = false;
      return true;
    });
  }
  active_ = false;
  server_.reset();
  router_.reset();
  refusalAudit_.reset();
}

}  // namespace atoms
