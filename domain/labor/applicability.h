// Which rules of a RuleBook apply: in force on a date of the jurisdiction and covering the
// employer (industry and size thresholds). Shared by every evaluation (labor_engine.cpp,
// fair_workweek.cpp) so that one rule is never applicable to one check and not to another.
//
// An unknown employer figure counts as meeting a threshold (EmployerSize): the engine would rather
// ask for a premium or consent than miss one. Pure functions; the returned pointers stay valid as
// long as the RuleBook lives.
#pragma once

#include <string_view>
#include <vector>

#include "domain/labor/labor_engine.h"
#include "domain/labor/rule_table.h"
#include "domain/site/time_zone.h"

namespace atoms::labor {

// True when the rule has no coverage alternatives or the employer meets one of them.
bool covers(const Rule& rule, std::string_view industry, const EmployerSize& employer);

// The rules of `kind` from every composed jurisdiction in force on `on` and covering the
// employer, in the book's order (jurisdiction, then file order).
std::vector<const Rule*> applicableRules(const RuleBook& rules, RuleKind kind, const Date& on,
                                         std::string_view industry, const EmployerSize& employer);

// The same for the site and employer of a context, on the local date of `at`.
std::vector<const Rule*> applicableRules(const LaborContext& ctx, RuleKind kind, site::Instant at);

// The local calendar date of an instant in a zone, as the rule tables date their versions.
Date localDateOf(site::Instant at, const site::TimeZone& zone);

}  // namespace atoms::labor
