#include "domain/callout/callout_handler.h"

#include "domain/callout/callout_texts.h"
#include "sms/conversation/replies.h"
#include "store/audit_entry.h"

namespace atoms::callout {

using sms::CallOutIntentKind;
using sms::IntentConfidence;
using sms::KeywordKind;
using sms::conversation::TurnKind;

CalloutHandler::CalloutHandler(CalloutDesk& desk, SiteSnapshot& site) : desk_(desk), site_(site) {}

std::vector<std::string> CalloutHandler::openOfferCodes(SiteStore& store,
                                                        const sms::conversation::Contact& person) {
  if (Status s = site_.refresh(store.db()); !s) return {};
  auto codes = desk_.liveCodes(store, person.personId);
  if (!codes) return {};  // read again by handle(); a failed read only means no code is known
  return std::move(*codes);
}

std::vector<std::string> CalloutHandler::pastOfferCodes(SiteStore& store,
                                                        const sms::conversation::Contact& person) {
  auto codes = desk_.recentCodes(store, person.personId);
  if (!codes) return {};  // a failed read only means a late reply gets the help text
  return std::move(*codes);
}

Status CalloutHandler::handle(sms::conversation::Turn& turn) {
  if (Status s = site_.refresh(turn.store().db()); !s) return s;
  DeskTurn desk{turn.store(), turn.batch(), desk_.now(), turn.message().id};
  auto answered = answer(turn, desk);
  if (!answered) {
    site_.invalidate();
    return answered.error();
  }
  if (answered->text.empty()) return Status::success();
  std::vector<sms::conversation::ReceiptSource> sources;
  if (answered->callout != 0) {
    sources.push_back({"decision", "callout-" + std::to_string(answered->callout),
                       "call-out " + std::to_string(answered->callout)});
  }
  auto replied = turn.reply(answered->text, std::move(sources));
  if (!replied) {
    site_.invalidate();
    return replied.error();
  }
  return Status::success();
}

Result<DeskAnswer> CalloutHandler::answer(sms::conversation::Turn& turn, DeskTurn& desk) {
  const sms::conversation::Contact& sender = turn.sender();
  const sms::ParsedKeyword& keyword = turn.keyword();
  switch (turn.kind()) {
    case TurnKind::kOfferReply: {
      sms::conversation::ReplyContext ctx = desk_.contextFor(sender.personId);
      ctx.language = turn.language();
      switch (keyword.kind) {
        case KeywordKind::kTakeOffer:
          return desk_.takeIn(desk, sender, keyword.reference);
        case KeywordKind::kDeclineOffer:
          return desk_.declineIn(desk, sender, keyword.reference);
        case KeywordKind::kAmbiguousOffer:
          return DeskAnswer{"offer_ambiguous", sms::conversation::offerAmbiguousText(ctx), 0};
        default: {
          // A code that is not live: closed, or never this person's.
          auto crossed = desk_.replyCrossedClosing(turn.store(), sender.personId, keyword.reference,
                                                   turn.message().receivedAt);
          if (!crossed) return crossed.error();
          if (*crossed) return DeskAnswer{"offer_closed_crossed", "", 0};
          return DeskAnswer{"offer_closed", alreadyCoveredText(ctx), 0};
        }
      }
    }
    case TurnKind::kApproval:
      return desk_.decideIn(desk, sender, keyword.reference, keyword.kind == KeywordKind::kApprove,
                            keyword.remark);
    case TurnKind::kConversation:
      break;
  }
  return converse(turn, desk);
}

DeskAnswer CalloutHandler::clarify(const sms::conversation::ReplyContext& ctx,
                                   const sms::CallOutIntent& intent) const {
  if (intent.question == "confirm" && intent.kind == CallOutIntentKind::kCoworkerNoShow &&
      intent.personIds.size() == 1) {
    // "Ana has covid": a question about Ana, with no word of why.
    return {"clarify_coworker", clarifyCoworkerOutText(ctx, desk_.nameOf(intent.personIds[0])), 0};
  }
  if (intent.question == "who" || intent.kind == CallOutIntentKind::kCoworkerNoShow) {
    return {"clarify_who", clarifyWhoText(ctx), 0};
  }
  return {"clarify_what", clarifyWhatText(ctx), 0};
}

DeskAnswer CalloutHandler::offTopic(const sms::conversation::ReplyContext& ctx,
                                    std::string_view body) const {
  if (body.find_first_not_of(" \t\r\n") == std::string_view::npos) {
    return {"empty_text", emptyTextText(ctx), 0};
  }
  switch (outOfScope_.check(body)) {
    case sms::OutOfScopeKind::kRanking:
      return {"no_ranking", noRankingText(ctx), 0};
    case sms::OutOfScopeKind::kContact:
      return {"no_contact_details", noContactDetailsText(ctx), 0};
    case sms::OutOfScopeKind::kNone:
      break;
  }
  return {"callout_help", calloutHelpText(ctx), 0};
}

Result<DeskAnswer> CalloutHandler::converse(sms::conversation::Turn& turn, DeskTurn& desk) {
  const sms::conversation::Contact& sender = turn.sender();
  sms::conversation::ReplyContext ctx = desk_.contextFor(sender.personId);
  ctx.language = turn.language();
  std::vector<sms::NameCandidate> people;
  for (const site::Person& p : site_.model().people) {
    if (p.id != sender.personId) people.push_back({p.id, p.name});
  }
  const sms::CallOutIntent intent = intents_.parse(turn.message().body, people);
  const bool flagged = turn.injection().flagged();

  Result<DeskAnswer> result = offTopic(ctx, turn.message().body);
  if (flagged) {
    // Data, never a command (R-PLAT-006): it opens nothing, and gets the honest answer above.
  } else if (intent.confidence == IntentConfidence::kLow) {
    result = clarify(ctx, intent);
  } else {
    switch (intent.kind) {
      case CallOutIntentKind::kCoworkerNoShow:
        result = desk_.reportIn(desk, sender, intent.personIds.front(), CalloutOrigin::kLeadReport);
        break;
      case CallOutIntentKind::kSelfCallOut:
        result = desk_.reportIn(desk, sender, sender.personId, CalloutOrigin::kSelf);
        break;
      case CallOutIntentKind::kRunningLate:
        result = desk_.lateIn(desk, sender, intent.minutesLate);
        break;
      case CallOutIntentKind::kArrived:
        result = desk_.arrivedIn(desk, sender);
        break;
      case CallOutIntentKind::kNone:
        break;
    }
  }
  if (!result) return result;
  json::Array matched;
  for (const std::string& m : intent.matched) matched.push_back(m);
  json::Array named;
  for (const std::string& id : intent.personIds) named.push_back(id);
  auto added = turn.batch().add(
      formatTimestamp(desk.now), "callout.intent", "engine",
      json::Object{{"inbox", turn.message().id},
                   {"person", sender.personId},
                   {"intent", sms::callOutIntentKindName(intent.kind)},
                   {"confidence", intent.confidence == IntentConfidence::kHigh ? "high" : "low"},
                   {"question", intent.question},
                   {"named", std::move(named)},
                   {"matched", std::move(matched)},
                   {"flagged", flagged},
                   {"outcome", result->outcome},
                   {"callout", result->callout}});
  if (!added) return added.error();
  return result;
}

}  // namespace atoms::callout
