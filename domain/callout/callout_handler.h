// CalloutHandler: the call-out flow behind the SMS conversation layer (its ReplyHandler,
// sms/conversation/reply_handler.h). What it does with a turn:
// - offer replies (by code): take or decline, through the CalloutDesk; a reply that names two
//   codes or says yes and no at once is asked again; a code that is no longer open gets "already
//   covered, thanks";
// - APPROVE n / DENY n: the desk decides whether the sender may (callout_desk.h);
// - anything else from a person on the roster: the call-out intent (sms/text/callout_intent.h)
//   against the site's people: a co-worker did not show -> a call-out for their shift; the sender
//   calls out -> a call-out for their own shift; running late -> their lead is told; "I'm here"
//   -> an open call-out for them stops; low confidence -> one clarifying question (about the
//   co-worker when a health word names one: "Ana has covid", never repeating the word); nothing
//   recognised -> what the assistant does not do where that is the honest answer (rating
//   people, sharing numbers: sms/text/out_of_scope.h), an empty text said to be empty, else what
//   it can do and who to reach. Text the injection flag marked is data: it never opens a
//   call-out (it gets the same answers as text with no call-out in it).
// Each handled conversation leaves a "callout.intent" audit entry (intent, confidence, matched
// phrase words, never health words: callout_intent.h, and the outcome).
//
// Threading: called on the store's writer inside the conversation's transaction. When a turn
// fails the transaction is rolled back, so the site snapshot (which may have given a shift away in
// memory) is invalidated and read back from the store at the next turn.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "domain/callout/callout_desk.h"
#include "domain/callout/site_snapshot.h"
#include "sms/conversation/reply_handler.h"
#include "sms/text/callout_intent.h"
#include "sms/text/out_of_scope.h"

namespace atoms::callout {

class CalloutHandler final : public sms::conversation::ReplyHandler {
 public:
  // Both must outlive the handler.
  CalloutHandler(CalloutDesk& desk, SiteSnapshot& site);

  std::vector<std::string> pastOfferCodes(SiteStore& store,
                                          const sms::conversation::Contact& person) override;
  std::vector<std::string> openOfferCodes(SiteStore& store,
                                          const sms::conversation::Contact& person) override;
  Status handle(sms::conversation::Turn& turn) override;

 private:
  Result<DeskAnswer> answer(sms::conversation::Turn& turn, DeskTurn& desk);
  Result<DeskAnswer> converse(sms::conversation::Turn& turn, DeskTurn& desk);
  // One question when the intent is unclear; about a named co-worker when it is about them.
  DeskAnswer clarify(const sms::conversation::ReplyContext& ctx,
                     const sms::CallOutIntent& intent) const;
  // No call-out in the text: what the assistant does not do, said so, or what it does.
  DeskAnswer offTopic(const sms::conversation::ReplyContext& ctx, std::string_view body) const;

  CalloutDesk& desk_;
  SiteSnapshot& site_;
  sms::CallOutIntentParser intents_;
  sms::OutOfScopeDetector outOfScope_;
};

}  // namespace atoms::callout
