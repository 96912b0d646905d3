// Labor-rule tables as data (docs/labor-rules.md): one JSON file per jurisdiction in etc/labor/,
// each rule with a stable id, a kind from a closed set, typed parameters, effective dates,
// applicability and the public source it comes from.
//
// loadRuleBook() reads and validates EVERY file of the directory (the tables ship as one unit, so
// a broken file is an error whichever site loads them), then composes the requested jurisdictions
// with their ancestors (us -> us-ca -> us-ca-san-francisco). It does not decide which rule wins:
// the engine applies strictest-wins over rulesOfKind(), where every rule is tagged with its
// jurisdiction and source.
//
// Errors are values naming the file, rule id and field. Pure functions over the file system; a
// RuleBook is an immutable value, safe to read from any thread.
#pragma once

#include <compare>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "base/result.h"

namespace atoms::labor {

// A civil date (no time zone): rule versions start and end on dates of the jurisdiction.
struct Date {
  int year = 0;
  int month = 0;
  int day = 0;
  friend auto operator<=>(const Date&, const Date&) = default;
};
// Parses "YYYY-MM-DD" (a real calendar date); nullopt otherwise.
std::optional<Date> parseDate(std::string_view text);
std::string formatDate(const Date& d);

enum class RuleKind {
  kWeeklyOvertime,
  kDailyOvertime,
  kDoubleTime,
  kSeventhDay,
  kMealBreak,
  kRestBreak,
  kMinorHours,
  kAdvanceNotice,
  kChangePremium,
  kMinRestBetweenShifts,
  kRightToDeclineAddedHours,
  kStationMinAge,
  kStationCertification,
};
// The JSON name ("weekly_overtime", ...) and back; nullopt for a name outside the closed set.
std::string_view kindName(RuleKind kind);
std::optional<RuleKind> kindFromName(std::string_view name);
const std::vector<RuleKind>& allKinds();

// How a premium is paid. kHoursOfPay: `amount` hours at the regular rate (decimal string).
// kRateOfAffectedHours: `amount` times the regular rate for each affected hour (hours not worked
// after a cut, hours worked inside a rest period). kCents: a fixed `cents` amount per occurrence.
enum class PayUnit { kHoursOfPay, kRateOfAffectedHours, kCents };
struct Pay {
  PayUnit unit = PayUnit::kHoursOfPay;
  std::string amount;      // decimal string ("1", "0.5", "1.5"); empty for kCents
  std::int64_t cents = 0;  // only for kCents
};

// What kind of schedule change a premium case covers.
enum class ChangeType { kAddedHours, kChangedNoLoss, kReducedHours, kCancelledShift };
std::string_view changeTypeName(ChangeType t);

// One row of a change_premium table: a change of `change` made with less than
// noticeLessThanHours (and, if set, at least noticeAtLeastHours) notice owes `pay`.
struct PremiumCase {
  ChangeType change = ChangeType::kAddedHours;
  std::int64_t noticeLessThanHours = 0;
  std::optional<std::int64_t> noticeAtLeastHours;
  std::optional<std::int64_t> minChangeMinutes;  // e.g. Oregon: only additions over 30 minutes
  Pay pay;
};

using ParamValue = std::variant<std::int64_t, bool, std::string, Pay, std::vector<PremiumCase>>;

// One coverage alternative: the rule applies to an employer in one of `industries` (empty: any)
// meeting every threshold that is set. A rule with no alternatives applies to every employer.
struct Coverage {
  std::vector<std::string> industries;
  std::optional<std::int64_t> minEmployeesGlobal;
  std::optional<std::int64_t> minLocationsGlobal;
  std::optional<std::int64_t> minEmployeesInJurisdiction;
};

struct Source {
  std::string title;
  std::string url;
  std::string section;
};

// One version of one rule. Parameters were checked against the kind's schema at load, so the
// accessors' preconditions hold for every required parameter of the rule's kind.
struct Rule {
  std::string id;
  RuleKind kind = RuleKind::kWeeklyOvertime;
  std::string jurisdiction;  // code of the file it came from
  std::string summary;
  Date effectiveFrom;
  std::optional<Date> effectiveTo;  // last day in force (inclusive); nullopt: open-ended
  std::vector<Coverage> coverage;
  Source source;
  // By name, each once. A rule has a handful, which a search in order finds sooner than a tree
  // would; the engine looks up about a hundred per evaluation.
  std::vector<std::pair<std::string, ParamValue>> params;

  bool inForceOn(const Date& d) const {
    return effectiveFrom <= d && (!effectiveTo || d <= *effectiveTo);
  }
  // The parameter `name`; nullptr when the rule does not set it.
  const ParamValue* findParam(std::string_view name) const;
  bool has(std::string_view name) const { return findParam(name) != nullptr; }
  // Preconditions: has(name) and the parameter is of that type (the kind's schema says which).
  std::int64_t integer(std::string_view name) const;
  bool flag(std::string_view name) const;
  const std::string& text(std::string_view name) const;  // strings, decimals, "HH:MM", "MM-DD"
  const Pay& pay(std::string_view name) const;
  const std::vector<PremiumCase>& cases(std::string_view name) const;
};

struct Jurisdiction {
  std::string code;  // "us-ca-san-francisco"; equals the file name without ".json"
  std::string name;
  std::optional<std::string> parent;
};

class RuleBook {
 public:
  RuleBook(std::vector<Jurisdiction> chain, std::vector<Rule> rules);

  // The composed jurisdictions, ancestors before descendants ("us" first).
  const std::vector<Jurisdiction>& jurisdictions() const { return jurisdictions_; }
  // Every loaded rule version, in jurisdiction order then file order.
  const std::vector<Rule>& rules() const { return rules_; }
  // The rules of one kind from every composed jurisdiction. Pointers stay valid as long as this
  // RuleBook lives.
  std::vector<const Rule*> rulesOfKind(RuleKind kind) const;
  // Rule versions with this id (several when loaded without asOf).
  std::vector<const Rule*> versionsOf(std::string_view id) const;

 private:
  std::vector<Jurisdiction> jurisdictions_;
  std::vector<Rule> rules_;
};

// Loads every *.json file in `dir`, validates it, and composes `jurisdictionCodes` with their
// ancestors. With asOf, only the versions in force on that date are kept; without it, all
// versions (the engine picks by the date of each shift). Errors: unreadable directory or file,
// invalid JSON, unknown jurisdiction code (the message lists the known ones), unknown parent,
// parent cycle, file code not matching its name, unknown rule kind, missing or badly typed field
// or parameter (names file, rule id and field), overlapping versions of one rule id (names both
// ranges), the same rule id in two files.
Result<RuleBook> loadRuleBook(const std::string& dir,
                              const std::vector<std::string>& jurisdictionCodes,
                              std::optional<Date> asOf = std::nullopt);

// True when `id` has the stable-id form: upper-case words of [A-Z0-9] joined by '-', at least two.
bool isStableRuleId(std::string_view id);

}  // namespace atoms::labor
