#include "domain/callout/callout_texts.h"

#include <cstdio>

namespace atoms::callout {

namespace {

std::string dayWords(bool spanish, const ShiftWords& s) {
  if (s.today) return spanish ? "hoy" : "today";
  static constexpr const char* kEnglish[] = {"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"};
  static constexpr const char* kSpanish[] = {"dom", "lun", "mar", "mié", "jue", "vie", "sáb"};
  const std::chrono::year_month_day ymd(s.day);
  const unsigned wd = std::chrono::weekday(s.day).c_encoding();
  const std::string month = std::to_string(static_cast<unsigned>(ymd.month()));
  const std::string day = std::to_string(static_cast<unsigned>(ymd.day()));
  return spanish ? std::string(kSpanish[wd]) + " " + day + "/" + month
                 : std::string(kEnglish[wd]) + " " + month + "/" + day;
}

std::string shift(const ReplyContext& c, const ShiftWords& s) { return shiftText(c, s); }

std::string money(std::int64_t cents) {
  char text[32];
  std::snprintf(text, sizeof text, "$%lld.%02lld", static_cast<long long>(cents / 100),
                static_cast<long long>(cents % 100));
  return text;
}

std::string hoursAndMinutes(std::int64_t minutes) {
  std::string out = std::to_string(minutes / 60) + " h";
  if (minutes % 60 != 0) out += " " + std::to_string(minutes % 60) + " min";
  return out;
}

}  // namespace

std::string shiftText(const ReplyContext& c, const ShiftWords& s) {
  return s.station + " " + dayWords(c.spanish(), s) + " " + s.hours;
}

std::string shiftLabel(const ShiftWords& s) {
  return "shift: " + s.station + " " + dayWords(false, s) + " " + s.hours;
}

std::string offerText(const ReplyContext& c, const ShiftWords& s, const std::string& code) {
  if (c.spanish()) {
    return c.site + ": ¿puedes cubrir " + shift(c, s) + "? Responde " + code + " para tomarlo o " +
           code + " NO si no puedes. Preguntas: " + c.humanText() + ".";
  }
  return c.site + ": can you cover " + shift(c, s) + "? Reply " + code + " to take it, or " + code +
         " NO to pass. Questions: " + c.humanText() + ".";
}

std::string searchingText(const ReplyContext& c, const ShiftWords& s, const std::string& absent,
                          int offers, bool self) {
  const std::string n = std::to_string(offers);
  if (self) {
    if (c.spanish()) {
      return "Gracias por avisar. Busco quien cubra tu turno de " + shift(c, s) +
             "; no tienes que hacer nada más. Si necesitas algo: " + c.humanText() + ".";
    }
    return "Thanks for letting us know. I'm finding cover for your " + shift(c, s) +
           " shift; nothing else you need to do. Anything else: " + c.humanText() + ".";
  }
  if (absent.empty()) {  // an extra shift: nobody is out
    if (c.spanish()) {
      return "Listo. Busco una persona más para " + shift(c, s) + ". Ofertas enviadas a " + n +
             " personas; te aviso cuando alguien lo tome.";
    }
    return "Done. Looking for one more person for " + shift(c, s) + ". Offers sent to " + n +
           (offers == 1 ? " person" : " people") + "; I'll text you when someone takes it.";
  }
  if (c.spanish()) {
    return "Entendido. Busco quien cubra a " + absent + " en " + shift(c, s) +
           ". Ofertas enviadas a " + n + " personas; te aviso cuando esté cubierto.";
  }
  return "Got it. Finding cover for " + absent + " on " + shift(c, s) + ". Offers sent to " + n +
         (offers == 1 ? " person" : " people") + "; I'll text you when it's covered.";
}

std::string heldSearchText(const ReplyContext& c, const ShiftWords& s, const std::string& absent,
                           bool self) {
  if (self) {
    if (c.spanish()) {
      return "Gracias por avisar. Los mensajes de este sistema están en pausa ahora, así que "
             "buscar "
             "quien cubra tu turno de " +
             shift(c, s) + " espera hasta que se reanuden. Avisa también a " + c.humanText() + ".";
    }
    return "Thanks for letting us know. Texts from this box are paused right now, so finding "
           "cover for your " +
           shift(c, s) + " shift waits until they're back on. Please also let " + c.humanText() +
           " know.";
  }
  if (absent.empty()) {
    if (c.spanish()) {
      return "Listo. Los mensajes de este sistema están en pausa ahora, así que las ofertas para " +
             shift(c, s) +
             " esperan y salen cuando se reanuden. Para alguien antes: " + c.humanText() + ".";
    }
    return "Done. Texts from this box are paused right now, so the offers for " + shift(c, s) +
           " are waiting and go out when they're back on. For someone sooner: " + c.humanText() +
           ".";
  }
  if (c.spanish()) {
    return "Entendido. Los mensajes de este sistema están en pausa ahora, así que las ofertas para "
           "cubrir a " +
           absent + " en " + shift(c, s) +
           " esperan y salen cuando se reanuden. Para cubrirlo antes: " + c.humanText() + ".";
  }
  return "Got it. Texts from this box are paused right now, so the offers to cover " + absent +
         " on " + shift(c, s) +
         " are waiting and go out when they're back on. For cover sooner: " + c.humanText() + ".";
}

std::string nobodyEligibleText(const ReplyContext& c, const ShiftWords& s,
                               const std::string& manager) {
  if (manager.empty()) {
    if (c.spanish()) {
      return "No encuentro a nadie que pueda tomar " + shift(c, s) +
             " ahora mismo, y no hay un gerente en el sistema a quien avisar. Por favor, llama a "
             "tu gerente.";
    }
    return "I can't find anyone who can take " + shift(c, s) +
           " right now, and no manager is set up for me to tell. Please call your manager.";
  }
  if (c.spanish()) {
    return "No encuentro a nadie que pueda tomar " + shift(c, s) + " ahora mismo. Ya avisé a " +
           manager + ".";
  }
  return "I can't find anyone who can take " + shift(c, s) + " right now. I've told " + manager +
         ".";
}

std::string coveredText(const ReplyContext& c, const ShiftWords& s, const std::string& who) {
  if (c.spanish()) return "Cubierto: " + who + " trabajará " + shift(c, s) + ".";
  return "Covered: " + who + " will work " + shift(c, s) + ".";
}

std::string youAreOnText(const ReplyContext& c, const ShiftWords& s) {
  if (c.spanish()) return "¡Listo! Trabajas " + shift(c, s) + ". ¡Gracias!";
  return "You're on: " + shift(c, s) + ". Thank you!";
}

std::string alreadyCoveredText(const ReplyContext& c) {
  if (c.spanish()) return "¡Gracias! Ese turno ya está cubierto.";
  return "Thanks! That shift is already covered.";
}

std::string coveredNoLongerNeededText(const ReplyContext& c, const ShiftWords& s) {
  if (c.spanish()) return shift(c, s) + " ya está cubierto. ¡Gracias de todos modos!";
  return shift(c, s) + " is covered now. Thanks anyway!";
}

std::string declinedText(const ReplyContext& c) {
  if (c.spanish()) return "Sin problema, gracias por responder.";
  return "No problem, thanks for letting us know.";
}

std::string cannotTakeText(const ReplyContext& c) {
  if (c.spanish()) {
    return "¡Gracias! Ya no puedo darte este turno: no cumpliría una regla laboral. " +
           c.humanText() + " te lo puede explicar.";
  }
  return "Thanks! I can't give you this shift after all: it would break a labor rule. " +
         c.humanText() + " can explain.";
}

std::string managerWillConfirmText(const ReplyContext& c) {
  if (c.spanish()) {
    return "¡Gracias! Un gerente tiene que confirmar este turno antes de que sea tuyo. " +
           c.humanText() + " te puede contar más.";
  }
  return "Thanks! A manager needs to confirm this shift before it's yours. " + c.humanText() +
         " can tell you more.";
}

std::string notGivenAtActText(const ReplyContext& c, const std::string& who, const ShiftWords& s) {
  if (c.spanish()) {
    return who + " respondió para tomar " + shift(c, s) +
           ", pero con el horario guardado ahora las reglas laborales no lo permiten, así que no "
           "se lo di. Revisa el horario, por favor; sigo buscando cobertura.";
  }
  return who + " replied to take " + shift(c, s) +
         ", but with the schedule as it is stored now the labor rules don't allow it, so I didn't "
         "give it. Please check the schedule; I'm still looking for cover.";
}

std::string noLongerNeededText(const ReplyContext& c, const ShiftWords& s) {
  if (c.spanish()) return "Ya no hace falta cubrir " + shift(c, s) + ". ¡Gracias de todos modos!";
  return "No cover needed anymore for " + shift(c, s) + ". Thanks anyway!";
}

std::string stillWaitingText(const ReplyContext& c) {
  if (c.spanish()) return "Tu respuesta está anotada; esperamos la aprobación. Te escribo pronto.";
  return "Got your reply; we're waiting on the approval. I'll text you soon.";
}

std::string waitingApprovalText(const ReplyContext& c, const std::string& manager,
                                ApprovalReason reason) {
  if (c.spanish()) {
    switch (reason) {
      case ApprovalReason::kOvertime:
        return "¡Gracias! Este turno te daría horas extra, así que " + manager +
               " tiene que aprobarlo. Te escribo en cuanto responda.";
      case ApprovalReason::kPremium:
        return "¡Gracias! Este turno lleva un pago adicional según las reglas laborales, así que " +
               manager + " tiene que aprobarlo. Te escribo en cuanto responda.";
      case ApprovalReason::kAssignment:
        break;
    }
    return "¡Gracias! " + manager +
           " confirma cada cobertura antes de que sea definitiva. Te escribo en cuanto responda.";
  }
  switch (reason) {
    case ApprovalReason::kOvertime:
      return "Thanks! This shift would put you into overtime, so " + manager +
             " needs to OK it. I'll text you as soon as they answer.";
    case ApprovalReason::kPremium:
      return "Thanks! This shift comes with premium pay under the labor rules, so " + manager +
             " needs to OK it. I'll text you as soon as they answer.";
    case ApprovalReason::kAssignment:
      break;
  }
  return "Thanks! " + manager +
         " confirms each cover before it's final. I'll text you as soon as they answer.";
}

std::string offersApprovalRequestText(const ReplyContext& c, std::int64_t approval,
                                      const std::string& absent, const ShiftWords& s) {
  const std::string n = std::to_string(approval);
  if (absent.empty()) {
    if (c.spanish()) {
      return "Aprobación " + n + ": se necesita una persona más en " + shift(c, s) +
             ". Responde APPROVE " + n +
             " para ofrecerlo a quienes las reglas laborales permiten, o DENY " + n + ".";
    }
    return "Approval " + n + ": one more person is needed on " + shift(c, s) + ". Reply APPROVE " +
           n + " to send offers to people the labor rules allow, or DENY " + n + ".";
  }
  if (c.spanish()) {
    return "Aprobación " + n + ": falta " + absent + " en " + shift(c, s) + ". Responde APPROVE " +
           n + " para ofrecerlo a quienes las reglas laborales permiten, o DENY " + n + ".";
  }
  return "Approval " + n + ": " + absent + " is out of " + shift(c, s) + ". Reply APPROVE " + n +
         " to send offers to people the labor rules allow, or DENY " + n + ".";
}

std::string offersWaitingApprovalText(const ReplyContext& c, const ShiftWords& s,
                                      const std::string& manager) {
  if (c.spanish()) {
    return "Entendido. Le pedí a " + manager + " que apruebe las ofertas para " + shift(c, s) +
           "; te aviso cuando esté cubierto.";
  }
  return "Got it. " + manager + " is asked to OK the offers for " + shift(c, s) +
         "; I'll text you when it's covered.";
}

std::string approvalsPausedText(const ReplyContext& c) {
  if (c.spanish()) {
    return "Ahora no puedo aplicar aprobaciones: el asistente está en pausa. No cambié nada. " +
           c.humanText() + " puede ayudar.";
  }
  return "I can't apply approvals right now: the assistant is paused. Nothing changed. " +
         c.humanText() + " can help.";
}

std::string heldByBreakerText(const ReplyContext& c, std::int64_t approval) {
  const std::string n = std::to_string(approval);
  if (c.spanish()) {
    return "Aprobación " + n +
           " en espera: un control de seguridad pausó los cambios de horario. No cambié nada y "
           "sigue abierta; responde APPROVE " +
           n + " más tarde. " + c.humanText() + " puede ayudar.";
  }
  return "Approval " + n +
         " is on hold: a safety check paused schedule changes for now. Nothing changed and it "
         "stays open; reply APPROVE " +
         n + " later. " + c.humanText() + " can help.";
}

std::string approvedButNotAllowedText(const ReplyContext& c, const std::string& who) {
  if (c.spanish()) {
    return "Aprobado, pero " + who +
           " ya no puede tomarlo según las reglas laborales; sigo "
           "buscando.";
  }
  return "Approved, but " + who +
         " can no longer take it under the labor rules; I'm still looking.";
}

std::string approvalRequestText(const ReplyContext& c, std::int64_t approval,
                                const std::string& who, const ShiftWords& s,
                                std::int64_t premiumMinutes, std::int64_t premiumCents) {
  const std::string n = std::to_string(approval);
  const bool premium = premiumMinutes > 0 || premiumCents > 0;
  if (c.spanish()) {
    std::string pay;
    if (premiumMinutes > 0) {
      pay = ", con " + hoursAndMinutes(premiumMinutes) + " con pago adicional (" +
            money(premiumCents) + ")";
    } else if (premium) {
      pay = ", con un pago adicional de " + money(premiumCents);
    }
    return "Aprobación " + n + ": " + who + " puede cubrir " + shift(c, s) + pay +
           ". Responde APPROVE " + n + " para darle el turno a " + who + ", o DENY " + n + ".";
  }
  std::string pay;
  if (premiumMinutes > 0) {
    pay = ", with " + hoursAndMinutes(premiumMinutes) + " at premium pay (" + money(premiumCents) +
          ")";
  } else if (premium) {
    pay = ", with a premium of " + money(premiumCents);
  }
  return "Approval " + n + ": " + who + " can cover " + shift(c, s) + pay + ". Reply APPROVE " + n +
         " to give " + who + " the shift, or DENY " + n + ".";
}

std::string approvedText(const ReplyContext& c, const ShiftWords& s) {
  if (c.spanish()) return "Aprobado: trabajas " + shift(c, s) + ". ¡Gracias!";
  return "Approved: you're on " + shift(c, s) + ". Thank you!";
}

std::string notApprovedText(const ReplyContext& c) {
  if (c.spanish()) {
    return "Esta vez no se aprobó, así que no hace falta que vengas para ese turno. ¡Gracias por "
           "ofrecerte!";
  }
  return "This one wasn't approved, so no need to come in for it. Thanks for offering!";
}

std::string approvalRecordedText(const ReplyContext& c, std::int64_t approval, bool approved) {
  const std::string n = std::to_string(approval);
  if (c.spanish())
    return std::string(approved ? "Aprobado" : "No aprobado") + ": solicitud " + n + ".";
  return std::string(approved ? "Approved" : "Denied") + ": request " + n + ". Thanks.";
}

std::string approvalClosedText(const ReplyContext& c, std::int64_t approval) {
  const std::string n = std::to_string(approval);
  if (c.spanish()) return "La solicitud " + n + " ya está cerrada; no cambié nada.";
  return "Request " + n + " is already closed; nothing changed.";
}

std::string approvalNotYoursText(const ReplyContext& c, std::int64_t approval) {
  const std::string n = std::to_string(approval);
  if (c.spanish()) {
    return "Solo el gerente a cargo puede decidir la solicitud " + n + "; no cambié nada.";
  }
  return "Only the manager of record can decide request " + n + "; nothing changed.";
}

std::string approvalSelfText(const ReplyContext& c, std::int64_t approval) {
  const std::string n = std::to_string(approval);
  if (c.spanish()) {
    return "La solicitud " + n + " es sobre ti, así que la decide " + c.humanText() +
           "; no cambié nada.";
  }
  return "Request " + n + " is about you, so " + c.humanText() + " decides it; nothing changed.";
}

std::string approvalWhichText(const ReplyContext& c) {
  if (c.spanish()) return "¿Qué solicitud? Responde APPROVE y su número, por ejemplo APPROVE 12.";
  return "Which request? Reply APPROVE or DENY with its number, like APPROVE 12.";
}

std::string escalationText(const ReplyContext& c, const ShiftWords& s, const std::string& absent,
                           int offers, std::uint64_t receiptSeq) {
  const std::string n = std::to_string(offers);
  if (absent.empty()) {
    if (c.spanish()) {
      return c.site + ": nadie aún para el turno extra " + shift(c, s) + ". " + n +
             " ofertas, ninguna aceptada. Recibo " + std::to_string(receiptSeq) +
             ". ¿Puedes ayudar?";
    }
    return c.site + ": nobody yet for the extra shift " + shift(c, s) + ". " + n +
           (offers == 1 ? " offer" : " offers") + ", none taken yet. Receipt " +
           std::to_string(receiptSeq) + ". Can you help?";
  }
  if (c.spanish()) {
    return c.site + ": sin cubrir aún " + shift(c, s) + " (falta " + absent + "). " + n +
           " ofertas, ninguna aceptada. Recibo " + std::to_string(receiptSeq) + ". ¿Puedes ayudar?";
  }
  return c.site + ": still no cover for " + shift(c, s) + " (" + absent + " is out). " + n +
         (offers == 1 ? " offer" : " offers") + ", none taken yet. Receipt " +
         std::to_string(receiptSeq) + ". Can you help?";
}

std::string stillSearchingText(const ReplyContext& c, const ShiftWords& s,
                               const std::string& manager) {
  if (manager.empty()) {
    if (c.spanish()) {
      return "Aún sin cubrir " + shift(c, s) +
             ". Sigo buscando; no hay un gerente en el sistema a quien avisar, así que por favor "
             "llama a tu gerente.";
    }
    return "Still no cover for " + shift(c, s) +
           ". I'm still looking; no manager is set up for me to tell, so please call your manager.";
  }
  if (c.spanish()) {
    return "Aún sin cubrir " + shift(c, s) + ". Ya avisé a " + manager + "; sigo buscando.";
  }
  return "Still no cover for " + shift(c, s) + ". I've told " + manager + " and I'm still looking.";
}

std::string offersNotApprovedText(const ReplyContext& c, const ShiftWords& s,
                                  const std::string& manager) {
  if (c.spanish()) {
    return manager + " decidió no enviar ofertas para " + shift(c, s) + ". Habla con " + manager +
           " sobre cómo cubrirlo.";
  }
  return manager + " decided not to send offers for " + shift(c, s) + ". Please check with " +
         manager + " about covering it.";
}

std::string lateThanksText(const ReplyContext& c, const std::string& lead) {
  if (c.spanish()) return "Gracias por avisar. Se lo digo a " + lead + ".";
  return "Thanks for the heads-up. I'll let " + lead + " know.";
}

std::string lateNoticeText(const ReplyContext& c, const std::string& who, const ShiftWords& s,
                           std::optional<int> minutes) {
  if (c.spanish()) {
    return who + " llegará tarde a " + shift(c, s) +
           (minutes ? " (unos " + std::to_string(*minutes) + " min)" : std::string()) + ".";
  }
  return who + " is running late for " + shift(c, s) +
         (minutes ? " (about " + std::to_string(*minutes) + " min)" : std::string()) + ".";
}

std::string arrivedThanksText(const ReplyContext& c, const std::string& lead) {
  if (c.spanish()) return "¡Gracias! Se lo digo a " + lead + ".";
  return "Thanks! I'll let " + lead + " know.";
}

std::string arrivedNoticeText(const ReplyContext& c, const std::string& who, const ShiftWords& s,
                              const std::string& coveredBy) {
  if (coveredBy.empty()) {
    if (c.spanish()) {
      return who + " dice que ya llegó para " + shift(c, s) +
             ". Dejé de buscar cobertura; si aún la necesitas, escríbeme.";
    }
    return who + " says they're here for " + shift(c, s) +
           ". I've stopped looking for cover; text me if you still need someone.";
  }
  if (c.spanish()) {
    return who + " dice que ya llegó para " + shift(c, s) + ", pero " + coveredBy +
           " ya tomó el turno. Por favor decide con ellos quién trabaja.";
  }
  return who + " says they're here for " + shift(c, s) + ", but " + coveredBy +
         " already took the shift. Please sort out with them who works.";
}

std::string clarifyWhoText(const ReplyContext& c) {
  // Examples name nobody: a name from elsewhere (the demo's) would confuse a site without them.
  if (c.spanish()) return "Perdón, ¿quién no vino? Escribe su nombre y \"no vino\".";
  return "Sorry, who isn't in? Text their name and \"isn't here\".";
}

std::string clarifyWhatText(const ReplyContext& c) {
  if (c.spanish()) {
    return "Perdón, no entendí bien. ¿Llegas tarde o no puedes venir? Escribe \"llego tarde\" o "
           "\"no puedo ir\".";
  }
  return "Sorry, I'm not sure I got that. Are you running late, or can't you come in? Text "
         "\"running late\" or \"can't come in\".";
}

std::string noShiftFoundText(const ReplyContext& c, const std::string& who) {
  if (c.spanish()) {
    return "No encuentro un turno de " + who + " ahora ni en las próximas horas. Habla con " +
           c.humanText() + ".";
  }
  return "I can't find a shift for " + who + " now or in the next hours. Please check with " +
         c.humanText() + ".";
}

std::string alreadySearchingText(const ReplyContext& c, const ShiftWords& s) {
  if (c.spanish()) return "Ya estoy buscando quien cubra " + shift(c, s) + "; te aviso.";
  return "I'm already finding cover for " + shift(c, s) + "; I'll keep you posted.";
}

std::string calloutHelpText(const ReplyContext& c) {
  if (c.spanish()) {
    return "Puedo ayudar con ausencias: escribe el nombre de quien falta y \"no vino\", o \"no "
           "puedo ir hoy\". Para lo demás: " +
           c.humanText() + ".";
  }
  return "I can help with call-outs: text a coworker's name and \"isn't here\", or \"I can't make "
         "my shift\". For anything else: " +
         c.humanText() + ".";
}

std::string clarifyCoworkerOutText(const ReplyContext& c, const std::string& who) {
  if (c.spanish()) {
    return "¿" + who + " no viene a su turno? Si es así, escribe \"" + who +
           " no vino\" y busco quien cubra.";
  }
  return "Is " + who + " out for their shift? If so, text \"" + who +
         " isn't here\" and I'll find cover.";
}

std::string noRankingText(const ReplyContext& c) {
  if (c.spanish()) {
    return "No califico ni comparo a las personas. Puedo ayudar con ausencias; para hablar del "
           "equipo: " +
           c.humanText() + ".";
  }
  return "I don't rate or compare people. I can help with call-outs; to talk about the team: " +
         c.humanText() + ".";
}

std::string noContactDetailsText(const ReplyContext& c) {
  if (c.spanish()) {
    return "No puedo compartir el número de otras personas. Pídeselo a " + c.humanText() + ".";
  }
  return "I can't share other people's numbers. Please ask " + c.humanText() + ".";
}

std::string emptyTextText(const ReplyContext& c) {
  if (c.spanish())
    return "Tu mensaje llegó sin palabras y solo puedo leer texto. " + calloutHelpText(c);
  return "Your text came through without words, and I can only read words. " + calloutHelpText(c);
}

std::string possibleNoShowText(const ReplyContext& c, const std::string& who, const ShiftWords& s) {
  if (c.spanish()) {
    return who + " aún no marcó entrada para " + shift(c, s) + ". Si no viene, responde \"" + who +
           " no vino\" y busco cobertura.";
  }
  return who + " hasn't clocked in for " + shift(c, s) + " yet. If they're not coming, reply \"" +
         who + " isn't here\" and I'll find cover.";
}

std::string earlyFinishText(const ReplyContext& c, const std::string& station,
                            const std::string& newEnd, const std::string& oldEnd,
                            std::int64_t premiumCents) {
  if (c.spanish()) {
    std::string pay = premiumCents > 0 ? " Igual recibes el pago adicional por el cambio (" +
                                             money(premiumCents) + ")."
                                       : "";
    return "Hoy está tranquilo en " + station + ": puedes terminar a las " + newEnd +
           " en vez de las " + oldEnd + "." + pay + " ¡Gracias! Preguntas: " + c.humanText() + ".";
  }
  std::string pay = premiumCents > 0 ? " You're still paid the schedule-change premium (" +
                                           money(premiumCents) + ")."
                                     : "";
  return "It's quiet at " + station + " today: you can finish at " + newEnd + " instead of " +
         oldEnd + "." + pay + " Thank you! Questions: " + c.humanText() + ".";
}

}  // namespace atoms::callout
