#include "domain/callout/callout_desk.h"

#include <chrono>
#include <utility>

#include "domain/callout/callout_report.h"
#include "domain/callout/callout_timers.h"
#include "domain/callout/offer_reply.h"
#include "domain/callout/presence_reports.h"

namespace atoms::callout {

using sms::conversation::Contact;

CalloutDesk::CalloutDesk(SiteSnapshot& site, sms::conversation::Outreach& outreach,
                         atoms::StoreRunner& store, CalloutSettings settings, GateFunction gate,
                         sms::RandomSource random)
    : desk_(site, outreach, std::move(settings), std::move(gate), std::move(random)),
      store_(store) {}

Result<DeskAnswer> CalloutDesk::reportIn(DeskTurn& turn, const Contact& reporter,
                                         std::string_view absentId, CalloutOrigin origin) {
  DeskStep step(turn);
  return openCallout(desk_, step, reporter, absentId, origin);
}

Result<DeskAnswer> CalloutDesk::takeIn(DeskTurn& turn, const Contact& person,
                                       std::string_view code) {
  DeskStep step(turn);
  return takeOffer(desk_, step, person, code);
}

Result<DeskAnswer> CalloutDesk::declineIn(DeskTurn& turn, const Contact& person,
                                          std::string_view code) {
  DeskStep step(turn);
  return declineOffer(desk_, step, person, code);
}

Result<DeskAnswer> CalloutDesk::decideIn(DeskTurn& turn, const Contact& sender,
                                         std::string_view reference, bool approve,
                                         std::string_view remark) {
  DeskStep step(turn);
  return decideByText(desk_, step, sender, reference, approve, remark);
}

Result<Decision> CalloutDesk::decideAs(DeskTurn& turn, const Decider& who, std::int64_t approvalId,
                                       const ApprovalAnswer& answer) {
  DeskStep step(turn);
  return decideApproval(desk_, step, who, approvalId, answer);
}

Result<DeskAnswer> CalloutDesk::arrivedIn(DeskTurn& turn, const Contact& person) {
  DeskStep step(turn);
  return personArrived(desk_, step, person);
}

Result<DeskAnswer> CalloutDesk::lateIn(DeskTurn& turn, const Contact& person,
                                       std::optional<int> minutes) {
  DeskStep step(turn);
  return personRunningLate(desk_, step, person, minutes);
}

Result<std::vector<std::string>> CalloutDesk::liveCodes(SiteStore& store,
                                                        std::string_view personId) {
  CalloutStore rows(store.db());
  return callout::liveCodes(rows, personId);
}

Result<std::vector<std::string>> CalloutDesk::recentCodes(SiteStore& store,
                                                          std::string_view personId) {
  return CalloutStore(store.db()).codesSince(personId, now() - std::chrono::hours{24});
}

Result<bool> CalloutDesk::replyCrossedClosing(SiteStore& store, std::string_view personId,
                                              std::string_view code, TimePoint receivedAt) {
  CalloutStore rows(store.db());
  return callout::replyCrossedClosing(rows, personId, code, receivedAt);
}

Result<int> CalloutDesk::due(TimePoint now) { return runDueCallouts(desk_, store_, now); }

Result<std::optional<TimePoint>> CalloutDesk::nextDue() { return nextCalloutDue(store_); }

}  // namespace atoms::callout
