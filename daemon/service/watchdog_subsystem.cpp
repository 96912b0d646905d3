#include "daemon/service/watchdog_subsystem.h"

#include <Poco/Util/Application.h>

#include <algorithm>

#include "base/unix_time.h"
#include "base/writer_call.h"
#include "daemon/engine/stall_watchdog.h"
#include "daemon/log/log.h"
#include "daemon/service/config_schema.h"
#include "daemon/service/direct_escalation.h"
#include "daemon/service/engine_subsystem.h"
#include "daemon/service/sms_subsystem.h"
#include "daemon/service/store_subsystem.h"
#include "domain/policy/packet_book.h"
#include "store/audit_entry.h"
#include "store/site_store.h"

namespace atoms {
namespace {

constexpr auto kHeartbeatEvery = std::chrono::minutes(1);

// The site's name and who to text: the managers of record and safety contacts with a phone.
struct Reach {
  std::string site;
  std::vector<std::string> phones;
};

Result<Reach> readReach(SiteStore& store) {
  Reach reach;
  auto name = store.db().cached("SELECT name FROM site_info WHERE id = 1");
  if (!name) return name.error();
  auto row = name->step();
  if (!row) return row.error();
  if (*row) reach.site = name->columnText(0);
  auto people = store.db().cached(
      "SELECT phone FROM site_person WHERE phone <> '' AND (safety_contact = 1 OR id IN"
      " (SELECT manager_id FROM site_person WHERE manager_id IS NOT NULL)) ORDER BY position");
  if (!people) return people.error();
  for (;;) {
    auto next = people->step();
    if (!next) return next.error();
    if (!*next) break;
    reach.phones.push_back(people->columnText(0));
  }
  return reach;
}

Result<std::vector<WatchedItem>> readWaiting(SiteStore& store, std::chrono::minutes safetySla) {
  std::vector<WatchedItem> items;
  const auto collect = [&](const char* sql, WatchedItem::Kind kind,
                           std::chrono::minutes sla) -> Status {
    auto stmt = store.db().cached(sql);
    if (!stmt) return stmt.error();
    for (;;) {
      auto next = stmt->step();
      if (!next) return next.error();
      if (!*next) return Status::success();
      items.push_back({kind, std::to_string(stmt->columnInt64(0)),
                       atoms::fromUnixMillis(stmt->columnInt64(1)), sla});
    }
  };
  if (Status s = collect("SELECT id, expires_at FROM approval WHERE state = 'pending'",
                         WatchedItem::Kind::kApproval, std::chrono::minutes(0));
      !s) {
    return s.error();
  }
  if (Status s = collect("SELECT id, opened_at FROM safety_incident WHERE state = 'open'",
                         WatchedItem::Kind::kSafetyIncident, safetySla);
      !s) {
    return s.error();
  }
  if (Status s = collect("SELECT id, opened_at FROM human_packet WHERE state = 'open'",
                         WatchedItem::Kind::kHumanPacket,
                         std::chrono::duration_cast<std::chrono::minutes>(policy::kPacketSla));
      !s) {
    return s.error();
  }
  return items;
}

}  // namespace

WatchdogSubsystem::WatchdogSubsystem(Poco::Logger& logger, StoreSubsystem& store,
                                     EngineSubsystem& engine, SmsSubsystem& sms)
    : logger_(logger), store_(store), engine_(engine), sms_(sms) {}

WatchdogSubsystem::~WatchdogSubsystem() = default;

Status WatchdogSubsystem::start(Poco::Util::Application& app) {
  if (!engine_.clock().followsSystemTime() && !onSimulatedClock_) {
    logInfo(logger_, "the silent-stall watchdog is off on a simulated clock");
    return Status::success();
  }
  // The safety desk's reminder interval (sms_config.cpp; the schema's default applies).
  safetySla_ = std::chrono::minutes(configInteger(app.config(), "sms.safety.reminder-minutes"));
  Engine& engine = engine_.engine();
  auto reach = callOnWriter(engine, [this] { return readReach(store_.store()); });
  if (!reach) return makeError("watchdog: the engine did not answer at start");
  if (!*reach) return makeError("watchdog: " + reach->message());
  Reach who = std::move(**reach);
  const std::string contact = configString(app.config(), "sms.contact.phone");
  if (!contact.empty() &&
      std::find(who.phones.begin(), who.phones.end(), contact) == who.phones.end()) {
    who.phones.insert(who.phones.begin(), contact);
  }

  StallWatchdogOptions options;
  options.heartbeatEvery = kHeartbeatEvery;
  options.site = who.site;
  StallWatchdog::Callback escalate;
  if (sms_.gateway() != nullptr && !who.phones.empty()) {
    escalate = directSmsEscalation(*sms_.gateway(), who.phones, engine_.clock(), logger_);
  }
  auto audit = [this, &engine](const Stall& stall) {
    (void)engine.post([this, stall] {
      if (!active_) return;
      SiteStore& store = store_.store();
      auto batch = store.log().begin();
      if (!batch) return;
      json::Object body{{"stall", stall.key}, {"text", stall.text}};
      auto added = batch->add(formatTimestamp(engine_.clock().now()), "watchdog.escalated",
                              "watchdog", json::Value(std::move(body)));
      if (!added) return;
      if (auto committed = batch->commit(); !committed) {
        logWarning(logger_, "watchdog: the escalation could not be audited",
                   {{"error", committed.message()}});
      }
    });
  };
  watchdog_ = std::make_unique<StallWatchdog>(engine_.clock(), logger_, options,
                                              std::move(escalate), std::move(audit));
  const auto armed = callOnWriter(engine, [this] {
    active_ = true;
    heartbeat(engine_.clock().now());
    return true;
  });
  if (!armed) {
    watchdog_.reset();
    return makeError("watchdog: the engine did not answer at start");
  }
  watchdog_->start();
  logInfo(logger_, "silent-stall watchdog started",
          {{"texts_to", static_cast<std::int64_t>(who.phones.size())},
           {"sms", sms_.gateway() != nullptr}});
  return Status::success();
}

void WatchdogSubsystem::heartbeat(TimePoint at) {
  if (!active_) return;
  // The deadline, not now(): timers due before it (an approval's expiry) have run, later ones not.
  watchdog_->beat(at);
  if (auto items = readWaiting(store_.store(), safetySla_); items) {
    watchdog_->publish(std::move(*items), at);
  } else {
    logWarning(logger_, "watchdog: could not read what is waiting", {{"error", items.message()}});
  }
  const TimePoint next = std::max(at, engine_.clock().now()) + kHeartbeatEvery;
  timer_ = engine_.engine().schedule(next, [this, next] { heartbeat(next); });
}

bool WatchdogSubsystem::vouches() const {
  return !active_ || watchdog_->vouches(std::chrono::steady_clock::now());
}

void WatchdogSubsystem::stop() {
  if (!watchdog_) return;
  watchdog_->stop();
  // The timer and the audits belong to the engine: end them there.
  (void)callOnWriter(engine_.engine(), [this] {
    active_ = false;
    if (timer_ != 0) engine_.engine().cancel(timer_);
    timer_ = 0;
    return true;
  });
  watchdog_.reset();
}

}  // namespace atoms
