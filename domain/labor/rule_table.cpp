#include "domain/labor/rule_table.h"

#include <algorithm>
#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <span>
#include <sstream>
#include <utility>

#include "base/canonical_json.h"
#include "base/digits.h"
#include "domain/site/industry.h"
#include "domain/site/station_tag.h"

namespace atoms::labor {
namespace {

namespace fs = std::filesystem;
using json::Value;

constexpr std::array<std::pair<RuleKind, std::string_view>, 13> kKindNames{{
    {RuleKind::kWeeklyOvertime, "weekly_overtime"},
    {RuleKind::kDailyOvertime, "daily_overtime"},
    {RuleKind::kDoubleTime, "double_time"},
    {RuleKind::kSeventhDay, "seventh_day"},
    {RuleKind::kMealBreak, "meal_break"},
    {RuleKind::kRestBreak, "rest_break"},
    {RuleKind::kMinorHours, "minor_hours"},
    {RuleKind::kAdvanceNotice, "advance_notice"},
    {RuleKind::kChangePremium, "change_premium"},
    {RuleKind::kMinRestBetweenShifts, "min_rest_between_shifts"},
    {RuleKind::kRightToDeclineAddedHours, "right_to_decline_added_hours"},
    {RuleKind::kStationMinAge, "station_min_age"},
    {RuleKind::kStationCertification, "station_certification"},
}};

enum class ParamType {
  kInt,
  kBool,
  kDecimal,
  kTime,
  kMonthDay,
  kString,
  kStationTag,
  kPay,
  kCases,
  kChoice,  // one of ParamSpec::choices
};
struct ParamSpec {
  std::string_view name;
  ParamType type;
  bool required;
  std::span<const std::string_view> choices = {};
};

// min_rest_between_shifts: which earlier shift the rest is counted from, and which hours a rate
// premium is paid on (docs/labor-rules.md, decision 0014).
constexpr std::string_view kRestFromChoices[] = {"previous_calendar_day", "last_shift"};
constexpr std::string_view kPremiumOnChoices[] = {"hours_inside_rest", "whole_shift"};
// advance_notice: calendar days before the first day of the schedule, or time before each shift.
constexpr std::string_view kNoticeChoices[] = {"first_day_of_schedule", "each_shift"};
// rest_break: a rest period per perWorkMinutes "or major fraction thereof" (CA, OR), or per whole
// perWorkMinutes (WA, "for each four hours of working time").
constexpr std::string_view kFractionChoices[] = {"major", "whole"};

// The parameter schema of each kind: the contract between these tables and the engine.
const std::vector<ParamSpec>& specsFor(RuleKind kind) {
  using enum ParamType;
  static const std::vector<ParamSpec> threshold{{"thresholdMinutes", kInt, true},
                                                {"multiplier", kDecimal, true}};
  static const std::vector<ParamSpec> seventh{{"consecutiveDay", kInt, true},
                                              {"overMinutes", kInt, true},
                                              {"upToMinutes", kInt, false},
                                              {"multiplier", kDecimal, true}};
  static const std::vector<ParamSpec> meal{{"afterWorkMinutes", kInt, true},
                                           {"breakMinutes", kInt, true},
                                           {"requiredFromWorkMinutes", kInt, false},
                                           {"forWorkOverMinutes", kInt, false},
                                           {"forWorkUpToMinutes", kInt, false},
                                           {"earliestAfterWorkMinutes", kInt, false},
                                           {"mealNumber", kInt, false},
                                           {"waivableIfWorkAtMostMinutes", kInt, false},
                                           {"premium", kPay, false}};
  static const std::vector<ParamSpec> rest{{"perWorkMinutes", kInt, true},
                                           {"breakMinutes", kInt, true},
                                           {"notRequiredBelowMinutes", kInt, false},
                                           {"fraction", kChoice, false, kFractionChoices},
                                           {"maxWorkWithoutRestMinutes", kInt, false},
                                           {"premium", kPay, false}};
  static const std::vector<ParamSpec> minor{{"minAge", kInt, true},
                                            {"maxAge", kInt, true},
                                            {"schoolDayMaxMinutes", kInt, false},
                                            {"schoolWeekMaxMinutes", kInt, false},
                                            {"nonSchoolDayMaxMinutes", kInt, false},
                                            {"nonSchoolWeekMaxMinutes", kInt, false},
                                            {"windowStart", kTime, true},
                                            {"windowEnd", kTime, true},
                                            {"beforeNonSchoolDayWindowEnd", kTime, false},
                                            {"summerWindowEnd", kTime, false},
                                            {"summerFrom", kMonthDay, false},
                                            {"summerTo", kMonthDay, false},
                                            {"summerInNonSchoolWeeksOnly", kBool, false},
                                            {"nonSchoolWeekWindowEnd", kTime, false},
                                            {"beforeSchoolDayMaxMinutes", kInt, false},
                                            {"maxDaysPerWeek", kInt, false},
                                            {"notDuringSchoolHours", kBool, false}};
  static const std::vector<ParamSpec> notice{{"days", kInt, true},
                                             {"measuredTo", kChoice, true, kNoticeChoices}};
  static const std::vector<ParamSpec> premium{{"cases", kCases, true}};
  static const std::vector<ParamSpec> minRest{{"minRestMinutes", kInt, true},
                                              {"consentRequired", kBool, true},
                                              {"restFrom", kChoice, true, kRestFromChoices},
                                              {"premium", kPay, false},
                                              {"premiumOn", kChoice, false, kPremiumOnChoices}};
  static const std::vector<ParamSpec> decline{{"writtenConsentRequired", kBool, false}};
  static const std::vector<ParamSpec> minAge{{"stationTag", kStationTag, true},
                                             {"minAge", kInt, true}};
  static const std::vector<ParamSpec> cert{{"stationTag", kStationTag, true},
                                           {"certification", kString, true},
                                           {"graceDaysAfterHire", kInt, false}};
  switch (kind) {
    case RuleKind::kWeeklyOvertime:
    case RuleKind::kDailyOvertime:
    case RuleKind::kDoubleTime:
      return threshold;
    case RuleKind::kSeventhDay:
      return seventh;
    case RuleKind::kMealBreak:
      return meal;
    case RuleKind::kRestBreak:
      return rest;
    case RuleKind::kMinorHours:
      return minor;
    case RuleKind::kAdvanceNotice:
      return notice;
    case RuleKind::kChangePremium:
      return premium;
    case RuleKind::kMinRestBetweenShifts:
      return minRest;
    case RuleKind::kRightToDeclineAddedHours:
      return decline;
    case RuleKind::kStationMinAge:
      return minAge;
    case RuleKind::kStationCertification:
      return cert;
  }
  return notice;  // unreachable: the switch is exhaustive
}

bool isDecimal(std::string_view s) {
  // "1", "1.5", "0.25": digits, optionally one '.' followed by digits; no sign, no exponent.
  if (s.empty()) return false;
  std::size_t i = 0;
  while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i;
  if (i == 0) return false;
  if (i == s.size()) return true;
  if (s[i] != '.' || i + 1 == s.size()) return false;
  for (++i; i < s.size(); ++i)
    if (s[i] < '0' || s[i] > '9') return false;
  return true;
}

bool isTime(std::string_view s) {
  if (s.size() != 5 || s[2] != ':') return false;
  const int h = readDigits(s, 0, 2), m = readDigits(s, 3, 2);
  return h >= 0 && m >= 0 && h < 24 && m < 60;
}

bool isMonthDay(std::string_view s) {
  if (s == "labor_day") return true;  // first Monday of September, computed by the engine
  if (s.size() != 5 || s[2] != '-') return false;
  const int mo = readDigits(s, 0, 2), d = readDigits(s, 3, 2);
  return mo >= 1 && mo <= 12 && d >= 1 && d <= 31;
}

std::string rangeText(const Rule& r) {
  return formatDate(r.effectiveFrom) + ".." + (r.effectiveTo ? formatDate(*r.effectiveTo) : "open");
}

// Reads one rule (or jurisdiction) file field by field; every error names file, rule and field.
class FileParser {
 public:
  explicit FileParser(std::string file) : file_(std::move(file)) {}

