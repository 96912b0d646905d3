#include "daemon/api/offers_resource.h"

#include "daemon/api/approval_json.h"
#include "domain/site/site_file.h"

namespace atoms::api {
namespace {

struct OfferTarget {
  std::string person;
  bool resume = false;
};

// "/v1/people/p-7/offers" or "/v1/people/p-7/offers/resume"; nullopt for anything else.
std::optional<OfferTarget> offerRoute(std::string_view path) {
  const std::string_view base = kPeoplePath;
  if (path.size() <= base.size() + 1 || path.substr(0, base.size()) != base ||
      path[base.size()] != '/') {
    return std::nullopt;
  }
  const std::string_view rest = path.substr(base.size() + 1);
  const std::size_t slash = rest.find('/');
  if (slash == std::string_view::npos) return std::nullopt;
  const std::string person(rest.substr(0, slash));
  if (!site::isValidId(person)) return std::nullopt;
  const std::string_view tail = rest.substr(slash);
  if (tail == "/offers") return OfferTarget{person, false};
  if (tail == "/offers/resume") return OfferTarget{person, true};
  return std::nullopt;
}

json::Value offersJson(const std::string& person, const OffersPauseState& state) {
  return json::Object{{"person", person},
                      {"paused", state.paused},
                      {"since", state.since.empty() ? json::Value() : json::Value(state.since)}};
}

}  // namespace

std::vector<std::string> OffersResource::methods(std::string_view path) const {
  const std::optional<OfferTarget> target = offerRoute(path);
  if (!target) return {};
  if (target->resume) return {"POST"};
  return {"GET"};
}

ApiAnswer OffersResource::handle(const ApiRequest& request) {
  const std::optional<OfferTarget> target = offerRoute(request.path);
  if (!target) return apiRefusal(404, "not found", "no such path");
  auto roles = rolesOrRefusal(access_.roles, request.person);
  if (auto* refused = std::get_if<ApiAnswer>(&roles)) return *refused;
  const policy::PanelRoles& who = std::get<policy::PanelRoles>(roles);
  auto subject = access_.subject(target->person);
  if (!subject) return apiStoreFailed("read the site", subject.error());
  if (!*subject) {
    return apiRefusal(404, "no person " + target->person + " on this site", "no such person");
  }
  const bool mayAct = who.owner || request.person == target->person ||
                      request.person == (*subject)->managerOfRecord;
  if (!mayAct) {
    return apiRefusal(403,
                      "only the person, their manager of record or an owner of the site sees or "
                      "clears their paused offers",
                      "not the person, their manager of record or an owner");
  }
  if (target->resume) {
    auto body = parseBodyObject(request.body);
    if (!body) return apiRefusal(400, body.message(), body.message());
    if (!body->empty()) return apiRefusal(400, "the body must be {}", "the body must be {}");
    auto resumed = access_.resume(target->person, **subject, "panel:" + request.person);
    if (!resumed) return apiStoreFailed("resume the offers", resumed.error());
    auto state = access_.state(**subject);
    if (!state) return apiStoreFailed("read the offers", state.error());
    const bool self = request.person == target->person;
    std::string message =
        self ? "Your shift offers were not paused." : "Their offers were not paused.";
    if (*resumed) {
      message = self ? "Shift offers are on again for you."
                     : "Shift offers are on again for them. They are not texted about it: please "
                       "let them know, and that they can reply STOP at any time.";
    }
    return apiOk(json::Object{{"outcome", *resumed ? "resumed" : "unchanged"},
                              {"message", std::move(message)},
                              {"offers", offersJson(target->person, *state)}});
  }
  auto state = access_.state(**subject);
  if (!state) return apiStoreFailed("read the offers", state.error());
  return apiOk(offersJson(target->person, *state));
}

}  // namespace atoms::api
