#include "daemon/api/today_resource.h"

#include <algorithm>
#include <utility>

#include "base/timestamp.h"
#include "daemon/api/callout_json.h"
#include "daemon/api/killswitch_resource.h"
#include "daemon/api/site_json.h"
#include "domain/callout/callout_store.h"
#include "domain/forecast/intraday_proposals.h"
#include "domain/site/floor_board.h"
#include "domain/site/time_zone.h"
#include "sync/sync_state.h"

namespace atoms::api {
namespace {

Result<json::Array> floorJson(Database& db, TimePoint now, std::chrono::minutes grace,
                              const PeopleNames& names) {
  auto board = site::floorBoard(db, std::chrono::time_point_cast<std::chrono::seconds>(now), grace);
  if (!board) return board.error();
  json::Array out;
  for (const site::FloorShift& s : *board) {
    out.push_back(
        json::Object{{"shift", s.shiftId},
                     {"station", s.stationId},
                     {"person", personRef(names, s.personId)},
                     {"start", formatTimestamp(s.start)},
                     {"end", formatTimestamp(s.end)},
                     {"state", std::string(site::floorStateName(s.state))},
                     {"since", s.since ? json::Value(formatTimestamp(*s.since)) : json::Value()}});
  }
  return out;
}

// The open call-outs and the covered ones whose shift has not ended (who covers tonight stays in
// view), oldest first.
Result<json::Array> todaysCalloutsJson(Database& db, TimePoint now, const PeopleNames& names) {
  callout::CalloutStore rows(db);
  auto shown = rows.currentCallouts(now);
  if (!shown) return shown.error();
  return calloutsJson(rows, *shown, names);
}

// The staffing proposals waiting on the site's day (intraday_proposals.h); none before the site
// has a time zone.
Result<std::int64_t> pendingProposalsToday(Database& db, const json::Value& site, TimePoint now) {
  if (!site.isObject()) return std::int64_t{0};
  auto zone = site::TimeZone::locate(site.asObject().at("timeZone").asString());
  if (!zone) return std::int64_t{0};
  const auto day = std::chrono::floor<std::chrono::days>(zone->toLocal(site::toInstant(now)));
  auto proposals = forecast::proposalsOn(db, day);
  if (!proposals) return proposals.error();
  return static_cast<std::int64_t>(
      std::count_if(proposals->begin(), proposals->end(), [](const forecast::IntradayProposal& p) {
        return p.state == forecast::ProposalState::kPending;
      }));
}

Result<json::Value> approvalsJson(Database& db, const json::Value& site, TimePoint now) {
  auto pending = callout::CalloutStore(db).pendingApprovals();
  if (!pending) return pending.error();
  auto proposals = pendingProposalsToday(db, site, now);
  if (!proposals) return proposals.error();
  json::Value next;
  if (!pending->empty()) next = formatTimestamp(pending->front().expiresAt);
  return json::Value(json::Object{{"pending", static_cast<std::int64_t>(pending->size())},
                                  {"nextExpiry", std::move(next)},
                                  {"proposals", *proposals}});
}

Result<json::Array> safetyJson(Database& db) {
  auto stmt = db.cached(
      "SELECT id, opened_at, category, rounds FROM safety_incident WHERE state = 'open'"
      " ORDER BY id");
  if (!stmt) return stmt.error();
  json::Array out;
  for (;;) {
    auto row = stmt->step();
    if (!row) return row.error();
    if (!*row) return out;
    const TimePoint opened{std::chrono::milliseconds(stmt->columnInt64(1))};
    out.push_back(json::Object{{"id", stmt->columnInt64(0)},
                               {"openedAt", formatTimestamp(opened)},
                               {"category", stmt->columnText(2)},
                               {"rounds", stmt->columnInt64(3)}});
  }
}

Result<json::Value> syncJson(SiteStore& store, bool configured) {
  auto acked = sync::loadAckedState(store.db());
  if (!acked) return acked.error();
  const std::uint64_t size = store.log().size();
  return json::Value(
      json::Object{{"configured", configured},
                   {"logSize", static_cast<std::int64_t>(size)},
                   {"ackedSize", static_cast<std::int64_t>(acked->size)},
                   {"backlog", static_cast<std::int64_t>(size - std::min(size, acked->size))}});
}

}  // namespace

std::vector<std::string> TodayResource::methods(std::string_view path) const {
  if (path == kTodayPath) return {"GET"};
  return {};
}

ApiAnswer TodayResource::handle(const ApiRequest& request) {
  auto found = rolesOrRefusal(access_.roles, request.person);
  if (auto* refused = std::get_if<ApiAnswer>(&found)) return *refused;
  SiteStore& store = access_.store();
  Database& db = store.db();
  const TimePoint now = access_.now();
  auto names = peopleNames(db);
  if (!names) return apiStoreFailed("read the site", names.error());
  auto site = siteJson(db);
  if (!site) return apiStoreFailed("read the site", site.error());
  auto floor = floorJson(db, now, access_.noShowGrace, *names);
  if (!floor) return apiStoreFailed("read the time clock", floor.error());
  auto callouts = todaysCalloutsJson(db, now, *names);
  if (!callouts) return apiStoreFailed("read the call-outs", callouts.error());
  auto approvals = approvalsJson(db, *site, now);
  if (!approvals) return apiStoreFailed("read the approvals", approvals.error());
  auto safety = safetyJson(db);
  if (!safety) return apiStoreFailed("read the safety incidents", safety.error());
  auto sync = syncJson(store, access_.syncConfigured);
  if (!sync) return apiStoreFailed("read the sync state", sync.error());
  json::Value killSwitch;
  json::Array breakers;
  if (access_.killSwitch) {
    auto level = access_.killSwitch();
    if (!level) return apiStoreFailed("read the kill switch", level.error());
    killSwitch = killSwitchJson(*level);
    breakers = access_.breakersNotClosed();
  }
  // A figure that cannot be worked out now (the rule tables, a store read) must not take the
  // floor and the call-outs off the page.
  json::Value sales;
  if (access_.sales) {
    if (auto figures = access_.sales()) sales = std::move(*figures);
  }
  return apiOk(json::Object{{"now", formatTimestamp(now)},
                            {"site", std::move(*site)},
                            {"floor", std::move(*floor)},
                            {"callouts", std::move(*callouts)},
                            {"approvals", std::move(*approvals)},
                            {"safety", std::move(*safety)},
                            {"killSwitch", std::move(killSwitch)},
                            {"breakers", std::move(breakers)},
                            {"sync", std::move(*sync)},
                            {"sales", std::move(sales)}});
}

}  // namespace atoms::api
