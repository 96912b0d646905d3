#include "sms/conversation/replies.h"

namespace atoms::sms::conversation {

namespace {

bool es(const ReplyContext& c) { return c.language == Language::kSpanish; }

std::string human(const ReplyContext& c) { return describeHuman(c.human, c.language); }

}  // namespace

std::string describeHuman(const HumanContact& human, Language language) {
  const bool spanish = language == Language::kSpanish;
  if (human.name.empty() && human.phone.empty()) return spanish ? "tu gerente" : "your manager";
  if (human.name.empty()) return human.phone;
  if (human.phone.empty()) return human.name;
  return human.name + (spanish ? " al " : " at ") + human.phone;
}

std::string optOutConfirmationText(const ReplyContext& c) {
  if (es(c)) {
    return "Listo: ya no recibirás mensajes de turnos de " + c.site +
           ". Responde START para volver a recibirlos. Preguntas: " + human(c) + ".";
  }
  return "You're unsubscribed from " + c.site +
         " staffing texts and will get no more messages. Reply START to get them again. "
         "Questions: " +
         human(c) + ".";
}

std::string optInConfirmationText(const ReplyContext& c) {
  if (es(c)) {
    return "Vuelves a recibir los mensajes de turnos de " + c.site +
           ". Responde AYUDA para ayuda o ALTO para dejar de recibirlos.";
  }
  return "You're subscribed again to " + c.site +
         " staffing texts. Reply HELP for help, STOP to stop.";
}

std::string alreadySubscribedText(const ReplyContext& c) {
  if (es(c)) {
    return "Ya recibes los mensajes de turnos de " + c.site +
           ". Responde AYUDA para ayuda o ALTO para dejar de recibirlos.";
  }
  return "You already get " + c.site + " staffing texts. Reply HELP for help, STOP to stop.";
}

std::string offersPausedText(const ReplyContext& c) {
  if (es(c)) {
    return "Entendido, dejo de enviarte ofertas de turnos de " + c.site +
           " por ahora. Responde OFERTAS SI si las quieres de nuevo, o ALTO para no recibir "
           "mensajes. Preguntas: " +
           human(c) + ".";
  }
  return "Got it, I'll stop sending you " + c.site +
         " shift offers for now. Reply OFFERS ON if you want them again, or STOP for no texts. "
         "Questions: " +
         human(c) + ".";
}

std::string offersResumedText(const ReplyContext& c) {
  if (es(c)) {
    return "Gracias, vuelves a recibir ofertas de turnos de " + c.site +
           ". Preguntas: " + human(c) + ".";
  }
  return "Thanks, " + c.site + " shift offers are back on. Questions: " + human(c) + ".";
}

std::string helpText(const ReplyContext& c) {
  if (es(c)) {
    return "Asistente automático de turnos de " + c.site +
           ". Para hablar con una persona: " + human(c) +
           ". Responde ALTO para no recibir más mensajes, START para volver o POR QUE para saber "
           "el motivo.";
  }
  return "This is the automated staffing assistant of " + c.site +
         ". To reach a person: " + human(c) +
         ". Reply STOP to stop texts, START to get them again, WHY to see why we sent our last "
         "text.";
}

std::string unknownNumberText(const ReplyContext& c) {
  if (es(c)) {
    return "Este número es el asistente automático de turnos de " + c.site +
           ". Si trabajas aquí, pide a tu gerente que agregue tu número. Responde ALTO para no "
           "recibir mensajes.";
  }
  return "This number is the automated staffing assistant of " + c.site +
         ". If you work here, ask your manager to add your number. Reply STOP to opt out.";
}

std::string offerClosedText(const ReplyContext& c) {
  if (es(c)) {
    return "Gracias por responder. Esa oferta ya está cerrada, así que no se reservó nada. "
           "Preguntas: " +
           human(c) + ".";
  }
  return "Thanks for your reply. That offer is closed now, so nothing was booked. Questions: " +
         human(c) + ".";
}

std::string offerAmbiguousText(const ReplyContext& c) {
  if (es(c)) {
    return "Gracias. No estamos seguros de qué oferta quieres. Responde solo con el código de la "
           "oferta para tomarla, o el código y NO para rechazarla. Preguntas: " +
           human(c) + ".";
  }
  return "Thanks. We're not sure which offer you mean. Reply with just the offer's code to take "
         "it, or the code and NO to pass. Questions: " +
         human(c) + ".";
}

std::string approvalsLaterText(const ReplyContext& c) {
  if (es(c)) {
    return "Gracias. Las aprobaciones por mensaje aún no están disponibles; usa el panel del "
           "local. Preguntas: " +
           human(c) + ".";
  }
  return "Thanks. Approvals by text are not available yet; please use the site panel. "
         "Questions: " +
         human(c) + ".";
}

std::string pausedText(const ReplyContext& c) {
  if (es(c)) {
    return "Gracias. El asistente de " + c.site +
           " está en pausa y aún no puedo actuar. Guardé tu mensaje y lo retomo al volver. "
           "Urgente: " +
           human(c) + ".";
  }
  return "Thanks. The scheduling assistant at " + c.site +
         " is paused right now, so I can't act on this yet. I've kept your message and will pick "
         "it up when it's back. For anything urgent: " +
         human(c) + ".";
}

std::string parkedWithdrawnText(const ReplyContext& c) {
  if (es(c)) {
    return "El asistente de turnos de " + c.site +
           " estuvo en pausa más de dos días, así que no actué sobre el mensaje que enviaste "
           "entonces. Si aún importa, envíalo de nuevo o contacta a " +
           human(c) + ".";
  }
  return "The scheduling assistant at " + c.site +
         " was paused for more than two days, so I did not act on the message you sent then. If "
         "it still matters, please send it again or contact " +
         human(c) + ".";
}

std::string pauseNoticeText(const ReplyContext& c) {
  if (es(c)) {
    return "El asistente de turnos de " + c.site +
           " está en pausa por ahora. Para lo de tus turnos, contacta a " + human(c) + ".";
  }
  return "The scheduling assistant at " + c.site +
         " is paused for now. For anything about your shifts, please contact " + human(c) + ".";
}

std::string conversationFallbackText(const ReplyContext& c) {
  if (es(c)) {
    return "Gracias por tu mensaje. Soy el asistente automático de turnos de " + c.site +
           ": envío ofertas de turnos y respondo AYUDA, POR QUE y ALTO. Para hablar con una "
           "persona: " +
           human(c) + ".";
  }
  return "Thanks for your text. This is the automated staffing assistant of " + c.site +
         ": it sends shift offers and answers HELP, WHY and STOP. To reach a person: " + human(c) +
         ".";
}

std::string handlingFailedText(const ReplyContext& c) {
  if (es(c)) {
    return "Perdón, no pudimos atender tu mensaje ahora. Para hablar con una persona: " + human(c) +
           ".";
  }
  return "Sorry, we could not handle your text just now. To reach a person: " + human(c) + ".";
}

}  // namespace atoms::sms::conversation
