#include "sms/conversation/safety_texts.h"

namespace atoms::sms::conversation {
namespace {

std::string what(SafetyCategory c) {
  switch (c) {
    case SafetyCategory::kInjury:
      return "that someone may be hurt";
    case SafetyCategory::kFire:
      return "fire or smoke";
    case SafetyCategory::kGas:
      return "a gas smell or leak";
    case SafetyCategory::kViolence:
      return "a fight, a threat or a weapon";
    case SafetyCategory::kEquipment:
      return "dangerous equipment";
    case SafetyCategory::kFoodSafety:
      return "a food-safety temperature out of range";
    case SafetyCategory::kKeyword:
      break;
  }
  return "a safety problem";
}

std::string joined(const std::vector<std::string>& names, bool spanish) {
  std::string out;
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (i > 0) out += i + 1 == names.size() ? (spanish ? " y " : " and ") : ", ";
    out += names[i];
  }
  return out;
}

}  // namespace

std::string safetyReceivedText(const ReplyContext& c, const std::vector<std::string>& alerted,
                               const std::string& emergencyNumber) {
  const bool es = c.language == Language::kSpanish;
  if (alerted.empty()) {
    const std::string human = describeHuman(c.human, c.language);
    return es ? "Si alguien está en peligro, llama al " + emergencyNumber +
                    " ahora. No pude avisar a nadie por mensaje: llama a " + human + "."
              : "If anyone is in danger, call " + emergencyNumber +
                    " now. I could not reach anyone by text: please call " + human + ".";
  }
  const bool one = alerted.size() == 1;
  return es ? "Si alguien está en peligro, llama al " + emergencyNumber + " ahora. Avisé a " +
                  joined(alerted, true) + " y seguiré avisando hasta que " +
                  (one ? "responda." : "alguien responda.")
            : "If anyone is in danger, call " + emergencyNumber + " now. I've alerted " +
                  joined(alerted, false) + " and will keep trying until " +
                  (one ? "they answer." : "one of them answers.");
}

std::string safetyStillOpenText(const ReplyContext& c, const std::string& emergencyNumber) {
  return c.language == Language::kSpanish
             ? "Si alguien está en peligro, llama al " + emergencyNumber +
                   " ahora. Ya avisé y sigo avisando hasta que alguien responda."
             : "If anyone is in danger, call " + emergencyNumber +
                   " now. The alert is out and I keep trying until someone answers.";
}

std::string safetyAlertText(const SafetyAlertFacts& f, int round) {
  const std::string id = std::to_string(f.incident);
  const std::string head =
      round <= 1 ? "Safety alert at " + f.site + ": " + f.reporter + " reported " +
                       what(f.category) + ". Please call them now."
                 : "Still open: safety alert " + id + " at " + f.site + " (" + what(f.category) +
                       ", reported by " + f.reporter + " at " + f.reportedAt + ").";
  return head + " Reply ACK " + id + " when someone is handling it. If anyone is in danger, call " +
         f.emergencyNumber + ".";
}

std::string safetyAcknowledgedText(std::int64_t incident, bool othersTold) {
  return "Thanks. Safety alert " + std::to_string(incident) +
         " is marked as being handled by you." +
         (othersTold ? " The others alerted have been told." : "");
}

std::string safetyHandledForReporterText(const ReplyContext& c, const std::string& by) {
  return c.language == Language::kSpanish ? by + " se está ocupando ahora. Gracias por avisar."
                                          : by + " is handling it now. Thank you for telling us.";
}

std::string safetyHandledByOtherText(std::int64_t incident, const std::string& by) {
  return "Safety alert " + std::to_string(incident) + " is being handled by " + by + ".";
}

std::string safetyAckUnknownText(std::int64_t incident) {
  return "There is no open safety alert " + std::to_string(incident) +
         ". If something is wrong, text SAFETY and what happened.";
}

std::string safetyAckNotYoursText(std::int64_t incident) {
  return "Safety alert " + std::to_string(incident) +
         " can only be closed by the people it was sent to. If you can help, call them.";
}

}  // namespace atoms::sms::conversation
