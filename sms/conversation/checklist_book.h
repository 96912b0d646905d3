// The site's checklists (issue 7 item 5; docs/checklists.md): opening, closing, food-safety
// temperature logs, each with a due time (site local, every day), a grace, who it belongs to (a
// person or a station tag) and, for a temperature log, the safe range. Declared by the owner in a
// small JSON file (checklists.file); parseChecklistBook() reads it strictly (unknown fields,
// duplicate ids or names are errors, so a typo never drops a checklist).
//
// Immutable after parsing; thread-safe. Errors: one line naming the checklist and the field.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"

namespace atoms::sms::conversation {

struct Checklist {
  std::string id;                  // "walk-in": what DONE/TEMP name, with `names`
  std::string name;                // "Walk-in cooler temperature": what texts call it
  std::vector<std::string> names;  // other words for it ("apertura"), folded at parse
  int dueMinute = 0;               // site local minutes after midnight
  int graceMinutes = 15;           // overdue after due + grace; the manager after due + 2 grace
  std::string ownerPerson;         // exactly one of these two
  std::string ownerStation;
  bool temperature = false;  // a food-safety temperature log
  char unit = 'F';           // the unit readings without one are in, and the range is shown in
  int minTenthsF = 0;        // the safe range, inclusive, tenths of a degree Fahrenheit
  int maxTenthsF = 0;

  bool inRange(int tenthsF) const { return tenthsF >= minTenthsF && tenthsF <= maxTenthsF; }
};

class ChecklistBook {
 public:
  ChecklistBook() = default;
  explicit ChecklistBook(std::vector<Checklist> lists) : lists_(std::move(lists)) {}

  const std::vector<Checklist>& all() const { return lists_; }
  bool empty() const { return lists_.empty(); }
  // The checklist a text names: its id or one of its names, folded as the text is ("walk in"
  // matches id "walk-in"); nullptr when none does.
  const Checklist* byName(std::string_view foldedName) const;
  const Checklist* byId(std::string_view id) const;

 private:
  std::vector<Checklist> lists_;
};

// Parses the JSON checklist file:
//   {"version": 1, "checklists": [{"id": "walk-in", "name": "Walk-in cooler temperature",
//     "names": ["camara"], "due": "11:00", "graceMinutes": 30, "owner": {"person": "p-ana"},
//     "temperature": {"unit": "F", "min": 33, "max": 41}}, ...]}
// Errors: "checklists[1] (walk-in): due must be HH:MM, e.g. 10:30", ...
Result<ChecklistBook> parseChecklistBook(std::string_view json);

// A temperature in tenths of a degree F shown in `unit`, e.g. "38F", "3.5C".
std::string formatTemperature(int tenthsF, char unit);

}  // namespace atoms::sms::conversation
