#include "domain/schedule/benchmark_format.h"

#include <charconv>
#include <cstdint>
#include <map>
#include <optional>
#include <utility>
#include <vector>

#include "base/one_line.h"

namespace atoms::schedule {
namespace {

// An employee or shift ID must survive the roster format (tab-separated, '#' starts a comment,
// '-' is a day off) and an error message: short printable ASCII, no tab, neither "-" nor "#...".
bool isRosterId(std::string_view id) {
  return !id.empty() && id.size() <= 64 && isPrintableAscii(id) && id.front() != '#' && id != "-";
}

// An ID as an error quotes it: cut, with control characters escaped.
std::string quotedId(std::string_view id) { return "'" + oneLine(id.substr(0, 64)) + "'"; }

struct NumberedLine {
  int number = 0;  // 1-based, as an editor shows it
  std::string_view text;
};

std::string_view trimmedView(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r')) {
    s.remove_prefix(1);
  }
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) {
    s.remove_suffix(1);
  }
  return s;
}

std::vector<NumberedLine> splitLines(std::string_view text) {
  std::vector<NumberedLine> lines;
  int number = 0;
  while (!text.empty()) {
    ++number;
    const auto end = text.find('\n');
    const std::string_view line = text.substr(0, end);
    lines.push_back({number, trimmedView(line)});
    if (end == std::string_view::npos) break;
    text.remove_prefix(end + 1);
  }
  return lines;
}

std::vector<std::string_view> splitOn(std::string_view s, char sep) {
  std::vector<std::string_view> parts;
  while (true) {
    const auto at = s.find(sep);
    parts.push_back(trimmedView(s.substr(0, at)));
    if (at == std::string_view::npos) break;
    s.remove_prefix(at + 1);
  }
  return parts;
}

Error lineError(int line, std::string_view section, const std::string& what) {
  return makeError("line " + std::to_string(line) + ": " + std::string(section) + ": " + what,
                   ErrorKind::kInvalid);
}

std::optional<std::int64_t> wholeNumber(std::string_view s) {
  std::int64_t n = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), n);
  if (s.empty() || ec != std::errc() || end != s.data() + s.size() || n < 0) return std::nullopt;
  return n;
}

// The reader keeps the section being read and the names seen so far, so later sections can refer
// to employees and shifts by ID.
class InstanceReader {
 public:
  Result<RosterInstance> read(std::string_view text) {
    std::string section;
    for (const NumberedLine& line : splitLines(text)) {
      if (line.text.empty() || line.text.front() == '#') continue;
      if (line.text.rfind("SECTION_", 0) == 0) {
        section = std::string(line.text);
        if (!known(section)) return lineError(line.number, section, "unknown section");
        if (!seen_.emplace(section, line.number).second) {
          return lineError(line.number, section, "section given twice");
        }
        if (section != "SECTION_HORIZON" && out_.days == 0) {
          return lineError(line.number, section, "SECTION_HORIZON must come first");
        }
        continue;
      }
      if (section.empty()) return lineError(line.number, "(none)", "data before any section");
      Status s = readLine(section, line);
      if (!s) return s.error();
    }
    for (const char* needed : {"SECTION_HORIZON", "SECTION_SHIFTS", "SECTION_STAFF"}) {
      if (!seen_.count(needed)) {
        return makeError(std::string("missing section ") + needed, ErrorKind::kInvalid);
      }
    }
    if (out_.people.empty()) return makeError("no employees in SECTION_STAFF", ErrorKind::kInvalid);
    return std::move(out_);
  }

 private:
  static bool known(const std::string& s) {
    for (const char* name :
         {"SECTION_HORIZON", "SECTION_SHIFTS", "SECTION_STAFF", "SECTION_DAYS_OFF",
          "SECTION_SHIFT_ON_REQUESTS", "SECTION_SHIFT_OFF_REQUESTS", "SECTION_COVER"}) {
      if (s == name) return true;
    }
    return false;
  }

  Status readLine(const std::string& section, const NumberedLine& line) {
    if (section == "SECTION_HORIZON") return horizon(line);
    if (section == "SECTION_SHIFTS") return shift(line);
    if (section == "SECTION_STAFF") return staff(line);
    if (section == "SECTION_DAYS_OFF") return daysOff(line);
    if (section == "SECTION_COVER") return cover(line);
    return request(section, line);
  }

