// OFFERS ON and stop-like replies (answers.h, "Offers paused by a stop-like reply").
#include <cstdint>

#include "sms/conversation/answers.h"
#include "sms/conversation/offers_pause.h"

namespace atoms::sms::conversation {

Result<bool> resumeOffers(Handling& h) {
  auto resumed = OffersPause(h.store.db()).resume(h.row.from);
  if (!resumed || !*resumed) return resumed;
  if (Status s = h.audit("sms.offers_resumed"); !s) return s.error();
  h.intent = "offers_on";
  h.outcome = "offers_resumed";
  return h.answerWith(MessageClass::kThreadReply, offersResumedText(h.context));
}

Result<bool> answerOffersOn(Handling& h) {
  if (h.sender.optedOut) return false;
  return resumeOffers(h);
}

Result<bool> answerStopLike(Handling& h) {
  if (h.sender.optedOut) return false;
  const StopLike& like = *h.text.stopLike;
  auto paused = OffersPause(h.store.db()).pause(h.row.from, h.now, like.words);
  if (!paused || !*paused) return paused;
  if (Status s = h.audit("sms.offers_paused",
                         json::Object{{"words", like.words},
                                      {"confidencePercent",
                                       static_cast<std::int64_t>(like.confidence * 100 + 0.5)},
                                      {"scope", "offers and notices"}});
      !s) {
    return s.error();
  }
  h.intent = "stop_like";
  h.outcome = "offers_paused";
  return h.answerWith(MessageClass::kThreadReply, offersPausedText(h.context));
}

}  // namespace atoms::sms::conversation
