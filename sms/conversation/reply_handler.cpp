#include "sms/conversation/reply_handler.h"

namespace atoms::sms::conversation {

std::string_view turnKindName(TurnKind kind) {
  switch (kind) {
    case TurnKind::kOfferReply:
      return "offer_reply";
    case TurnKind::kApproval:
      return "approval";
    case TurnKind::kConversation:
      return "conversation";
  }
  return "conversation";
}

std::string replyId(std::int64_t inboxId, int n) {
  std::string id = "reply:inbox-" + std::to_string(inboxId);
  if (n > 1) id += "-" + std::to_string(n);
  return id;
}

Turn::Turn(Outreach& outreach, SiteStore& store, AuditLog::Batch& batch,
           const mailbox::InboxRow& message, const Contact& sender, ParsedKeyword keyword,
           InjectionFlag injection, Language language, TurnKind kind)
    : outreach_(outreach),
      store_(store),
      batch_(batch),
      message_(message),
      sender_(sender),
      keyword_(std::move(keyword)),
      injection_(std::move(injection)),
      language_(language),
      kind_(kind) {}

Result<OutreachResult> Turn::reply(std::string body, std::vector<ReceiptSource> sources) {
  OutreachRequest request;
  request.id = replyId(message_.id, static_cast<int>(replyIds_.size()) + 1);
  request.to = message_.from;
  request.kind = MessageClass::kThreadReply;
  request.body = std::move(body);
  request.inReplyTo = message_.id;
  request.sources = std::move(sources);
  auto result = outreach_.sendIn(store_, batch_, request);
  if (result) replyIds_.push_back(request.id);
  return result;
}

}  // namespace atoms::sms::conversation
