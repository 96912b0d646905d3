#include "sms/conversation/handling.h"

#include <utility>

#include "base/timestamp.h"
#include "sms/mailbox/message_checks.h"

namespace atoms::sms::conversation {

Handling::Handling(const Answerers& a, SiteStore& s, AuditLog::Batch& b, const mailbox::InboxRow& r,
                   TimePoint n, std::optional<Contact> who, Classification t, ReplyContext c,
                   ContactState state)
    : answerers(a),
      store(s),
      batch(b),
      row(r),
      tables(s.db()),
      now(n),
      contact(std::move(who)),
      text(std::move(t)),
      context(std::move(c)),
      sender(std::move(state)),
      intent(keywordKindName(text.keyword.kind)) {}

Status Handling::send(MessageClass kind, std::string body, bool whyReply, std::string id) {
  OutreachRequest request;
  request.id = !id.empty() ? std::move(id) : replyId(row.id, static_cast<int>(replies.size()) + 1);
  request.to = row.from;
  request.kind = kind;
  request.body = std::move(body);
  request.inReplyTo = row.id;
  request.whyReply = whyReply;
  auto result = answerers.outreach.sendIn(store, batch, request);
  if (!result) return result.error();
  replies.push_back(request.id);
  replyOutcomes.push_back(std::string(outreachOutcomeName(result->outcome)) + ":" + result->reason);
  return Status::success();
}

Result<bool> Handling::answerWith(MessageClass kind, std::string body, bool whyReply,
                                  std::string id) {
  if (Status s = send(kind, std::move(body), whyReply, std::move(id)); !s) return s.error();
  return true;
}

Status Handling::updateState(const std::function<void(ContactState&)>& change) {
  auto state = tables.contactState(row.from);
  if (!state) return state.error();
  change(*state);
  return tables.saveContactState(*state);
}

Status Handling::audit(std::string_view kind, json::Object extra) {
  json::Object body{{"phone", mailbox::maskNumber(row.from)},
                    {"person", contact ? json::Value(contact->personId) : json::Value(nullptr)},
                    {"keyword", text.keyword.keyword},
                    {"inbox", row.id}};
  for (auto& [key, value] : extra) body[key] = std::move(value);
  return batch.record(now, kind, "engine", std::move(body));
}

Status Handling::recordReplies(const std::vector<std::string>& ids) {
  for (const std::string& id : ids) {
    auto found = tables.findMessage(id);
    if (!found) return found.error();
    replies.push_back(id);
    replyOutcomes.push_back(*found ? std::string(ledgerStateName((*found)->state)) + ":" +
                                         (*found)->reason
                                   : "unknown");
  }
  return Status::success();
}

}  // namespace atoms::sms::conversation
