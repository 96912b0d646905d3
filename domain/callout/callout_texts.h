// Every text the call-out flow sends, in English and Spanish (docs/callouts.md quotes them). Plain,
// kind and short; never about why someone is out (no health, no private life), never disciplinary,
// never ranking people; each one that asks something says how to answer, and the ones to staff name
// a person to reach. Every text passes the content lint (pinned by the tests).
//
// Pure functions, thread-safe.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sms/conversation/language.h"
#include "sms/conversation/replies.h"

namespace atoms::callout {

using sms::conversation::ReplyContext;

// A shift as the texts name it: "line cook today 17:00-23:00", "line cook Sat 3/7 17:00-23:00"
// ("hoy", "sáb 7/3" in Spanish).
struct ShiftWords {
  std::string station;            // the station's display name
  bool today = false;             // the shift starts on the site's current local day
  std::chrono::local_days day{};  // the local day it starts
  std::string hours;              // "17:00-23:00"
};

// In the reader's language: "line cook today 17:00-23:00".
std::string shiftText(const ReplyContext& c, const ShiftWords& s);
// For receipts and WHY (English): "shift: line cook today 17:00-23:00".
std::string shiftLabel(const ShiftWords& s);

// To a candidate: the shift and the code that takes it.
std::string offerText(const ReplyContext& c, const ShiftWords& s, const std::string& code);
// To whoever reported the absence (a lead), or the person who called out themselves. Here and
// below, an empty `absent` is an extra shift (nobody is out; extra_shift.h).
std::string searchingText(const ReplyContext& c, const ShiftWords& s, const std::string& absent,
                          int offers, bool self);
// Nobody can take it now (all denied or unreachable): the general manager was told (`manager`,
// their name), or, when `manager` is empty, nobody could be: the sender is asked to call theirs.
// The search opened while outreach is frozen (kill switch L1, seed 001 EC-RISK-008): the offers
// wait for the release; the sender is pointed to a person for cover sooner.
std::string heldSearchText(const ReplyContext& c, const ShiftWords& s, const std::string& absent,
                           bool self);
std::string nobodyEligibleText(const ReplyContext& c, const ShiftWords& s,
                               const std::string& manager);
std::string coveredText(const ReplyContext& c, const ShiftWords& s, const std::string& who);
std::string youAreOnText(const ReplyContext& c, const ShiftWords& s);
std::string alreadyCoveredText(const ReplyContext& c);
std::string coveredNoLongerNeededText(const ReplyContext& c, const ShiftWords& s);
std::string declinedText(const ReplyContext& c);
// The taker no longer passes a labor rule at the moment they reply.
std::string cannotTakeText(const ReplyContext& c);
// To a taker whose shift was not given at Act (the schedule as stored breaks a labor rule).
std::string managerWillConfirmText(const ReplyContext& c);
// To the taker's manager of record: the same, and that the search goes on.
std::string notGivenAtActText(const ReplyContext& c, const std::string& who, const ShiftWords& s);
// To people with an open offer when the absent person turned up after all.
std::string noLongerNeededText(const ReplyContext& c, const ShiftWords& s);
// A second reply with the code while the manager decides.
std::string stillWaitingText(const ReplyContext& c);
// Why taking a shift waits for a manager: what the approval request and the taker are told.
enum class ApprovalReason {
  kAssignment,  // the function is at PROPOSE: a manager confirms every cover, premium or not
  kOvertime,    // the cover puts the taker into overtime
  kPremium,     // the cover is owed another premium (a short rest, a schedule change)
};
// To the taker: the manager decides, and why (only overtime when there is overtime).
std::string waitingApprovalText(const ReplyContext& c, const std::string& manager,
                                ApprovalReason reason);
// PROPOSE: the manager says go before any offer leaves. To the manager, and to the lead.
std::string offersApprovalRequestText(const ReplyContext& c, std::int64_t approval,
                                      const std::string& absent, const ShiftWords& s);
std::string offersWaitingApprovalText(const ReplyContext& c, const ShiftWords& s,
                                      const std::string& manager);
// An approval the policy gate does not let through now (kill switch L2/L3): nothing changed.
std::string approvalsPausedText(const ReplyContext& c);
// An approval OKed while the breaker of what it would do is open (seed 001 EC-RISK-001): nothing
// was done, the approval stays open for a later APPROVE.
std::string heldByBreakerText(const ReplyContext& c, std::int64_t approval);
// Approved, but the person no longer passes the labor rules: the search goes on.
std::string approvedButNotAllowedText(const ReplyContext& c, const std::string& who);
// To the approver: what APPROVE does (gives `who` the shift), and the premium pay only when there
// is some (its time when it is paid by the hour, its amount always).
std::string approvalRequestText(const ReplyContext& c, std::int64_t approval,
                                const std::string& who, const ShiftWords& s,
                                std::int64_t premiumMinutes, std::int64_t premiumCents);
std::string approvedText(const ReplyContext& c, const ShiftWords& s);
std::string notApprovedText(const ReplyContext& c);
std::string approvalRecordedText(const ReplyContext& c, std::int64_t approval, bool approved);
std::string approvalClosedText(const ReplyContext& c, std::int64_t approval);
std::string approvalNotYoursText(const ReplyContext& c, std::int64_t approval);
std::string approvalSelfText(const ReplyContext& c, std::int64_t approval);
std::string approvalWhichText(const ReplyContext& c);
// To the general manager after the search window; to the lead at the same moment (an empty
// `manager`: nobody could be told, the lead is asked to call theirs).
std::string escalationText(const ReplyContext& c, const ShiftWords& s, const std::string& absent,
                           int offers, std::uint64_t receiptSeq);
std::string stillSearchingText(const ReplyContext& c, const ShiftWords& s,
                               const std::string& manager);
// To the lead when the manager said no to sending offers (PROPOSE mode): no search runs.
std::string offersNotApprovedText(const ReplyContext& c, const ShiftWords& s,
                                  const std::string& manager);
// To a person a manager lets finish early today (early_finish.h): the new and the old end
// ("19:30", "22:00"), the premium they are still owed when there is one, and whom to ask.
std::string earlyFinishText(const ReplyContext& c, const std::string& station,
                            const std::string& newEnd, const std::string& oldEnd,
                            std::int64_t premiumCents);
// Running late, arrived, unclear.
std::string lateThanksText(const ReplyContext& c, const std::string& lead);
std::string lateNoticeText(const ReplyContext& c, const std::string& who, const ShiftWords& s,
                           std::optional<int> minutes);
std::string arrivedThanksText(const ReplyContext& c, const std::string& lead);
std::string arrivedNoticeText(const ReplyContext& c, const std::string& who, const ShiftWords& s,
                              const std::string& coveredBy);
std::string clarifyWhoText(const ReplyContext& c);
std::string clarifyWhatText(const ReplyContext& c);
std::string noShiftFoundText(const ReplyContext& c, const std::string& who);
std::string alreadySearchingText(const ReplyContext& c, const ShiftWords& s);
std::string calloutHelpText(const ReplyContext& c);
// A health or family word about a named co-worker ("Ana has covid"): a question about them that
// repeats no health detail.
std::string clarifyCoworkerOutText(const ReplyContext& c, const std::string& who);
// What the assistant does not do, said honestly (sms/text/out_of_scope.h), and a text without
// words (an emoji alone has words' worth of meaning to nobody: it gets calloutHelpText()).
std::string noRankingText(const ReplyContext& c);
std::string noContactDetailsText(const ReplyContext& c);
std::string emptyTextText(const ReplyContext& c);
// The time clock: a shift started without a clock-in. To the person to ask (a lead).
std::string possibleNoShowText(const ReplyContext& c, const std::string& who, const ShiftWords& s);

}  // namespace atoms::callout
