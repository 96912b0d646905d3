#include "domain/callout/shadow_record.h"

#include "domain/callout/shadow_book.h"
#include "domain/callout/wave_candidates.h"

namespace atoms::callout {

Status recordShadow(const DeskContext& desk, DeskStep& step, const CalloutRow& c,
                    const policy::GateDecision& gate) {
  auto list = candidatesFor(desk, step, c);
  if (!list) return list.error();
  const ShiftWords w = desk.words(c.shiftId, step.now);
  ShadowRow row;
  row.calloutId = c.id;
  row.shiftId = c.shiftId;
  row.absentId = c.absentId;
  row.decidedAt = step.now;
  row.shiftStart = c.shiftStart;
  json::Array first;
  json::Array eligible;
  for (const Candidate& cand : list->ranked) {
    row.eligible.push_back(cand.personId);
    eligible.push_back(candidateJson(cand));
    if (static_cast<int>(first.size()) < desk.settings().waveSize) first.push_back(cand.personId);
  }
  json::Array ruledOut;
  for (const Excluded& e : list->excluded) ruledOut.push_back(excludedJson(e));
  row.ruledOut = ruledOut;
  CalloutReceipt receipt =
      offerReceipt(c, "callout-" + std::to_string(c.id) + "-shadow", step.now, w);
  for (const Candidate& cand : list->ranked) addVerdict(receipt, cand);
  receipt.gate(gate)
      .field("callout", c.id)
      .field("shadow", true)
      .field("wouldOfferFirst", std::move(first))
      .field("eligible", std::move(eligible))
      .field("notOffered", std::move(ruledOut))
      .field("ranking", kRankingRule);
  auto seq = signReceipt(step, receipt, c.id,
                         "Shadow decision: whom the box would offer the shift to, in order, and "
                         "whom the labor rules or reachability rule out; nothing was sent.",
                         row.eligible.empty() ? "nobody_to_offer" : "recorded_not_sent");
  if (!seq) return seq.error();
  row.receiptSeq = static_cast<std::int64_t>(*seq);
  return ShadowBook(step.store.db()).insert(row);
}

}  // namespace atoms::callout
