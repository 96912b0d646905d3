// SalesLaborResource: labor against sales in the JSON API (docs/api.md "Sales and labor";
// docs/pos.md "Labor against sales"):
//   GET /v1/sales/labor                   today (the site's local day)
//   GET /v1/sales/labor?day=2026-12-01    that day, per 15-minute interval
//   GET /v1/sales/labor?week=2026-12-01   the site's workweek holding that day, per day
// {"now","timeZone","projectionSource","pos":{...pos_health_json.h, or {"on":false}},
//  "day":{...} or "week":{...} (labor_vs_sales_json.h)}. Anyone of the site may read it (403
// otherwise); another query or an impossible date is 400 and changes nothing.
//
// Threading: as ApiResource; every access function runs on the writer.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "base/time_point.h"
#include "daemon/api/api_resource.h"
#include "domain/pos/labor_vs_sales_store.h"

namespace atoms::api {

inline constexpr char kSalesLaborPath[] = "/v1/sales/labor";

struct SalesLaborAccess {
  RolesLookup roles;
  std::function<Database&()> db;
  std::function<TimePoint()> now;
  pos::RuleBookFor rules;
  std::shared_ptr<pos::SalesExpectation> expectation;
  // The POS health now (posHealthJson); empty when the box runs no POS: {"on":false}.
  std::function<json::Value()> posHealth;
};

// Today's headline figures for the Today page: {"day","soFar","projected","projectionSource",
// "pos"} (labor_vs_sales_json.h totals). Errors: as readLaborVsSalesDay.
Result<json::Value> todaySalesJson(const SalesLaborAccess& access);

class SalesLaborResource final : public ApiResource {
 public:
  explicit SalesLaborResource(SalesLaborAccess access) : access_(std::move(access)) {}
  std::vector<std::string> methods(std::string_view path) const override;
  bool takesQuery(std::string_view path) const override { return path == kSalesLaborPath; }
  ApiAnswer handle(const ApiRequest& request) override;

 private:
  SalesLaborAccess access_;
};

}  // namespace atoms::api
