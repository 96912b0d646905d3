#include "daemon/demo/callout_demo.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <memory>
#include <ostream>
#include <sstream>
#include <string>

#include "daemon/api/labor_vs_sales_json.h"
#include "daemon/demo/callout_narrator.h"
#include "daemon/demo/phone_prompt.h"
#include "daemon/demo/simulated_site.h"
#include "domain/labor/pay.h"
#include "domain/labor/rule_table.h"
#include "domain/site/site_file.h"
#include "domain/site/site_repository.h"
#include "store/log_verifier.h"

namespace atoms {
namespace {

using demo::SimulatedSite;
namespace chr = std::chrono;

// "14.67 %", or "none (no sales yet)".
std::string laborPercentText(std::optional<std::int64_t> basisPoints) {
  if (!basisPoints) return "none (no sales yet)";
  return api::percentJson(basisPoints).asString() + " %";
}

// The site's local 16:55 on Friday 2026-12-04, where the demo's clock starts.
Result<TimePoint> demoStart(const site::SiteModel& model) {
  auto zone = site::TimeZone::locate(model.site.timeZone);
  if (!zone) return zone.error();
  auto utc = zone->toUtc(site::LocalTime{chr::local_days{chr::year{2026} / 12 / 4} +
                                         chr::hours{16} + chr::minutes{55}});
  if (!utc) return utc.error();
  return TimePoint(utc->time_since_epoch());
}

Result<site::SiteModel> readSite(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return makeError(path + ": cannot open (give the shipped etc/ with --etc-dir)");
  std::ostringstream text;
  text << in.rdbuf();
  auto model = site::parseSiteFile(text.str());
  if (!model) return makeError(path + ": " + model.message());
  return model;
}

bool receivedWith(const SimulatedSite& site, const std::string& phone, const std::string& part) {
  for (const demo::ReceivedText& t : site.received(phone)) {
    if (t.body.find(part) != std::string::npos) return true;
  }
  return false;
}

int offersTo(const SimulatedSite& site, const std::string& phone) {
  int offers = 0;
  for (const demo::ReceivedText& t : site.received(phone)) {
    offers += t.body.find(" to take it") != std::string::npos ? 1 : 0;
  }
  return offers;
}

// The word after `before` in the last text to `phone` that has it: the code in "Reply 4821 to
// take it", the number in "Reply APPROVE 12 or DENY 12". Empty if none.
std::string wordAfter(const SimulatedSite& site, const std::string& phone,
                      const std::string& before) {
  std::string word;
  for (const demo::ReceivedText& t : site.received(phone)) {
    const std::size_t at = t.body.find(before);
    if (at == std::string::npos) continue;
    const std::size_t start = at + before.size();
    word = t.body.substr(start, t.body.find_first_of(" .,", start) - start);
  }
  return word;
}

// The shift `personId` is assigned to that starts on the demo's Friday ("" if none).
std::string fridayShiftOf(const site::SiteModel& model, const std::string& personId) {
  for (const site::Shift& s : model.shifts) {
    if (s.assignee == personId &&
        chr::floor<chr::days>(s.start.local) == chr::local_days{chr::year{2026} / 12 / 4}) {
      return s.id;
    }
  }
  return "";
}

// The walk-through's steps and what each must have done.
class Walkthrough {
 public:
  Walkthrough(SimulatedSite& site, demo::CalloutNarrator& narrator, std::ostream& out,
              std::ostream& err)
      : site_(site), narrator_(narrator), out_(out), err_(err) {}

