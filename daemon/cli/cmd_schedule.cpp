// `atoms-edge schedule fill`: fills the open shifts of a week's draft, or builds the week, with
// the roster engine and the labor check (domain/week/week_builder.h), saved as a new version of
// the draft, and prints the plan's score and why each choice was made (docs/scheduling.md).
#include <charconv>
#include <chrono>
#include <cstdio>
#include <ostream>
#include <string>

#include "base/file_io.h"
#include "daemon/api/fill_json.h"
#include "daemon/cli/commands.h"
#include "daemon/cli/state_dir_option.h"
#include "domain/labor/pay.h"
#include "domain/labor/rule_table.h"
#include "domain/site/site_repository.h"
#include "domain/week/week_desk.h"
#include "store/site_store.h"

namespace atoms::cli {
namespace {

namespace chr = std::chrono;

constexpr const char* kScheduleLaborDir = "/etc/atoms-edge/labor";

// "2026-W11" (the site's workweek holding that ISO week's Monday) or "2026-03-08" (the first day
// of the site's workweek).
std::optional<week::Week> weekArgument(const std::string& text, const site::SiteInfo& site) {
  if (text.size() == 8 && text[4] == '-' && text[5] == 'W') {
    int year = 0, number = 0;
    if (std::from_chars(text.data(), text.data() + 4, year).ptr != text.data() + 4 ||
        std::from_chars(text.data() + 6, text.data() + 8, number).ptr != text.data() + 8 ||
        number < 1 || number > 53) {
      return std::nullopt;
    }
    // ISO week 1 holds 4 January; its Monday, then `number - 1` weeks on.
    const chr::sys_days jan4{chr::year{year} / 1 / 4};
    const chr::sys_days monday = jan4 - (chr::weekday(jan4) - chr::Monday);
    const chr::sys_days day = monday + chr::weeks(number - 1);
    // A week belongs to the year of its Thursday: 2026 has a week 53, 2025 has none.
    if (chr::year_month_day(day + chr::days(3)).year() != chr::year{year}) return std::nullopt;
    const chr::local_days local(day.time_since_epoch());
    return week::weekOf(site, site::LocalTime(local) + chr::minutes(site.workdayStartMinute));
  }
  return week::parseWeek(text);
}

std::string planHours(std::int64_t minutes) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%lld:%02lld h", static_cast<long long>(minutes / 60),
                static_cast<long long>(minutes % 60));
  return buffer;
}

void printPlan(const week::FillOutcome& o, double seconds, Io& io) {
  const week::WeekPlan& p = o.plan;
  const week::PlanScore& s = p.score;
  io.out << o.edit.message << "\n"
         << "draft version " << o.edit.view.draft.version << "; " << p.summary << "\n";
  char took[32];
  std::snprintf(took, sizeof took, "%.2f s", seconds);
  io.out << "score (lower is better; the draft's in brackets), made in " << took << ":\n"
         << "  left open        " << s.shortfallShifts << " shifts, "
         << planHours(s.shortfallMinutes) << " (" << p.draftScore.shortfallShifts << ")\n"
         << "  premiums         " << labor::formatCents(s.premiumCents) << " ("
         << labor::formatCents(p.draftScore.premiumCents) << ")\n"
         << "  wages            " << labor::formatCents(s.wageCents) << " ("
         << labor::formatCents(p.draftScore.wageCents) << ")\n"
         << "  hours spread     " << planHours(s.hoursSpreadMinutes) << " ("
         << planHours(p.draftScore.hoursSpreadMinutes) << ")\n"
         << "  late/weekend     " << s.undesirableSpread << " apart ("
         << p.draftScore.undesirableSpread << ")\n"
         << "  away from main   " << s.preferenceMisses << " (" << p.draftScore.preferenceMisses
         << ")\n"
         << "  changes          " << s.changes << "\n";
  if (p.choices.empty()) return;
  io.out << "why:\n";
  for (const week::PlanChoice& c : p.choices) {
    io.out << "  " << c.shiftId << ": " << c.personId.value_or("open") << " - " << c.why << "\n";
    for (const week::PassedOver& other : c.others) {
      io.out << "      not " << other.personId << ": " << other.reason;
      if (!other.rules.empty()) {
        io.out << " (";
        for (std::size_t i = 0; i < other.rules.size(); ++i) {
          io.out << (i == 0 ? "" : ", ") << other.rules[i];
        }
        io.out << ")";
      }
      io.out << " - " << other.detail << "\n";
    }
  }
}

int fail(Io& io, const std::string& message, int code = kExitFailure) {
  io.err << "atoms-edge schedule fill: " << message << "\n";
  return code;
}

