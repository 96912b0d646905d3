#include "daemon/api/callouts_resource.h"

#include <optional>
#include <utility>

#include "daemon/api/callout_json.h"
#include "domain/callout/callout_store.h"
#include "store/audit_entry.h"

namespace atoms::api {
namespace {

// The id of "/v1/callouts/{id}"; nullopt for the list and anything else.
std::optional<std::int64_t> calloutIdOf(std::string_view path) {
  const std::string_view base = kCalloutsPath;
  if (!path.starts_with(base) || path.size() <= base.size() + 1 || path[base.size()] != '/') {
    return std::nullopt;
  }
  return parseIdSegment(path.substr(base.size() + 1));
}

// What the page shows of a receipt: the decision, not the whole signed record (`verify` and the
// Audit page have that).
// The people of a receipt's list ("offered", "notOffered": objects with a "person" id), each with
// their name beside it.
json::Value withNames(const json::Value& list, const PeopleNames& names) {
  if (!list.isArray()) return list;
  json::Array out;
  for (const json::Value& item : list.asArray()) {
    json::Value named = item;
    if (named.isObject()) {
      json::Object& o = named.asObject();
      const auto person = o.find("person");
      if (person != o.end() && person->second.isString()) {
        o["person"] = personRef(names, person->second.asString());
      }
    }
    out.push_back(std::move(named));
  }
  return out;
}

Result<json::Value> receiptSummary(const AuditLog& log, std::uint64_t seq,
                                   const PeopleNames& names) {
  auto text = log.entryText(seq);
  if (!text) return text.error();
  auto entry = parseEntry(*text);
  if (!entry) return entry.error();
  const json::Object& body = entry->body.asObject();
  json::Object out{{"seq", static_cast<std::int64_t>(seq)}, {"ts", entry->ts}};
  for (const char* name : {"action", "outcome", "rationale", "offered", "notOffered"}) {
    const auto it = body.find(name);
    out[name] = it == body.end() ? json::Value() : it->second;
  }
  out["offered"] = withNames(out["offered"], names);
  out["notOffered"] = withNames(out["notOffered"], names);
  return json::Value(std::move(out));
}

Result<json::Value> oneCallout(SiteStore& store, const callout::CalloutRow& c,
                               const PeopleNames& names, bool withReceipts) {
  callout::CalloutStore rows(store.db());
  auto offers = rows.offers(c.id);
  if (!offers) return offers.error();
  json::Value out = calloutJson(c, *offers, names);
  if (!withReceipts) {
    out.asObject()["receipts"] = json::Value();
    return out;
  }
  auto seqs = rows.receiptsOf(c.id);
  if (!seqs) return seqs.error();
  json::Array receipts;
  for (std::uint64_t seq : *seqs) {
    auto summary = receiptSummary(store.log(), seq, names);
    if (!summary) return summary.error();
    receipts.push_back(std::move(*summary));
  }
  out.asObject()["receipts"] = std::move(receipts);
  return out;
}

}  // namespace

std::vector<std::string> CalloutsResource::methods(std::string_view path) const {
  if (path == kCalloutsPath || calloutIdOf(path)) return {"GET"};
  return {};
}

ApiAnswer CalloutsResource::handle(const ApiRequest& request) {
  auto found = rolesOrRefusal(access_.roles, request.person);
  if (auto* refused = std::get_if<ApiAnswer>(&found)) return *refused;
  const policy::PanelRoles& who = std::get<policy::PanelRoles>(found);
  SiteStore& store = access_.store();
  auto names = peopleNames(store.db());
  if (!names) return apiStoreFailed("read the site", names.error());
  callout::CalloutStore rows(store.db());

  if (const std::optional<std::int64_t> id = calloutIdOf(request.path)) {
    auto c = rows.callout(*id);
    if (!c) return apiStoreFailed("read the call-out", c.error());
    if (!*c) {
      const std::string name = "call-out " + std::to_string(*id);
      return apiRefusal(404, "no " + name, "no " + name);
    }
    auto one = oneCallout(store, **c, *names, who.owner || who.managerOfRecord);
    if (!one) return apiStoreFailed("read the call-out", one.error());
    return apiOk(*one);
  }
  auto open = rows.openCallouts();
  if (!open) return apiStoreFailed("read the call-outs", open.error());
  auto recent = rows.closedCallouts(kRecentCallouts);
  if (!recent) return apiStoreFailed("read the call-outs", recent.error());
  auto openJson = calloutsJson(rows, *open, *names);
  auto recentJson = calloutsJson(rows, *recent, *names);
  if (!openJson || !recentJson) {
    return apiStoreFailed("read the offers", !openJson ? openJson.error() : recentJson.error());
  }
  return apiOk(json::Object{{"open", std::move(*openJson)}, {"recent", std::move(*recentJson)}});
}

}  // namespace atoms::api
