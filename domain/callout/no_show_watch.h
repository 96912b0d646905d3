// NoShowWatch: a shift that started without a clock-in (issue 6 item 3). Once a shift's start is
// `grace` behind and its assignee has no clock-in punch since an hour before it (from the time
// clocks: site_punch), the box does nothing on its own: it asks a person, once per shift, in a
// text that says what it saw and how to start the search ("Jamal hasn't clocked in for line cook
// today 17:00-23:00 yet. If they're not coming, reply "Jamal isn't here" and I'll find cover.").
// The reply is an ordinary report (CalloutDesk::reportIn), so the lead stays the one who decides.
// A shift with a call-out is left to the search, except when the search covered it: its cover is
// asked about once more, the same way (a cover who does not come is noticed; issue 7).
//
// Who is asked: the person working a shift lead's position then (a shift at a station tagged
// "shift_lead", other than the absent person), else the absent person's manager of record, else the
// site's contact. The question is an escalation to a human (policy kind callout.noshow_check), so
// the kill switch's L1 freeze does not hold it; quiet hours do not apply to the lead on duty.
// Each question has a signed receipt (the shift, the punches looked at, the gate's decision) and
// a deterministic message id, so a restart never asks twice. A shift whose grace ended more than
// kLateWindow ago, or that has ended, is not asked about (a box that was down does not wake
// people up about the past). Nothing here is a record about the person: the receipt says a punch
// was missing, not why.
//
// Threading: the store's writer (the engine thread), like the desk.
#pragma once

#include <chrono>
#include <optional>

#include "base/result.h"
#include "domain/callout/callout_desk.h"
#include "domain/callout/site_snapshot.h"
#include "sms/conversation/outreach.h"
#include "store/store_runner.h"

namespace atoms::callout {

class NoShowWatch {
 public:
  static constexpr std::chrono::hours kLateWindow{2};

  // `grace` 0 turns the watch off. Every reference must outlive the watch.
  NoShowWatch(CalloutDesk& desk, SiteSnapshot& site, sms::conversation::Outreach& outreach,
              atoms::StoreRunner& store, std::chrono::minutes grace, GateFunction gate);

  // Asks about every shift due by `now`, one transaction each; returns how many were asked.
  Result<int> due(TimePoint now);
  // When due() should run next: the earliest end of a grace not looked at yet that can still be
  // asked about (at once after a start: shifts whose grace ended while the box was down), or
  // nullopt (none, or the watch is off).
  std::optional<TimePoint> nextDue(TimePoint now) const;

 private:
  struct Asked {
    std::string personId;  // empty for the site's contact
    std::string name;
    std::string phone;
    std::string why;  // "lead_on_duty", "manager_of_record", "site_contact"
  };
  Asked whoToAsk(const site::Shift& shift) const;
  // Ok(true) when a question went out (or was held) for the shift now.
  Result<bool> check(SiteStore& store, const site::Shift& shift, TimePoint now);

  CalloutDesk& desk_;
  SiteSnapshot& site_;
  sms::conversation::Outreach& outreach_;
  atoms::StoreRunner& store_;
  std::chrono::minutes grace_;
  GateFunction gate_;
  // Every grace that ended by then has been looked at (and the store says who was asked).
  std::optional<TimePoint> checkedThrough_;
};

}  // namespace atoms::callout
