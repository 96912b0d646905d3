// Handling: one inbound message being answered, inside its one store transaction (Conversation
// handles each message in one transaction with Inbox::markHandled). It carries what the handlers
// of intent_table.h read (who wrote, their state, the text's one classification, how to reply) and
// what they leave for the message's "sms.conversation" audit entry (intent, outcome, replies).
//
// Threading: on the store's writer, inside StoreRunner::run, like the transaction it belongs to.
// Errors: store errors and Outreach's refusals of bad input, as values; the caller rolls back.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/canonical_json.h"
#include "base/result.h"
#include "sms/conversation/checklist_desk.h"
#include "sms/conversation/classification.h"
#include "sms/conversation/conversation_tables.h"
#include "sms/conversation/outreach.h"
#include "sms/conversation/replies.h"
#include "sms/conversation/reply_handler.h"
#include "sms/conversation/roster.h"
#include "sms/conversation/safety_desk.h"
#include "sms/mailbox/inbox.h"
#include "sms/text/content_lint.h"
#include "store/audit_log.h"
#include "store/site_store.h"

namespace atoms::sms::conversation {

// What the handlers answer with: the Conversation's parts. The pointers may be null (no reply
// handler, no safety desk, no checklists); all must outlive the Handling.
struct Answerers {
  Outreach& outreach;
  ReplyHandler* handler = nullptr;
  SafetyDesk* safety = nullptr;
  ChecklistDesk* checklists = nullptr;
  const ContentLint& lint;
  bool parking = false;  // writes frozen (kill switch L2+): requests are parked
  // The provider that received the message confirms its standard STOP/START words itself
  // (ConversationSettings::providerConfirmsKeywords).
  bool providerConfirmsKeywords = false;
};

class Handling {
 public:
  // `row` is the message (state new); `text` its classification; `context` how to answer its
  // sender (`contact`: nullopt for a number not on the roster); `sender` the number's state as the
  // handling starts (its thread window already counts this message).
  Handling(const Answerers& answerers, SiteStore& store, AuditLog::Batch& batch,
           const mailbox::InboxRow& row, TimePoint now, std::optional<Contact> contact,
           Classification text, ReplyContext context, ContactState sender);
  Handling(const Handling&) = delete;
  Handling& operator=(const Handling&) = delete;

  // Queues a reply in the sender's thread through Outreach (which decides consent, freeze, ...),
  // with the next id "reply:inbox-<id>[-n]" unless `id` is given (a parked message's answer, which
  // must not take the id its real handling will use later), and records it for the audit entry.
  Status send(MessageClass kind, std::string text, bool whyReply = false, std::string id = {});
  // send(), then true: what a handler returns when that reply answers the message.
  Result<bool> answerWith(MessageClass kind, std::string text, bool whyReply = false,
                          std::string id = {});
  // Reloads, changes and stores the number's state (Outreach writes it too, so no copy is kept
  // across a send).
  Status updateState(const std::function<void(ContactState&)>& change);
  // An audit entry of `kind` about the sender (masked number, person, keyword, inbox id) plus
  // `extra`, in this transaction.
  Status audit(std::string_view kind, json::Object extra = {});
  // Replies the ReplyHandler queued in this transaction, recorded for the audit entry with their
  // ledger state.
  Status recordReplies(const std::vector<std::string>& ids);

  // YES (a carrier's opt-in word, which means opt-in only to a person opted out).
  bool yes() const {
    return text.keyword.kind == KeywordKind::kOptIn && text.keyword.keyword == "YES";
  }

  const Answerers& answerers;
  SiteStore& store;
  AuditLog::Batch& batch;
  const mailbox::InboxRow& row;
  ConversationTables tables;
  const TimePoint now;
  const std::optional<Contact> contact;
  const Classification text;
  const ReplyContext context;
  const ContactState sender;

  // For the audit entry: the intent (the keyword kind's name unless a handler says otherwise), the
  // outcome, and each reply's id and outcome.
  std::string intent;
  std::string outcome;
  std::vector<std::string> replies;
  std::vector<std::string> replyOutcomes;
};

}  // namespace atoms::sms::conversation
