// What a text means for a site checklist (issue 7 item 5; docs/checklists.md): "DONE opening"
// marks the opening checklist done, "TEMP walk-in 38F" logs a temperature. English and Spanish:
// DONE / LISTO / HECHO / TERMINADO, TEMP / TEMPERATURA. The keyword must be the first word; the
// words after it name the checklist (folded as tokens.h folds them, joined by single spaces:
// "Walk-in" is "walk in"); for TEMP the first word that starts with a digit is the reading, with
// an optional minus sign, one decimal and a unit (F, C, °F, °C; none: the checklist's own).
//
// Pure and thread-safe; any bytes are accepted (nothing matches them).
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace atoms::sms {

struct ChecklistIntent {
  enum class Kind { kDone, kTemperature };
  Kind kind = Kind::kDone;
  std::string name;  // folded words naming the checklist, e.g. "walk in"; never empty
  // kTemperature: the reading in tenths of a degree, in `unit` ('F', 'C', or 0 when not given).
  int tenths = 0;
  char unit = 0;
};

// nullopt when the text is not a checklist message (no keyword first, no name, TEMP without a
// reading or with a reading beyond +-999.9).
std::optional<ChecklistIntent> parseChecklistIntent(std::string_view text);

// Tenths of a degree Fahrenheit of a reading in tenths of `unit` ('C' converts, anything else is
// taken as Fahrenheit already), rounded half away from zero.
int toTenthsFahrenheit(int tenths, char unit);

}  // namespace atoms::sms
