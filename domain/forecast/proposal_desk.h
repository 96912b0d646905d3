// ProposalDesk: a manager's answer to an intraday proposal (intraday_proposals.h) and what an
// approval does (issue 19 item 6; docs/forecast.md "During the day"):
// - an approved add puts an extra shift at the station on today's schedule and opens a call-out
//   that searches for someone to take it (callout/extra_shift.h);
// - an approved cut lets the person finish early: the shift's end moves, the change engine's
//   premium is recorded and the person is texted (callout/early_finish.h);
// - a deny changes nothing else; a proposal past its expiry is marked expired instead.
// The decision and its effect are one batch of the audit log: both or neither. When the schedule
// moved on since the proposal (the shift is gone, someone else's, ends at another time), the
// approval is refused (kRefused, nothing changed) and the proposal stays pending until it lapses.
//
// Threading: the store's writer (the engine thread), through the StoreRunner; not otherwise
// synchronised. Errors: kNotFound (no such proposal), kRefused (decided already, or the effect
// refused), store and engine errors, one line.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "base/result.h"
#include "domain/callout/callout_desk.h"
#include "domain/forecast/intraday_proposals.h"
#include "sms/conversation/outreach.h"
#include "store/store_runner.h"

namespace atoms::forecast {

struct ProposalAnswer {
  IntradayProposal proposal;              // as it stands after the answer
  std::string message;                    // one line for the manager
  std::optional<std::int64_t> calloutId;  // an approved add: the call-out searching
  std::string shiftId;                    // the extra shift, or the shift that ends early
};

class ProposalDesk {
 public:
  // Every reference must outlive the desk; `onDecided` (may be empty) runs on the writer after
  // each committed approval (the processor sets its call-out timer again).
  ProposalDesk(callout::CalloutDesk& desk, atoms::StoreRunner& store,
               std::function<void()> onDecided = {});

  Result<ProposalAnswer> decide(const std::string& personId, std::int64_t id, bool approve,
                                const std::string& remark);

  // A proposal just filed reaches the general manager by text (an escalation-class message
  // through Outreach: consent, opt-out, caps; id "intraday-<id>-announce", so never twice): its
  // summary and where to decide it before it lapses. Nothing is sent without a general manager
  // with a phone. Returns what became of the text (nullopt: nobody to tell).
  Result<std::optional<sms::conversation::OutreachResult>> announce(const IntradayProposal& p);

 private:
  Status approve(callout::DeskStep& step, const std::string& personId, ProposalAnswer& out);

  callout::CalloutDesk& desk_;
  atoms::StoreRunner& store_;
  std::function<void()> onDecided_;
};

}  // namespace atoms::forecast
