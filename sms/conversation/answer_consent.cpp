// STOP and START (answers.h, "Consent").
#include "sms/conversation/answers.h"

namespace atoms::sms::conversation {

namespace {

// The provider blocked or unblocked the number and confirmed it already (its standard keyword
// handling): a second confirmation from the box would be refused (an opt-out) or arrive twice
// (an opt-in). The change is recorded all the same; the audit entry says who confirmed.
bool confirmedByProvider(const Handling& h) {
  return h.answerers.providerConfirmsKeywords && isProviderKeyword(h.row.body);
}

}  // namespace

Result<bool> answerOptOut(Handling& h) {
  const bool optedOut = h.sender.optedOut;
  if (!optedOut) {
    if (Status s = h.updateState([&](ContactState& st) {
          st.optedOut = true;
          st.optedOutAt = h.now;
          st.optOutKeyword = h.text.keyword.keyword;
          st.optOutConfirmed = false;
        });
        !s) {
      return s.error();
    }
    if (Status s = h.audit("sms.opt_out"); !s) return s.error();
  }
  h.outcome = optedOut ? "already_opted_out" : "opted_out";
  if (confirmedByProvider(h)) {
    // Counted as the one confirmation, so nothing of the box's follows it.
    if (Status s = h.updateState([](ContactState& st) { st.optOutConfirmed = true; }); !s) {
      return s.error();
    }
    h.outcome += "_confirmed_by_provider";
    return true;
  }
  return h.answerWith(MessageClass::kOptOutConfirmation, optOutConfirmationText(h.context));
}

Result<bool> answerOptIn(Handling& h) {
  if (h.sender.optedOut) {
    if (Status s = h.updateState([&](ContactState& st) {
          st.optedOut = false;
          st.optOutConfirmed = false;
        });
        !s) {
      return s.error();
    }
    if (Status s = h.audit("sms.opt_in"); !s) return s.error();
    h.outcome = "opted_in";
    if (confirmedByProvider(h)) {
      h.outcome += "_confirmed_by_provider";
      return true;
    }
    return h.answerWith(MessageClass::kThreadReply, optInConfirmationText(h.context));
  }
  if (h.yes() || !h.contact) return false;
  auto resumed = resumeOffers(h);
  if (!resumed || *resumed) return resumed;
  h.outcome = "already_subscribed";
  return h.answerWith(MessageClass::kThreadReply, alreadySubscribedText(h.context));
}

}  // namespace atoms::sms::conversation
