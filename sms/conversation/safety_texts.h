// The texts of a safety report (issue 7 item 5; docs/safety-alerts.md): the answer to the person
// who reported it (the emergency number first), the alert to the people who must act (and the
// reminders while nobody has acknowledged it), and the confirmations of an acknowledgement. Plain
// and short; they name what was reported in general words (never health details, which the
// content lint refuses anyway) and the reporter's number, so the person alerted calls them.
#pragma once

#include <string>
#include <vector>

#include "sms/conversation/replies.h"
#include "sms/text/safety_report.h"

namespace atoms::sms::conversation {

struct SafetyAlertFacts {
  std::int64_t incident = 0;
  std::string site;
  std::string reporter;  // "Maria at +15550101234", or the number alone
  SafetyCategory category = SafetyCategory::kKeyword;
  std::string emergencyNumber;
  std::string reportedAt;  // local "HH:MM", for reminders
};

// To the reporter, in their language: emergency number first, then who was alerted (names, or
// "your manager" when nobody could be reached by text: then who to call).
std::string safetyReceivedText(const ReplyContext& c, const std::vector<std::string>& alerted,
                               const std::string& emergencyNumber);
// To the reporter again, when they report more while the incident is open.
std::string safetyStillOpenText(const ReplyContext& c, const std::string& emergencyNumber);
// To each person alerted: the first alert (round 1) and the reminders.
std::string safetyAlertText(const SafetyAlertFacts& f, int round);
// To the person who acknowledged, to the reporter, and to the other people alerted.
std::string safetyAcknowledgedText(std::int64_t incident, bool othersTold);
std::string safetyHandledForReporterText(const ReplyContext& c, const std::string& by);
std::string safetyHandledByOtherText(std::int64_t incident, const std::string& by);
// An ACK that cannot close the incident: unknown or already acknowledged, or a number it was not
// sent to.
std::string safetyAckUnknownText(std::int64_t incident);
std::string safetyAckNotYoursText(std::int64_t incident);

}  // namespace atoms::sms::conversation
