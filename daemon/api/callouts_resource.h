// CalloutsResource: the call-outs in the JSON API (docs/api.md, "Call-outs"), for the panel's
// Call-outs page:
//   GET /v1/callouts        {"open":[...], "recent":[...]}: the open ones, oldest first, and
//                           up to kRecentCallouts closed ones, newest first (callout_json.h)
//   GET /v1/callouts/{id}   one, with "receipts": the signed receipt of each decision, oldest
//                           first: {"seq","ts","action","outcome","rationale","offered",
//                           "notOffered"}: who was offered and who was not and why (each
//                           "person" there as {"id","name"})
// Anyone of the site reads the call-outs and their offers (a lead runs the floor with them); the
// receipts, which say why a person was not offered a shift, are for the owners and managers of
// record: others get "receipts": null. 403 for a caller not on the site, 404 for an unknown id.
//
// Threading: as ApiResource; the store is used on the writer.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "daemon/api/api_resource.h"
#include "store/site_store.h"

namespace atoms::api {

inline constexpr char kCalloutsPath[] = "/v1/callouts";
inline constexpr std::size_t kRecentCallouts = 50;

struct CalloutsAccess {
  RolesLookup roles;
  std::function<SiteStore&()> store;
};

class CalloutsResource final : public ApiResource {
 public:
  explicit CalloutsResource(CalloutsAccess access) : access_(std::move(access)) {}
  std::vector<std::string> methods(std::string_view path) const override;
  ApiAnswer handle(const ApiRequest& request) override;

 private:
  CalloutsAccess access_;
};

}  // namespace atoms::api
