#include "sms/conversation/checklist_texts.h"

namespace atoms::sms::conversation {
namespace {

// How to mark it: "DONE opening" or "TEMP walk-in 38F" (an example reading: the range's top).
std::string howTo(const ReplyContext& c, const Checklist& list) {
  if (!list.temperature) return (c.spanish() ? "LISTO " : "DONE ") + list.id;
  return "TEMP " + list.id + " " + formatTemperature(list.maxTenthsF, list.unit);
}

std::string range(const Checklist& list) {
  return formatTemperature(list.minTenthsF, list.unit) + "-" +
         formatTemperature(list.maxTenthsF, list.unit);
}

}  // namespace

std::string checklistDoneText(const ReplyContext& c, const Checklist& list) {
  if (c.spanish()) return "Gracias, " + list.name + " queda marcada como hecha por hoy.";
  return "Thanks, " + list.name + " is marked done for today.";
}

std::string checklistAlreadyDoneText(const ReplyContext& c, const Checklist& list,
                                     const std::string& atHhmm) {
  if (c.spanish())
    return list.name + " ya estaba marcada como hecha hoy a las " + atHhmm + ". Gracias.";
  return list.name + " was already marked done today at " + atHhmm + ". Thanks.";
}

std::string checklistLoggedText(const ReplyContext& c, const Checklist& list, int tenthsF) {
  const std::string t = formatTemperature(tenthsF, list.unit);
  if (c.spanish()) return "Gracias, " + list.name + " anotada en " + t + ".";
  return "Thanks, " + list.name + " logged at " + t + ".";
}

std::string checklistOutOfRangeText(const ReplyContext& c, const Checklist& list, int tenthsF,
                                    const std::string& safetyAnswer) {
  const std::string t = formatTemperature(tenthsF, list.unit);
  if (c.spanish()) {
    return "Anotado: " + list.name + " en " + t + ", fuera del rango seguro " + range(list) + ". " +
           safetyAnswer;
  }
  return "Logged: " + list.name + " at " + t + ", outside the safe range " + range(list) + ". " +
         safetyAnswer;
}

std::string checklistWrongKindText(const ReplyContext& c, const Checklist& list) {
  if (c.spanish()) return "Para " + list.name + " envía por ejemplo: " + howTo(c, list) + ".";
  return "For " + list.name + " send for example: " + howTo(c, list) + ".";
}

std::string checklistUnknownText(const ReplyContext& c, const std::vector<std::string>& ids) {
  std::string names;
  for (const std::string& id : ids) names += (names.empty() ? "" : ", ") + id;
  if (c.spanish()) {
    return "No conozco esa lista. Las listas de " + c.site + " son: " + names +
           ". Preguntas: " + c.humanText() + ".";
  }
  return "I don't know that checklist. The checklists at " + c.site + " are: " + names +
         ". Questions: " + c.humanText() + ".";
}

std::string checklistOverdueOwnerText(const ReplyContext& c, const Checklist& list,
                                      const std::string& dueHhmm) {
  if (c.spanish()) {
    return "Recordatorio de " + c.site + ": " + list.name + " era para las " + dueHhmm +
           " y aún no está marcada. Cuando esté, responde " + howTo(c, list) +
           ". Preguntas: " + c.humanText() + ".";
  }
  return "Reminder from " + c.site + ": " + list.name + " was due at " + dueHhmm +
         " and is not marked yet. When it is done, reply " + howTo(c, list) +
         ". Questions: " + c.humanText() + ".";
}

std::string checklistOverdueManagerText(const ReplyContext& c, const Checklist& list,
                                        const std::string& dueHhmm) {
  if (c.spanish()) {
    return c.site + ": " + list.name + " era para las " + dueHhmm +
           " y aún no está marcada; ya se envió un recordatorio. Si ya está hecha, responde " +
           howTo(c, list) + ".";
  }
  return c.site + ": " + list.name + " was due at " + dueHhmm +
         " and is not marked yet; a reminder went out. If it is done, reply " + howTo(c, list) +
         ".";
}

}  // namespace atoms::sms::conversation
