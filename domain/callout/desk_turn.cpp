#include "domain/callout/desk_turn.h"

#include <utility>

namespace atoms::callout {

Status audit(DeskStep& step, std::string_view kind, json::Object body) {
  return step.batch.record(step.now, kind, "engine", std::move(body));
}

Result<std::uint64_t> signReceipt(DeskStep& step, CalloutReceipt& receipt, std::int64_t calloutId,
                                  std::string_view rationale, std::string_view outcome) {
  auto seq = receipt.addTo(step.batch, rationale, outcome);
  if (!seq) return seq.error();
  if (Status s = step.rows.fileReceipt(calloutId, *seq); !s) return s.error();
  return seq;
}

}  // namespace atoms::callout
