#include "domain/labor/pay.h"

namespace atoms::labor {

Decimal parseDecimal(std::string_view text) {
  Decimal d{0, 1};
  bool fraction = false;
  for (char c : text) {
    if (c == '.') {
      fraction = true;
      continue;
    }
    if (c < '0' || c > '9') return Decimal{};
    d.num = d.num * 10 + (c - '0');
    if (fraction) d.den *= 10;
  }
  return d;
}

std::int64_t payCents(site::Seconds worked, std::int64_t hourlyRateCents, Decimal factor) {
  const std::int64_t numerator = worked.count() * hourlyRateCents * factor.num;
  const std::int64_t denominator = 3600 * factor.den;
  return (numerator * 2 + denominator) / (denominator * 2);
}

Decimal extraRate(Decimal rate) {
  return rate.num > rate.den ? Decimal{rate.num - rate.den, rate.den} : Decimal{0, 1};
}

PremiumAmount premiumFor(const Pay& pay, std::int64_t occurrences, site::Seconds affected,
                         std::int64_t hourlyRateCents, AffectedHours affectedHours) {
  PremiumAmount out;
  switch (pay.unit) {
    case PayUnit::kCents:
      out.cents = pay.cents * occurrences;
      break;
    case PayUnit::kHoursOfPay: {
      const Decimal hours = parseDecimal(pay.amount);
      const site::Seconds paid{3600 * occurrences};
      out.minutes = 60 * occurrences * hours.num / hours.den;
      out.cents = payCents(paid, hourlyRateCents, hours);
      break;
    }
    case PayUnit::kRateOfAffectedHours: {
      const Decimal rate = parseDecimal(pay.amount);
      out.minutes = affected.count() / 60;
      out.cents = payCents(affected, hourlyRateCents, rate);
      out.extraCents = affectedHours == AffectedHours::kWorked
                           ? payCents(affected, hourlyRateCents, extraRate(rate))
                           : out.cents;
      return out;
    }
  }
  out.extraCents = out.cents;
  return out;
}

std::string formatCents(std::int64_t cents) {
  const std::int64_t magnitude = cents < 0 ? -cents : cents;
  const std::int64_t fraction = magnitude % 100;
  return std::string(cents < 0 ? "-$" : "$") + std::to_string(magnitude / 100) + "." +
         (fraction < 10 ? "0" : "") + std::to_string(fraction);
}

}  // namespace atoms::labor