  Result<std::int64_t> number(const NumberedLine& line, std::string_view section,
                              std::string_view field, std::string_view text) {
    const auto n = wholeNumber(text);
    if (!n || *n > 1'000'000) {
      return lineError(
          line.number, section,
          std::string(field) + " " + quotedId(text) + " is not a whole number from 0 to 1000000");
    }
    return *n;
  }

  Status horizon(const NumberedLine& line) {
    if (out_.days != 0) return lineError(line.number, "SECTION_HORIZON", "a second horizon");
    auto days = number(line, "SECTION_HORIZON", "the horizon", line.text);
    if (!days) return days.error();
    if (*days < 1 || *days > 3660) {
      return lineError(line.number, "SECTION_HORIZON", "the horizon must be 1 to 3660 days");
    }
    out_.days = static_cast<int>(*days);
    return Status::success();
  }

  Status shift(const NumberedLine& line) {
    if (!out_.people.empty()) {
      return lineError(line.number, "SECTION_SHIFTS", "shifts must come before SECTION_STAFF");
    }
    const auto fields = splitOn(line.text, ',');
    if (fields.size() != 3) {
      return lineError(line.number, "SECTION_SHIFTS",
                       "expected 'ShiftID, LengthMins, CannotFollow|...'");
    }
    if (!isRosterId(fields[0])) {
      return lineError(line.number, "SECTION_SHIFTS",
                       "shift ID " + quotedId(fields[0]) +
                           " is not 1-64 printable ASCII characters (not '-', no tab)");
    }
    if (typeIndex_.count(std::string(fields[0]))) {
      return lineError(line.number, "SECTION_SHIFTS",
                       "shift ID " + quotedId(fields[0]) + " given twice");
    }
    auto minutes = number(line, "SECTION_SHIFTS", "the length", fields[1]);
    if (!minutes) return minutes.error();
    typeIndex_[std::string(fields[0])] = out_.typeCount();
    out_.types.push_back({std::string(fields[0]), static_cast<int>(*minutes), {}});
    pendingFollow_.push_back({line.number, std::string(fields[2])});
    return Status::success();
  }

  // Successions name shifts that may come later in the section, so they are resolved when the
  // first staff line arrives.
  Status resolveSuccessions() {
    if (resolved_) return Status::success();
    resolved_ = true;
    for (ShiftType& t : out_.types) t.cannotFollow.assign(out_.types.size(), false);
    for (std::size_t i = 0; i < pendingFollow_.size(); ++i) {
      if (pendingFollow_[i].second.empty()) continue;
      for (std::string_view id : splitOn(pendingFollow_[i].second, '|')) {
        if (id.empty()) continue;
        const auto it = typeIndex_.find(std::string(id));
        if (it == typeIndex_.end()) {
          return lineError(pendingFollow_[i].first, "SECTION_SHIFTS",
                           "unknown shift " + quotedId(id) + " in the successions");
        }
        out_.types[i].cannotFollow[it->second] = true;
      }
    }
    return Status::success();
  }

