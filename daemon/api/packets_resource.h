// PacketsResource: HUMAN_ONLY packets and people's requests in the JSON API (docs/api.md,
// "Packets and requests"; issue 7 item 1), on the approvals API's port with its tokens
// (api_resource.h):
//   GET  /v1/packets               open packets oldest first, then the recently closed ones
//   GET  /v1/packets/{id}
//   POST /v1/packets/{id}/close    {"note":"what was done"}   an owner or a manager of record
//   POST /v1/requests              {"kind":"schedule.reduce_hours","subject":"p-jamal",
//                                   "reason":"..."}            an owner or a manager of record
// A request is decided by the policy gate (domain/policy/action_requests.h): a HUMAN_ONLY outcome
// (RISK-08 included, with the pattern named) answers 202 with the packet opened; anything else is
// refused with 409 and the reason (the kill switch, or a kind the box does not carry out from a
// request), the ask on record either way. Reading is for anyone of the site.
//
// Threading: as ApiResource; the access functions run on the writer.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "base/result.h"
#include "daemon/api/api_resource.h"
#include "domain/policy/action_requests.h"
#include "domain/policy/packet_book.h"
#include "domain/policy/panel_kill_switch.h"

namespace atoms::api {

inline constexpr char kPacketsPath[] = "/v1/packets";
inline constexpr char kRequestsPath[] = "/v1/requests";

// {"kind":"...","subject":"p-7","reason":"..."} (subject optional): strict JSON. The kind is
// lowercase dotted (1..64), the subject a person id; errors name the field. `person` is not set.
Result<policy::ActionAsk> parseActionAsk(std::string_view body);
// {"note":"..."}: 1..500 bytes without control characters.
Result<std::string> parseCloseNote(std::string_view body);

struct PacketsAccess {
  RolesLookup roles;
  std::function<Result<std::vector<policy::Packet>>()> list;
  std::function<Result<std::optional<policy::Packet>>(std::int64_t id)> find;
  // Errors: the book's refusal (unknown, closed already) as a message; the caller answers 409.
  std::function<Result<policy::Packet>(std::int64_t id, const std::string& person,
                                       const std::string& note)>
      close;
  // Errors: the store's. (The subject is checked with `roles` first.)
  std::function<Result<policy::AskResult>(const policy::ActionAsk& ask)> ask;
};

class PacketsResource final : public ApiResource {
 public:
  explicit PacketsResource(PacketsAccess access) : access_(std::move(access)) {}
  std::vector<std::string> methods(std::string_view path) const override;
  ApiAnswer handle(const ApiRequest& request) override;

 private:
  PacketsAccess access_;
};

}  // namespace atoms::api
