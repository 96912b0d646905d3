// ReplyHandler: where the conversation layer hands what it does not answer itself: replies to shift
// offers (by code), a manager's APPROVE/DENY, and free conversation from a person on the roster.
// The call-out flow (issue 6) implements it; without one, Conversation answers with a short kind
// text (the offer is closed, approvals by text come later, what the assistant can do).
//
// A Turn is one inbound message being handled, inside its one store transaction (the same batch
// that marks the message handled), so whatever the handler writes, and every reply it queues,
// commits together with the message's handling or not at all: a crash re-handles the message and
// never double-replies.
//
// Flagged text (Turn::injection(), sms/text/injection_flag.h) is data, never a command: a handler
// must not act on it (R-PLAT-006 denies any action whose inputs carry the flag). Conversation
// never passes a flagged APPROVE/DENY as an approval: it arrives as conversation.
//
// Threading: called on the store's writer thread (inside StoreRunner::run): handlers must be quick,
// must not wait for other threads and must use turn.store() (never another StoreRunner call from a
// different thread).
#pragma once

#include <string>
#include <vector>

#include "sms/conversation/language.h"
#include "sms/conversation/outreach.h"
#include "sms/conversation/roster.h"
#include "sms/mailbox/inbox.h"
#include "sms/text/injection_flag.h"
#include "sms/text/keywords.h"
#include "store/audit_log.h"
#include "store/site_store.h"

namespace atoms::sms::conversation {

enum class TurnKind {
  kOfferReply,    // take, decline, ambiguous or unknown offer code (keyword().kind says which)
  kApproval,      // APPROVE n / DENY n from text that is not flagged
  kConversation,  // anything else from a person on the roster (YES from a person not opted out)
};
std::string_view turnKindName(TurnKind kind);  // "offer_reply", "approval", "conversation"

class Turn {
 public:
  Turn(Outreach& outreach, SiteStore& store, AuditLog::Batch& batch,
       const mailbox::InboxRow& message, const Contact& sender, ParsedKeyword keyword,
       InjectionFlag injection, Language language, TurnKind kind);
  Turn(const Turn&) = delete;
  Turn& operator=(const Turn&) = delete;

  TurnKind kind() const { return kind_; }
  const mailbox::InboxRow& message() const { return message_; }
  const Contact& sender() const { return sender_; }
  const ParsedKeyword& keyword() const { return keyword_; }
  const InjectionFlag& injection() const { return injection_; }
  Language language() const { return language_; }

  // The open transaction: write the handler's own rows with store().db(), audit with batch().
  SiteStore& store() { return store_; }
  AuditLog::Batch& batch() { return batch_; }

  // Queues a reply to the sender in their thread, through Outreach, in this transaction. The first
  // reply's id is "reply:inbox-<id>", the next "reply:inbox-<id>-2", ... (deterministic, so a
  // re-handled message asks for the same ids). `sources` join the receipt (their labels are what
  // WHY reads out). Errors: a content-lint finding (recorded in the batch), bad input.
  Result<OutreachResult> reply(std::string body, std::vector<ReceiptSource> sources = {});
  // The ids of the replies queued or decided so far.
  const std::vector<std::string>& replyIds() const { return replyIds_; }

 private:
  Outreach& outreach_;
  SiteStore& store_;
  AuditLog::Batch& batch_;
  const mailbox::InboxRow& message_;
  const Contact& sender_;
  ParsedKeyword keyword_;
  InjectionFlag injection_;
  Language language_;
  TurnKind kind_;
  std::vector<std::string> replyIds_;
};

class ReplyHandler {
 public:
  virtual ~ReplyHandler() = default;
  // The codes of the offers open to `person` now (keywords.h reads a reply against them).
  virtual std::vector<std::string> openOfferCodes(SiteStore& store, const Contact& person) = 0;
  // The codes offered to `person` lately, open or closed (a late "ok 2708" is told the shift is
  // covered); none by default.
  virtual std::vector<std::string> pastOfferCodes(SiteStore& /*store*/, const Contact& /*person*/) {
    return {};
  }
  // Handles one turn. Ok: the handling commits with the message marked handled. An error rolls
  // back everything the turn wrote; the message is then marked handled in a new transaction with
  // the error audited ("sms.conversation.failed") and a short apology naming a person to reach.
  virtual Status handle(Turn& turn) = 0;
};

// The reply id of the n-th (1-based) reply to inbox row `inboxId`.
std::string replyId(std::int64_t inboxId, int n = 1);

}  // namespace atoms::sms::conversation
