// Who may be offered a shift someone cannot work, and in what order (issue 6 item 4;
// docs/callouts.md, "Who gets an offer").
//
// A person is a candidate when they can work the shift's station (their roles), are not the
// person who is out, can be reached by text now (the site has their consent, they have not opted
// out, and it is not their quiet time unless they opted into urgent call-outs at night) and the
// labor-rule engine does not deny the assignment (certifications, minimum age, minors' hours,
// overlapping shifts, time off, rest...: domain/labor/). Nobody denied is ever contacted.
//
// The order is plain and recorded in the receipt, never a hidden score about a person:
//   1. no premium before premium (overtime or other premium pay needs the manager's approval),
//      then the smaller premium;
//   2. fewer offers received in the last 14 days (offers spread fairly over time);
//   3. fewer hours already scheduled in the shift's week;
//   4. the person id, so the same facts always give the same order.
//
// Pure over its inputs: the snapshot, the reachability facts the caller read from the store and
// the decision instant. Thread-safe for concurrent calls on one snapshot.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "base/canonical_json.h"
#include "domain/callout/site_snapshot.h"
#include "domain/labor/schedule_change.h"

namespace atoms::callout {

// What the SMS side knows about a person, read by the caller.
struct Reachability {
  bool consent = false;
  bool optedOut = false;
  bool offersPaused = false;    // a stop-like reply paused their offers (offers_pause.h)
  bool quietNow = false;        // the site is in its quiet hours now
  bool urgentAtNight = false;   // the person opted into urgent call-outs during quiet hours
  int recentOffers = 0;         // offers received in the last 14 days
  bool alreadyOffered = false;  // this call-out already offered them the shift
  bool outToday = false;        // they are out of another shift within a day of this one
};

struct Candidate {
  std::string personId;
  labor::PersonVerdict verdict;  // the engine's findings for them taking the shift
  bool premium = false;
  std::int64_t premiumMinutes = 0;
  std::int64_t premiumCents = 0;
  int recentOffers = 0;
  std::int64_t weekMinutes = 0;  // already scheduled in the shift's week
  int rank = 0;                  // 1-based
};

struct Excluded {
  std::string personId;
  // "denied", "no_consent", "opted_out", "offers_paused", "quiet_hours", "already_offered",
  // "out_today"
  std::string reason;
  std::vector<std::string> rules;  // denied: the rule ids that failed
};

struct CandidateList {
  std::vector<Candidate> ranked;
  std::vector<Excluded> excluded;  // people with the station's role who are not candidates
};

using ReachabilityOf = std::function<Result<Reachability>(const site::Person& person)>;

// Errors: an unknown shift, a store error from `reach`, an engine error.
Result<CandidateList> findCandidates(const SiteSnapshot& site, const site::Shift& shift,
                                     std::string_view absentId, site::Instant now,
                                     const ReachabilityOf& reach);

// The ranking facts of one candidate, for a receipt ("rank 1: no premium, 0 offers in 14 days,
// 16 h this week").
json::Value candidateJson(const Candidate& c);
// Why a person was not a candidate, for a receipt: {"person", "reason", "rules"}.
json::Value excludedJson(const Excluded& e);

}  // namespace atoms::callout
