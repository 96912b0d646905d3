// Replies to an offer (docs/callouts.md, "Taking it"): the reply's code is matched against the
// person's live offers. To take it, everything is checked again at that instant (hours may have
// changed since the offer): a labor rule that denies it now closes the offer with the receipt
// callout-<id>-refuse-<offer>; a premium, or a gate that does not let the box give shifts on its
// own, asks for an approval (approval_request.h); else the shift is given (shift_assignment.h).
// Replies are handled one after another on the engine thread, so two in the same second give one
// winner; the later one hears the shift is covered. To pass, the offer is declined and a pending
// approval for it withdrawn.
//
// Contract: inside the turn's batch. Errors: store and engine errors, one line; the caller's batch
// is then dropped. Threading: the engine thread.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"
#include "domain/callout/callout_store.h"
#include "domain/callout/desk_context.h"
#include "domain/callout/desk_turn.h"
#include "sms/conversation/roster.h"

namespace atoms::callout {

Result<DeskAnswer> takeOffer(const DeskContext& desk, DeskStep& step,
                             const sms::conversation::Contact& person, std::string_view code);
Result<DeskAnswer> declineOffer(const DeskContext& desk, DeskStep& step,
                                const sms::conversation::Contact& person, std::string_view code);

// The codes of the offers live for `personId` (open, or waiting for approval).
Result<std::vector<std::string>> liveCodes(CalloutStore& rows, std::string_view personId);

// Whether a reply with `code`, which arrived at `receivedAt`, crossed the notice that closed the
// offer: the call-out was covered or withdrawn (both tell the open offers so) no earlier than the
// reply arrived, and the person had not answered before. The notice already told them; a second
// text for one reply would be noise (call-outs issue, defect 6).
Result<bool> replyCrossedClosing(CalloutStore& rows, std::string_view personId,
                                 std::string_view code, TimePoint receivedAt);

}  // namespace atoms::callout