  Error fail(std::string_view ruleId, std::string_view what) const {
    std::string m = file_ + ": ";
    if (!ruleId.empty()) m += "rule " + std::string(ruleId) + ": ";
    return makeError(m + std::string(what));
  }

  Result<std::string> str(const Value& obj, std::string_view ruleId, std::string_view field,
                          std::string_view path) const {
    const Value* v = obj.find(field);
    if (v == nullptr) return fail(ruleId, "missing field \"" + std::string(path) + "\"");
    if (!v->isString() || v->asString().empty())
      return fail(ruleId, "field \"" + std::string(path) + "\" must be a non-empty string");
    return v->asString();
  }

  Result<std::optional<std::int64_t>> optCount(const Value& obj, std::string_view ruleId,
                                               std::string_view field,
                                               std::string_view path) const {
    const Value* v = obj.find(field);
    if (v == nullptr) return std::optional<std::int64_t>{};
    if (!v->isInt() || v->asInt() < 0)
      return fail(ruleId, "field \"" + std::string(path) + "\" must be a non-negative integer");
    return std::optional<std::int64_t>{v->asInt()};
  }

  Result<Pay> pay(const Value& v, std::string_view ruleId, const std::string& path) const {
    if (!v.isObject()) return fail(ruleId, "field \"" + path + "\" must be an object");
    auto unit = str(v, ruleId, "unit", path + ".unit");
    if (!unit) return unit.error();
    const Value* amount = v.find("amount");
    if (amount == nullptr) return fail(ruleId, "missing field \"" + path + ".amount\"");
    Pay p;
    if (*unit == "cents") {
      p.unit = PayUnit::kCents;
      if (!amount->isInt() || amount->asInt() <= 0)
        return fail(ruleId, "field \"" + path + ".amount\" must be a positive integer (cents)");
      p.cents = amount->asInt();
      return p;
    }
    if (*unit == "hours_of_pay") {
      p.unit = PayUnit::kHoursOfPay;
    } else if (*unit == "rate_of_affected_hours") {
      p.unit = PayUnit::kRateOfAffectedHours;
    } else {
      return fail(ruleId, "field \"" + path + ".unit\" must be one of cents, hours_of_pay, " +
                              "rate_of_affected_hours, not \"" + *unit + "\"");
    }
    if (!amount->isString() || !isDecimal(amount->asString()))
      return fail(ruleId, "field \"" + path + ".amount\" must be a decimal string like \"1.5\"");
    p.amount = amount->asString();
    return p;
  }

