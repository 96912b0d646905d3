// The labor standards file (forecast.standards_file, docs/forecast.md "Labor standards"): one
// station a line, whitespace between the columns, '#' starts a comment:
//   # station driver   per_head period min max opens closes [revenue centers...]
//   floor     covers   16       60     1   6   11:00 22:00
//   bar       net_sales 40000   60     1   3   16:00 24:00 bar
// driver: covers, transactions or net_sales (per_head then in cents); max 0: no cap; no revenue
// center: all of them. Errors (kInvalid) name the source, the line and the column; the values
// are then checked as requiredHeads checks them. Pure.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"
#include "domain/forecast/staffing.h"

namespace atoms::forecast {

Result<std::vector<LaborStandard>> parseLaborStandards(std::string_view text,
                                                       const std::string& source);

}  // namespace atoms::forecast