  // False once a step failed to run (the store, the engine): the demo stops there.
  bool run() {
    const site::Person* rosa = person("p-rosa");
    const site::Person* sam = person("p-sam");
    const site::Person* cleo = person("p-cleo");
    const site::Person* ben = person("p-ben");
    const site::Person* ana = person("p-ana");
    const site::Person* felix = person("p-felix");
    const site::Person* dev = person("p-dev");
    const site::Person* kwame = person("p-kwame");
    if (!ok_) return false;

    out_ << "\n1. Five minutes before the dinner shift, a line cook isn't here\n";
    const std::string jamalShift = fridayShiftOf(site_.model(), "p-jamal");
    if (!step(site_.text(rosa->phone, "Jamal isn't here, I'm alone on the line"))) return false;
    for (const char* id : {"p-ben", "p-ana", "p-cleo"}) {
      expect(offersTo(site_, person(id)->phone) == 1, site_.nameOf(id) + " gets an offer");
    }
    for (const char* id : {"p-tom", "p-nia", "p-zed", "p-lea", "p-priya", "p-omar", "p-rosa",
                           "p-mia", "p-luis", "p-jamal"}) {
      expect(offersTo(site_, person(id)->phone) == 0, site_.nameOf(id) + " gets no offer");
    }
    expect(receivedWith(site_, rosa->phone, "Finding cover for Jamal"), "Rosa hears it is on");
    expect(narrator_.count("handoff.checkin") == 1, "a check-in handoff for Jamal's manager");

    if (!step(site_.wait(chr::minutes(2)))) return false;
    if (!step(site_.text(cleo->phone, wordAfter(site_, cleo->phone, "Reply ")))) return false;
    auto assignee = site_.assigneeOf(jamalShift);
    expect(assignee && *assignee == "p-cleo", "Cleo gets Jamal's shift in the schedule");
    expect(receivedWith(site_, cleo->phone, "You're on"), "Cleo hears she is on");
    expect(receivedWith(site_, rosa->phone, "Covered: Cleo"), "Rosa hears it is covered");
    expect(receivedWith(site_, ana->phone, "is covered now"), "Ana hears it is covered");

    if (!step(site_.wait(chr::minutes(1)))) return false;
    if (!step(site_.text(ben->phone, wordAfter(site_, ben->phone, "Reply ")))) return false;
    expect(receivedWith(site_, ben->phone, "already covered"), "Ben hears it is already covered");
    const std::size_t before = site_.received(cleo->phone).size();
    if (!step(site_.text(cleo->phone, "why?"))) return false;
    expect(site_.received(cleo->phone).size() == before + 1, "WHY gets an answer");

    out_ << "\n2. The bartender can't come; the only one who may cover would be on overtime\n";
    if (!step(site_.wait(chr::minutes(12)))) return false;
    const std::string nadiaShift = fridayShiftOf(site_.model(), "p-nadia");
    if (!step(site_.text(sam->phone, "Nadia can't make it tonight"))) return false;
    expect(offersTo(site_, felix->phone) == 1, "Felix gets an offer");
    for (const char* id : {"p-jordan", "p-imani", "p-keisha"}) {
      expect(offersTo(site_, person(id)->phone) == 0, site_.nameOf(id) + " gets no offer");
    }
    out_ << "       (nobody answers for 20 minutes)\n";
    if (!step(site_.wait(chr::minutes(20)))) return false;
    expect(receivedWith(site_, kwame->phone, "still no cover"), "the general manager is told");
    if (!step(site_.text(felix->phone, wordAfter(site_, felix->phone, "Reply ")))) return false;
    const std::string approval = wordAfter(site_, dev->phone, "Reply APPROVE ");
    expect(!approval.empty(), "Felix's manager of record is asked to approve the overtime");
    auto waiting = site_.assigneeOf(nadiaShift);
    expect(waiting && *waiting == "p-nadia", "nothing is written before the approval");
    if (!step(site_.wait(chr::minutes(2)))) return false;
    if (!step(site_.text(dev->phone, "APPROVE " + approval))) return false;
    assignee = site_.assigneeOf(nadiaShift);
    expect(assignee && *assignee == "p-felix", "Felix gets Nadia's shift once approved");
    expect(receivedWith(site_, sam->phone, "Covered: Felix"), "Sam hears it is covered");
    return ok_;
  }

  bool ok() const { return ok_; }

 private:
  const site::Person* person(const std::string& id) {
    const site::Person* p = site_.find(id);
    expect(p != nullptr, "the demo site has " + id);
    return p;
  }
  bool step(const Status& s) {
    if (!s) err_ << "demo: the call-out part: " << s.message() << "\n";
    ok_ = ok_ && s.ok();
    return s.ok();
  }
  void expect(bool happened, const std::string& what) {
    if (!happened) err_ << "demo: the call-out part did not go as described: " << what << "\n";
    ok_ = ok_ && happened;
  }