  Result<std::vector<PremiumCase>> cases(const Value& v, std::string_view ruleId,
                                         const std::string& path) const {
    if (!v.isArray() || v.asArray().empty())
      return fail(ruleId, "field \"" + path + "\" must be a non-empty array");
    std::vector<PremiumCase> out;
    for (std::size_t i = 0; i < v.asArray().size(); ++i) {
      const Value& c = v.asArray()[i];
      const std::string at = path + "[" + std::to_string(i) + "]";
      if (!c.isObject()) return fail(ruleId, "field \"" + at + "\" must be an object");
      PremiumCase pc;
      auto change = str(c, ruleId, "change", at + ".change");
      if (!change) return change.error();
      if (*change == "added_hours") {
        pc.change = ChangeType::kAddedHours;
      } else if (*change == "changed_no_loss") {
        pc.change = ChangeType::kChangedNoLoss;
      } else if (*change == "reduced_hours") {
        pc.change = ChangeType::kReducedHours;
      } else if (*change == "cancelled_shift") {
        pc.change = ChangeType::kCancelledShift;
      } else {
        return fail(ruleId, "field \"" + at + ".change\" has unknown value \"" + *change + "\"");
      }
      auto lt = optCount(c, ruleId, "noticeLessThanHours", at + ".noticeLessThanHours");
      if (!lt) return lt.error();
      if (!*lt) return fail(ruleId, "missing field \"" + at + ".noticeLessThanHours\"");
      pc.noticeLessThanHours = **lt;
      auto ge = optCount(c, ruleId, "noticeAtLeastHours", at + ".noticeAtLeastHours");
      if (!ge) return ge.error();
      pc.noticeAtLeastHours = *ge;
      auto mc = optCount(c, ruleId, "minChangeMinutes", at + ".minChangeMinutes");
      if (!mc) return mc.error();
      pc.minChangeMinutes = *mc;
      const Value* p = c.find("pay");
      if (p == nullptr) return fail(ruleId, "missing field \"" + at + ".pay\"");
      auto parsedPay = pay(*p, ruleId, at + ".pay");
      if (!parsedPay) return parsedPay.error();
      pc.pay = std::move(*parsedPay);
      out.push_back(std::move(pc));
    }
    return out;
  }

