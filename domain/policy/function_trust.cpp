#include "domain/policy/function_trust.h"

#include <cctype>

namespace atoms::policy {

json::Value FunctionTrust::toJson() const {
  return json::Object{{"function", function},
                      {"ceiling", graduationName(ceiling)},
                      {"earned", graduationName(earned)},
                      {"effective", graduationName(effective)},
                      {"trust", trustText(trustHalves)},
                      {"begun", begun},
                      {"held", held},
                      {"withinCeiling", withinCeiling},
                      {"eligibility", eligibility.toJson()}};
}

Graduation ceilingFromSetting(std::string_view setting) {
  std::string name(setting);
  for (char& c : name) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return graduationFromName(name).value_or(Graduation::kPropose);
}

}  // namespace atoms::policy
