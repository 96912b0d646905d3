#include "sms/conversation/intent_table.h"

#include <array>
#include <cstddef>
#include <string>

#include "sms/conversation/answers.h"

namespace atoms::sms::conversation {

namespace {

// Who an intent is answered for.
enum class Reach {
  kAnyone,  // any number, on the roster or not
  kRoster,  // people on the roster; any other number gets the unknown-number reply
  kTurn,    // people on the roster, through the ReplyHandler: parked while writes are frozen
};

struct IntentRow {
  Intent intent;
  Reach reach;
  Result<bool> (*handler)(Handling&);
};

// In Intent order.
constexpr std::array<IntentRow, 11> kTable = {{
    {Intent::kOptOut, Reach::kAnyone, answerOptOut},
    {Intent::kOptIn, Reach::kAnyone, answerOptIn},
    {Intent::kSafety, Reach::kAnyone, answerSafety},
    {Intent::kOffersOn, Reach::kRoster, answerOffersOn},
    {Intent::kStopLike, Reach::kRoster, answerStopLike},
    {Intent::kChecklist, Reach::kRoster, answerChecklist},
    {Intent::kHelp, Reach::kRoster, answerHelp},
    {Intent::kWhy, Reach::kRoster, answerWhy},
    {Intent::kOfferReply, Reach::kTurn, answerTurn},
    {Intent::kApproval, Reach::kTurn, answerTurn},
    {Intent::kConversation, Reach::kTurn, answerTurn},
}};

constexpr bool inIntentOrder() {
  for (std::size_t i = 0; i < kTable.size(); ++i) {
    if (static_cast<std::size_t>(kTable[i].intent) != i) return false;
  }
  return true;
}
static_assert(inIntentOrder(), "kTable holds one row per Intent, in Intent order");

const IntentRow& rowOf(Intent intent) { return kTable[static_cast<std::size_t>(intent)]; }

}  // namespace

Status answer(Handling& h) {
  if (!h.row.refusal.empty()) {
    // Its text was refused for its length (mailbox/inbox.h): no intent to read, one answer.
    Result<bool> answered = h.contact ? answerTooLong(h) : answerUnknownNumber(h);
    if (!answered) return answered.error();
    return Status::success();
  }
  for (Intent intent : h.text.intents) {
    const IntentRow& row = rowOf(intent);
    Result<bool> answered = false;
    if (!h.contact && row.reach != Reach::kAnyone) {
      answered = answerUnknownNumber(h);
    } else if (h.answerers.parking && row.reach == Reach::kTurn) {
      answered = answerParked(h);
    } else {
      answered = row.handler(h);
    }
    if (!answered) return answered.error();
    if (*answered) return Status::success();
  }
  return makeError("inbound SMS " + std::to_string(h.row.id) + ": no handler answered it");
}

}  // namespace atoms::sms::conversation
