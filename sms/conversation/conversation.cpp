#include "sms/conversation/conversation.h"

#include <algorithm>
#include <optional>
#include <utility>

#include "sms/conversation/conversation_tables.h"
#include "sms/conversation/handling.h"
#include "sms/conversation/intent_table.h"
#include "sms/conversation/parked_messages.h"
#include "sms/conversation/replies.h"
#include "sms/mailbox/message_checks.h"
#include "store/audit_entry.h"

namespace atoms::sms::conversation {

namespace {

using mailbox::InboxRow;
using mailbox::InboxState;

constexpr std::size_t kMaxQuoted = 3;
constexpr std::size_t kQuotedBytes = 80;

json::Value personField(const std::optional<Contact>& contact) {
  return contact ? json::Value(contact->personId) : json::Value(nullptr);
}

// When the person wrote: the provider's time when it gave one, else when the box stored it.
TimePoint wroteAt(const InboxRow& row) {
  return row.receivedAt.time_since_epoch().count() > 0 ? row.receivedAt : row.storedAt;
}

// The thread window counts from this message: the number's latest inbound time moves to when
// `row` was written (never past `now`).
Status countInbound(ConversationTables& tables, const InboxRow& row, TimePoint now) {
  auto state = tables.contactState(row.from);
  if (!state) return state.error();
  const TimePoint wrote = std::min(wroteAt(row), now);
  if (!state->lastInboundAt || *state->lastInboundAt < wrote) state->lastInboundAt = wrote;
  return tables.saveContactState(*state);
}

// The message's "sms.conversation" entry: who, what it said (intent, keyword), what was done.
json::Object conversationEntry(const Handling& h) {
  json::Object body{{"inbox", h.row.id},
                    {"from", mailbox::maskNumber(h.row.from)},
                    {"person", personField(h.contact)},
                    {"intent", h.intent},
                    {"keyword", h.text.keyword.keyword},
                    {"language", languageCode(h.context.language)},
                    {"outcome", h.outcome}};
  json::Array replies;
  for (std::size_t i = 0; i < h.replies.size(); ++i) {
    replies.push_back(json::Object{{"id", h.replies[i]}, {"outcome", h.replyOutcomes[i]}});
  }
  body["replies"] = std::move(replies);
  const InjectionFlag& flag = h.text.injection;
  if (flag.flagged()) {
    json::Array quoted;
    for (const InjectionFinding& f : flag.findings) {
      if (quoted.size() >= kMaxQuoted) break;
      quoted.push_back(mailbox::sanitizeLine(std::string_view(h.row.body).substr(f.begin, f.length),
                                             kQuotedBytes));
    }
    body["injection"] =
        json::Object{{"reasons", flag.reasons()},
                     {"quoted", std::move(quoted)},
                     {"handling", "data only: never a command, approval or source of action"}};
  }
  return body;
}

}  // namespace

Conversation::Conversation(atoms::StoreRunner& store, mailbox::Inbox& inbox, Outreach& outreach,
                           ReplyHandler* handler, SafetyDesk* safety)
    : store_(store), inbox_(inbox), outreach_(outreach), handler_(handler), safety_(safety) {}

Result<int> Conversation::handlePending() {
  std::lock_guard lock(mutex_);
  auto rows = inbox_.unhandled(outreach_.settings().batchLimit);
  if (!rows) return rows.error();
  int handled = 0;
  for (const InboxRow& row : *rows) {
    auto done = handleOne(row);
    if (!done) return done.error();
    if (*done) ++handled;
  }
  return handled;
}

Result<bool> Conversation::handleOne(const InboxRow& row) {
  bool handled = false;
  std::optional<Classification> text;
  bool reportClassified = false;  // not parked before: its classification was not reported yet
  std::string failure;
  Status status = store_.run([&](SiteStore& store) -> Status {
    auto current = inbox_.find(row.id);
    if (!current) return current.error();
    if (!*current || (*current)->state != InboxState::kNew) return Status::success();
    auto batch = store.log().begin();
    if (!batch) return batch.error();
    const InboxRow& message = **current;
    const TimePoint now = outreach_.now();
    const std::optional<Contact> contact = outreach_.roster().findByPhone(message.from);
    ConversationTables tables(store.db());
    if (Status s = countInbound(tables, message, now); !s) return s;

    std::vector<std::string> codes;
    std::vector<std::string> pastCodes;
    if (contact && handler_ != nullptr) {
      codes = handler_->openOfferCodes(store, *contact);
      pastCodes = handler_->pastOfferCodes(store, *contact);
    }
    text = classifier_.classify(message.body, codes, pastCodes);
    auto parkedBefore = ParkedMessages(store.db()).wasParked(message.id);
    if (!parkedBefore) return parkedBefore.error();
    reportClassified = !*parkedBefore;
    auto sender = tables.contactState(message.from);
    if (!sender) return sender.error();

    const auto& confirms = outreach_.settings().providerConfirmsKeywords;
    const Answerers answerers{outreach_,
                              handler_,
                              safety_,
                              checklists_,
                              lint_,
                              parking_.load(),
                              confirms && confirms(message)};
    Handling h(answerers, store, *batch, message, now, contact, *text,
               replyContext(text->keyword, contact), std::move(*sender));
    if (Status s = answer(h); !s) {
      failure = s.message();
      return Status::success();  // the batch rolls back; recorded below
    }
    if (auto added = h.batch.add(formatTimestamp(h.now), "sms.conversation", "engine",
                                 json::Value(conversationEntry(h)));
        !added) {
      return added.error();
    }
    if (Status s = inbox_.markHandled(h.row.id); !s) return s;
    if (auto committed = h.batch.commit(); !committed) return committed.error();
    handled = true;
    return Status::success();
  });
  if (!status) return status.error();
  if (!failure.empty()) {
    if (Status s = recordFailure(row, *text, failure); !s) return s.error();
    handled = true;
  }
  if (handled && reportClassified && onClassified_) onClassified_(row.id, *text);
  return handled;
}

Result<Conversation::ParkedRelease> Conversation::releaseParked() {
  std::lock_guard lock(mutex_);
  ParkedRelease out;
  Status status = store_.run([&](SiteStore& store) -> Status {
    ParkedMessages parked(store.db());
    auto rows = parked.all();
    if (!rows) return rows.error();
    if (rows->empty()) return Status::success();
    auto batch = store.log().begin();
    if (!batch) return batch.error();
    const TimePoint now = outreach_.now();
    for (const ParkedMessage& m : *rows) {
      const bool stale = now - m.parkedAt > outreach_.settings().frozenHoldLimit;
      if (Status s = parked.remove(m.inboxId); !s) return s;
      if (!stale) {
        if (Status s = inbox_.reopen(m.inboxId); !s) return s;
      } else if (Status s = tellWithdrawn(store, *batch, m.inboxId); !s) {
        return s;
      }
      json::Object body{{"inbox", m.inboxId}, {"parkedAt", formatTimestamp(m.parkedAt)}};
      auto added =
          batch->add(formatTimestamp(now), stale ? "sms.parked_withdrawn" : "sms.parked_released",
                     "engine", json::Value(std::move(body)));
      if (!added) return added.error();
      ++(stale ? out.withdrawn : out.released);
    }
    if (auto committed = batch->commit(); !committed) return committed.error();
    return Status::success();
  });
  if (!status) return status.error();
  return out;
}

ReplyContext Conversation::replyContext(const ParsedKeyword& keyword,
                                        const std::optional<Contact>& contact) const {
  const Roster& roster = outreach_.roster();
  ReplyContext context;
  context.language =
      replyLanguage(keyword, contact ? &*contact : nullptr, outreach_.settings().defaultLanguage);
  context.site = roster.siteName();
  context.human = roster.humanContact(contact ? contact->personId : std::string());
  return context;
}

Status Conversation::tellWithdrawn(SiteStore& store, AuditLog::Batch& batch, std::int64_t inboxId) {
  auto row = inbox_.find(inboxId);
  if (!row) return row.error();
  if (!*row) return Status::success();
  const std::optional<Contact> contact = outreach_.roster().findByPhone((*row)->from);
  if (!contact) return Status::success();
  OutreachRequest request;
  request.id = "withdrawn:" + std::to_string(inboxId);
  request.to = (*row)->from;
  request.kind = MessageClass::kThreadReply;
  request.body = parkedWithdrawnText(replyContext(keywords_.parse((*row)->body), contact));
  request.ref = "inbox-" + std::to_string(inboxId);
  auto sent = outreach_.sendIn(store, batch, request);
  if (!sent) return sent.error();
  return Status::success();
}

Result<int> Conversation::announcePause(std::string_view event) {
  std::lock_guard lock(mutex_);
  int told = 0;
  Status status = store_.run([&](SiteStore& store) -> Status {
    const TimePoint now = outreach_.now();
    auto phones = ConversationTables(store.db())
                      .activeSince(now - outreach_.settings().outreach.activeThreadWindow);
    if (!phones) return phones.error();
    auto batch = store.log().begin();
    if (!batch) return batch.error();
    const Roster& roster = outreach_.roster();
    for (const std::string& phone : *phones) {
      const std::optional<Contact> contact = roster.findByPhone(phone);
      if (!contact) continue;
      const ReplyContext context = replyContext(ParsedKeyword{}, contact);
      OutreachRequest request;
      request.id = "paused:" + std::string(event) + ":" + phone;
      auto known = ConversationTables(store.db()).findMessage(request.id);
      if (!known) return known.error();
      if (*known) continue;  // told already (a restart at L2)
      request.to = phone;
      request.kind = MessageClass::kThreadReply;
      request.body = pauseNoticeText(context);
      request.ref = std::string(event);
      auto sent = outreach_.sendIn(store, *batch, request);
      if (!sent) return sent.error();
      ++told;
    }
    if (told == 0) return Status::success();  // the batch rolls back: nothing to record
    json::Object body{{"event", std::string(event)}, {"people", told}};
    if (auto seq = batch->add(formatTimestamp(now), "killswitch.announced", "engine",
                              json::Value(std::move(body)));
        !seq) {
      return seq.error();
    }
    if (auto committed = batch->commit(); !committed) return committed.error();
    return Status::success();
  });
  if (!status) return status.error();
  return told;
}

Status Conversation::recordFailure(const InboxRow& row, const Classification& text,
                                   const std::string& reason) {
  return store_.run([&](SiteStore& store) -> Status {
    auto current = inbox_.find(row.id);
    if (!current) return current.error();
    if (!*current || (*current)->state != InboxState::kNew) return Status::success();
    auto batch = store.log().begin();
    if (!batch) return batch.error();
    const TimePoint now = outreach_.now();
    const Roster& roster = outreach_.roster();
    const std::optional<Contact> contact = roster.findByPhone(row.from);
    ConversationTables tables(store.db());
    if (Status s = countInbound(tables, **current, now); !s) return s;

    const ReplyContext context = replyContext(text.keyword, contact);
    OutreachRequest request;
    request.id = replyId(row.id);
    request.to = row.from;
    request.kind = MessageClass::kThreadReply;
    request.body = handlingFailedText(context);
    request.inReplyTo = row.id;
    auto replied = outreach_.sendIn(store, *batch, request);
    if (!replied) return replied.error();

    json::Object body{{"inbox", row.id},
                      {"from", mailbox::maskNumber(row.from)},
                      {"person", personField(contact)},
                      {"reason", mailbox::sanitizeLine(reason)},
                      {"reply", json::Object{{"id", request.id},
                                             {"outcome", outreachOutcomeName(replied->outcome)}}}};
    if (auto added = batch->add(formatTimestamp(now), "sms.conversation.failed", "engine",
                                json::Value(std::move(body)));
        !added) {
      return added.error();
    }
    if (Status s = inbox_.markHandled(row.id); !s) return s;
    if (auto committed = batch->commit(); !committed) return committed.error();
    return Status::success();
  });
}

}  // namespace atoms::sms::conversation
