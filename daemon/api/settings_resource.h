// SettingsResource: the panel's Settings page, read-only (docs/api.md, "Settings"):
//   GET /v1/settings  {"sms":{"driver","connection"},"sync":{"brokerConfigured","logSize",
//                      "ackedSize","backlog"},"terminals":{"on","ids"},
//                      "apiTokens":{"on","people"},"pos":{"on","fresh","staleSince","reason",
//                      "sources":[...]} (pos_health_json.h),"panelAccounts":[{"person","role",
//                      "state","lastSignInAt"}]}
// "connection" is the SMS driver's connection breaker (BRK-CONN-<driver>, site_breakers.h) or
// null; terminal and token lists carry ids only, never a token or its hash. "lastSignInAt" is the
// newest live session's start (null when the person has none). For owners and managers of
// record; 403 for anyone else. Changing any of it is done on the box's command line
// (atoms-edge panel invite, the tokens files; docs/panel.md "Settings").
//
// Threading: as ApiResource; every access function runs on the writer.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "daemon/api/api_resource.h"
#include "store/site_store.h"

namespace atoms::api {

inline constexpr char kSettingsPath[] = "/v1/settings";

struct SettingsAccess {
  RolesLookup roles;
  std::function<SiteStore&()> store;
  std::vector<std::string> owners;  // policy.owners
  std::string smsDriver;            // sms.driver
  bool syncConfigured = false;      // sync.broker is set
  // The SMS connection's breaker as JSON (BreakerView::toJson), or null; null function: null.
  std::function<json::Value()> smsConnection;
  // The ids in the terminals' and the API's tokens files (read on each request); an empty
  // function: that front door is off.
  std::function<Result<std::vector<std::string>>()> terminalIds;
  std::function<Result<std::vector<std::string>>()> apiTokenPeople;
  // The POS health (posHealthJson); an empty function: {"on":false}.
  std::function<json::Value()> pos;
};

class SettingsResource final : public ApiResource {
 public:
  explicit SettingsResource(SettingsAccess access) : access_(std::move(access)) {}
  std::vector<std::string> methods(std::string_view path) const override;
  ApiAnswer handle(const ApiRequest& request) override;

 private:
  SettingsAccess access_;
};

}  // namespace atoms::api
