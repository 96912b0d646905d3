// What a request means for the site's data, pure over the site model: the time-off periods an
// approved time-off request adds (whole local days, or one part of each day), the weekly windows
// an approved availability change leaves, and the assigned shifts a request touches (shown to the
// manager; nobody is ever unassigned by a request).
//
// Availability windows (site_model.h): a person with none is taken as available at any time, so
// "can't do mornings" starts from the whole week. The windows written back never cross midnight
// (a night is split into its two days). Errors: a local time that does not exist or is ambiguous
// in the site's zone (time_zone.h), naming the date.
#pragma once

#include <chrono>
#include <vector>

#include "base/result.h"
#include "domain/requests/request_store.h"
#include "domain/site/site_model.h"
#include "domain/site/time_zone.h"

namespace atoms::requests {

// The local dates of a time-off row; error when its dates are not 'YYYY-MM-DD'.
Result<std::chrono::local_days> parseRequestDate(std::string_view date, std::int64_t id);
std::string formatRequestDate(std::chrono::local_days day);

// The periods an approved time-off request adds, in date order.
Result<std::vector<site::TimeOff>> timeOffPeriods(const RequestRow& row,
                                                  const site::TimeZone& zone);

// The person's weekly windows once an availability request is applied to `current`.
std::vector<site::AvailabilityWindow> availabilityAfter(
    const std::vector<site::AvailabilityWindow>& current, const RequestRow& row);

// The shifts assigned to the row's person that the request touches: time off, those overlapping
// its periods; availability, those starting from `now` that fall outside the new windows. In
// start order.
Result<std::vector<const site::Shift*>> touchedShifts(const site::SiteModel& model,
                                                      const RequestRow& row,
                                                      const site::TimeZone& zone,
                                                      site::Instant now);

}  // namespace atoms::requests
