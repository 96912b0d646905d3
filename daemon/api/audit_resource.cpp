#include "daemon/api/audit_resource.h"

#include <charconv>
#include <map>
#include <optional>
#include <utility>

#include "base/bytes.h"
#include "daemon/api/approval_json.h"
#include "drivers/http/printable.h"
#include "store/audit_entry.h"
#include "store/checkpoint.h"
#include "store/log_verifier.h"
#include "store/signed_note.h"
#include "sync/segment.h"

namespace atoms::api {
namespace {

const std::string kAuditEntriesPath = std::string(kAuditPath) + "/entries";
const std::string kAuditSegmentsPath = std::string(kAuditPath) + "/segments";
const std::string kAuditVerifyPath = std::string(kAuditPath) + "/verify";

// "a=1&b=2" with only `names`, each a whole number; or the line saying what is wrong.
Result<std::map<std::string, std::uint64_t>> auditQuery(std::string_view query,
                                                        const std::vector<std::string>& names) {
  auto params = queryParameters(query, names);
  if (!params) return params.error();
  std::map<std::string, std::uint64_t> out;
  for (const auto& [name, text] : *params) {
    std::uint64_t value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (text.empty() || ec != std::errc() || end != text.data() + text.size()) {
      return makeError("query: " + name + " takes a whole number");
    }
    out[name] = value;
  }
  return out;
}

ApiAnswer auditSummary(SiteStore& store) {
  AuditLog& log = store.log();
  json::Value checkpoint;
  if (log.signedSize() > 0) {
    auto note = log.checkpointAt(log.signedSize());
    if (!note) return apiStoreFailed("read the checkpoint", note.error());
    checkpoint = *note;
  }
  return apiOk(json::Object{{"size", static_cast<std::int64_t>(log.size())},
                            {"signedSize", static_cast<std::int64_t>(log.signedSize())},
                            {"origin", log.origin()},
                            {"verifierKey", log.verifierKey().toString()},
                            {"checkpoint", std::move(checkpoint)}});
}

ApiAnswer auditEntries(SiteStore& store, const std::string& query) {
  auto q = auditQuery(query, {"before"});
  if (!q) return apiRefusal(400, q.message(), q.message());
  const AuditLog& log = store.log();
  const std::uint64_t before =
      q->count("before") ? std::min(q->at("before"), log.size()) : log.size();
  const std::uint64_t from = before > kAuditPage ? before - kAuditPage : 0;
  auto texts = log.entryTexts(from, before);
  if (!texts) return apiStoreFailed("read the audit log", texts.error());
  json::Array entries;
  for (auto it = texts->rbegin(); it != texts->rend(); ++it) {
    auto entry = parseEntry(*it);
    if (!entry) return apiStoreFailed("read the audit log", entry.error());
    entries.push_back(json::Object{{"seq", static_cast<std::int64_t>(entry->seq)},
                                   {"ts", entry->ts},
                                   {"kind", entry->kind},
                                   {"actor", entry->actor},
                                   {"body", entry->body}});
  }
  return apiOk(json::Object{
      {"entries", std::move(entries)},
      {"next", from == 0 ? json::Value() : json::Value(static_cast<std::int64_t>(from))}});
}

ApiAnswer auditSegments(SiteStore& store, const std::string& query) {
  auto q = auditQuery(query, {"from", "to"});
  if (!q) return apiRefusal(400, q.message(), q.message());
  if (!q->count("from") || !q->count("to")) {
    return apiRefusal(400, "query: from and to are both needed", "segments without a range");
  }
  AuditLog& log = store.log();
  const std::uint64_t from = q->at("from");
  const std::uint64_t to = q->at("to");
  if (from >= to || to > log.signedSize() || to - from > kAuditSegmentSpan) {
    const std::string error = "query: expected from < to <= " + std::to_string(log.signedSize()) +
                              " (the signed size), at most " + std::to_string(kAuditSegmentSpan) +
                              " entries at once";
    return apiRefusal(400, error, error);
  }
  auto segments = buildSegments(log, from, to, 1024 * 1024);
  if (!segments) return apiStoreFailed("build the segments", segments.error());
  // Each segment's JSON as segmentJson writes it (canonical), not parsed and written again.
  std::string body = "{\"segments\":[";
  for (std::size_t i = 0; i < segments->size(); ++i) {
    body += (i == 0 ? "" : ",") + segmentJson((*segments)[i]);
  }
  return ApiAnswer{200, body + "]}", "", false};
}

}  // namespace

std::vector<std::string> AuditResource::methods(std::string_view path) const {
  if (path == kAuditPath || path == kAuditEntriesPath || path == kAuditSegmentsPath) {
    return {"GET"};
  }
  if (path == kAuditVerifyPath) return {"POST"};
  return {};
}

bool AuditResource::takesQuery(std::string_view path) const {
  return path == kAuditEntriesPath || path == kAuditSegmentsPath;
}

bool AuditResource::onWriter(std::string_view path) const { return path != kAuditVerifyPath; }

std::optional<ApiAnswer> AuditResource::admit(const ApiRequest& request) {
  auto found = rolesOrRefusal(access_.roles, request.person);
  if (auto* refused = std::get_if<ApiAnswer>(&found)) return *refused;
  const policy::PanelRoles& who = std::get<policy::PanelRoles>(found);
  if (!who.owner && !who.managerOfRecord) {
    return apiRefusal(403, "the audit log is for the owners and managers of record",
                      "audit log: not an owner or manager of record");
  }
  return std::nullopt;
}

ApiAnswer AuditResource::handle(const ApiRequest& request) {
  if (request.path == kAuditVerifyPath) return verify(request);
  if (auto refused = admit(request)) return *refused;
  SiteStore& store = access_.store();
  if (request.path == kAuditEntriesPath) return auditEntries(store, request.query);
  if (request.path == kAuditSegmentsPath) return auditSegments(store, request.query);
  return auditSummary(store);
}

ApiAnswer AuditResource::verify(const ApiRequest& request) {
  if (auto body = parseBodyObject(request.body); !body || !body->empty()) {
    return apiRefusal(400, "the body must be {}", "verify: a body other than {}");
  }
  auto state = openStateDir(access_.paths, OpenMode::ReadOnly);
  if (!state) return apiStoreFailed("open the audit log to check it", state.error());
  const SiteIdentity& id = state->identity;
  const VerifierKey key = VerifierKey::fromPublicKey(originForSite(id.siteId), id.publicKey);
  const VerifyReport report = verifyDatabase(state->db, key, id.siteId);
  return apiOk(
      json::Object{{"ok", report.ok()},
                   {"entries", static_cast<std::int64_t>(report.entries)},
                   {"checkpoints", static_cast<std::int64_t>(report.checkpoints)},
                   {"receipts", static_cast<std::int64_t>(report.receipts)},
                   {"root", toBase64(report.root)},
                   {"verifierKey", key.toString()},
                   {"problem", report.problem},
                   {"firstBadSeq", report.firstBadSeq
                                       ? json::Value(static_cast<std::int64_t>(*report.firstBadSeq))
                                       : json::Value()}});
}

}  // namespace atoms::api
