// Shared helpers of the site tests: the demo site file and a small valid site to mutate.
#pragma once

#include <boost/test/unit_test.hpp>
#include <chrono>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>

#include "base/canonical_json.h"
#include "domain/site/site_file.h"
#include "tests/support/build_paths.h"

namespace atoms::site::testing {

inline std::string demoSitePath() {
  return atoms::testing::sourceDir() + "/etc/sites/demo-site.json";
}

inline std::string readText(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// The smallest site that exercises every reference: two stations (one with a minimum age), two
// people, one shift.
inline constexpr const char* kSmallSite = R"({
  "version": 1,
  "site": {"id": "t-site", "timeZone": "America/Los_Angeles", "jurisdictions": ["us", "us-ca"], "industry": "retail"},
  "certifications": [{"id": "fh", "name": "Food handler card"}],
  "stations": [{"id": "line", "name": "Line", "requiredCertifications": ["fh"]},
               {"id": "bar", "name": "Bar", "minimumAge": 21}],
  "people": [{"id": "p-a", "name": "Avery", "phone": "+14155550100", "roles": ["line"],
              "certifications": [{"id": "fh", "expires": "2027-01-31"}]},
             {"id": "p-ana", "name": "Ana", "phone": "+14155550101", "roles": ["line"]}],
  "shifts": [{"id": "s-1", "station": "line", "start": "2026-06-01T10:00", "end": "2026-06-01T16:00",
              "assignee": "p-a"}]
})";

// Parses kSmallSite after `mutate` changed its JSON.
inline Result<SiteModel> parseMutated(const std::function<void(json::Object&)>& mutate) {
  json::Value v = json::parse(kSmallSite).value();
  mutate(v.asObject());
  return parseSiteFile(json::canonical(v));
}

// The message of parseMutated(mutate), which must fail.
inline std::string errorOf(const std::function<void(json::Object&)>& mutate) {
  auto r = parseMutated(mutate);
  BOOST_REQUIRE_MESSAGE(!r.ok(), "expected the site file to be rejected");
  return r.message();
}

// The instant of a UTC wall-clock time.
inline Instant utc(int y, unsigned mo, unsigned d, int h, int mi) {
  using namespace std::chrono;
  return sys_days{year{y} / month{mo} / day{d}} + hours{h} + minutes{mi};
}

inline json::Object& at(json::Object& o, const char* section, std::size_t i) {
  return o[section].asArray()[i].asObject();
}

}  // namespace atoms::site::testing
