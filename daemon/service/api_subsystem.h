// ApiSubsystem: the box's JSON API in `atoms-edge serve` (docs/api.md). It builds the resources and
// their router (daemon/api/api_router.h) whenever it starts; the panel serves them with sessions
// (router()). The API's own port is off unless api.listen is set. Then it reads api.tokens_file
// (required, mode 0600: `person-id sha256-hex` lines) and starts the ApprovalsServer
// (daemon/api/approvals_server.h) on api.listen (host:port, or a bare port on 127.0.0.1), which
// runs every request on the engine thread (the engine owns the store and the call-out desk) and
// answers 503 when the engine does not take it up within api.request_timeout_ms. stop() stops the
// server (joining its threads), so nothing is decided after it returns.
//
// Refuses to start, with one line naming the key, when api.tokens_file is missing, unreadable,
// readable by others or malformed, or when the address cannot be bound. With no approval book
// (SMS or call-outs off) it starts, says so once, and answers 503.
//
// Refused requests (bad token, bad body, an approval already decided...) are audited as
// "api.refused" from the engine thread, at most kRefusalAuditsPerMinute a minute; the desk audits
// its own refusals (approval.refused: not the approver, self-approval, policy).
//
// Threading: construction, setApprovals, start and stop on the main thread. Must be started after
// the store, the engine and the SMS service whose processor owns the book, and stopped before them
// (EdgeServices' order does that).
#pragma once

#include <Poco/Logger.h>
#include <Poco/Util/AbstractConfiguration.h>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "daemon/api/sales_labor_resource.h"
#include "daemon/service/service_subsystem.h"
#include "domain/labor/rule_table.h"
#include "domain/policy/panel_kill_switch.h"
#include "drivers/http/health_probe.h"

namespace atoms {

class EngineSubsystem;
class PolicySubsystem;
class PosSubsystem;
class RefusalAudit;
class StoreSubsystem;
namespace api {
class ApiResource;
class ApiRouter;
class ApprovalsServer;
struct RefusedApiRequest;
}  // namespace api
namespace callout {
class ApprovalBook;
}  // namespace callout
namespace forecast {
class ProposalDesk;
}  // namespace forecast
namespace requests {
class RequestBook;
}  // namespace requests
namespace sms::conversation {
class ChecklistDesk;
class Outreach;
class SafetyDesk;
}  // namespace sms::conversation
namespace week {
class WeekDesk;
}  // namespace week

// Where api.listen = "8480" (a bare port) listens (parseListenAddress, listen_address.h).
inline constexpr char kApiBareHost[] = "127.0.0.1";

class ApiSubsystem final : public ServiceSubsystem {
 public:
  static constexpr int kRefusalAuditsPerMinute = 20;
  static constexpr std::size_t kMaxBodyBytes = 16 * 1024;

  ApiSubsystem(Poco::Logger& logger, StoreSubsystem& store, EngineSubsystem& engine);
  ~ApiSubsystem() override;
  const char* name() const override { return "api"; }

  // Before start(): the call-out desk's approvals (ConversationProcessor::approvals()), used on the
  // engine thread; it must stay valid until stop() returns. nullptr (the default): none.
  void setApprovals(callout::ApprovalBook* book) { book_ = book; }
  // Before start(): workers' requests by text (ConversationProcessor::requests()), for
  // /v1/staff-requests; the same lifetime and thread as the approvals. nullptr: it answers 503.
  void setRequests(requests::RequestBook* book) { requests_ = book; }
  // Before start(): the answers to intraday proposals (ConversationProcessor::proposals()), for
  // /v1/forecast/proposals/{id}/decision; the same lifetime and thread as the approvals. nullptr:
  // a decision answers 503 (approving needs the call-out flow).
  void setProposals(forecast::ProposalDesk* desk) { proposals_ = desk; }
  // Before start(): the SMS layer's safety desk (ConversationProcessor::safety()), for the
  // panel's ACK at /v1/safety/incidents/{id}/ack, and its checklists (may be null), for today's
  // checklists at /v1/safety; the same lifetime as the book. nullptr: the ACK answers 503 (the
  // incidents are still listed).
  void setSafety(sms::conversation::SafetyDesk* desk, sms::conversation::ChecklistDesk* lists) {
    safety_ = desk;
    checklists_ = lists;
  }
  // Before start(): the SMS layer's Outreach, through which a published week texts the people
  // (/v1/schedule, schedule_resource.h), and what to call after a publication changed the site's
  // shifts (the call-out flow reads them again); the same lifetime as the book. nullptr: weeks
  // are still published, and the publication says nobody was texted.
  void setScheduling(sms::conversation::Outreach* outreach, std::function<void()> shiftsChanged) {
    outreach_ = outreach;
    shiftsChanged_ = std::move(shiftsChanged);
  }
  // Before start(): the policy service, for the kill switch at /v1/killswitch (set by the people
  // of policy.owners and the managers of record, panel_kill_switch.h) and the owner's controls at
  // /v1/trust and /v1/breakers (policy_resource.h), HUMAN_ONLY packets and people's requests at
  // /v1/packets and /v1/requests (packets_resource.h). nullptr: not served. (A person's paused
  // offers, /v1/people/{id}/offers (offers_resource.h), are served whenever the API is.)
  // What GET /readyz on this service's HTTP listener checks (drivers/http/health_probe.h).
  // Before start().
  void setReadiness(drivers::ReadinessCheck readiness) { readiness_ = std::move(readiness); }
  void setPolicy(PolicySubsystem* policy) { policy_ = policy; }
  // The POS health shown on /v1/settings (docs/pos.md); before start(), may stay unset.
  void setPos(PosSubsystem* pos) { pos_ = pos; }