  Status staff(const NumberedLine& line) {
    if (out_.types.empty()) return lineError(line.number, "SECTION_STAFF", "no shifts defined");
    Status s = resolveSuccessions();
    if (!s) return s;
    const auto fields = splitOn(line.text, ',');
    if (fields.size() != 8) {
      return lineError(line.number, "SECTION_STAFF",
                       "expected 8 fields (ID, MaxShifts, MaxTotalMinutes, MinTotalMinutes, "
                       "MaxConsecutiveShifts, MinConsecutiveShifts, MinConsecutiveDaysOff, "
                       "MaxWeekends), got " +
                           std::to_string(fields.size()));
    }
    Person p;
    p.id = std::string(fields[0]);
    if (!isRosterId(p.id)) {
      return lineError(line.number, "SECTION_STAFF",
                       "employee ID " + quotedId(p.id) +
                           " is not 1-64 printable ASCII characters (not '-', no tab)");
    }
    if (personIndex_.count(p.id)) {
      return lineError(line.number, "SECTION_STAFF", "employee ID " + quotedId(p.id) + " repeated");
    }
    p.maxPerType.assign(out_.types.size(), out_.days);
    for (std::string_view limit : splitOn(fields[1], '|')) {
      if (limit.empty()) continue;
      const auto eq = limit.find('=');
      const auto it = typeIndex_.find(std::string(limit.substr(0, eq)));
      if (eq == std::string_view::npos || it == typeIndex_.end()) {
        return lineError(
            line.number, "SECTION_STAFF",
            "MaxShifts '" + std::string(limit) + "' is not ShiftID=n of a known shift");
      }
      auto n = number(line, "SECTION_STAFF", "MaxShifts", limit.substr(eq + 1));
      if (!n) return n.error();
      p.maxPerType[it->second] = static_cast<int>(*n);
    }
    std::int64_t v[6];
    const char* names[] = {"MaxTotalMinutes",      "MinTotalMinutes",       "MaxConsecutiveShifts",
                           "MinConsecutiveShifts", "MinConsecutiveDaysOff", "MaxWeekends"};
    for (int i = 0; i < 6; ++i) {
      auto n = number(line, "SECTION_STAFF", names[i], fields[2 + i]);
      if (!n) return n.error();
      v[i] = *n;
    }
    p.maxMinutes = v[0];
    p.minMinutes = v[1];
    p.maxConsecutive = static_cast<int>(v[2]);
    p.minConsecutive = static_cast<int>(v[3]);
    p.minDaysOff = static_cast<int>(v[4]);
    p.maxWeekends = static_cast<int>(v[5]);
    p.dayOff.assign(out_.days, false);
    personIndex_[p.id] = out_.personCount();
    out_.people.push_back(std::move(p));
    return Status::success();
  }

  Result<int> personOf(const NumberedLine& line, std::string_view section, std::string_view id) {
    const auto it = personIndex_.find(std::string(id));
    if (it == personIndex_.end()) {
      return lineError(line.number, section, "unknown employee " + quotedId(id));
    }
    return it->second;
  }
  Result<int> typeOf(const NumberedLine& line, std::string_view section, std::string_view id) {
    const auto it = typeIndex_.find(std::string(id));
    if (it == typeIndex_.end()) {
      return lineError(line.number, section, "unknown shift " + quotedId(id));
    }
    return it->second;
  }
  Result<int> dayOf(const NumberedLine& line, std::string_view section, std::string_view text) {
    auto n = number(line, section, "the day", text);
    if (!n) return n.error();
    if (*n >= out_.days) {
      return lineError(line.number, section,
                       "day " + std::to_string(*n) + " is outside the horizon of " +
                           std::to_string(out_.days) + " days");
    }
    return static_cast<int>(*n);
  }

  Status daysOff(const NumberedLine& line) {
    const auto fields = splitOn(line.text, ',');
    auto person = personOf(line, "SECTION_DAYS_OFF", fields[0]);
    if (!person) return person.error();
    for (std::size_t i = 1; i < fields.size(); ++i) {
      if (fields[i].empty()) continue;
      auto day = dayOf(line, "SECTION_DAYS_OFF", fields[i]);
      if (!day) return day.error();
      out_.people[*person].dayOff[*day] = true;
    }
    return Status::success();
  }

  Status request(const std::string& section, const NumberedLine& line) {
    const auto fields = splitOn(line.text, ',');
    if (fields.size() != 4) {
      return lineError(line.number, section, "expected 'EmployeeID, Day, ShiftID, Weight'");
    }
    auto person = personOf(line, section, fields[0]);
    if (!person) return person.error();
    auto day = dayOf(line, section, fields[1]);
    if (!day) return day.error();
    auto type = typeOf(line, section, fields[2]);
    if (!type) return type.error();
    auto weight = number(line, section, "the weight", fields[3]);
    if (!weight) return weight.error();
    const ShiftRequest r{*person, *day, *type, static_cast<int>(*weight)};
    (section == "SECTION_SHIFT_ON_REQUESTS" ? out_.onRequests : out_.offRequests).push_back(r);
    return Status::success();
  }

