#include "sms/conversation/classification.h"

#include <algorithm>

#include "sms/conversation/safety_desk.h"

namespace atoms::sms::conversation {

namespace {

Intent turnOf(const ParsedKeyword& keyword, const InjectionFlag& injection) {
  switch (keyword.kind) {
    case KeywordKind::kTakeOffer:
    case KeywordKind::kDeclineOffer:
    case KeywordKind::kAmbiguousOffer:
    case KeywordKind::kUnknownOfferCode:
      return Intent::kOfferReply;
    case KeywordKind::kApprove:
    case KeywordKind::kDeny:
      // An approval is a command; flagged text is data only, so it is conversation.
      return injection.flagged() ? Intent::kConversation : Intent::kApproval;
    default:
      return Intent::kConversation;
  }
}

}  // namespace

std::string_view intentName(Intent intent) {
  switch (intent) {
    case Intent::kOptOut:
      return "opt_out";
    case Intent::kOptIn:
      return "opt_in";
    case Intent::kSafety:
      return "safety";
    case Intent::kOffersOn:
      return "offers_on";
    case Intent::kStopLike:
      return "stop_like";
    case Intent::kChecklist:
      return "checklist";
    case Intent::kHelp:
      return "help";
    case Intent::kWhy:
      return "why";
    case Intent::kOfferReply:
      return "offer_reply";
    case Intent::kApproval:
      return "approval";
    case Intent::kConversation:
      return "conversation";
  }
  return "conversation";
}

bool Classification::says(Intent intent) const {
  return std::find(intents.begin(), intents.end(), intent) != intents.end();
}

TextClassifier::TextClassifier() = default;

Classification TextClassifier::classify(std::string_view body,
                                        std::span<const std::string> openOfferCodes,
                                        std::span<const std::string> pastOfferCodes) const {
  Classification c;
  c.keyword = keywords_.parse(body, openOfferCodes, pastOfferCodes);
  c.injection = injection_.check(body);
  c.safetyAck = parseSafetyAck(body);
  c.safetyReport = safety_.check(body);
  c.offersOn = stopLike_.isResume(body);
  c.stopLike = stopLike_.check(body);
  c.checklist = parseChecklistIntent(body);

  const KeywordKind kind = c.keyword.kind;
  const bool none = kind == KeywordKind::kNone;
  const auto add = [&c](bool says, Intent intent) {
    if (says) c.intents.push_back(intent);
  };
  add(kind == KeywordKind::kOptOut, Intent::kOptOut);
  add(kind == KeywordKind::kOptIn, Intent::kOptIn);
  add(c.safetyAck || c.safetyReport, Intent::kSafety);
  add(none && c.offersOn, Intent::kOffersOn);
  add(none && !c.offersOn && c.stopLike, Intent::kStopLike);
  add(none && !c.injection.flagged() && c.checklist, Intent::kChecklist);
  add(kind == KeywordKind::kHelp, Intent::kHelp);
  add(kind == KeywordKind::kWhy, Intent::kWhy);
  c.intents.push_back(turnOf(c.keyword, c.injection));
  return c;
}

}  // namespace atoms::sms::conversation
