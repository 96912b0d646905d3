// ShadowBook: the call-outs the box decided in shadow (seed 001 section 6; docs/callouts.md,
// "shadow"), kept in the store (table callout_shadow, migration 20), one row per call-out. When
// staffing_scheduling is at SHADOW the desk decides a call-out as a first wave would (whom it
// would offer, in order, and whom it rules out and why), records it here with its signed receipt
// and sends nothing. The verdict comes later, once: from who actually worked the shift
// (ShadowJudge, at the shift's start plus the no-show grace) or from a manager through the API.
//
// Threading: the store's writer (the engine thread), inside the caller's open batch. Errors: the
// store's, one line; a row that does not parse is named.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/canonical_json.h"
#include "base/result.h"
#include "base/unix_time.h"
#include "store/database.h"

namespace atoms::callout {

using atoms::TimePoint;

enum class ShadowVerdict {
  kAgreed,     // the person who worked it was one the box would have offered it to
  kDisagreed,  // someone the box ruled out or never considered worked it
  kUnknown,    // nobody identifiable worked it (or the person reported out did): not counted
};
std::string_view shadowVerdictName(ShadowVerdict v);  // "agreed", "disagreed", "unknown"

struct ShadowRow {
  std::int64_t calloutId = 0;
  std::string shiftId;
  std::string absentId;
  TimePoint decidedAt;
  TimePoint shiftStart;
  std::int64_t receiptSeq = 0;           // the shadow decision's signed receipt
  std::vector<std::string> eligible;     // whom it would have offered, in rank order (every wave)
  json::Value ruledOut;                  // [{"person", "reason", "rules"}]
  std::optional<ShadowVerdict> verdict;  // nullopt: not judged yet
  std::string worker;                    // who worked it, when known
  std::string judgedBy;                  // "time_clock", "schedule", "nobody", "panel:<person>"
  std::optional<TimePoint> judgedAt;

  bool wouldOffer(std::string_view personId) const;
  // {"callout", "shift", "absent", "decidedAt", "receipt", "eligible", "ruledOut", "verdict"?,
  //  "worker"?, "judgedBy"?, "judgedAt"?}.
  json::Value toJson() const;
};

class ShadowBook {
 public:
  explicit ShadowBook(Database& db) : db_(db) {}

  Status insert(const ShadowRow& row);
  Result<std::optional<ShadowRow>> find(std::int64_t calloutId);
  // Not judged yet, earliest shift first; with `unknownToo` also those the time clock could not
  // judge (a person may still give their verdict on them).
  Result<std::vector<ShadowRow>> awaiting(bool unknownToo = false);
  // Records the verdict on a row not judged yet or judged unknown. Errors: no such row, or it was
  // judged agreed or disagreed already (nothing changes).
  Status judge(std::int64_t calloutId, ShadowVerdict verdict, std::string_view worker,
               std::string_view judgedBy, TimePoint at);

 private:
  Database& db_;
};

}  // namespace atoms::callout