  Status cover(const NumberedLine& line) {
    Status s = resolveSuccessions();
    if (!s) return s;
    if (out_.cover.empty()) out_.cover.assign(out_.days, std::vector<Cover>(out_.types.size()));
    const auto fields = splitOn(line.text, ',');
    if (fields.size() != 5) {
      return lineError(line.number, "SECTION_COVER",
                       "expected 'Day, ShiftID, Requirement, WeightUnder, WeightOver'");
    }
    auto day = dayOf(line, "SECTION_COVER", fields[0]);
    if (!day) return day.error();
    auto type = typeOf(line, "SECTION_COVER", fields[1]);
    if (!type) return type.error();
    std::int64_t v[3];
    const char* names[] = {"the requirement", "the weight under", "the weight over"};
    for (int i = 0; i < 3; ++i) {
      auto n = number(line, "SECTION_COVER", names[i], fields[2 + i]);
      if (!n) return n.error();
      v[i] = *n;
    }
    out_.cover[*day][*type] = {static_cast<int>(v[0]), static_cast<int>(v[1]),
                               static_cast<int>(v[2])};
    return Status::success();
  }

  RosterInstance out_;
  std::map<std::string, int> typeIndex_;
  std::map<std::string, int> personIndex_;
  std::map<std::string, int> seen_;
  std::vector<std::pair<int, std::string>> pendingFollow_;
  bool resolved_ = false;
};

}  // namespace

Result<RosterInstance> parseBenchmarkInstance(std::string_view text) {
  auto instance = InstanceReader().read(text);
  if (instance && instance->cover.empty()) {
    instance->cover.assign(instance->days, std::vector<Cover>(instance->types.size()));
  }
  return instance;
}

std::string formatBenchmarkRoster(const RosterInstance& instance, const Roster& roster) {
  std::string out;
  for (int p = 0; p < instance.personCount(); ++p) {
    out += instance.people[p].id;
    for (int day = 0; day < instance.days; ++day) {
      const int cell = roster.cells[p][day];
      out += '\t';
      out += cell == kOff ? std::string("-") : instance.types[cell].id;
    }
    out += '\n';
  }
  return out;
}

Result<Roster> parseBenchmarkRoster(const RosterInstance& instance, std::string_view text) {
  Roster roster;
  roster.cells.assign(instance.people.size(), {});
  std::map<std::string, int> personIndex;
  std::map<std::string, int> typeIndex;
  for (int p = 0; p < instance.personCount(); ++p) personIndex[instance.people[p].id] = p;
  for (int t = 0; t < instance.typeCount(); ++t) typeIndex[instance.types[t].id] = t;
  for (const NumberedLine& line : splitLines(text)) {
    if (line.text.empty() || line.text.front() == '#') continue;
    const auto fields = splitOn(line.text, '\t');
    const auto it = personIndex.find(std::string(fields[0]));
    if (it == personIndex.end()) {
      return lineError(line.number, "roster", "unknown employee " + quotedId(fields[0]));
    }
    if (!roster.cells[it->second].empty()) {
      return lineError(line.number, "roster", "employee '" + it->first + "' given twice");
    }
    if (static_cast<int>(fields.size()) != instance.days + 1) {
      return lineError(line.number, "roster",
                       "expected " + std::to_string(instance.days) + " days, got " +
                           std::to_string(fields.size() - 1));
    }
    std::vector<int>& cells = roster.cells[it->second];
    for (std::size_t i = 1; i < fields.size(); ++i) {
      if (fields[i] == "-") {
        cells.push_back(kOff);
        continue;
      }
      const auto type = typeIndex.find(std::string(fields[i]));
      if (type == typeIndex.end()) {
        return lineError(line.number, "roster",
                         "day " + std::to_string(i - 1) + ": unknown shift " + quotedId(fields[i]));
      }
      cells.push_back(type->second);
    }
  }
  for (int p = 0; p < instance.personCount(); ++p) {
    if (roster.cells[p].empty()) {
      return makeError("roster: no line for employee '" + instance.people[p].id + "'",
                       ErrorKind::kInvalid);
    }
  }
  return roster;
}

}  // namespace atoms::schedule
