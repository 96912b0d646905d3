// OffersResource: a person's paused shift offers in the JSON API (docs/api.md, "Paused offers";
// seed 001 EC-RISK-005: a stop-like reply pauses offers "until the person or MoR clears it"), on
// the approvals API's port with its tokens (api_resource.h):
//   GET  /v1/people/{id}/offers          {"person","paused","since"}
//   POST /v1/people/{id}/offers/resume   {}: the person themselves, their manager of record or an
//                                         owner of the site; 200 {"outcome":"resumed"|"unchanged",
//                                         "message","offers":{...}}
// Reading is for the same people. The person is not texted about it (whoever clears it for them
// is asked to tell them). A refusal is 403 with why; an unknown person 404; a body other than {}
// 400.
//
// Threading: as ApiResource; the access functions run on the writer.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "base/result.h"
#include "daemon/api/api_resource.h"

namespace atoms::api {

inline constexpr char kPeoplePath[] = "/v1/people";

// Who a person is, for the decision of who may see and clear their pause.
struct OffersSubject {
  std::string phone;
  std::string managerOfRecord;  // their manager of record's id, empty when none
};

struct OffersPauseState {
  bool paused = false;
  std::string since;  // the audit timestamp form; empty when not paused
};

struct OffersAccess {
  RolesLookup roles;
  // nullopt: not a person of the site.
  std::function<Result<std::optional<OffersSubject>>(const std::string& person)> subject;
  std::function<Result<OffersPauseState>(const OffersSubject& subject)> state;
  // Clears the pause, audited (sms.offers_resumed) by `actor`; false when there was none.
  std::function<Result<bool>(const std::string& person, const OffersSubject& subject,
                             const std::string& actor)>
      resume;
};

class OffersResource final : public ApiResource {
 public:
  explicit OffersResource(OffersAccess access) : access_(std::move(access)) {}
  std::vector<std::string> methods(std::string_view path) const override;
  ApiAnswer handle(const ApiRequest& request) override;

 private:
  OffersAccess access_;
};

}  // namespace atoms::api