  Result<ParamValue> param(const Value& v, const ParamSpec& spec, std::string_view ruleId) const {
    const std::string path = "params." + std::string(spec.name);
    auto bad = [&](std::string_view want) {
      return fail(ruleId, "parameter \"" + path + "\" must be " + std::string(want));
    };
    switch (spec.type) {
      case ParamType::kInt:
        if (!v.isInt() || v.asInt() < 0) return bad("a non-negative integer");
        return ParamValue{v.asInt()};
      case ParamType::kBool:
        if (!v.isBool()) return bad("a boolean");
        return ParamValue{v.asBool()};
      case ParamType::kDecimal:
        if (!v.isString() || !isDecimal(v.asString())) return bad("a decimal string like \"1.5\"");
        return ParamValue{v.asString()};
      case ParamType::kTime:
        if (!v.isString() || !isTime(v.asString())) return bad("a time \"HH:MM\"");
        return ParamValue{v.asString()};
      case ParamType::kMonthDay:
        if (!v.isString() || !isMonthDay(v.asString()))
          return bad("a day \"MM-DD\" or \"labor_day\"");
        return ParamValue{v.asString()};
      case ParamType::kString:
        if (!v.isString() || v.asString().empty()) return bad("a non-empty string");
        return ParamValue{v.asString()};
      case ParamType::kStationTag:
        // A tag no site file can carry would switch the rule off without a word.
        if (!v.isString() || !site::isKnownStationTag(v.asString()))
          return bad("a known station tag (" + std::string(site::knownStationTagList()) + ")");
        return ParamValue{v.asString()};
      case ParamType::kPay: {
        auto p = pay(v, ruleId, path);
        if (!p) return p.error();
        return ParamValue{std::move(*p)};
      }
      case ParamType::kCases: {
        auto c = cases(v, ruleId, path);
        if (!c) return c.error();
        return ParamValue{std::move(*c)};
      }
      case ParamType::kChoice: {
        if (v.isString() &&
            std::find(spec.choices.begin(), spec.choices.end(), v.asString()) != spec.choices.end())
          return ParamValue{v.asString()};
        std::string list;
        for (std::string_view c : spec.choices)
          list += (list.empty() ? "\"" : ", \"") + std::string(c) + "\"";
        return bad("one of " + list);
      }
    }
    return bad("valid");  // unreachable: the switch is exhaustive
  }