  // The port the server is bound to (useful with port 0); 0 when stopped or off.
  std::uint16_t port() const;
  // The resources' router, for the panel; null before start and after stop. The panel must stop
  // before this subsystem does (EdgeServices' order does that).
  api::ApiRouter* router() const { return router_.get(); }
  // Audits a refused request ("api.refused", rate-limited) from any thread; for the panel's
  // refusals too (e.via "panel").
  void reportRefused(const api::RefusedApiRequest& e);

 protected:
  Status start(Poco::Util::Application& app) override;
  void stop() override;

 private:
  void tearDown();  // main thread
  std::shared_ptr<api::ApiResource> killSwitchResource();
  std::shared_ptr<api::ApiResource> policyResource();
  std::shared_ptr<api::ApiResource> packetsResource();
  std::shared_ptr<api::ApiResource> offersResource();  // served whenever the API is
  std::shared_ptr<api::ApiResource> shadowResource();
  std::shared_ptr<api::ApiResource> todayResource(std::chrono::minutes noShowGrace);
  // Labor against sales (/v1/sales/labor) and its figure on Today read through these.
  api::SalesLaborAccess salesLaborAccess(const Poco::Util::AbstractConfiguration& config);
  std::shared_ptr<api::ApiResource> calloutsResource();
  std::shared_ptr<api::ApiResource> auditResource();
  std::shared_ptr<api::ApiResource> peopleResource(std::chrono::minutes noShowGrace);
  std::shared_ptr<api::ApiResource> safetyResource();
  std::shared_ptr<api::ApiResource> scheduleResource(const std::string& laborDir);
  // The forecast, marked days and intraday proposals (forecast_resource.h); errors: the
  // forecast's configuration (forecast_config.h).
  Result<std::shared_ptr<api::ApiResource>> forecastResource(
      const Poco::Util::AbstractConfiguration& config);
  std::shared_ptr<api::ApiResource> settingsResource(
      const Poco::Util::AbstractConfiguration& config);
  // Engine thread: the rule tables of the site's jurisdictions (loaded once, again when they
  // change), for the schedule and labor against sales.
  Result<labor::RuleBook> ruleBookFor(const std::string& laborDir, const site::SiteModel& site);
  // Engine thread: the person's roles for the kill switch and the owner's controls; nullopt when
  // the person is not on the site.
  Result<std::optional<policy::PanelRoles>> rolesOf(const std::string& person);

  Poco::Logger& logger_;
  StoreSubsystem& store_;
  EngineSubsystem& engine_;
  callout::ApprovalBook* book_ = nullptr;
  requests::RequestBook* requests_ = nullptr;
  forecast::ProposalDesk* proposals_ = nullptr;
  sms::conversation::SafetyDesk* safety_ = nullptr;
  sms::conversation::ChecklistDesk* checklists_ = nullptr;
  sms::conversation::Outreach* outreach_ = nullptr;
  std::function<void()> shiftsChanged_;
  std::unique_ptr<week::WeekDesk> weekDesk_;  // engine thread, once started
  // The rule tables of the site's jurisdictions, loaded on the first request that needs them.
  std::optional<labor::RuleBook> rules_;
  std::vector<std::string> rulesFor_;
  PolicySubsystem* policy_ = nullptr;
  PosSubsystem* pos_ = nullptr;
  drivers::ReadinessCheck readiness_;
  std::vector<std::string> owners_;   // policy.owners, read at start
  bool syncConfigured_ = false;       // sync.broker is set, read at start
  api::SalesLaborAccess salesLabor_;  // made at start

  std::unique_ptr<api::ApiRouter> router_;
  std::unique_ptr<api::ApprovalsServer> server_;
  std::unique_ptr<RefusalAudit> refusalAudit_;  // used on the engine thread only
  bool active_ = false;  // engine thread (and main thread before the server starts)
};

}  // namespace atoms
