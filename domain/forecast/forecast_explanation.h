// One forecast interval in words, for the panel and the CLI: what the number is made of.
//   "Friday 19:00-19:15: 412.00 net sales = an ordinary day 6100.00 x Friday 1.31 x 5.2% of the
//    day x trend 0.99", and "x special day 1.50 (street fair x1.5)" on a marked day.
// Net sales are shown in currency units (cents / 100) without a symbol; counts with one decimal.
#pragma once

#include <string>

#include "domain/forecast/demand_forecast.h"

namespace atoms::forecast {

// `slot` is the interval's index in the day (0 = midnight). Precondition: 0 <= slot <
// kIntervalsPerDay and day.intervals holds the day's intervals.
std::string explainInterval(const DayForecast& day, int slot, Measure measure);

}  // namespace atoms::forecast