  Result<Rule> rule(const Value& v, const std::string& code) const {
    if (!v.isObject()) return fail("", "every entry of \"rules\" must be an object");
    auto id = str(v, "", "id", "id");
    if (!id) return id.error();
    if (!isStableRuleId(*id))
      return fail(*id, "id is not of the stable form WORD-WORD (A-Z, 0-9, '-')");
    Rule r;
    r.id = *id;
    r.jurisdiction = code;
    auto kind = str(v, r.id, "kind", "kind");
    if (!kind) return kind.error();
    auto k = kindFromName(*kind);
    if (!k) return fail(r.id, "unknown kind \"" + *kind + "\"");
    r.kind = *k;
    auto summary = str(v, r.id, "summary", "summary");
    if (!summary) return summary.error();
    r.summary = *summary;

    auto from = str(v, r.id, "effectiveFrom", "effectiveFrom");
    if (!from) return from.error();
    auto fromDate = parseDate(*from);
    if (!fromDate) return fail(r.id, "field \"effectiveFrom\" must be a date YYYY-MM-DD");
    r.effectiveFrom = *fromDate;
    if (const Value* to = v.find("effectiveTo"); to != nullptr && !to->isNull()) {
      auto toDate = to->isString() ? parseDate(to->asString()) : std::nullopt;
      if (!toDate) return fail(r.id, "field \"effectiveTo\" must be a date YYYY-MM-DD or null");
      if (*toDate < r.effectiveFrom)
        return fail(r.id, "field \"effectiveTo\" is before \"effectiveFrom\"");
      r.effectiveTo = *toDate;
    }

    const Value* src = v.find("source");
    if (src == nullptr) return fail(r.id, "missing field \"source\"");
    if (!src->isObject()) return fail(r.id, "field \"source\" must be an object");
    auto title = str(*src, r.id, "title", "source.title");
    if (!title) return title.error();
    auto url = str(*src, r.id, "url", "source.url");
    if (!url) return url.error();
    if (url->rfind("https://", 0) != 0 && url->rfind("http://", 0) != 0)
      return fail(r.id, "field \"source.url\" must be an http(s) URL");
    auto section = str(*src, r.id, "section", "source.section");
    if (!section) return section.error();
    r.source = Source{*title, *url, *section};

    if (const Value* app = v.find("applicability"); app != nullptr) {
      if (!app->isArray()) return fail(r.id, "field \"applicability\" must be an array");
      for (std::size_t i = 0; i < app->asArray().size(); ++i) {
        const Value& c = app->asArray()[i];
        const std::string at = "applicability[" + std::to_string(i) + "]";
        if (!c.isObject()) return fail(r.id, "field \"" + at + "\" must be an object");
        Coverage cov;
        if (const Value* ind = c.find("industries"); ind != nullptr) {
          if (!ind->isArray())
            return fail(r.id, "field \"" + at + ".industries\" must be an array");
          for (const Value& name : ind->asArray()) {
            if (!name.isString() || !site::isKnownIndustry(name.asString()))
              return fail(r.id, "field \"" + at + ".industries\" has an unknown industry " +
                                    (name.isString() ? "\"" + name.asString() + "\"" : "value") +
                                    " (known: " + std::string(site::knownIndustryList()) + ")");
            cov.industries.push_back(name.asString());
          }
        }
        for (auto [field, slot] :
             {std::pair{"minEmployeesGlobal", &cov.minEmployeesGlobal},
              std::pair{"minLocationsGlobal", &cov.minLocationsGlobal},
              std::pair{"minEmployeesInJurisdiction", &cov.minEmployeesInJurisdiction}}) {
          auto n = optCount(c, r.id, field, at + "." + field);
          if (!n) return n.error();
          *slot = *n;
        }
        r.coverage.push_back(std::move(cov));
      }
    }

    const Value* params = v.find("params");
    if (params == nullptr) return fail(r.id, "missing field \"params\"");
    if (!params->isObject()) return fail(r.id, "field \"params\" must be an object");
    const auto& specs = specsFor(r.kind);
    for (const auto& [name, value] : params->asObject()) {
      const std::string& key = name;  // clang 14 cannot capture a structured binding
      auto spec = std::find_if(specs.begin(), specs.end(),
                               [&](const ParamSpec& s) { return s.name == key; });
      if (spec == specs.end())
        return fail(r.id, "unknown parameter \"params." + name + "\" for kind " + *kind);
      auto p = param(value, *spec, r.id);
      if (!p) return p.error();
      r.params.emplace_back(name, std::move(*p));
    }
    for (const auto& spec : specs) {
      if (spec.required && !r.has(spec.name))
        return fail(r.id, "missing parameter \"params." + std::string(spec.name) + "\"");
    }
    return r;
  }

