// Who a wave of a call-out would offer its shift to now, ranked, and who not and why
// (candidates.h over the facts read from the store: consent, opt-out, paused offers, quiet hours,
// offers in the fairness window, who this call-out already asked, who is out of a nearby shift);
// and the receipt every decision about whom to offer stands on (a wave's, or its shadow's).
//
// Contract: reads only, inside the step's transaction. Errors: the shift is gone from the
// snapshot, store errors, the labor engine's; one line. Threading: the engine thread.
#pragma once

#include <string>

#include "base/result.h"
#include "domain/callout/callout_receipt.h"
#include "domain/callout/callout_store.h"
#include "domain/callout/callout_texts.h"
#include "domain/callout/candidates.h"
#include "domain/callout/desk_context.h"
#include "domain/callout/desk_turn.h"

namespace atoms::callout {

// The ranking rule, as every offer decision's receipt states it.
inline constexpr char kRankingRule[] =
    "no premium first, then fewer offers in 14 days, then fewer hours this week, then person id";

Result<CandidateList> candidatesFor(const DeskContext& desk, DeskStep& step,
                                    const CalloutRow& callout);

// The receipt `id` of a decision about whom to offer `callout`'s shift to, with the sources every
// such decision stands on (the shift, the station's roster, the labor rules, the report).
CalloutReceipt offerReceipt(const CalloutRow& callout, const std::string& id, TimePoint now,
                            const ShiftWords& words);
// The labor-rule verdict a candidate was offered (or would be offered) on.
void addVerdict(CalloutReceipt& receipt, const Candidate& candidate);

}  // namespace atoms::callout
