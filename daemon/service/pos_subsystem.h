// PosSubsystem: the POS drivers in `atoms-edge serve` (docs/pos.md). Each front door is off
// unless its key is set, and all of them store into one SalesBook over the engine thread:
// - pos.square.location_ids: the Square Orders API poller (pos.square.*), on a thread of its own,
//   every pos.square.poll_seconds; halted after a refused token until the service restarts;
// - pos.push.listen: the local push server (HTTPS with the box certificate unless pos.push.tls
//   is off), tokens in pos.push.tokens_file (mode 0600);
// - pos.csv.directory: the CSV drop folder, scanned every pos.csv.scan_seconds with the column
//   mapping pos.csv.column.*.
// The site must have a time zone (the site file imported) before any is on: the 15-minute
// intervals are the site's.
//
// Refused push requests (bad token, another POS's body, a bad field...) are audited as
// `pos.refused` from the engine thread, at most kRefusalAuditsPerMinute a minute.
//
// Health (issue 19 item 7): every driver report goes to the PosHealth (health()), which the API
// shows and what is forecast-driven asks; a change of state is logged, audited as `pos.health`
// (actor `pos:<source>`) and reported to the breaker BRK-CONN-pos.
//
// Intraday (docs/forecast.md "During the day"): with forecast.standards_file set and
// intraday.check_minutes above 0, the IntradayWatcher compares today's sales with the forecast on
// the engine's clock and files proposals for the manager, never from stale data.
//
// Refuses to start, with one line naming the key, on a bad configuration (a token file missing or
// readable by others, a folder that cannot be used, an address that cannot be bound).
// Threading: construction, setters, start and stop on the main thread; health() from any thread.
// Started after the store, the engine and the policy; stopped before them (EdgeServices' order).
#pragma once

#include <Poco/Logger.h>

#include <functional>
#include <memory>
#include <optional>

#include "daemon/service/intraday_watcher.h"
#include "daemon/service/service_subsystem.h"
#include "daemon/service/site_breakers.h"
#include "domain/pos/pos_health.h"
#include "domain/site/time_zone.h"
#include "drivers/http/health_probe.h"

namespace atoms {

class StoreSubsystem;
class EngineSubsystem;
class RefusalAudit;
class PostingStoreRunner;
namespace pos {
class SalesBook;
}
namespace drivers::pos {
class SquareFeed;
class FeedPoller;
class PollThread;
class PushServer;
class CsvFolder;
struct SourceStatus;
}  // namespace drivers::pos

class PosSubsystem final : public ServiceSubsystem {
 public:
  static constexpr int kRefusalAuditsPerMinute = 20;
  PosSubsystem(Poco::Logger& logger, StoreSubsystem& store, EngineSubsystem& engine);
  ~PosSubsystem() override;
  const char* name() const override { return "pos"; }

  // Before start().
  void setReadiness(drivers::ReadinessCheck readiness) { readiness_ = std::move(readiness); }
  // Before start(): who hears of each intraday proposal filed (IntradayWatcher::setAnnounce); the
  // SMS layer's ProposalDesk in `serve`, which stops after this subsystem. None by default.
  void setProposalAnnounce(IntradayWatcher::Announce announce) { announce_ = std::move(announce); }
  void setBreakerReports(std::function<void(BreakerReport)> reports) {
    breakerReports_ = std::move(reports);
  }

  // The sources' health; any thread, valid while the subsystem lives.
  pos::PosHealth& health() { return health_; }
  std::uint16_t pushPort() const;
  // The intraday check (intraday_watcher.h); null when it is off (no forecast.standards_file,
  // intraday.check_minutes 0, no POS) or the subsystem is stopped. Engine thread only.
  IntradayWatcher* intraday() { return intraday_.get(); }

 protected:
  Status start(Poco::Util::Application& app) override;
  void stop() override;

 private:
  Status startSquare(const Poco::Util::AbstractConfiguration& config);
  Status startPush(const Poco::Util::AbstractConfiguration& config);
  Status startCsv(const Poco::Util::AbstractConfiguration& config);
  Status startIntraday(const Poco::Util::AbstractConfiguration& config, const site::TimeZone& zone);
  void onStatus(const drivers::pos::SourceStatus& status);
  void tearDown();

  Poco::Logger& logger_;
  StoreSubsystem& store_;
  EngineSubsystem& engine_;
  drivers::ReadinessCheck readiness_;
  std::function<void(BreakerReport)> breakerReports_;
  pos::PosHealth health_;
  bool active_ = false;  // engine thread once started (health audits check it)

  std::unique_ptr<PostingStoreRunner> runner_;
  std::unique_ptr<pos::SalesBook> book_;
  std::unique_ptr<drivers::pos::SquareFeed> squareFeed_;
  std::unique_ptr<drivers::pos::FeedPoller> squarePoller_;
  std::unique_ptr<drivers::pos::PollThread> squareThread_;
  std::unique_ptr<drivers::pos::PushServer> pushServer_;
  std::unique_ptr<drivers::pos::CsvFolder> csvFolder_;
  std::unique_ptr<drivers::pos::PollThread> csvThread_;
  std::unique_ptr<RefusalAudit> refusalAudit_;  // engine thread only
  // The intraday check (intraday_watcher.h), when forecast.standards_file is set; started and
  // stopped on the engine thread.
  std::unique_ptr<IntradayWatcher> intraday_;
  IntradayWatcher::Announce announce_;
};

}  // namespace atoms
