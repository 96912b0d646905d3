// The days the manager marks (special_day.h), kept in the store (migration 30,
// forecast_special_day) so the forecast reads them every time and a restart keeps them.
//
// markSpecialDay replaces any mark on the same day; unmarkSpecialDay removes it. Each change is one
// commit with one audit entry (`forecast.special_day`, actor the person who marked it, the mark or
// "unmarked"), so a forecast can be explained afterwards. Threading: the store's writer (the engine
// thread in the daemon); the read works on any connection. Errors: store errors, one line; a mark
// that SpecialDays::make refuses (kInvalid), naming the day; nothing is written on error.
#pragma once

#include <chrono>
#include <string>

#include "base/result.h"
#include "base/unix_time.h"
#include "domain/forecast/special_day.h"
#include "store/site_store.h"

namespace atoms::forecast {

// Every stored mark.
Result<SpecialDays> loadSpecialDays(Database& db);

Status markSpecialDay(SiteStore& store, const SpecialDay& day, const std::string& actor,
                      TimePoint now);
// Returns whether there was a mark to remove (none: nothing written).
Result<bool> unmarkSpecialDay(SiteStore& store, std::chrono::local_days day,
                              const std::string& actor, TimePoint now);

}  // namespace atoms::forecast
