#include "sms/conversation/replies.h"

namespace atoms::sms::conversation {

std::string describeHuman(const HumanContact& human, Language language) {
  const bool spanish = language == Language::kSpanish;
  if (human.name.empty() && human.phone.empty()) return spanish ? "tu gerente" : "your manager";
  if (human.name.empty()) return human.phone;
  if (human.phone.empty()) return human.name;
  return human.name + (spanish ? " al " : " at ") + human.phone;
}

std::string optOutConfirmationText(const ReplyContext& c) {
  if (c.spanish()) {
    return "Listo: ya no recibirás mensajes de turnos de " + c.site +
           ". Responde START para volver a recibirlos. Preguntas: " + c.humanText() + ".";
  }
  return "You're unsubscribed from " + c.site +
         " staffing texts and will get no more messages. Reply START to get them again. "
         "Questions: " +
         c.humanText() + ".";
}

std::string optInConfirmationText(const ReplyContext& c) {
  if (c.spanish()) {
    return "Vuelves a recibir los mensajes de turnos de " + c.site +
           ". Responde AYUDA para ayuda o ALTO para dejar de recibirlos.";
  }
  return "You're subscribed again to " + c.site +
         " staffing texts. Reply HELP for help, STOP to stop.";
}

std::string alreadySubscribedText(const ReplyContext& c) {
  if (c.spanish()) {
    return "Ya recibes los mensajes de turnos de " + c.site +
           ". Responde AYUDA para ayuda o ALTO para dejar de recibirlos.";
  }
  return "You already get " + c.site + " staffing texts. Reply HELP for help, STOP to stop.";
}

std::string offersPausedText(const ReplyContext& c) {
  if (c.spanish()) {
    return "Entendido, dejo de enviarte ofertas de turnos de " + c.site +
           " por ahora. Responde OFERTAS SI si las quieres de nuevo, o ALTO para no recibir "
           "mensajes. Preguntas: " +
           c.humanText() + ".";
  }
  return "Got it, I'll stop sending you " + c.site +
         " shift offers for now. Reply OFFERS ON if you want them again, or STOP for no texts. "
         "Questions: " +
         c.humanText() + ".";
}

std::string offersResumedText(const ReplyContext& c) {
  if (c.spanish()) {
    return "Gracias, vuelves a recibir ofertas de turnos de " + c.site +
           ". Preguntas: " + c.humanText() + ".";
  }
  return "Thanks, " + c.site + " shift offers are back on. Questions: " + c.humanText() + ".";
}

std::string tooLongText(const ReplyContext& c) {
  if (c.spanish()) {
    return "Tu mensaje era demasiado largo para leerlo (más de 1600 caracteres). Envía uno más "
           "corto, por favor. Para hablar con una persona: " +
           c.humanText() + ".";
  }
  return "Your text was too long for me to read (over 1,600 characters). Please send a shorter "
         "one. To reach a person: " +
         c.humanText() + ".";
}

std::string helpText(const ReplyContext& c) {
  if (c.spanish()) {
    return "Asistente automático de turnos de " + c.site +
           ". Para hablar con una persona: " + c.humanText() +
           ". Responde ALTO para no recibir más mensajes, START para volver o POR QUE para saber "
           "el motivo.";
  }
  return "This is the automated staffing assistant of " + c.site +
         ". To reach a person: " + c.humanText() +
         ". Reply STOP to stop texts, START to get them again, WHY to see why we sent our last "
         "text.";
}

std::string unknownNumberText(const ReplyContext& c) {
  if (c.spanish()) {
    return "Este número es el asistente automático de turnos de " + c.site +
           ". Si trabajas aquí, pide a tu gerente que agregue tu número. Responde ALTO para no "
           "recibir mensajes.";
  }
  return "This number is the automated staffing assistant of " + c.site +
         ". If you work here, ask your manager to add your number. Reply STOP to opt out.";
}

std::string offerClosedText(const ReplyContext& c) {
  if (c.spanish()) {
    return "Gracias por responder. Esa oferta ya está cerrada, así que no se reservó nada. "
           "Preguntas: " +
           c.humanText() + ".";
  }
  return "Thanks for your reply. That offer is closed now, so nothing was booked. Questions: " +
         c.humanText() + ".";
}

std::string offerAmbiguousText(const ReplyContext& c) {
  if (c.spanish()) {
    return "Gracias. No estamos seguros de qué oferta quieres. Responde solo con el código de la "
           "oferta para tomarla, o el código y NO para rechazarla. Preguntas: " +
           c.humanText() + ".";
  }
  return "Thanks. We're not sure which offer you mean. Reply with just the offer's code to take "
         "it, or the code and NO to pass. Questions: " +
         c.humanText() + ".";
}

std::string approvalsLaterText(const ReplyContext& c) {
  if (c.spanish()) {
    return "Gracias. Las aprobaciones por mensaje aún no están disponibles; usa el panel del "
           "local. Preguntas: " +
           c.humanText() + ".";
  }
  return "Thanks. Approvals by text are not available yet; please use the site panel. "
         "Questions: " +
         c.humanText() + ".";
}

std::string pausedText(const ReplyContext& c) {
  if (c.spanish()) {
    return "Gracias. El asistente de " + c.site +
           " está en pausa y aún no puedo actuar. Guardé tu mensaje y lo retomo al volver. "
           "Urgente: " +
           c.humanText() + ".";
  }
  return "Thanks. The scheduling assistant at " + c.site +
         " is paused right now, so I can't act on this yet. I've kept your message and will pick "
         "it up when it's back. For anything urgent: " +
         c.humanText() + ".";
}

std::string parkedWithdrawnText(const ReplyContext& c) {
  if (c.spanish()) {
    return "El asistente de turnos de " + c.site +
           " estuvo en pausa más de dos días, así que no actué sobre el mensaje que enviaste "
           "entonces. Si aún importa, envíalo de nuevo o contacta a " +
           c.humanText() + ".";
  }
  return "The scheduling assistant at " + c.site +
         " was paused for more than two days, so I did not act on the message you sent then. If "
         "it still matters, please send it again or contact " +
         c.humanText() + ".";
}

std::string pauseNoticeText(const ReplyContext& c) {
  if (c.spanish()) {
    return "El asistente de turnos de " + c.site +
           " está en pausa por ahora. Para lo de tus turnos, contacta a " + c.humanText() + ".";
  }
  return "The scheduling assistant at " + c.site +
         " is paused for now. For anything about your shifts, please contact " + c.humanText() +
         ".";
}

std::string conversationFallbackText(const ReplyContext& c) {
  if (c.spanish()) {
    return "Gracias por tu mensaje. Soy el asistente automático de turnos de " + c.site +
           ": envío ofertas de turnos y respondo AYUDA, POR QUE y ALTO. Para hablar con una "
           "persona: " +
           c.humanText() + ".";
  }
  return "Thanks for your text. This is the automated staffing assistant of " + c.site +
         ": it sends shift offers and answers HELP, WHY and STOP. To reach a person: " +
         c.humanText() + ".";
}

std::string handlingFailedText(const ReplyContext& c) {
  if (c.spanish()) {
    return "Perdón, no pudimos atender tu mensaje ahora. Para hablar con una persona: " +
           c.humanText() + ".";
  }
  return "Sorry, we could not handle your text just now. To reach a person: " + c.humanText() + ".";
}

}  // namespace atoms::sms::conversation
