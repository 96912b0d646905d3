// Money for premiums: the tables' decimal rates ("1.5", "0.5") and the cents a Pay owes. Integer
// arithmetic only (no floats), rounded half up to a cent. Shared by every evaluation that costs a
// premium so the same rule is never costed two ways. Pure functions.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "domain/labor/rule_table.h"
#include "domain/site/time_zone.h"

namespace atoms::labor {

// A decimal string of the tables as num/den; the loader validated the form. "1.5" -> 15/10.
struct Decimal {
  std::int64_t num = 1;
  std::int64_t den = 1;
};
Decimal parseDecimal(std::string_view text);

// The pay for `worked` at `factor` times `hourlyRateCents`, rounded half up to a cent.
std::int64_t payCents(site::Seconds worked, std::int64_t hourlyRateCents, Decimal factor);

// The rate above the regular one: 1.5 -> 0.5; 0 for a rate of 1 or less.
Decimal extraRate(Decimal rate);

// What one premium of `pay` is worth, and the hours it is counted over.
struct PremiumAmount {
  std::int64_t minutes = 0;  // kHoursOfPay: amount hours; kRateOfAffectedHours: affected; else 0
  std::int64_t cents = 0;    // the pay owed under the rule
  // The part of `cents` that is more than the regular pay for the same hours: all of it for an
  // amount owed as such (cents, hours of pay, pay for hours not worked); for hours worked at a
  // rate (inside a short rest at 1.5 x), the 0.5 x above the pay they earn anyway.
  std::int64_t extraCents = 0;
};
// Whether the hours a kRateOfAffectedHours premium is counted on are worked (inside a short rest)
// or not (hours cut or cancelled).
enum class AffectedHours { kWorked, kNotWorked };
// `occurrences` premiums of `pay` (kCents and kHoursOfPay are owed per occurrence);
// kRateOfAffectedHours is owed on `affected`, the hours concerned (not multiplied).
PremiumAmount premiumFor(const Pay& pay, std::int64_t occurrences, site::Seconds affected,
                         std::int64_t hourlyRateCents,
                         AffectedHours hours = AffectedHours::kNotWorked);

// "$45.00", "-$3.05": for the sentences of findings (amounts stay integer cents everywhere else).
std::string formatCents(std::int64_t cents);

}  // namespace atoms::labor
