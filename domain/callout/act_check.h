// actCheck: the labor rules once more at Act, against the schedule as stored at that instant
// (issue 7; seed 001 section 8, BRK-SCH: "a labor-rule violation reaching Act (should be
// impossible)"). The desk decides on its SiteSnapshot; the store may have moved on since (a
// `site import` wrote other shifts). Right before an assignment is written, the person's shifts
// and the shift given are read back from site_shift (one point query through the assignee index);
// when they are what the snapshot holds, the decision's own verdict stands and nothing more runs
// (the common case, and bench_callout's). Otherwise the labor engine judges the person on a copy
// of the model with those rows as stored.
//
// Contract: reads only, inside the caller's transaction on `db`. Returns nullopt when the stored
// schedule matches the snapshot, else the engine's verdict on the stored one. Errors: store
// errors, or the engine's (an unknown person or shift), one line. Threading: the engine thread,
// like the snapshot.
#pragma once

#include <optional>
#include <string_view>

#include "base/result.h"
#include "domain/callout/site_snapshot.h"
#include "domain/labor/rule_evaluation.h"
#include "store/database.h"

namespace atoms::callout {

Result<std::optional<labor::Verdict>> actCheck(Database& db, const SiteSnapshot& site,
                                               std::string_view personId, std::string_view shiftId);

}  // namespace atoms::callout