 private:
  std::string file_;
};

struct LoadedFile {
  Jurisdiction jurisdiction;
  std::string file;
  std::vector<Rule> rules;
};

Result<LoadedFile> loadFile(const fs::path& path) {
  const std::string file = path.filename().string();
  FileParser parser(file);
  std::ifstream in(path, std::ios::binary);
  if (!in) return makeError(file + ": cannot read " + path.string());
  std::ostringstream text;
  text << in.rdbuf();
  auto doc = json::parse(text.str());
  if (!doc) return parser.fail("", doc.message());
  if (!doc->isObject()) return parser.fail("", "the file must hold one JSON object");

  LoadedFile out;
  out.file = file;
  auto code = parser.str(*doc, "", "code", "code");
  if (!code) return code.error();
  if (*code + ".json" != file)
    return parser.fail("", "code \"" + *code + "\" does not match the file name");
  out.jurisdiction.code = *code;
  auto name = parser.str(*doc, "", "name", "name");
  if (!name) return name.error();
  out.jurisdiction.name = *name;
  const Value* parent = doc->find("parent");
  if (parent == nullptr) return parser.fail("", "missing field \"parent\" (null for the root)");
  if (parent->isString() && !parent->asString().empty()) {
    out.jurisdiction.parent = parent->asString();
  } else if (!parent->isNull()) {
    return parser.fail("", "field \"parent\" must be a jurisdiction code or null");
  }
  const Value* rules = doc->find("rules");
  if (rules == nullptr || !rules->isArray())
    return parser.fail("", "field \"rules\" must be an array");
  for (const Value& rv : rules->asArray()) {
    auto r = parser.rule(rv, *code);
    if (!r) return r.error();
    out.rules.push_back(std::move(*r));
  }
  // Versions of one id: same kind, no two in force on the same day.
  for (std::size_t i = 0; i < out.rules.size(); ++i) {
    for (std::size_t j = i + 1; j < out.rules.size(); ++j) {
      const Rule& a = out.rules[i];
      const Rule& b = out.rules[j];
      if (a.id != b.id) continue;
      if (a.kind != b.kind)
        return parser.fail(a.id, "versions have different kinds " + std::string(kindName(a.kind)) +
                                     " and " + std::string(kindName(b.kind)));
      const bool aBeforeB = a.effectiveTo && *a.effectiveTo < b.effectiveFrom;
      const bool bBeforeA = b.effectiveTo && *b.effectiveTo < a.effectiveFrom;
      if (!aBeforeB && !bBeforeA)
        return parser.fail(a.id, "overlapping versions " + rangeText(a) + " and " + rangeText(b));
    }
  }
  return out;
}

}  // namespace

std::optional<Date> parseDate(std::string_view s) {
  if (s.size() != 10 || s[4] != '-' || s[7] != '-') return std::nullopt;
  const int y = readDigits(s, 0, 4), m = readDigits(s, 5, 2), d = readDigits(s, 8, 2);
  if (y < 1900 || m < 1 || m > 12 || d < 1 || d > daysInMonth(y, m)) return std::nullopt;
  return Date{y, m, d};
}

std::string formatDate(const Date& d) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "%04d-%02d-%02d", d.year, d.month, d.day);
  return buf;
}

std::string_view kindName(RuleKind kind) {
  for (const auto& [k, name] : kKindNames)
    if (k == kind) return name;
  return "unknown";
}

std::optional<RuleKind> kindFromName(std::string_view name) {
  for (const auto& [k, n] : kKindNames)
    if (n == name) return k;
  return std::nullopt;
}

const std::vector<RuleKind>& allKinds() {
  static const std::vector<RuleKind> kinds = [] {
    std::vector<RuleKind> v;
    for (const auto& entry : kKindNames) v.push_back(entry.first);
    return v;
  }();
  return kinds;
}

std::string_view changeTypeName(ChangeType t) {
  switch (t) {
    case ChangeType::kAddedHours:
      return "added_hours";
    case ChangeType::kChangedNoLoss:
      return "changed_no_loss";
    case ChangeType::kReducedHours:
      return "reduced_hours";
    case ChangeType::kCancelledShift:
      return "cancelled_shift";
  }
  return "unknown";
}

