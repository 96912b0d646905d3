#include "daemon/service/forecast_config.h"

#include "base/file_io.h"
#include "daemon/service/config_schema.h"
#include "domain/forecast/labor_standards_text.h"

namespace atoms {

Result<forecast::SiteForecastSettings> forecastSettings(
    const Poco::Util::AbstractConfiguration& config) {
  forecast::SiteForecastSettings out;
  const std::string file = configString(config, "forecast.standards_file");
  if (!file.empty()) {
    auto text = readFileToString(file);
    if (!text) return makeError("forecast.standards_file: " + text.message(), ErrorKind::kInvalid);
    auto standards = forecast::parseLaborStandards(*text, file);
    if (!standards) return standards.error();
    out.standards = std::move(*standards);
  }
  forecast::IntradaySettings& i = out.intraday;
  i.windowMinutes = static_cast<int>(configInteger(config, "intraday.window_minutes"));
  i.surgeRatio = static_cast<double>(configInteger(config, "intraday.surge_percent")) / 100.0;
  i.slowRatio = static_cast<double>(configInteger(config, "intraday.slow_percent")) / 100.0;
  i.minimumGapCents = configInteger(config, "intraday.min_gap_cents");
  i.minimumGapCount = configInteger(config, "intraday.min_gap_count");
  if (Status valid = forecast::validateIntradaySettings(i); !valid) return valid.error();
  return out;
}

}  // namespace atoms
