// Who clocked in for a shift: the crisp questions asked of the time clocks when the box's call-out
// decisions are judged against what happened (seed 001 section 6 and its open question 1: only
// outcomes with a crisp predicate count), and by the no-show watch. Shadow decisions ask who
// worked it (clockedInFor, ShadowJudge); the no-show watch and the verification of the box's own
// covers ask whether one person did (shiftClockIn, CoverVerifier).
//
// Punches are the site's (site_punch: imported ones and the terminals', at in Unix seconds).
// Punches carry no shift, so a clock-in counts for `shift` when it falls between kEarlyClockIn
// before its start and `by`, and the person has no other shift of their own overlapping that
// window (they clocked in for their own). The shift's assignee in `site`, if they clocked in,
// comes first; else the earliest such clock-in.
//
// Threading: the store's owner thread. Errors: the store's, one line.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <string_view>

#include "base/result.h"
#include "base/unix_time.h"
#include "domain/site/site_model.h"
#include "store/database.h"

namespace atoms::callout {

// A clock-in this long before a shift's start counts for it (people clock in early).
inline constexpr std::chrono::hours kEarlyClockIn{1};

// The person who clocked in for `shift` by `by` (usually its start plus the no-show grace), or
// nullopt when nobody did.
Result<std::optional<std::string>> clockedInFor(Database& db, const site::SiteModel& site,
                                                const site::Shift& shift, site::Instant by);

// Did `personId` clock in for a shift starting at `shiftStart`, from kEarlyClockIn before it up to
// `by` (the start plus the no-show grace, or now)? The earliest such clock-in (its instant, the
// evidence) or nullopt. One point query, inside the caller's transaction.
Result<std::optional<atoms::TimePoint>> shiftClockIn(Database& db, std::string_view personId,
                                                     atoms::TimePoint shiftStart,
                                                     atoms::TimePoint by);

}  // namespace atoms::callout
