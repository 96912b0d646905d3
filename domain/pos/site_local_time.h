// A site-local wall-clock time as POS exports write it ("2026-11-30 11:05", "2026-11-30 11:05:30",
// "2026-11-30T11:05:30"), read in the site's zone: what the CSV drop folder's mapping uses for a
// time without an offset (drivers/pos/csv_orders.h CsvMapping::localTime). nullopt for another
// shape, an impossible date, or a time that does not exist or is ambiguous in the zone (the DST
// gap and the repeated hour: such an export cannot say which it means). Pure; thread-safe.
#pragma once

#include <optional>
#include <string_view>

#include "domain/site/time_zone.h"
#include "drivers/pos/pos_order.h"

namespace atoms::pos {

std::optional<drivers::pos::PosTime> parseSiteLocalTime(std::string_view text,
                                                        const site::TimeZone& zone);

}  // namespace atoms::pos
