#include "daemon/api/packets_resource.h"

#include "daemon/api/approval_json.h"
#include "domain/site/site_file.h"
#include "drivers/http/printable.h"

namespace atoms::api {
namespace {

using drivers::printable;

enum class PacketRoute { kList, kOne, kClose, kRequest };

struct PacketTarget {
  PacketRoute route = PacketRoute::kList;
  std::int64_t id = 0;
};

std::optional<PacketTarget> packetRoute(std::string_view path) {
  if (path == kRequestsPath) return PacketTarget{PacketRoute::kRequest, 0};
  const std::string_view base = kPacketsPath;
  if (path == base) return PacketTarget{PacketRoute::kList, 0};
  if (path.size() <= base.size() + 1 || path.substr(0, base.size()) != base ||
      path[base.size()] != '/') {
    return std::nullopt;
  }
  const std::string_view rest = path.substr(base.size() + 1);
  const std::size_t slash = rest.find('/');
  const std::optional<std::int64_t> id = parseIdSegment(rest.substr(0, slash));
  if (!id) return std::nullopt;
  if (slash == std::string_view::npos) return PacketTarget{PacketRoute::kOne, *id};
  if (rest.substr(slash) == "/close") return PacketTarget{PacketRoute::kClose, *id};
  return std::nullopt;
}

bool validKind(std::string_view s) {
  if (s.empty() || s.size() > 64) return false;
  for (char c : s) {
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' || c == '_')) return false;
  }
  return true;
}

}  // namespace

Result<policy::ActionAsk> parseActionAsk(std::string_view body) {
  auto object = parseBodyObject(body);
  if (!object) return object.error();
  policy::ActionAsk ask;
  for (const auto& [key, value] : *object) {
    if (key != "kind" && key != "subject" && key != "reason") {
      return makeError("unknown field '" + printable(key) + "'");
    }
    if (!value.isString()) return makeError(key + ": not a string");
    const std::string& text = value.asString();
    if (key == "kind") {
      if (!validKind(text)) return makeError("kind: expected an action kind like shift.cancel");
      ask.kind = text;
    } else if (key == "subject") {
      if (!site::isValidId(text)) return makeError("subject: expected a person id");
      ask.subject = text;
    } else {
      if (auto problem = freeTextProblem("reason", text, kMaxFreeTextBytes))
        return makeError(*problem);
      ask.reason = text;
    }
  }
  if (ask.kind.empty()) return makeError("kind: missing");
  if (ask.reason.find_first_not_of(' ') == std::string::npos) {
    return makeError("reason: missing (say why, it goes on record)");
  }
  return ask;
}

Result<std::string> parseCloseNote(std::string_view body) {
  auto object = parseBodyObject(body);
  if (!object) return object.error();
  std::string note;
  for (const auto& [key, value] : *object) {
    if (key != "note") return makeError("unknown field '" + printable(key) + "'");
    if (!value.isString()) return makeError("note: not a string");
    if (auto problem = freeTextProblem("note", value.asString(), kMaxFreeTextBytes)) {
      return makeError(*problem);
    }
    note = value.asString();
  }
  if (note.find_first_not_of(' ') == std::string::npos) {
    return makeError("note: missing (say what was done, it goes on record)");
  }
  return note;
}

std::vector<std::string> PacketsResource::methods(std::string_view path) const {
  const std::optional<PacketTarget> target = packetRoute(path);
  if (!target) return {};
  if (target->route == PacketRoute::kList || target->route == PacketRoute::kOne) return {"GET"};
  return {"POST"};
}

ApiAnswer PacketsResource::handle(const ApiRequest& request) {
  const std::optional<PacketTarget> target = packetRoute(request.path);
  if (!target) return apiRefusal(404, "not found", "no such path");
  auto roles = rolesOrRefusal(access_.roles, request.person);
  if (auto* refused = std::get_if<ApiAnswer>(&roles)) return *refused;
  const policy::PanelRoles& who = std::get<policy::PanelRoles>(roles);
  const bool mayAct = who.owner || who.managerOfRecord;
  switch (target->route) {
    case PacketRoute::kList: {
      auto packets = access_.list();
      if (!packets) return apiStoreFailed("read the packets", packets.error());
      json::Array out;
      for (const policy::Packet& p : *packets) out.push_back(p.toJson());
      return apiOk(json::Object{{"packets", std::move(out)}});
    }
    case PacketRoute::kOne: {
      auto packet = access_.find(target->id);
      if (!packet) return apiStoreFailed("read the packet", packet.error());
      const std::string name = "packet " + std::to_string(target->id);
      if (!*packet) return apiRefusal(404, "no " + name, "no " + name);
      return apiOk((*packet)->toJson());
    }
    case PacketRoute::kClose: {
      if (!mayAct) {
        return apiRefusal(403, "only an owner of the site or a manager of record closes a packet",
                          "not an owner or manager of record");
      }
      auto note = parseCloseNote(request.body);
      if (!note) return apiRefusal(400, note.message(), note.message());
      auto closed = access_.close(target->id, request.person, *note);
      if (!closed) return apiRefusal(409, closed.message(), closed.message());
      return apiOk(json::Object{{"outcome", "closed"}, {"packet", closed->toJson()}});
    }
    case PacketRoute::kRequest: {
      if (!mayAct) {
        return apiRefusal(403, "only an owner of the site or a manager of record asks the box",
                          "not an owner or manager of record");
      }
      auto ask = parseActionAsk(request.body);
      if (!ask) return apiRefusal(400, ask.message(), ask.message());
      ask->person = request.person;
      if (!ask->subject.empty()) {
        auto subject = access_.roles(ask->subject);
        if (!subject) return apiStoreFailed("read the site", subject.error());
        if (!*subject) {
          const std::string error = "subject: " + ask->subject + " is not a person of this site";
          return apiRefusal(400, error, error);
        }
      }
      auto result = access_.ask(*ask);
      if (!result) return apiStoreFailed("record the request", result.error());
      json::Object body{{"request", result->request},
                        {"message", result->message},
                        {"decision", result->decision.toJson()}};
      if (result->outcome == policy::AskOutcome::kPacket) {
        body["outcome"] = "human_packet";
        if (result->packet) body["packet"] = result->packet->toJson();
        return {202, json::canonical(body), "", true};  // audited: request.decided
      }
      body["outcome"] =
          result->outcome == policy::AskOutcome::kRefused ? "refused" : "not_carried_out";
      body["error"] = result->message;
      return {409, json::canonical(body),
              "request " + std::to_string(result->request) + ": " +
                  std::string(body["outcome"].asString()),
              true};
    }
  }
  return apiRefusal(404, "not found", "no such path");
}

}  // namespace atoms::api