int runSchedule(const Args& args, Io& io) {
  if (args.positionals[0] != "fill") {
    return fail(io, "expected 'fill' (usage: atoms-edge schedule fill --week W)", kExitUsage);
  }
  if (!args.has("week")) return fail(io, "--week YYYY-Www or YYYY-MM-DD is needed", kExitUsage);
  double limit = 2;
  if (args.has("time-limit")) {
    const std::string text = args.get("time-limit", "");
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), limit);
    if (text.empty() || ec != std::errc() || end != text.data() + text.size() || !(limit > 0) ||
        limit > 600) {
      return fail(io, "--time-limit expects seconds above 0, at most 600", kExitUsage);
    }
  }
  week::FillRequest request;
  request.mode = args.has("build") ? week::BuildMode::kBuild : week::BuildMode::kFillOpen;
  if (args.has("requirements")) {
    if (!args.has("build")) return fail(io, "--requirements goes with --build", kExitUsage);
    const std::string path = args.get("requirements", "");
    auto text = readFileToString(path);
    if (!text) return fail(io, path + ": " + text.message(), kExitUsage);
    auto value = json::parse(*text);
    if (!value) return fail(io, path + ": " + value.message(), kExitUsage);
    auto requirements = api::parseRequirements(*value);
    if (!requirements) return fail(io, path + ": " + requirements.message(), kExitUsage);
    request.requirements = std::move(*requirements);
  }

  auto store = SiteStore::open(statePathsOf(args));
  if (!store) return fail(io, store.message());
  auto live = site::loadSite((*store)->db());
  if (!live) return fail(io, live.message());
  const auto week = weekArgument(args.get("week", ""), live->site);
  if (!week) return fail(io, "--week: expected YYYY-Www or YYYY-MM-DD", kExitUsage);
  const std::string laborDir = args.get("labor-dir", kScheduleLaborDir);
  week::WeekDesk desk(**store, [laborDir](const site::SiteModel& site) {
    return labor::loadRuleBook(laborDir, site.site.jurisdictions);
  });
  const TimePoint now = chr::system_clock::now();
  auto opened = desk.open(*week, "cli", now);
  if (!opened) return fail(io, opened.message());

  const auto started = chr::steady_clock::now();
  const auto deadline = started + chr::duration<double>(limit);
  request.limits.shouldStop = [deadline] { return chr::steady_clock::now() >= deadline; };
  auto outcome = desk.fill(*week, opened->draft.version, request, "cli", now);
  if (!outcome) return fail(io, outcome.message());
  const double seconds = chr::duration<double>(chr::steady_clock::now() - started).count();
  if (args.has("json")) {
    io.out << json::canonical(api::fillOutcomeJson(*outcome)) << "\n";
  } else {
    printPlan(*outcome, seconds, io);
  }
  return outcome->edit.status == week::DeskStatus::kDone ? kExitOk : kExitFailure;
}

}  // namespace

Command scheduleCommand() {
  return Command{
      .name = "schedule",
      .summary = "fill a week's open shifts or build the week with the roster engine",
      .usage =
          "atoms-edge schedule fill --week W [--build] [--requirements FILE] [--time-limit S]\n"
          "       [--state-dir DIR] [--labor-dir DIR] [--json]",
      .help =
          "fill             puts people on the open shifts of the week's draft; every assigned\n"
          "                 shift stays as it is.\n"
          "fill --build     builds the week: adds the shifts the requirements ask for (FILE, a\n"
          "                 JSON list, docs/api.md) and assigns every shift not started, keeping\n"
          "                 the draft's people where that is as good.\n"
          "W is an ISO week (2026-W11: the site's workweek holding its Monday) or the first\n"
          "day of the site's workweek (2026-03-08). The plan is made by the same engine as\n"
          "`atoms-edge solve`; every shift in it is checked by the labor engine and nothing it\n"
          "denies is proposed: what nobody can take stays open. It is saved as a new version of\n"
          "the draft (nothing is published) when it changes something. Prints the score beside\n"
          "the draft's and why each person was chosen and the others were not.\n"
          "Exit 0 when the plan was made, 1 on an error or a draft changed meanwhile, 2 for a\n"
          "bad command line or requirements file.\n",
      .options = {stateDirOption(),
                  {"week", "W", "the week: 2026-W11 or its first day 2026-03-08"},
                  {"build", "", "build the week instead of filling the open shifts"},
                  {"requirements", "FILE", "with --build: the staffing requirements (JSON)"},
                  {"time-limit", "S", "seconds the engine may search (default 2)"},
                  {"labor-dir", "DIR",
                   std::string("the labor rule tables (default ") + kScheduleLaborDir + ")"},
                  {"json", "", "print the outcome as canonical JSON (one line)"}},
      .minPositionals = 1,
      .maxPositionals = 1,
      .run = runSchedule,
  };
}

}  // namespace atoms::cli
