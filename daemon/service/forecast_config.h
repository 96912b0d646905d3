// The forecast's configuration in `serve` (docs/forecast.md, docs/configuration.md):
// forecast.standards_file (the labor standards, labor_standards_text.h) and intraday.* (the
// thresholds of intraday_watch.h). Errors name the key or the file's line. Main thread.
#pragma once

#include <Poco/Util/AbstractConfiguration.h>

#include "base/result.h"
#include "domain/forecast/site_forecast.h"

namespace atoms {

Result<forecast::SiteForecastSettings> forecastSettings(
    const Poco::Util::AbstractConfiguration& config);

}  // namespace atoms
