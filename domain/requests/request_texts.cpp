#include "domain/requests/request_texts.h"

#include <array>
#include <chrono>

#include "domain/requests/request_effect.h"

namespace atoms::requests {

namespace {

constexpr std::array<std::string_view, 7> kDayEn = {"Sun", "Mon", "Tue", "Wed",
                                                    "Thu", "Fri", "Sat"};
constexpr std::array<std::string_view, 7> kDayEs = {"dom", "lun", "mar", "mié",
                                                    "jue", "vie", "sáb"};
constexpr std::array<std::string_view, 7> kDaysEn = {
    "Sundays", "Mondays", "Tuesdays", "Wednesdays", "Thursdays", "Fridays", "Saturdays"};
constexpr std::array<std::string_view, 7> kDaysEs = {"domingos", "lunes",   "martes", "miércoles",
                                                     "jueves",   "viernes", "sábados"};
constexpr std::array<std::string_view, 12> kMonthEn = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                                       "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
constexpr std::array<std::string_view, 12> kMonthEs = {"ene", "feb", "mar", "abr", "may", "jun",
                                                       "jul", "ago", "sep", "oct", "nov", "dic"};

std::string dayWords(std::string_view date, bool spanish) {
  auto day = parseRequestDate(date, 0);
  if (!day) return std::string(date);
  const std::chrono::year_month_day ymd{*day};
  const unsigned wd = std::chrono::weekday{*day}.c_encoding();
  const unsigned m = static_cast<unsigned>(ymd.month()) - 1;
  const std::string d = std::to_string(static_cast<unsigned>(ymd.day()));
  if (spanish) return std::string(kDayEs[wd]) + " " + d + " " + std::string(kMonthEs[m]);
  return std::string(kDayEn[wd]) + " " + std::string(kMonthEn[m]) + " " + d;
}

std::string_view partWords(sms::DayPart part, bool spanish, bool plural) {
  switch (part) {
    case sms::DayPart::kAllDay:
      return "";
    case sms::DayPart::kMorning:
      return spanish ? (plural ? "mañanas" : "mañana") : (plural ? "mornings" : "morning");
    case sms::DayPart::kAfternoon:
      return spanish ? (plural ? "tardes" : "tarde") : (plural ? "afternoons" : "afternoon");
    case sms::DayPart::kEvening:
      return spanish ? (plural ? "noches" : "noche") : (plural ? "evenings" : "evening");
    case sms::DayPart::kNight:
      return spanish ? (plural ? "noches" : "noche") : (plural ? "nights" : "night");
  }
  return "";
}

std::string weekdaysWords(const std::vector<unsigned>& weekdays, bool spanish) {
  if (weekdays == std::vector<unsigned>{0, 6}) return spanish ? "fines de semana" : "weekends";
  if (weekdays == std::vector<unsigned>{1, 2, 3, 4, 5})
    return spanish ? "entre semana" : "weekdays";
  std::string s;
  for (std::size_t i = 0; i < weekdays.size(); ++i) {
    if (i > 0) s += i + 1 == weekdays.size() ? (spanish ? " y " : " and ") : ", ";
    s += spanish ? kDaysEs[weekdays[i] % 7] : kDaysEn[weekdays[i] % 7];
  }
  return s;
}

}  // namespace

std::string requestLabel(std::int64_t id) { return "R" + std::to_string(id); }

std::string requestWords(const RequestRow& row, bool spanish) {
  if (row.kind == sms::RequestKind::kTimeOff) {
    std::string days = dayWords(row.fromDate, spanish);
    if (row.toDate != row.fromDate) days += " - " + dayWords(row.toDate, spanish);
    const std::string part(partWords(row.part, spanish, false));
    if (spanish) return "libre " + days + (part.empty() ? "" : " (" + part + ")");
    return days + (part.empty() ? "" : " (" + part + ")") + " off";
  }
  const std::string part(partWords(row.part, spanish, true));
  std::string when;
  if (row.weekdays.empty()) {
    when = part.empty() ? (spanish ? "ningún día" : "any day") : part;
  } else {
    when = weekdaysWords(row.weekdays, spanish);
    if (!part.empty()) when += spanish ? " en las " + part : " " + part;
  }
  if (row.change == sms::AvailabilityChange::kOnly) return (spanish ? "solo " : "only ") + when;
  return (spanish ? "sin " : "no ") + when;
}

std::string requestReceivedText(const ReplyContext& c, const std::string& what, std::int64_t id) {
  const std::string r = requestLabel(id);
  if (c.spanish()) {
    return "Recibido: pediste " + what + " (solicitud " + r +
           "). Tu gerente decide y te aviso por aquí. No hace falta dar motivo.";
  }
  return "Got it: you asked for " + what + " (request " + r +
         "). Your manager will decide and I'll text you. No need to give a reason.";
}

std::string requestQuestionText(const ReplyContext& c, std::string_view question) {
  const bool es = c.spanish();
  if (question == "one_range") {
    return es ? "Con gusto. ¿Me mandas un mensaje por cada día o tramo? Por ejemplo: \"vie-dom "
                "libre\"."
              : "Happy to help. Could you send one text per day or stretch? For example: "
                "\"Fri-Sun off\".";
  }
  if (question == "too_long") {
    return es ? "Para un tiempo tan largo, mejor habla con " + c.humanText() + ". ¡Gracias!"
              : "For that much time, it's best to talk with " + c.humanText() + ". Thanks!";
  }
  if (question == "which_times") {
    return es ? "Claro. ¿Qué horarios ya no puedes? Por ejemplo: mañanas, tardes, noches o fines "
                "de semana."
              : "Sure. Which times can't you work now? For example: mornings, evenings, nights "
                "or weekends.";
  }
  if (question == "can_or_cannot") {
    return es ? "Gracias. ¿Es que ya no puedes en ese horario, o que solo puedes en ese "
                "horario?"
              : "Thanks. Do you mean you can't work those times, or you can only work those "
                "times?";
  }
  return es ? "Claro. ¿Qué día quieres libre? Por ejemplo: \"sábado libre\" o \"12/14 libre\"."
            : "Sure. Which day would you like off? For example: \"Saturday off\" or \"12/14 "
              "off\".";
}

std::string requestApprovedText(const ReplyContext& c, const std::string& what) {
  if (c.spanish()) return "Buenas noticias: tu solicitud (" + what + ") está aprobada.";
  return "Good news: your request (" + what + ") is approved.";
}

std::string requestDeniedText(const ReplyContext& c, const std::string& what) {
  if (c.spanish()) {
    return "Tu solicitud (" + what + ") no se pudo aprobar esta vez. Si quieres hablarlo, " +
           c.humanText() + " está para ayudarte.";
  }
  return "Your request (" + what +
         ") couldn't be approved this time. If you'd like to talk it "
         "over, " +
         c.humanText() + " is happy to help.";
}

std::string requestWithdrawnText(const ReplyContext& c, std::int64_t id) {
  if (c.spanish()) return "Listo: retiré la solicitud " + requestLabel(id) + ".";
  return "Done: request " + requestLabel(id) + " is withdrawn.";
}

std::string requestForManagerText(const ReplyContext& c, const std::string& name,
                                  const std::string& what, std::int64_t id, std::size_t touched) {
  const std::string r = requestLabel(id);
  const std::string n = std::to_string(touched);
  if (c.spanish()) {
    return name + " pide " + what + " (" + r + ")." +
           (touched ? " Toca " + n + " turno(s) asignado(s); nadie se desasigna solo." : "") +
           " Responde APPROVE " + r + " o DENY " + r + ", o míralo en el panel.";
  }
  return name + " asks for " + what + " (" + r + ")." +
         (touched ? " It touches " + n + " assigned shift(s); nobody is unassigned by it." : "") +
         " Reply APPROVE " + r + " or DENY " + r + ", or see it on the panel.";
}

std::string requestRecordedText(const ReplyContext& c, std::int64_t id, bool approved,
                                std::size_t touched) {
  const std::string r = requestLabel(id);
  const std::string n = std::to_string(touched);
  if (c.spanish()) {
    return std::string(approved ? "Aprobada" : "No aprobada") + ": solicitud " + r + "." +
           (approved && touched ? " Sigue asignada a " + n + " turno(s): revísalos en el panel."
                                : "");
  }
  return std::string(approved ? "Approved" : "Denied") + ": request " + r + ". Thanks." +
         (approved && touched ? " They are still on " + n + " shift(s): see the panel." : "");
}

std::string requestClosedText(const ReplyContext& c, std::int64_t id) {
  const std::string r = requestLabel(id);
  if (c.spanish()) return "La solicitud " + r + " ya está cerrada o no existe; no cambié nada.";
  return "Request " + r + " is already closed or unknown; nothing changed.";
}

std::string requestNotYoursText(const ReplyContext& c, std::int64_t id) {
  const std::string r = requestLabel(id);
  if (c.spanish()) return "Solo su gerente puede decidir la solicitud " + r + "; no cambié nada.";
  return "Only their manager can decide request " + r + "; nothing changed.";
}

std::string requestSelfText(const ReplyContext& c, std::int64_t id) {
  const std::string r = requestLabel(id);
  if (c.spanish()) {
    return "La solicitud " + r + " es tuya, así que la decide " + c.humanText() +
           "; no cambié nada.";
  }
  return "Request " + r + " is yours, so " + c.humanText() + " decides it; nothing changed.";
}

std::string requestPausedText(const ReplyContext& c) {
  if (c.spanish()) {
    return "Ahora no puedo registrar cambios de horario (el sistema está en pausa). Intenta más "
           "tarde o habla con " +
           c.humanText() + ".";
  }
  return "I can't record schedule changes right now (the system is paused). Please try later or "
         "talk with " +
         c.humanText() + ".";
}

}  // namespace atoms::requests