bool isStableRuleId(std::string_view id) {
  int words = 0;
  std::size_t start = 0;
  while (start <= id.size()) {
    const std::size_t dash = id.find('-', start);
    const std::string_view word =
        id.substr(start, dash == std::string_view::npos ? std::string_view::npos : dash - start);
    if (word.empty()) return false;
    for (char c : word)
      if (!((c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'))) return false;
    ++words;
    if (dash == std::string_view::npos) break;
    start = dash + 1;
  }
  return words >= 2 && id.front() >= 'A' && id.front() <= 'Z';
}

const ParamValue* Rule::findParam(std::string_view name) const {
  for (const auto& [key, value] : params) {
    // Most names differ in length or first letter: no memcmp for them.
    if (key.size() != name.size() || (!name.empty() && key.front() != name.front())) continue;
    if (key == name) return &value;
  }
  return nullptr;
}

std::int64_t Rule::integer(std::string_view name) const {
  return std::get<std::int64_t>(*findParam(name));
}
bool Rule::flag(std::string_view name) const { return std::get<bool>(*findParam(name)); }
const std::string& Rule::text(std::string_view name) const {
  return std::get<std::string>(*findParam(name));
}
const Pay& Rule::pay(std::string_view name) const { return std::get<Pay>(*findParam(name)); }
const std::vector<PremiumCase>& Rule::cases(std::string_view name) const {
  return std::get<std::vector<PremiumCase>>(*findParam(name));
}

RuleBook::RuleBook(std::vector<Jurisdiction> chain, std::vector<Rule> rules)
    : jurisdictions_(std::move(chain)), rules_(std::move(rules)) {}

std::vector<const Rule*> RuleBook::rulesOfKind(RuleKind kind) const {
  std::vector<const Rule*> out;
  for (const Rule& r : rules_)
    if (r.kind == kind) out.push_back(&r);
  return out;
}

std::vector<const Rule*> RuleBook::versionsOf(std::string_view id) const {
  std::vector<const Rule*> out;
  for (const Rule& r : rules_)
    if (r.id == id) out.push_back(&r);
  return out;
}

Result<RuleBook> loadRuleBook(const std::string& dir,
                              const std::vector<std::string>& jurisdictionCodes,
                              std::optional<Date> asOf) {
  std::error_code ec;
  std::vector<fs::path> paths;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    if (it->path().extension() == ".json") paths.push_back(it->path());
  }
  if (ec) return makeError("labor rule directory " + dir + ": " + ec.message());
  std::sort(paths.begin(), paths.end());  // deterministic order of checks and messages

  std::map<std::string, LoadedFile, std::less<>> files;
  std::map<std::string, std::string, std::less<>> idToFile;
  for (const fs::path& p : paths) {
    auto f = loadFile(p);
    if (!f) return f.error();
    for (const Rule& r : f->rules) {
      auto [at, inserted] = idToFile.emplace(r.id, f->file);
      if (!inserted && at->second != f->file)
        return makeError("rule id " + r.id + " is defined in both " + at->second + " and " +
                         f->file);
    }
    std::string code = f->jurisdiction.code;
    files.emplace(std::move(code), std::move(*f));
  }

  auto knownList = [&] {
    std::string s;
    for (const auto& [code, f] : files) s += (s.empty() ? "" : ", ") + code;
    return s.empty() ? std::string("none") : s;
  };
  // Every file's parent exists and no parent chain loops, whether requested or not.
  for (const auto& [code, f] : files) {
    std::vector<std::string> path{code};
    std::optional<std::string> parent = f.jurisdiction.parent;
    while (parent) {
      auto it = files.find(*parent);
      if (it == files.end())
        return makeError(f.file + ": unknown parent jurisdiction \"" + *parent +
                         "\"; known: " + knownList());
      if (std::find(path.begin(), path.end(), *parent) != path.end()) {
        std::string cycle;
        for (const auto& c : path) cycle += c + " -> ";
        return makeError("jurisdiction parent cycle: " + cycle + *parent);
      }
      path.push_back(*parent);
      parent = it->second.jurisdiction.parent;
    }
  }

  // Compose: each requested code with its ancestors, ancestors first, each once.
  std::vector<std::string> order;
  for (const std::string& code : jurisdictionCodes) {
    if (files.find(code) == files.end())
      return makeError("unknown jurisdiction \"" + code + "\"; known: " + knownList());
    std::vector<std::string> chain;
    for (std::optional<std::string> c = code; c; c = files.find(*c)->second.jurisdiction.parent)
      chain.push_back(*c);
    for (auto it = chain.rbegin(); it != chain.rend(); ++it)
      if (std::find(order.begin(), order.end(), *it) == order.end()) order.push_back(*it);
  }
  // Ancestors before descendants across requested codes too: sort by depth, stable.
  auto depth = [&](const std::string& c) {
    int d = 0;
    for (auto p = files.find(c)->second.jurisdiction.parent; p;
         p = files.find(*p)->second.jurisdiction.parent)
      ++d;
    return d;
  };
  std::stable_sort(order.begin(), order.end(),
                   [&](const std::string& a, const std::string& b) { return depth(a) < depth(b); });

  std::vector<Jurisdiction> chain;
  std::vector<Rule> rules;
  for (const std::string& code : order) {
    const LoadedFile& f = files.find(code)->second;
    chain.push_back(f.jurisdiction);
    for (const Rule& r : f.rules)
      if (!asOf || r.inForceOn(*asOf)) rules.push_back(r);
  }
  return RuleBook(std::move(chain), std::move(rules));
}

}  // namespace atoms::labor