  SimulatedSite& site_;
  demo::CalloutNarrator& narrator_;
  std::ostream& out_;
  std::ostream& err_;
  bool ok_ = true;
};

// "From the register's last three weeks, today's forecast: $6,100.00 ...": one paragraph.
std::string forecastLine(const forecast::SiteForecast& f) {
  double total = 0;
  double busiest = 0;
  int busiestSlot = 0;
  for (int slot = 0; slot < forecast::kIntervalsPerDay; ++slot) {
    double atSlot = 0;
    for (const forecast::RevenueCenterForecast& c : f.centers) {
      if (c.days.empty()) continue;
      atSlot += c.days.front().intervals[static_cast<std::size_t>(slot)].value(
          forecast::Measure::kNetSales);
    }
    total += atSlot;
    if (atSlot > busiest) {
      busiest = atSlot;
      busiestSlot = slot;
    }
  }
  return "From the register's last three weeks, today's forecast is " +
         labor::formatCents(std::llround(total)) + " net sales, busiest at " +
         site::formatTimeOfDay(busiestSlot * forecast::kIntervalMinutes) + "\n(" +
         labor::formatCents(std::llround(busiest)) +
         " a quarter hour). On a served box GET /v1/forecast shows it per quarter hour with the\n"
         "staff each station needs, and proposals when the day runs well off it "
         "(docs/forecast.md).\n";
}

}  // namespace

int runCalloutDemo(const std::string& stateDir, const CalloutDemoOptions& options,
                   std::ostream& out, std::ostream& err) {
  auto model = readSite(options.siteFile);
  if (!model) {
    err << "demo: " << model.message() << "\n";
    return 1;
  }
  auto rules = labor::loadRuleBook(options.laborDir, model->site.jurisdictions);
  auto start = demoStart(*model);
  auto store = SiteStore::open(stateDir);
  if (!rules || !start || !store) {
    err << "demo: "
        << (!rules   ? options.laborDir + ": " + rules.message()
            : !start ? start.message()
                     : store.message())
        << "\n";
    return 1;
  }
  if (Status s = site::importSite((*store)->db(), *model); !s) {
    err << "demo: " << s.message() << "\n";
    return 1;
  }

  demo::SiteSetup setup;
  setup.laborDir = options.laborDir;
  setup.start = *start;
  setup.settings.generalManager = "p-kwame";
  setup.graduation = policy::Graduation::kAutonomous;
  for (const site::Person& p : model->people) {
    if (p.id == setup.settings.generalManager) setup.contact = {p.name, p.phone};
  }
  demo::CalloutNarrator narrator(std::move(*rules));
  std::unique_ptr<SimulatedSite> site;
  auto opened = SimulatedSite::open(
      **store, setup, out, err,
      [&](const std::vector<Entry>& entries) { narrator.narrate(*site, entries); });
  if (!opened) {
    err << "demo: " << opened.message() << "\n";
    return 1;
  }
  site = std::move(*opened);

  out << "\nA call-out, start to finish, at " << model->site.name
      << " (San Francisco: US, California and\nSan Francisco labor rules): " << model->people.size()
      << " people on " << model->stations.size() << " stations, a week of " << model->shifts.size()
      << " shifts (" << options.siteFile << ").\n"
      << site->dayText() << ", " << site->clockText()
      << " on the simulated clock. Shown with policy.graduation.staffing_scheduling =\n"
         "autonomous: offers and clean assignments go ahead, premium pay waits for a manager. The\n"
         "default, propose, also asks a manager before offers go out and before each assignment.\n";
  if (auto sales = site->salesToday()) {
    out << "The register (a simulated POS, polled like Square) has sent today's orders so far: $"
        << sales->netCents / 100 << "." << (sales->netCents % 100 < 10 ? "0" : "")
        << sales->netCents % 100 << " net sales, " << sales->transactions << " transactions, "
        << sales->covers << " covers (docs/pos.md).\n"
        << "Labor against sales: " << laborPercentText(sales->laborSoFar) << " so far, "
        << laborPercentText(sales->laborProjected)
        << " projected for the day (the panel's Sales & labor page).\n";
  }
  if (auto forecast = site->forecastToday()) {
    out << forecastLine(*forecast);
  }
  Walkthrough walk(*site, narrator, out, err);
  const bool walked = walk.run();

  out << "\nReceipts (signed, in the audit log; `WHY` from a phone reads out a text's sources):\n";
  for (const auto& [id, seq] : narrator.receipts()) {
    std::string number = std::to_string(seq);
    number.resize(std::max<std::size_t>(number.size() + 1, 5), ' ');
    out << "  seq " << number << id << "\n";
  }
  int status = walked ? 0 : 1;
  if (walked && options.phones != nullptr) {
    // What the cast list says beyond each person's stations, hours and age.
    const std::map<std::string, std::string> notes{
        {"p-kwame", "general manager"},
        {"p-marisol", "kitchen manager (manager of record of the kitchen)"},
        {"p-dev", "front-of-house manager (manager of record of the bar and floor)"},
        {"p-rosa", "kitchen shift lead"},
        {"p-sam", "floor shift lead"},
        {"p-zed", "no food handler card"},
        {"p-priya", "time off on Friday 12/4"},
        {"p-jordan", "RBS certification expired"},
    };
    status = demo::runPhonePrompt(*site, notes, *options.phones, out, err, options.prompt);
  }
  site.reset();
  const VerifyReport report =
      verifyDatabase((*store)->db(), (*store)->verifierKey(), model->site.id);
  out << "verify: " << (report.ok() ? "ok" : "FAILED: " + report.problem) << ", " << report.entries
      << " entries, " << report.checkpoints << " checkpoints, " << report.receipts << " receipts\n";
  return report.ok() ? status : 1;
}

}  // namespace atoms
