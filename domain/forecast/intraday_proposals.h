// Intraday proposals (issue 19 item 6, docs/forecast.md "During the day"): a surge or a slow spell
// (intraday_watch.h) becomes a PROPOSE_CONFIRM item for the manager, never an automatic change:
// add a person at the station (a call-out for the extra shift once approved) or let someone go
// early, with the Fair Workweek premium of the cut (early_release.h). Kept in the store (migration
// 30, intraday_proposal).
//
// Rules of filing (fileProposal), per station and local day:
// - at most one pending proposal per station;
// - after a deny, no proposal of that kind for the station again that day;
// - a cut needs someone who can go (an EarlyRelease), else nothing is filed.
// Each filed proposal is one commit with one audit entry `intraday.proposal` (actor `engine`) that
// carries its evidence: the window, the sales (or counts) against the forecast, the percent, and
// for a cut the shift, the person and the premium in cents. A decision (decideProposal) is one
// commit with `intraday.decided` (actor `person:<id>`); a lapsed one `intraday.expired`.
//
// The caller checks the POS freshness before calling (nothing is filed from stale data).
// Threading: the store's writer (the engine thread); reads on any connection. Errors: store errors,
// one line; deciding an unknown proposal (kNotFound) or one no longer pending (kRefused).
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "base/result.h"
#include "base/unix_time.h"
#include "domain/forecast/early_release.h"
#include "domain/forecast/intraday_watch.h"
#include "store/audit_log.h"
#include "store/site_store.h"

namespace atoms::forecast {

enum class ProposalState { kPending, kApproved, kDenied, kExpired };
std::string_view proposalStateName(ProposalState state);  // "pending", "approved", ...

struct IntradayProposal {
  std::int64_t id = 0;
  std::chrono::local_days day;
  IntradaySignal signal;
  ProposalState state = ProposalState::kPending;
  // A cut: whose shift, and until when (UTC); the premium the cut adds. Empty for an add.
  std::string shiftId;
  std::string personId;
  std::optional<site::Instant> cutTo;
  std::optional<site::Instant> scheduledEnd;  // the shift's end when the cut was quoted
  std::int64_t premiumCents = 0;
  std::int64_t premiumMinutes = 0;
  std::string summary;  // one plain line for the manager, naming the evidence
  TimePoint requestedAt{};
  std::string decidedBy;
  std::optional<TimePoint> decidedAt;
  std::string remark;
};

// The manager's line: "Bar: covers 11:00-12:00 ran 52% above the forecast (38 against 25). Add
// one person at Bar?" / "... ran 40% below ... Let Sam finish at 19:30 instead of 22:00? Fair
// Workweek premium: $24.00." Names the figures, never how anyone works.
std::string proposalSummary(const IntradaySignal& signal, const std::string& stationName,
                            const std::optional<EarlyRelease>& release,
                            const std::string& personName);

// Files the proposal (rules above); nullopt when a rule holds it back.
Result<std::optional<IntradayProposal>> fileProposal(SiteStore& store, std::chrono::local_days day,
                                                     const IntradaySignal& signal,
                                                     const std::optional<EarlyRelease>& release,
                                                     const std::string& summary, TimePoint now);

// The day's proposals, by id.
Result<std::vector<IntradayProposal>> proposalsOn(Database& db, std::chrono::local_days day);
Result<std::optional<IntradayProposal>> proposalById(Database& db, std::int64_t id);

// A pending proposal lapses kProposalLife after it was filed (a surge or a lull passes), and a
// cut at the latest when its new end comes. Expired: decided by nobody, audited
// `intraday.expired` (actor engine), kept with the day's proposals.
inline constexpr std::chrono::minutes kProposalLife{45};
TimePoint proposalExpiry(const IntradayProposal& p);

// `personId` approves or denies a pending proposal at `now`, in the caller's batch; returns it as
// it now stands: approved, denied, or expired when `now` is past its expiry (then nothing was
// decided). What an approval does is the caller's (proposal_desk.h), in the same batch.
Result<IntradayProposal> decideProposalIn(SiteStore& store, AuditLog::Batch& batch, std::int64_t id,
                                          bool approve, const std::string& personId,
                                          const std::string& remark, TimePoint now);
// The same in a batch of its own (a decision with no effect to make: the tests' and a deny's).
Result<IntradayProposal> decideProposal(SiteStore& store, std::int64_t id, bool approve,
                                        const std::string& personId, const std::string& remark,
                                        TimePoint now);

// Expires every pending proposal past its expiry, in one batch; returns how many.
Result<int> expireProposals(SiteStore& store, TimePoint now);

}  // namespace atoms::forecast
