// `atoms-edge check SITEFILE`: the labor findings of a site file's schedule (docs/labor-check.md),
// as a report grouped by person and rule with premium totals, or as canonical JSON.
#include <algorithm>
#include <charconv>
#include <chrono>
#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <utility>

#include "base/canonical_json.h"
#include "daemon/cli/commands.h"
#include "daemon/cli/site_file_input.h"
#include "domain/labor/schedule_check.h"
#include "domain/site/site_file.h"

namespace atoms::cli {
namespace {

namespace chr = std::chrono;
using labor::ScheduleCheck;
using labor::VerdictKind;

// Where the package installs the rule tables, next to /etc/atoms-edge/atoms-edge.conf (the
// default of `serve --config`). In a source checkout: --labor-dir etc/labor.
constexpr const char* kDefaultLaborDir = "/etc/atoms-edge/labor";
constexpr std::string_view kWeekdays[] = {"sun", "mon", "tue", "wed", "thu", "fri", "sat"};
constexpr std::string_view kWeekdayNames[] = {"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"};

// Exit status when the check could not run because of its input (the site file or the command
// line); 1 is taken by "the schedule has a hard violation".
constexpr int kExitBadInput = kExitUsage;

std::optional<std::int64_t> count(const std::string& text) {
  std::int64_t n = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
  if (ec != std::errc() || end != text.data() + text.size() || n < 0) return std::nullopt;
  return n;
}

// --as-of: a time in the site's zone, or with "Z" or an offset; read like the site file's
// instants.
Result<site::Instant> parseAsOf(const std::string& text, const site::TimeZone& zone) {
  auto at = site::parseInstant(text, zone);
  if (!at) return makeError("--as-of " + at.message());
  return at;
}

// --workweek-start: the site file's workweekStart for this check only.
Result<std::optional<unsigned>> workweekStart(const Args& args) {
  if (!args.has("workweek-start")) return std::optional<unsigned>{};
  const std::string day = args.get("workweek-start", "");
  const auto it = std::find(std::begin(kWeekdays), std::end(kWeekdays), day);
  if (it == std::end(kWeekdays)) {
    return makeError("--workweek-start '" + day + "': expected one of sun mon tue wed thu fri sat");
  }
  return std::optional<unsigned>{static_cast<unsigned>(it - std::begin(kWeekdays))};
}

Result<labor::LaborOptions> laborOptions(const Args& args) {
  labor::LaborOptions options;
  const std::pair<const char*, std::optional<std::int64_t>*> sizes[] = {
      {"employees", &options.employer.employeesGlobal},
      {"locations", &options.employer.locationsGlobal},
      {"employees-in-jurisdiction", &options.employer.employeesInJurisdiction},
  };
  for (const auto& [name, slot] : sizes) {
    if (!args.has(name)) continue;
    const std::string value = args.get(name, "");
    *slot = count(value);
    if (!*slot) return makeError(std::string("--") + name + " '" + value + "': expected a count");
  }
  return options;
}

// --- the report --------------------------------------------------------------------------------

std::string money(std::int64_t cents) {
  std::string whole = std::to_string(cents / 100);
  for (int i = static_cast<int>(whole.size()) - 3; i > 0; i -= 3) {
    whole.insert(static_cast<std::size_t>(i), ",");
  }
  const std::int64_t c = cents % 100;
  return "$" + whole + (c < 10 ? ".0" : ".") + std::to_string(c);
}

std::string duration(std::int64_t minutes) {
  if (minutes < 60) return std::to_string(minutes) + " min";
  std::string s = std::to_string(minutes / 60) + " h";
  if (minutes % 60 != 0) s += " " + std::to_string(minutes % 60) + " min";
  return s;
}

// Premium pay as a manager reads it: the hours and their whole pay at the premium rate, and the
// part of it above the regular pay ("30 min paid $23.25, of which $7.75 premium"); a premium owed
// as such is all extra ("$40.00 premium", "1 h, $20.00 premium").
std::string premium(std::int64_t minutes, std::int64_t cents, std::int64_t extraCents) {
  if (extraCents == cents)
    return (minutes > 0 ? duration(minutes) + ", " : "") + money(cents) + " premium";
  return duration(minutes) + " paid " + money(cents) + ", of which " + money(extraCents) +
         " premium";
}

std::string plural(std::size_t n, const std::string& one, const std::string& many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

std::string effectLabel(VerdictKind k) {
  switch (k) {
    case VerdictKind::kDenied:
      return "not allowed as scheduled";
    case VerdictKind::kNeedsConsent:
      return "needs the person's consent";
    case VerdictKind::kAllowedWithPremium:
      return "allowed with premium pay";
    case VerdictKind::kAllowed:
      break;
  }
  return "allowed, noted";
}

// "Mon 2026-03-09 10:00-16:00", "Fri 2026-03-13 16:00-01:00 (next day)".
std::string when(const site::Stamp& start, const site::Stamp& end) {
  const auto day = chr::floor<chr::days>(start.local);
  const auto endDay = chr::floor<chr::days>(end.local);
  const std::string from = site::formatLocal(start.local);  // YYYY-MM-DDTHH:MM:SS
  const std::string to = site::formatLocal(end.local);
  std::string s = std::string(kWeekdayNames[chr::weekday{day}.c_encoding()]) + " " +
                  from.substr(0, 10) + " " + from.substr(11, 5) + "-" + to.substr(11, 5);
  if (endDay == day + chr::days{1}) {
    s += " (next day)";
  } else if (endDay != day) {
    s += " (" + to.substr(0, 10) + ")";
  }
  return s;
}

std::string personLabel(const site::SiteIndex& index, const std::string& id) {
  const site::Person* p = index.person(id);
  return p == nullptr || p->name.empty() ? id : p->name + " (" + id + ")";
}

void printOccurrence(std::ostream& out, const labor::FindingOccurrence& o) {
  out << "    - " << o.shiftId << " " << o.stationId << ", " << when(o.start, o.end);
  if (!o.relatedShiftIds.empty()) {
    out << " (with";
    for (const std::string& id : o.relatedShiftIds) out << " " << id;
    out << ")";
  }
  if (o.scheduleVersionId) out << " [schedule " << *o.scheduleVersionId << "]";
  if (!o.detail.empty()) out << ": " << o.detail;
  if (o.premiumMinutes > 0 || o.premiumCents > 0) {
    out << " [" << premium(o.premiumMinutes, o.premiumCents, o.extraCents) << "]";
  }
  out << "\n";
}

void printPerson(std::ostream& out, const site::SiteIndex& index, const labor::PersonFindings& p) {
  out << "\n"
      << personLabel(index, p.personId) << ": " << plural(p.shifts, "shift", "shifts") << ", "
      << duration(p.scheduledMinutes) << " scheduled\n";
  for (const labor::RuleFindings& r : p.rules) {
    out << "  " << r.rule.ruleId;
    if (!r.rule.jurisdiction.empty()) out << " (" << r.rule.jurisdiction << ")";
    out << ": " << effectLabel(r.worst) << ", " << plural(r.occurrences.size(), "time", "times");
    if (r.premiumMinutes > 0 || r.premiumCents > 0) {
      out << ", " << premium(r.premiumMinutes, r.premiumCents, r.extraCents);
    }
    out << "\n";
    if (!r.rule.summary.empty()) out << "    " << r.rule.summary << "\n";
    for (const labor::FindingOccurrence& o : r.occurrences) printOccurrence(out, o);
  }
  if (p.premiumMinutes > 0 || p.premiumCents > 0) {
    out << "  Premium for this person: " << premium(p.premiumMinutes, p.premiumCents, p.extraCents);
    if (p.managerOfRecord) out << "; approval: " << personLabel(index, *p.managerOfRecord);
    out << "\n";
  }
}

// An instant as the site's wall-clock time with its offset: "2026-02-23T17:00:00-08:00".
std::string siteTime(const site::TimeZone& zone, site::Instant t) {
  return site::formatStamp(site::Stamp{t, zone.toLocal(t)});
}

void printReport(std::ostream& out, const site::SiteModel& model, const site::TimeZone& zone,
                 const ScheduleCheck& c, const std::string& laborDir) {
  const site::SiteIndex index(model);
  out << "Labor check of site " << c.siteId << " (" << c.timeZone << ")\n"
      << "Rules: ";
  for (std::size_t i = 0; i < c.jurisdictions.size(); ++i) {
    out << (i == 0 ? "" : ", ") << c.jurisdictions[i];
  }
  out << " (tables in " << laborDir << ")\n"
      << "Checked " << plural(c.shifts, "shift", "shifts") << ": " << c.assignedShifts
      << " assigned to " << plural(c.peopleScheduled, "person", "people") << ", "
      << c.openShifts.size() << " open.\n";
  for (const labor::VersionChecked& v : c.versions) {
    out << "Schedule version " << v.versionId << ": published " << siteTime(zone, v.publishedAt);
    if (v.checkedAt != v.publishedAt) {
      out << ", not out yet: notice checked as if published " << siteTime(zone, v.checkedAt);
    }
    out << "\n";
  }

  if (c.people.empty()) {
    out << "\nNo findings: every assigned shift is within the rules.\n";
  } else {
    out << "\nFindings by person (" << plural(c.people.size(), "person", "people") << "):\n";
    for (const labor::PersonFindings& p : c.people) printPerson(out, index, p);
  }

  if (!c.openShifts.empty()) {
    out << "\nOpen shifts (nobody assigned yet): " << c.openShifts.size() << "\n";
    for (const labor::OpenShift& s : c.openShifts) {
      out << "  - " << s.shiftId << " " << s.stationId << ", " << when(s.start, s.end);
      if (!s.requiredCertifications.empty()) {
        out << ", needs";
        for (const std::string& cert : s.requiredCertifications) out << " " << cert;
      }
      out << "\n";
    }
  }

  if (!c.breaksToPlan.empty()) {
    // One line per workday: what its last shift's evaluation says is still to plan.
    out << "\nBreaks to plan (the schedule does not give them yet; not findings):\n";
    std::string lastPerson;
    for (std::size_t i = 0; i < c.breaksToPlan.size(); ++i) {
      const labor::BreakToPlan& b = c.breaksToPlan[i];
      if (b.personId != lastPerson) {
        out << "  " << personLabel(index, b.personId) << "\n";
        lastPerson = b.personId;
      }
      const bool sameDay = i > 0 && c.breaksToPlan[i - 1].personId == b.personId &&
                           c.breaksToPlan[i - 1].workday == b.workday;
      out << (sameDay ? "; " : "    - " + b.workday + " (" + b.shiftId + "): ") << b.detail;
      const bool dayEnds = i + 1 == c.breaksToPlan.size() ||
                           c.breaksToPlan[i + 1].personId != b.personId ||
                           c.breaksToPlan[i + 1].workday != b.workday;
      if (dayEnds) out << "\n";
    }
  }

  if (!c.rules.empty()) {
    out << "\nBy rule:\n";
    std::size_t width = 0;
    for (const labor::RuleTotal& r : c.rules) width = std::max(width, r.ruleId.size());
    for (const labor::RuleTotal& r : c.rules) {
      out << "  " << r.ruleId << std::string(width - r.ruleId.size(), ' ') << "  "
          << plural(r.occurrences, "time", "times") << ", " << plural(r.people, "person", "people");
      if (r.premiumMinutes > 0 || r.premiumCents > 0) {
        out << ", " << premium(r.premiumMinutes, r.premiumCents, r.extraCents);
      }
      out << "\n";
    }
  }

  out << "\nPremium pay in total: "
      << (c.premiumMinutes > 0 || c.premiumCents > 0
              ? premium(c.premiumMinutes, c.premiumCents, c.extraCents)
              : std::string("none"))
      << " (overtime hours counted once where rules overlap)\n"
      << "Findings: " << c.findings << " (" << c.denied << " not allowed as scheduled, "
      << c.needsConsent << " needing the person's consent, " << c.withPremium
      << " allowed with premium pay, " << c.noted << " noted)\n";
  if (c.hardViolation) {
    out << "Result: " << plural(c.denied, "finding is", "findings are")
        << " not allowed as scheduled; change those shifts before publishing.\n";
  } else {
    out << "Result: nothing in this schedule is ruled out"
        << (c.findings > 0 ? "; see above for premiums to approve and consents to ask for.\n"
                           : ".\n");
  }
  if (!c.notEvaluated.empty()) {
    out << "Not evaluated by this check: ";
    for (std::size_t i = 0; i < c.notEvaluated.size(); ++i) {
      out << (i == 0 ? "" : ", ") << c.notEvaluated[i];
    }
    out << " (predictability pay and the right to decline apply to changes after a schedule is "
           "published: shifts a later version adds are checked above; moves, cuts and "
           "cancellations are judged when the change is made).\n";
  }
  out << "These are findings about the schedule, not about anyone's work. Rule sources: "
         "docs/labor-rules.md.\n";
}

int runCheck(const Args& args, Io& io) {
  const std::string& path = args.positionals[0];
  const std::string laborDir = args.get("labor-dir", kDefaultLaborDir);
  auto options = laborOptions(args);
  auto week = workweekStart(args);
  if (!options || !week) {
    io.err << "atoms-edge check: " << (options ? week.message() : options.message()) << "\n";
    return kExitUsage;
  }
  auto model = readSiteFile(path);
  if (!model) {
    io.err << "atoms-edge check: " << model.message() << "\n";
    return kExitBadInput;
  }
  if (*week) model->site.workweekStart = **week;
  // The tables on their own first: a broken or missing directory is the installation's problem
  // (EX_CONFIG), an unknown code in site.jurisdictions the site file's.
  if (auto all = labor::loadRuleBook(laborDir, {}); !all) {
    io.err << "atoms-edge check: labor rule tables: " << all.message()
           << (args.has("labor-dir") ? "" : " (give the directory with --labor-dir DIR)") << "\n";
    return kExitConfig;
  }
  auto rules = labor::loadRuleBook(laborDir, model->site.jurisdictions);
  if (!rules) {
    io.err << "atoms-edge check: " << path << ": site.jurisdictions: " << rules.message() << "\n";
    return kExitBadInput;
  }
  // parseSiteFile() resolved every time in this zone, so it exists.
  auto zone = site::TimeZone::locate(model->site.timeZone);
  if (!zone) {
    io.err << "atoms-edge check: " << path << ": " << zone.message() << "\n";
    return kExitBadInput;
  }
  labor::ScheduleCheckOptions checkOptions{*options, std::nullopt};
  if (args.has("as-of")) {
    auto asOf = parseAsOf(args.get("as-of", ""), *zone);
    if (!asOf) {
      io.err << "atoms-edge check: " << asOf.message() << "\n";
      return kExitUsage;
    }
    checkOptions.asOf = *asOf;
  }
  auto check = labor::checkSchedule(*model, *rules, checkOptions);
  if (!check) {
    io.err << "atoms-edge check: " << path << ": " << check.message() << "\n";
    return kExitBadInput;
  }
  if (args.has("json")) {
    io.out << json::canonical(labor::scheduleCheckJson(*check)) << "\n";
  } else {
    printReport(io.out, *model, *zone, *check, laborDir);
  }
  return check->hardViolation ? kExitFailure : kExitOk;
}

}  // namespace

Command checkCommand() {
  return Command{
      .name = "check",
      .summary = "check a site file's schedule against the labor rules",
      .usage =
          "atoms-edge check SITEFILE [--json] [--labor-dir DIR] [--as-of TIME] "
          "[--workweek-start DAY] [--employees N] [--locations N] "
          "[--employees-in-jurisdiction N]",
      .help =
          "Evaluates every assigned shift of the site file (docs/site-file.md) against the labor\n"
          "rules of the site's jurisdictions: overtime, rest between shifts, minors' hours,\n"
          "station ages and certifications, overlaps and time off, and each schedule version's\n"
          "advance notice. Prints the findings grouped by person and rule with the premium pay\n"
          "they add up to, and lists open shifts.\n"
          "Each overtime hour, short rest and overlap is reported once. Nothing is changed.\n"
          "Exit status: 0 nothing is ruled out (premiums and consents may still need approval),\n"
          "1 at least one finding is not allowed as scheduled, 2 bad command line or site file,\n"
          "78 the rule tables are missing or invalid. docs/labor-check.md has the details\n"
          "and the JSON schema.\n"
          "Employer size decides which local ordinances apply; a size not given counts as\n"
          "covered, so the check errs towards reporting a premium.\n",
      .options = {{"json", "", "print the findings as canonical JSON (one line)"},
                  {"labor-dir", "DIR",
                   std::string("rule tables (default ") + kDefaultLaborDir +
                       "; a checkout: etc/labor)"},
                  {"as-of", "TIME",
                   "now, for schedule versions not yet published (their notice is checked as if "
                   "published then)"},
                  {"workweek-start", "DAY",
                   "first day of the workweek for overtime: sun..sat (the site file's, sun)"},
                  {"employees", "N", "employees of the employer, all locations"},
                  {"locations", "N", "locations of the employer"},
                  {"employees-in-jurisdiction", "N", "employees in the city or state of the site"}},
      .minPositionals = 1,
      .maxPositionals = 1,
      .run = runCheck,
  };
}

}  // namespace atoms::cli
