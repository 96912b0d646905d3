// AuditResource: the audit log in the JSON API (docs/api.md, "Audit"), for the panel's Audit
// page. For the owners and managers of record (403 for anyone else):
//   GET  /v1/audit                          {"size","signedSize","origin","verifierKey",
//                                            "checkpoint"}: the newest signed checkpoint (its
//                                            note text) and the key that verifies it
//   GET  /v1/audit/entries[?before=N]       {"entries":[{"seq","ts","kind","actor","body"}],
//                                            "next"}: up to kAuditPage entries before seq N (the
//                                            newest without it), newest first; "next" is the
//                                            `before` of the page after, null at the start
//   GET  /v1/audit/segments?from=A&to=B     {"segments":[...]}: the sync segments of [A, B)
//                                            (sync/segment.h, as `atoms-edge export-segments`
//                                            writes them), B at most the signed size and B - A
//                                            at most kAuditSegmentSpan
//   POST /v1/audit/verify                   {} -> {"ok","entries","checkpoints","receipts",
//                                            "root","problem","firstBadSeq"}: the whole log
//                                            checked as `atoms-edge verify` does, on its own
//                                            read-only connection and off the engine thread
// 400 for a bad query or body.
//
// Threading: as ApiResource; verify runs on the caller's thread after admit() on the writer,
// everything else on the writer.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "daemon/api/api_resource.h"
#include "store/site_store.h"
#include "store/state_dir.h"

namespace atoms::api {

inline constexpr char kAuditPath[] = "/v1/audit";
inline constexpr std::uint64_t kAuditPage = 50;
inline constexpr std::uint64_t kAuditSegmentSpan = 5000;

struct AuditAccess {
  RolesLookup roles;
  std::function<SiteStore&()> store;
  StateDirPaths paths;  // for verify's own read-only connection
};

class AuditResource final : public ApiResource {
 public:
  explicit AuditResource(AuditAccess access) : access_(std::move(access)) {}
  std::vector<std::string> methods(std::string_view path) const override;
  bool takesQuery(std::string_view path) const override;
  bool onWriter(std::string_view path) const override;
  std::optional<ApiAnswer> admit(const ApiRequest& request) override;
  ApiAnswer handle(const ApiRequest& request) override;

 private:
  ApiAnswer verify(const ApiRequest& request);
  AuditAccess access_;
};

}  // namespace atoms::api
