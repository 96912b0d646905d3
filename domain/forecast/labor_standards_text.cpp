#include "domain/forecast/labor_standards_text.h"

#include <charconv>
#include <sstream>

namespace atoms::forecast {
namespace {

std::optional<int> clockMinute(const std::string& text) {
  if (text.size() != 5 || text[2] != ':') return std::nullopt;
  int h = 0;
  int m = 0;
  if (std::from_chars(text.data(), text.data() + 2, h).ec != std::errc() ||
      std::from_chars(text.data() + 3, text.data() + 5, m).ec != std::errc()) {
    return std::nullopt;
  }
  if (h < 0 || m < 0 || m > 59 || h * 60 + m > 24 * 60) return std::nullopt;
  return h * 60 + m;
}

std::optional<double> standardsNumber(const std::string& text) {
  double v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return v;
}

// A whole number (minutes, people): "1.5" and "1e12" are refused, not truncated.
std::optional<int> standardsWhole(const std::string& text) {
  int v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return v;
}

}  // namespace

Result<std::vector<LaborStandard>> parseLaborStandards(std::string_view text,
                                                       const std::string& source) {
  std::vector<LaborStandard> out;
  std::istringstream lines{std::string(text)};
  std::string line;
  int lineNo = 0;
  while (std::getline(lines, line)) {
    ++lineNo;
    if (const std::size_t hash = line.find('#'); hash != std::string::npos) line.resize(hash);
    std::istringstream words(line);
    std::vector<std::string> w;
    for (std::string word; words >> word;) w.push_back(word);
    if (w.empty()) continue;
    const std::string where = source + " line " + std::to_string(lineNo) + ": ";
    const auto fail = [&](const std::string& what) {
      return makeError(where + what, ErrorKind::kInvalid);
    };
    if (w.size() < 8) {
      return fail("expected station, driver, per_head, period, min, max, opens, closes");
    }
    LaborStandard s;
    s.station = w[0];
    if (w[1] == "covers") {
      s.driver = Measure::kCovers;
    } else if (w[1] == "transactions") {
      s.driver = Measure::kTransactions;
    } else if (w[1] == "net_sales") {
      s.driver = Measure::kNetSales;
    } else {
      return fail("driver '" + w[1] + "' is not covers, transactions or net_sales");
    }
    const auto perHead = standardsNumber(w[2]);
    const auto period = standardsWhole(w[3]);
    const auto minimum = standardsWhole(w[4]);
    const auto maximum = standardsWhole(w[5]);
    if (!perHead) return fail("per_head '" + w[2] + "' is not a number");
    if (!period) return fail("period '" + w[3] + "' is not a whole number of minutes");
    if (!minimum) return fail("min '" + w[4] + "' is not a whole number of people");
    if (!maximum) return fail("max '" + w[5] + "' is not a whole number of people");
    const auto opens = clockMinute(w[6]);
    const auto closes = clockMinute(w[7]);
    if (!opens) return fail("opens '" + w[6] + "' is not HH:MM");
    if (!closes) return fail("closes '" + w[7] + "' is not HH:MM");
    s.unitsPerHead = *perHead;
    s.periodMinutes = *period;
    s.minimumHeads = *minimum;
    s.maximumHeads = *maximum;
    s.opensMinute = *opens;
    s.closesMinute = *closes;
    s.revenueCenters.assign(w.begin() + 8, w.end());
    if (Status valid = validateLaborStandard(s); !valid) return fail(valid.message());
    out.push_back(std::move(s));
  }
  return out;
}

}  // namespace atoms::forecast
