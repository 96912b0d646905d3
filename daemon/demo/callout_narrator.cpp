#include "daemon/demo/callout_narrator.h"

#include <algorithm>
#include <iomanip>
#include <map>
#include <ostream>
#include <sstream>

#include "daemon/demo/columns.h"
#include "domain/labor/labor_engine.h"

namespace atoms::demo {
namespace {

// Tolerant reads: a field the desk did not write reads as empty, never throws.
std::string text(const json::Object& o, const std::string& key) {
  auto it = o.find(key);
  return it != o.end() && it->second.isString() ? it->second.asString() : std::string();
}
std::int64_t number(const json::Object& o, const std::string& key) {
  auto it = o.find(key);
  return it != o.end() && it->second.isInt() ? it->second.asInt() : 0;
}
json::Array array(const json::Object& o, const std::string& key) {
  auto it = o.find(key);
  return it != o.end() && it->second.isArray() ? it->second.asArray() : json::Array();
}

std::string duration(std::int64_t minutes) {
  std::string out = std::to_string(minutes / 60) + " h";
  if (minutes % 60 != 0) out += " " + std::to_string(minutes % 60) + " min";
  return out;
}

std::string money(std::int64_t cents) {
  std::ostringstream out;
  out << "$" << cents / 100 << "." << std::setw(2) << std::setfill('0') << cents % 100;
  return out.str();
}

std::string seqText(std::uint64_t seq) { return "[seq " + std::to_string(seq) + "]"; }

// "Tom Gray (15)" for a minor, the name otherwise.
std::string nameWithAge(const site::SiteModel& model, const std::string& personId,
                        const std::string& day) {
  for (const site::Person& p : model.people) {
    if (p.id != personId) continue;
    if (!p.minor || !p.birthDate || day.size() < 10) return p.name;
    const int year = std::stoi(day.substr(0, 4));
    const int monthDay = std::stoi(day.substr(5, 2)) * 100 + std::stoi(day.substr(8, 2));
    const int bornMonthDay = static_cast<int>(static_cast<unsigned>(p.birthDate->month())) * 100 +
                             static_cast<int>(static_cast<unsigned>(p.birthDate->day()));
    int age = year - static_cast<int>(p.birthDate->year());
    if (monthDay < bornMonthDay) --age;
    return p.name + " (" + std::to_string(age) + ")";
  }
  return personId;
}

std::string reasonWords(const std::string& reason) {
  if (reason == "no_consent") return "no consent to texts on file";
  if (reason == "opted_out") return "opted out of texts";
  if (reason == "quiet_hours") return "in quiet hours";
  return reason;
}

}  // namespace

void CalloutNarrator::narrate(SimulatedSite& site, const std::vector<Entry>& entries) {
  for (const Entry& e : entries) {
    ++kinds_[e.kind];
    if (!e.body.isObject()) continue;
    const json::Object& b = e.body.asObject();
    const std::string callout = std::to_string(number(b, "callout"));
    if (e.kind == "receipt") {
      receipt(site, e);
    } else if (e.kind == "callout.open") {
      const site::SiteIndex index(site.model());
      const site::Shift* shift = index.shift(text(b, "shift"));
      const site::Station* station = shift != nullptr ? index.station(shift->stationId) : nullptr;
      const std::string absent = site.nameOf(text(b, "absent"));
      site.line() << "call-out " << callout << ": cover needed for " << absent << "'s shift"
                  << (station != nullptr ? ", " + station->name + " " + site.hoursOf(*shift)
                                         : std::string())
                  << " ("
                  << (text(b, "origin") == "self"
                          ? "told by " + absent + " themselves"
                          : "reported by " + site.nameOf(text(b, "reporter")))
                  << ") " << seqText(e.seq) << "\n";
    } else if (e.kind == "handoff.checkin") {
      site.line() << "a note for " << site.nameOf(text(b, "to")) << ": check in kindly with "
                  << site.nameOf(text(b, "person"))
                  << " tomorrow (a handoff, never a disciplinary record) " << seqText(e.seq)
                  << "\n";
    } else if (e.kind == "approval.decided") {
      site.line() << "approval " << number(b, "approval") << ": " << text(b, "decision") << " by "
                  << site.nameOf(text(b, "by")) << " " << seqText(e.seq) << "\n";
    } else if (e.kind == "approval.refused") {
      const std::string reason = text(b, "reason");
      site.line() << "approval " << number(b, "approval") << " not decided: "
                  << (reason == "self_approval"  ? "nobody decides their own approval"
                      : reason == "not_approver" ? "only the manager it was sent to decides"
                                                 : "the policy gate pauses approvals now")
                  << " " << seqText(e.seq) << "\n";
    } else if (e.kind == "approval.expired") {
      site.line() << "approval " << number(b, "approval") << " lapsed unanswered " << seqText(e.seq)
                  << "\n";
    } else if (e.kind == "callout.withdrawn") {
      site.line() << "call-out " << callout << " stops: " << text(b, "reason")
                  << "; open offers withdrawn " << seqText(e.seq) << "\n";
    } else if (e.kind == "callout.expired") {
      site.line() << "call-out " << callout << " closes: its shift has ended " << seqText(e.seq)
                  << "\n";
    } else if (e.kind == "callout.declined") {
      site.line() << site.nameOf(text(b, "person")) << " passed on call-out " << callout << " "
                  << seqText(e.seq) << "\n";
    } else if (e.kind == "callout.wave_paused") {
      site.line() << "call-out " << callout
                  << ": the next offers wait, the policy gate does not let them out now "
                  << seqText(e.seq) << "\n";
    }
  }
}

void CalloutNarrator::receipt(SimulatedSite& site, const Entry& entry) {
  const json::Object& b = entry.body.asObject();
  const std::string id = text(b, "id");
  const bool callout = id.rfind("callout-", 0) == 0;
  const bool approval = id.rfind("approval-", 0) == 0;
  const bool noShow = id.rfind("noshow-", 0) == 0;
  if (!callout && !approval && !noShow) return;  // the texts' own receipts: WHY reads them out
  // A later wave with nobody new to offer is left out of the story.
  if (id.find("-wave-") != std::string::npos && array(b, "offered").empty() &&
      number(b, "wave") != 1) {
    return;
  }
  receipts_.emplace_back(id, entry.seq);
  const std::string ref = "[receipt " + id + ", seq " + std::to_string(entry.seq) + "]";
  const std::string person = site.nameOf(text(b, "person"));
  if (noShow) {
    const site::Shift* shift = site::SiteIndex(site.model()).shift(text(b, "shift"));
    site.line() << person << " has not clocked in"
                << (shift != nullptr ? " for " + site.hoursOf(*shift) : std::string())
                << ": the box asks " << site.nameOf(text(b, "asked"))
                << " and does nothing else until a person answers " << ref << "\n";
  } else if (id.find("-wave-") != std::string::npos) {
    wave(site, b, entry.seq);
  } else if (id.find("-assign") != std::string::npos) {
    std::string gate;
    std::size_t checked = 0;
    for (const json::Value& v : array(b, "ruleEvaluations")) {
      if (!v.isObject()) continue;
      if (text(v.asObject(), "ruleId") == "policy.gate") {
        gate = text(v.asObject(), "detail");
      } else {
        ++checked;
      }
    }
    std::ostream& out = site.line();
    out << person << " gets the shift, written to the schedule: " << checked
        << " labor-rule checks run again at this moment";
    if (number(b, "premiumMinutes") > 0) {
      out << ", " << duration(number(b, "premiumMinutes")) << " at premium pay ("
          << money(number(b, "premiumCents")) << ") approved";
    }
    out << "; policy gate: " << gate << " " << ref << "\n";
  } else if (id.find("-refuse-") != std::string::npos) {
    site.line() << person << " no longer passes the labor rules at this moment: not given " << ref
                << "\n";
  } else if (id.find("-escalate") != std::string::npos) {
    const std::int64_t offers = number(b, "offers");
    site.line() << "no cover yet (" << offers << (offers == 1 ? " offer" : " offers")
                << " made): the general manager is told " << ref << "\n";
  } else if (approval) {
    const std::string kind = text(b, "action");
    const std::string approver = site.nameOf(text(b, "approver"));
    std::ostream& out = site.line();
    out << "approval " << number(b, "approval") << ": ";
    if (kind == "overtime.approve") {
      out << person << " would be owed " << duration(number(b, "premiumMinutes"))
          << " at premium pay (" << money(number(b, "premiumCents"))
          << "); nothing is written until " << approver << ", their manager of record, decides "
          << ref << "\n";
    } else if (kind == "callout.offer") {
      out << "no offer leaves before " << approver << " says go (PROPOSE) " << ref << "\n";
    } else {
      out << person << " takes it once " << approver << " approves (PROPOSE) " << ref << "\n";
    }
  }
}

void CalloutNarrator::wave(SimulatedSite& site, const json::Object& b, std::uint64_t seq) {
  const json::Array offered = array(b, "offered");
  const std::int64_t wave = number(b, "wave");
  if (offered.empty()) {
    site.line() << "nobody can be offered the shift " << seqText(seq) << "\n";
    return;
  }
  site.line() << "offers, wave " << wave << " (" << text(b, "ranking") << ") [receipt "
              << text(b, "id") << ", seq " << seq << "]:\n";
  for (const json::Value& v : offered) {
    if (!v.isObject()) continue;
    const json::Object& o = v.asObject();
    const std::int64_t premium = number(o, "premiumMinutes");
    site.line() << "  " << number(o, "rank") << ". " << padded(site.nameOf(text(o, "person")), 16)
                << (premium > 0 ? duration(premium) + " at premium pay (" +
                                      money(number(o, "premiumCents")) + ")"
                                : std::string("no premium"))
                << ", " << number(o, "offersLast14Days")
                << (number(o, "offersLast14Days") == 1 ? " offer" : " offers") << " in 14 days, "
                << duration(number(o, "minutesThisWeek")) << " this week"
                << (text(o, "outreach") == "held" ? " (held: quiet hours)" : "") << "\n";
  }
  if (wave != 1) return;  // who was not offered is the same story at every wave
  const std::string day = site.dayText().substr(4);
  bool first = true;
  for (const json::Value& v : array(b, "notOffered")) {
    if (!v.isObject()) continue;
    const json::Object& o = v.asObject();
    const std::string reason = text(o, "reason");
    if (reason == "already_offered") continue;
    if (first) site.line() << "  not offered:\n";
    first = false;
    site.line() << "     " << padded(nameWithAge(site.model(), text(o, "person"), day), 16)
                << (reason == "denied" ? why(site.model(), array(o, "rules")) : reasonWords(reason))
                << "\n";
  }
}

std::string CalloutNarrator::why(const site::SiteModel& model, const json::Array& ruleIds) const {
  // Words in the order first seen, each with its rule ids.
  std::vector<std::pair<std::string, std::string>> grouped;
  for (const json::Value& v : ruleIds) {
    if (!v.isString()) continue;
    const std::string words = ruleWords(model, v.asString());
    auto it = std::find_if(grouped.begin(), grouped.end(),
                           [&](const auto& g) { return g.first == words; });
    if (it == grouped.end()) {
      grouped.emplace_back(words, v.asString());
    } else {
      it->second += ", " + v.asString();
    }
  }
  std::string out;
  for (const auto& [words, ids] : grouped) {
    out += (out.empty() ? "" : "; ") + words + " (" + ids + ")";
  }
  return out.empty() ? "the labor rules" : out;
}

std::string CalloutNarrator::ruleWords(const site::SiteModel& model,
                                       const std::string& ruleId) const {
  if (ruleId == labor::kRuleOverlap) return "already working then";
  if (ruleId == labor::kRuleTimeOff) return "on approved time off";
  if (ruleId == labor::kRuleStationAge) return "under the station's minimum age";
  if (ruleId == labor::kRuleCertification) return "missing a certification the station needs";
  const std::vector<const labor::Rule*> versions = rules_.versionsOf(ruleId);
  if (versions.empty()) return "a labor rule";
  const labor::Rule& rule = *versions.front();
  switch (rule.kind) {
    case labor::RuleKind::kMinorHours:
      return "minors' hours";
    case labor::RuleKind::kStationMinAge:
      return "under the legal age for this work";
    case labor::RuleKind::kStationCertification: {
      const std::string& id = rule.text("certification");
      for (const site::Certification& c : model.certifications) {
        if (c.id == id) return "no valid " + c.name;
      }
      return "no valid " + id;
    }
    case labor::RuleKind::kMinRestBetweenShifts:
      return "too little rest between shifts";
    case labor::RuleKind::kRightToDeclineAddedHours:
      return "needs their consent to added hours";
    default:
      return "a labor rule";
  }
}

}  // namespace atoms::demo
