// The call-out rows in the encrypted store (migration 9 "callout", store/migrations.cpp): each
// call-out (a shift someone cannot work), the offers it sent (at most one per person: nobody is
// offered the same call-out twice, even across a crash) and the approvals it asked for.
//
// Contract: plain reads and writes on the caller's Database, inside the caller's transaction (the
// conversation's batch or the desk's own); nothing here opens one. Instants are stored as Unix
// milliseconds. Errors are store errors or a row that does not parse, one line naming it.
// Not synchronised (single writer: the engine thread).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"
#include "base/unix_time.h"
#include "store/database.h"

namespace atoms::callout {

using atoms::TimePoint;

enum class CalloutState { kOpen, kCovered, kWithdrawn, kExpired };
// How the box learnt of it: a lead's text about someone else, the person's own text, or the time
// clock (a shift that started without a clock-in, confirmed by a lead).
// kExtraShift: nobody is out; a manager added a shift (an intraday proposal approved).
enum class CalloutOrigin { kLeadReport, kSelf, kNoShow, kExtraShift };
enum class OfferState { kOpen, kAccepted, kDeclined, kAwaitingApproval, kClosed, kNotSent };
enum class ApprovalState { kPending, kApproved, kDenied, kExpired, kWithdrawn };

std::string_view calloutStateName(CalloutState s);  // "open", "covered", ...
// "lead_report", "self", "no_show", "extra_shift"
std::string_view calloutOriginName(CalloutOrigin o);
std::string_view offerStateName(OfferState s);        // "open", "accepted", ...
std::string_view approvalStateName(ApprovalState s);  // "pending", "approved", ...

struct CalloutRow {
  std::int64_t id = 0;
  std::string shiftId;
  std::string stationId;
  std::string absentId;       // the person who cannot work the shift
  std::string reporterId;     // who told the box (the absent person for kSelf); may be empty
  std::string reporterPhone;  // kept informed ("the lead"); may be empty
  CalloutOrigin origin = CalloutOrigin::kLeadReport;
  std::optional<std::int64_t> inboxId;  // the text that opened it
  TimePoint openedAt{};
  TimePoint shiftStart{};
  TimePoint shiftEnd{};
  CalloutState state = CalloutState::kOpen;
  int waves = 0;
  std::optional<TimePoint> nextWaveAt;  // open only
  std::optional<TimePoint> escalateAt;  // open and not escalated yet
  std::optional<TimePoint> escalatedAt;
  std::string coveredBy;  // person id, when covered
  std::optional<TimePoint> closedAt;
};

struct OfferRow {
  std::int64_t id = 0;
  std::int64_t calloutId = 0;
  std::string personId;
  std::string phone;
  std::string code;  // the reply code (sms/text/offer_code.h)
  int wave = 0;
  int rank = 0;  // place in the call-out's ranking, 1 = first
  OfferState state = OfferState::kOpen;
  TimePoint offeredAt{};
  std::optional<TimePoint> answeredAt;
  std::int64_t premiumMinutes = 0;  // what taking the shift would cost, as evaluated when offered
  std::int64_t premiumCents = 0;
};

struct ApprovalRow {
  std::int64_t id = 0;
  std::string kind;  // the policy action kind asked for ("overtime.approve")
  std::int64_t calloutId = 0;
  std::optional<std::int64_t> offerId;
  std::string subjectId;   // the person it is about
  std::string approverId;  // the manager of record who may decide
  std::string approverPhone;
  std::string summary;  // one line, what the manager is asked
  TimePoint requestedAt{};
  TimePoint expiresAt{};
  ApprovalState state = ApprovalState::kPending;
  std::string decidedBy;  // person id or "expiry"
  std::optional<TimePoint> decidedAt;
  std::string remark;
  std::optional<std::uint64_t> receiptSeq;  // the signed receipt it was asked with (its evidence)
};

class CalloutStore {
 public:
  explicit CalloutStore(Database& db) : db_(db) {}

  Result<std::int64_t> insertCallout(const CalloutRow& row);  // returns the new id
  Status updateCallout(const CalloutRow& row);                // every mutable column
  Result<std::optional<CalloutRow>> callout(std::int64_t id);
  Result<std::optional<CalloutRow>> openCalloutForShift(std::string_view shiftId);
  // The shift's latest call-out, in any state (a search ran or runs for it); nullopt: none ever.
  Result<std::optional<CalloutRow>> latestCalloutForShift(std::string_view shiftId);
  Result<std::vector<CalloutRow>> openCallouts();
  // The open call-outs and the covered ones whose shift ends after `now`, by id.
  Result<std::vector<CalloutRow>> currentCallouts(TimePoint now);
  // The closed ones (covered, withdrawn, expired), newest first: at most `limit`.
  Result<std::vector<CalloutRow>> closedCallouts(std::size_t limit);
  // The signed receipts of a call-out's decisions (their audit seqs), oldest first.
  Status fileReceipt(std::int64_t calloutId, std::uint64_t seq);
  Result<std::vector<std::uint64_t>> receiptsOf(std::int64_t calloutId);
  // The latest call-outs (any state) whose absent person is `personId`, newest first.
  Result<std::vector<CalloutRow>> calloutsFor(std::string_view absentId, std::size_t limit);

  Result<std::int64_t> insertOffer(const OfferRow& row);
  Status updateOffer(const OfferRow& row);                       // state and answered_at
  Result<std::vector<OfferRow>> offers(std::int64_t calloutId);  // by id
  // Offers in state open or awaiting_approval made to `personId`, by id.
  Result<std::vector<OfferRow>> liveOffersTo(std::string_view personId);
  // The latest offer to `personId` with reply code `code`, if any.
  Result<std::optional<OfferRow>> latestOfferWithCode(std::string_view personId,
                                                      std::string_view code);
  // How many offers (any call-out, any state but not_sent) `personId` got since `since`.
  Result<int> offersSince(std::string_view personId, TimePoint since);
  // Whether `personId` is out of a shift (a call-out about them, not withdrawn because they came
  // in) that starts in [from, to].
  Result<bool> outBetween(std::string_view personId, TimePoint from, TimePoint to);
  // Codes of offers to `personId` made since `since` (to keep new codes distinct).
  Result<std::vector<std::string>> codesSince(std::string_view personId, TimePoint since);

  Result<std::int64_t> insertApproval(const ApprovalRow& row);
  // state, decided_by, decided_at, remark, receipt_seq
  Status updateApproval(const ApprovalRow& row);
  Result<std::optional<ApprovalRow>> approval(std::int64_t id);
  Result<std::vector<ApprovalRow>> pendingApprovals();  // by expiry
  // The pending ones and those asked since `since`, newest first, at most `limit`.
  Result<std::vector<ApprovalRow>> recentApprovals(TimePoint since, std::size_t limit);
  Result<std::vector<ApprovalRow>> approvalsFor(std::int64_t calloutId);

  // The earliest instant something is due: a wave, an escalation, an approval's expiry.
  Result<std::optional<TimePoint>> nextDue();

 private:
  Database& db_;
};

}  // namespace atoms::callout
