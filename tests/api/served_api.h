// ServedApi: `serve`'s whole wiring (EdgeServices) in-process on the system clock (or, given a
// start, on a SimulatedClock standing there: no timer fires by itself), with the demo site
// (etc/sites/demo-site.json) in a fresh state directory and the JSON API on a free loopback port;
// a token per person given. For tests of the API in serve's wiring.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/clock.h"
#include "daemon/service/edge_services.h"
#include "store/audit_entry.h"
#include "tests/support/temp_dir.h"
#include "tests/support/test_app.h"

namespace atoms::test {

struct ServedApi {
  // `tokens`: person id -> bearer token; `config`: more configuration keys (policy.owners...).
  ServedApi(const std::string& smsDriver, const std::map<std::string, std::string>& tokens,
            const std::map<std::string, std::string>& config = {},
            std::optional<TimePoint> simulatedStart = std::nullopt);
  ~ServedApi();

  std::uint16_t port();

  atoms::testing::TempDir tmp;
  std::string stateDir;
  std::unique_ptr<Clock> ownedClock;
  Clock& clock;
  std::unique_ptr<TestApp> app;
  std::unique_ptr<EdgeServices> services;
};

// The demo site with three people holding tokens, one per role (policy.owners = p-marco).
inline const std::string kManagerToken = "gm-token-1f5c2b8e407d3e9a";   // p-gm: everyone's MoR
inline const std::string kOwnerToken = "owner-token-9a1f5c2b8e407d3e";  // p-marco: an owner
inline const std::string kStaffToken = "staff-token-e407d3e9a1f5c2b8";  // p-jamal: neither

struct RolesSite : ServedApi {
  // `config`: more configuration keys; `simulatedStart`: as ServedApi's.
  explicit RolesSite(const std::map<std::string, std::string>& config = {},
                     std::optional<TimePoint> simulatedStart = std::nullopt);
  // The audit entries of `kind`, read on the engine thread.
  std::vector<Entry> entries(std::string_view kind);
};

}  // namespace atoms::test
