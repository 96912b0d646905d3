#include "domain/labor/applicability.h"

#include <algorithm>
#include <chrono>
#include <optional>

namespace atoms::labor {

namespace {

bool meets(const std::optional<std::int64_t>& have, const std::optional<std::int64_t>& need) {
  return !need || !have || *have >= *need;
}

}  // namespace

bool covers(const Rule& rule, std::string_view industry, const EmployerSize& employer) {
  if (rule.coverage.empty()) return true;
  for (const Coverage& c : rule.coverage) {
    const bool inIndustry =
        c.industries.empty() ||
        std::find(c.industries.begin(), c.industries.end(), industry) != c.industries.end();
    if (inIndustry && meets(employer.employeesGlobal, c.minEmployeesGlobal) &&
        meets(employer.locationsGlobal, c.minLocationsGlobal) &&
        meets(employer.employeesInJurisdiction, c.minEmployeesInJurisdiction)) {
      return true;
    }
  }
  return false;
}

std::vector<const Rule*> applicableRules(const RuleBook& rules, RuleKind kind, const Date& on,
                                         std::string_view industry, const EmployerSize& employer) {
  std::vector<const Rule*> out;
  for (const Rule* r : rules.rulesOfKind(kind)) {
    if (r->inForceOn(on) && covers(*r, industry, employer)) out.push_back(r);
  }
  return out;
}

std::vector<const Rule*> applicableRules(const LaborContext& ctx, RuleKind kind, site::Instant at) {
  return applicableRules(ctx.rules(), kind, localDateOf(at, ctx.zone()), ctx.model().site.industry,
                         ctx.options().employer);
}

Date localDateOf(site::Instant at, const site::TimeZone& zone) {
  const std::chrono::year_month_day ymd{std::chrono::floor<std::chrono::days>(zone.toLocal(at))};
  return Date{static_cast<int>(ymd.year()), static_cast<int>(static_cast<unsigned>(ymd.month())),
              static_cast<int>(static_cast<unsigned>(ymd.day()))};
}

}  // namespace atoms::labor
