#include "sms/conversation/conversation.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <optional>

#include "sms/conversation/conversation_tables.h"
#include "sms/conversation/offers_pause.h"
#include "sms/conversation/parked_messages.h"
#include "sms/conversation/replies.h"
#include "sms/conversation/why_text.h"
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

}  // namespace

struct Conversation::Handling {
  Handling(SiteStore& s, AuditLog::Batch& b, const InboxRow& r, TimePoint n)
      : store(s), batch(b), row(r), tables(s.db()), now(n) {}
  SiteStore& store;
  AuditLog::Batch& batch;
  const InboxRow& row;
  ConversationTables tables;
  TimePoint now;
  std::optional<Contact> contact;
  ParsedKeyword keyword;
  InjectionFlag flag;
  ReplyContext context;
  std::string intent;
  std::string outcome;
  std::vector<std::string> replies;
  std::vector<std::string> replyOutcomes;
};

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
  std::string failure;
  Status status = store_.run([&](SiteStore& store) -> Status {
    auto current = inbox_.find(row.id);
    if (!current) return current.error();
    if (!*current || (*current)->state != InboxState::kNew) return Status::success();
    auto batch = store.log().begin();
    if (!batch) return batch.error();

    Handling h(store, *batch, **current, outreach_.now());
    const Roster& roster = outreach_.roster();
    h.contact = roster.findByPhone(h.row.from);

    // The thread window counts from this message.
    auto state = h.tables.contactState(h.row.from);
    if (!state) return state.error();
    const TimePoint wrote = std::min(wroteAt(h.row), h.now);
    if (!state->lastInboundAt || *state->lastInboundAt < wrote) state->lastInboundAt = wrote;
    if (Status s = h.tables.saveContactState(*state); !s) return s;

    std::vector<std::string> codes;
    if (h.contact && handler_ != nullptr) codes = handler_->openOfferCodes(store, *h.contact);
    h.keyword = keywords_.parse(h.row.body, codes);
    h.flag = injection_.check(h.row.body);
    h.context = replyContext(h.keyword, h.contact);
    h.intent = std::string(keywordKindName(h.keyword.kind));

    if (Status s = respond(h); !s) {
      failure = s.message();
      return Status::success();  // the batch rolls back; recorded below
    }

    json::Object body{{"inbox", h.row.id},
                      {"from", mailbox::maskNumber(h.row.from)},
                      {"person", personField(h.contact)},
                      {"intent", h.intent},
                      {"keyword", h.keyword.keyword},
                      {"language", languageCode(h.context.language)},
                      {"outcome", h.outcome}};
    json::Array replies;
    for (std::size_t i = 0; i < h.replies.size(); ++i) {
      replies.push_back(json::Object{{"id", h.replies[i]}, {"outcome", h.replyOutcomes[i]}});
    }
    body["replies"] = std::move(replies);
    if (h.flag.flagged()) {
      json::Array quoted;
      for (const InjectionFinding& f : h.flag.findings) {
        if (quoted.size() >= kMaxQuoted) break;
        quoted.push_back(mailbox::sanitizeLine(
            std::string_view(h.row.body).substr(f.begin, f.length), kQuotedBytes));
      }
      body["injection"] =
          json::Object{{"reasons", h.flag.reasons()},
                       {"quoted", std::move(quoted)},
                       {"handling", "data only: never a command, approval or source of action"}};
    }
    if (auto added = h.batch.add(formatTimestamp(h.now), "sms.conversation", "engine",
                                 json::Value(std::move(body)));
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
    if (Status s = recordFailure(row, failure); !s) return s.error();
    handled = true;
  }
  return handled;
}

Status Conversation::respond(Handling& h) {
  // `id`: the reply's own id instead of the next reply:inbox-<id>-<n> (a parked message's answer,
  // which must not take the id its real handling will use later).
  const auto send = [&](MessageClass kind, std::string text, bool whyReply = false,
                        std::string id = {}) -> Status {
    OutreachRequest request;
    request.id =
        !id.empty() ? std::move(id) : replyId(h.row.id, static_cast<int>(h.replies.size()) + 1);
    request.to = h.row.from;
    request.kind = kind;
    request.body = std::move(text);
    request.inReplyTo = h.row.id;
    request.whyReply = whyReply;
    auto result = outreach_.sendIn(h.store, h.batch, request);
    if (!result) return result.error();
    h.replies.push_back(request.id);
    h.replyOutcomes.push_back(std::string(outreachOutcomeName(result->outcome)) + ":" +
                              result->reason);
    return Status::success();
  };
  // Reloads, changes and stores the number's state (Outreach writes it too, so never keep a copy
  // across a send).
  const auto updateState = [&](const std::function<void(ContactState&)>& change) -> Status {
    auto state = h.tables.contactState(h.row.from);
    if (!state) return state.error();
    change(*state);
    return h.tables.saveContactState(*state);
  };
  const auto audit = [&](std::string_view kind, json::Object extra = {}) -> Status {
    json::Object body{{"phone", mailbox::maskNumber(h.row.from)},
                      {"person", personField(h.contact)},
                      {"keyword", h.keyword.keyword},
                      {"inbox", h.row.id}};
    for (auto& [key, value] : extra) body[key] = std::move(value);
    auto added = h.batch.add(formatTimestamp(h.now), kind, "engine", json::Value(std::move(body)));
    if (!added) return added.error();
    return Status::success();
  };

  auto current = h.tables.contactState(h.row.from);
  if (!current) return current.error();
  const bool optedOut = current->optedOut;
  const KeywordKind kind = h.keyword.kind;

  if (kind == KeywordKind::kOptOut) {
    if (!optedOut) {
      if (Status s = updateState([&](ContactState& st) {
            st.optedOut = true;
            st.optedOutAt = h.now;
            st.optOutKeyword = h.keyword.keyword;
            st.optOutConfirmed = false;
          });
          !s) {
        return s;
      }
      if (Status s = audit("sms.opt_out"); !s) return s;
    }
    h.outcome = optedOut ? "already_opted_out" : "opted_out";
    return send(MessageClass::kOptOutConfirmation, optOutConfirmationText(h.context));
  }
  if (kind == KeywordKind::kOptIn && optedOut) {
    if (Status s = updateState([&](ContactState& st) {
          st.optedOut = false;
          st.optOutConfirmed = false;
        });
        !s) {
      return s;
    }
    if (Status s = audit("sms.opt_in"); !s) return s;
    h.outcome = "opted_in";
    return send(MessageClass::kThreadReply, optInConfirmationText(h.context));
  }
  const bool yes = kind == KeywordKind::kOptIn && h.keyword.keyword == "YES";
  // Offers paused by a stop-like reply (offers_pause.h): START or OFFERS ON resumes them. Nothing
  // happens when they were not paused (the message is handled as usual).
  OffersPause offersPause(h.store.db());
  const auto resumeOffers = [&]() -> Result<bool> {
    auto resumed = offersPause.resume(h.row.from);
    if (!resumed || !*resumed) return resumed;
    if (Status s = audit("sms.offers_resumed"); !s) return s.error();
    h.intent = "offers_on";
    h.outcome = "offers_resumed";
    if (Status s = send(MessageClass::kThreadReply, offersResumedText(h.context)); !s) {
      return s.error();
    }
    return true;
  };
  // (An opted-out START was handled above.)
  if (kind == KeywordKind::kOptIn && !yes && h.contact) {
    auto resumed = resumeOffers();
    if (!resumed) return resumed.error();
    if (*resumed) return Status::success();
    h.outcome = "already_subscribed";
    return send(MessageClass::kThreadReply, alreadySubscribedText(h.context));
  }

  // A safety report or its acknowledgement, from anyone: before everything but STOP and START.
  if (safety_ != nullptr) {
    std::optional<SafetyAnswer> answer;
    if (const auto ack = parseSafetyAck(h.row.body)) {
      auto a = safety_->acknowledgeIn(h.store, h.batch, h.row, h.contact, *ack, h.context, h.now);
      if (!a) return a.error();
      answer = std::move(*a);
    } else if (const auto report = safetyDetector_.check(h.row.body)) {
      auto a = safety_->reportIn(h.store, h.batch, h.row, h.contact, *report, h.context, h.now);
      if (!a) return a.error();
      answer = std::move(*a);
    }
    if (answer) {
      h.intent = "safety";
      h.outcome = answer->outcome;
      return send(answer->replyClass, answer->replyText);
    }
  }

  if (!h.contact) {
    const std::string today = outreach_.localDay(h.now);
    if (current->unknownReplyDay == today) {
      h.outcome = "unknown_number_already_answered_today";
      return Status::success();
    }
    h.outcome = "unknown_number";
    if (Status s = send(MessageClass::kThreadReply, unknownNumberText(h.context)); !s) return s;
    if (h.replyOutcomes.back().rfind("queued", 0) == 0) {
      return updateState([&](ContactState& st) { st.unknownReplyDay = today; });
    }
    return Status::success();
  }

  // A stop-like reply that is not a clear STOP (seed 001 EC-RISK-005): offers pause, the person is
  // asked once; while paused it is handled as usual. Then OFFERS ON resumes them.
  if (kind == KeywordKind::kNone && !optedOut) {
    if (stopLike_.isResume(h.row.body)) {
      auto resumed = resumeOffers();
      if (!resumed) return resumed.error();
      if (*resumed) return Status::success();
    } else if (const auto like = stopLike_.check(h.row.body)) {
      auto paused = offersPause.pause(h.row.from, h.now, like->words);
      if (!paused) return paused.error();
      if (*paused) {
        if (Status s = audit("sms.offers_paused",
                             json::Object{{"words", like->words},
                                          {"confidencePercent",
                                           static_cast<std::int64_t>(like->confidence * 100 + 0.5)},
                                          {"scope", "offers and notices"}});
            !s) {
          return s;
        }
        h.intent = "stop_like";
        h.outcome = "offers_paused";
        return send(MessageClass::kThreadReply, offersPausedText(h.context));
      }
    }
  }

  // A checklist completed by text: a record, so flagged text (data only) never makes one.
  if (checklists_ != nullptr && kind == KeywordKind::kNone && !h.flag.flagged()) {
    if (const auto intent = parseChecklistIntent(h.row.body)) {
      auto a = checklists_->handleIn(h.store, h.batch, h.row, h.contact, *intent, h.context, h.now);
      if (!a) return a.error();
      h.intent = "checklist";
      h.outcome = a->outcome;
      return send(a->replyClass, a->replyText);
    }
  }

  if (kind == KeywordKind::kHelp) {
    h.outcome = "help";
    return send(MessageClass::kThreadReply, helpText(h.context));
  }
  if (kind == KeywordKind::kWhy) {
    auto last = h.tables.lastExplainable(h.row.from);
    if (!last) return last.error();
    if (!*last) {
      h.outcome = "why_nothing_sent";
      return send(MessageClass::kThreadReply, whyNothingText(h.context), true);
    }
    auto text = h.store.log().entryText(static_cast<std::uint64_t>(*(*last)->receiptSeq));
    if (!text) return text.error();
    auto entry = parseEntry(*text);
    if (!entry) return entry.error();
    h.outcome = "why";
    return send(MessageClass::kThreadReply, whyText(entry->body, h.context, lint_), true);
  }

  // Writes frozen (L2+): kept for when the freeze lifts, then decided from scratch.
  if (parking_) {
    if (Status s = ParkedMessages(h.store.db()).park(h.row.id, h.now); !s) return s;
    h.outcome = "parked";
    return send(MessageClass::kThreadReply, pausedText(h.context), false,
                "parked:inbox-" + std::to_string(h.row.id));
  }

  TurnKind turn = TurnKind::kConversation;
  switch (kind) {
    case KeywordKind::kTakeOffer:
    case KeywordKind::kDeclineOffer:
    case KeywordKind::kAmbiguousOffer:
    case KeywordKind::kUnknownOfferCode:
      turn = TurnKind::kOfferReply;
      break;
    case KeywordKind::kApprove:
    case KeywordKind::kDeny:
      // An approval is a command; flagged text is data only, so it is conversation.
      turn = h.flag.flagged() ? TurnKind::kConversation : TurnKind::kApproval;
      break;
    default:
      break;
  }
  h.intent = kind == KeywordKind::kNone || yes || turn == TurnKind::kConversation
                 ? std::string(turnKindName(TurnKind::kConversation))
                 : h.intent;

  if (handler_ != nullptr) {
    Turn t(outreach_, h.store, h.batch, h.row, *h.contact, h.keyword, h.flag, h.context.language,
           turn);
    if (Status s = handler_->handle(t); !s) return s;
    h.outcome = "handled:" + std::string(turnKindName(turn));
    for (const std::string& id : t.replyIds()) {
      auto row = h.tables.findMessage(id);
      if (!row) return row.error();
      h.replies.push_back(id);
      h.replyOutcomes.push_back(
          *row ? std::string(ledgerStateName((*row)->state)) + ":" + (*row)->reason : "unknown");
    }
    return Status::success();
  }
  switch (turn) {
    case TurnKind::kOfferReply:
      h.outcome = "offer_closed";
      return send(MessageClass::kThreadReply, offerClosedText(h.context));
    case TurnKind::kApproval:
      h.outcome = "approvals_later";
      return send(MessageClass::kThreadReply, approvalsLaterText(h.context));
    case TurnKind::kConversation:
      break;
  }
  h.outcome = "fallback";
  return send(MessageClass::kThreadReply, conversationFallbackText(h.context));
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

Status Conversation::recordFailure(const InboxRow& row, const std::string& reason) {
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
    auto state = tables.contactState(row.from);
    if (!state) return state.error();
    const TimePoint wrote = std::min(wroteAt(**current), now);
    if (!state->lastInboundAt || *state->lastInboundAt < wrote) state->lastInboundAt = wrote;
    if (Status s = tables.saveContactState(*state); !s) return s;

    const ReplyContext context = replyContext(keywords_.parse(row.body), contact);
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
