#include "daemon/demo/phone_prompt.h"

#include <algorithm>
#include <charconv>
#include <istream>
#include <ostream>
#include <vector>

#include "daemon/demo/columns.h"

namespace atoms::demo {
namespace {

constexpr const char* kHelp =
    "  NAME: TEXT   text the box from that person's phone (first name, full name or phone),\n"
    "               e.g.  Rosa: Omar isn't here   |   Ana: 4821   |   Dev: APPROVE 2   |   "
    "Ben: WHY\n"
    "  wait N       move the clock N minutes (waves every 5, the general manager after 20)\n"
    "  phones       who is who        inbox NAME   what that phone received\n"
    "  absent NAME  NAME stops clocking in: watch the time clock's no-show question\n"
    "  help         this list         quit         the end\n";

std::string trim(const std::string& s) {
  const auto begin = s.find_first_not_of(" \t\r");
  if (begin == std::string::npos) return "";
  return s.substr(begin, s.find_last_not_of(" \t\r") - begin + 1);
}

bool isPhoneNumber(const std::string& s) {
  return s.size() > 8 && s[0] == '+' &&
         std::all_of(s.begin() + 1, s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// "line cook, prep cook; 16 h this week; kitchen shift lead; 15 years old; no consent to texts"
std::string describe(const site::SiteModel& model, const site::Person& p,
                     const std::map<std::string, std::string>& notes, site::LocalTime now) {
  const site::SiteIndex index(model);
  std::vector<std::string> parts;
  std::string stations;
  for (const std::string& role : p.roles) {
    const site::Station* s = index.station(role);
    stations += (stations.empty() ? "" : ", ") + (s != nullptr ? s->name : role);
  }
  if (!stations.empty()) parts.push_back(stations);
  // The workweek runs from Sunday (the site's week), as the labor rules count it here.
  const auto today = std::chrono::floor<std::chrono::days>(now);
  const auto weekStart = today - (std::chrono::weekday{today} - std::chrono::Sunday);
  std::chrono::minutes week{0};
  for (const site::Shift& s : model.shifts) {
    if (s.assignee != p.id) continue;
    if (s.start.local < weekStart || s.start.local >= weekStart + std::chrono::days(7)) continue;
    week += std::chrono::duration_cast<std::chrono::minutes>(s.end.utc - s.start.utc);
  }
  if (!p.roles.empty()) parts.push_back(std::to_string(week.count() / 60) + " h this week");
  if (auto note = notes.find(p.id); note != notes.end()) parts.push_back(note->second);
  if (p.minor && p.birthDate) {
    const std::chrono::year_month_day day{today};
    int age = static_cast<int>(day.year()) - static_cast<int>(p.birthDate->year());
    if (std::chrono::month_day{day.month(), day.day()} <
        std::chrono::month_day{p.birthDate->month(), p.birthDate->day()}) {
      --age;
    }
    parts.push_back(std::to_string(age) + " years old");
  }
  if (!p.smsConsent.granted) parts.push_back("no consent to texts");
  std::string out;
  for (const std::string& part : parts) out += (out.empty() ? "" : "; ") + part;
  return out;
}

}  // namespace

int runPhonePrompt(SimulatedSite& site, const std::map<std::string, std::string>& notes,
                   std::istream& in, std::ostream& out, std::ostream& err, bool prompt) {
  out << "\nYour turn: every phone of the cast is yours. Commands:\n" << kHelp;
  std::string raw;
  for (;;) {
    if (prompt) out << site.clockText() << " > ";
    out.flush();
    if (!std::getline(in, raw)) break;
    const std::string command = trim(raw);
    if (command.empty()) continue;
    if (command == "quit" || command == "exit") break;
    if (command == "help") {
      out << kHelp;
      continue;
    }
    if (command == "phones") {
      auto model = site.storedModel();
      if (!model) {
        err << "demo: " << model.message() << "\n";
        return 1;
      }
      for (const site::Person& p : model->people) {
        out << "  " << padded(p.name, 15) << p.phone << "  "
            << describe(*model, p, notes, site.localNow()) << "\n";
      }
      continue;
    }
    // "inbox Ana", "absent Ana": the person named after the command word.
    const auto named = [&](std::size_t skip) {
      const site::Person* p = site.find(trim(command.substr(skip)));
      if (p == nullptr) out << "  nobody called that here; `phones` lists everyone\n";
      return p;
    };
    if (command.rfind("absent ", 0) == 0) {
      const site::Person* p = named(7);
      if (p == nullptr) continue;
      site.stayAway(p->id);
      out << "  " << p->name << " will not clock in from now on; " << site.noShowGrace().count()
          << " minutes after a shift of theirs starts, the lead on duty is asked\n";
      continue;
    }
    if (command.rfind("inbox ", 0) == 0) {
      const site::Person* p = named(6);
      if (p == nullptr) continue;
      const auto texts = site.received(p->phone);
      if (texts.empty()) out << "  " << p->name << "'s phone has received nothing from the box\n";
      for (const ReceivedText& t : texts) out << "  " << t.at << "  \"" << t.body << "\"\n";
      continue;
    }
    if (command.rfind("wait", 0) == 0 && command.find(':') == std::string::npos) {
      const std::string n = trim(command.substr(4));
      int minutes = 0;
      const auto parsed = std::from_chars(n.data(), n.data() + n.size(), minutes);
      if (parsed.ec != std::errc() || parsed.ptr != n.data() + n.size() || minutes < 1 ||
          minutes > 1440) {
        out << "  wait how long? `wait 5` moves the clock 5 minutes (1 to 1440)\n";
        continue;
      }
      if (Status s = site.wait(std::chrono::minutes(minutes)); !s) {
        err << "demo: " << s.message() << "\n";
        return 1;
      }
      out << "       (the clock is at " << site.clockText() << ")\n";
      continue;
    }
    const std::size_t colon = command.find(':');
    if (colon == std::string::npos) {
      out << "  to text the box, write NAME: TEXT (e.g. Ana: HELP); `help` lists the rest\n";
      continue;
    }
    const std::string who = trim(command.substr(0, colon));
    const std::string body = trim(command.substr(colon + 1));
    const site::Person* p = site.find(who);
    if (p == nullptr && !isPhoneNumber(who)) {
      out << "  nobody called " << who
          << " here; `phones` lists everyone (or use a +1... number)\n";
      continue;
    }
    if (body.empty()) {
      out << "  what does " << who << " text? e.g. " << who << ": HELP\n";
      continue;
    }
    if (Status s = site.text(p != nullptr ? p->phone : who, body); !s) {
      err << "demo: " << s.message() << "\n";
      return 1;
    }
  }
  out << "\n";
  return 0;
}

}  // namespace atoms::demo
