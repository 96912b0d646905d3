// Industries: what kind of business a site is, in the words the local scheduling ordinances use
// to say whom they cover ("retail", "fast_food", ...). A closed set, shared by the site file (the
// site's `industry`) and the rule tables (a rule's `applicability[].industries`): an unknown or
// misspelt value on either side would silently switch every Fair Workweek rule off, so both are
// refused at load, naming the valid values (docs/site-file.md, "Industries").
// Pure functions over constant data; thread-safe.
#pragma once

#include <string_view>
#include <vector>

namespace atoms::site {

struct IndustryInfo {
  std::string_view name;     // "full_service_restaurant"
  std::string_view meaning;  // which businesses, in one sentence, with their NAICS codes
};

// Every known industry, in documentation order; the last, "other", is covered by no ordinance.
const std::vector<IndustryInfo>& industries();

// True for a name of industries().
bool isKnownIndustry(std::string_view name);

// "retail, fast_food, ..." for error messages.
std::string_view knownIndustryList();

}  // namespace atoms::site
