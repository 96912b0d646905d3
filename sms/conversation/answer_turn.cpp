// An offer reply, an approval or conversation (answers.h, "The turn"; reply_handler.h).
#include "sms/conversation/answers.h"

namespace atoms::sms::conversation {

namespace {

TurnKind turnKind(Intent turn) {
  switch (turn) {
    case Intent::kOfferReply:
      return TurnKind::kOfferReply;
    case Intent::kApproval:
      return TurnKind::kApproval;
    default:
      return TurnKind::kConversation;
  }
}

}  // namespace

Result<bool> answerTurn(Handling& h) {
  const TurnKind turn = turnKind(h.text.turn());
  if (h.text.keyword.kind == KeywordKind::kNone || h.yes() || turn == TurnKind::kConversation) {
    h.intent = std::string(turnKindName(TurnKind::kConversation));
  }

  if (ReplyHandler* handler = h.answerers.handler) {
    Turn t(h.answerers.outreach, h.store, h.batch, h.row, *h.contact, h.text.keyword,
           h.text.injection, h.context.language, turn);
    if (Status s = handler->handle(t); !s) return s.error();
    h.outcome = "handled:" + std::string(turnKindName(turn));
    if (Status s = h.recordReplies(t.replyIds()); !s) return s.error();
    return true;
  }
  switch (turn) {
    case TurnKind::kOfferReply:
      h.outcome = "offer_closed";
      return h.answerWith(MessageClass::kThreadReply, offerClosedText(h.context));
    case TurnKind::kApproval:
      h.outcome = "approvals_later";
      return h.answerWith(MessageClass::kThreadReply, approvalsLaterText(h.context));
    case TurnKind::kConversation:
      break;
  }
  h.outcome = "fallback";
  return h.answerWith(MessageClass::kThreadReply, conversationFallbackText(h.context));
}

}  // namespace atoms::sms::conversation
