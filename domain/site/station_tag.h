// Station tags: words that say what the work at a station involves ("alcohol_service",
// "food_handling"), so that a jurisdiction's rule table can require a minimum age or a
// certification for that kind of work without knowing how one site names its stations
// (docs/site-file.md, "Station tags"; docs/labor-rules.md, station_min_age /
// station_certification).
//
// The vocabulary is a closed set, shared by the site file (a station's `tags`) and the rule tables
// (a rule's `stationTag`): a misspelt tag on either side would silently switch a legal check off,
// so both are refused at load. Adding a tag means a row here and one in docs/site-file.md.
// Pure functions over constant data; thread-safe.
#pragma once

#include <string_view>
#include <vector>

namespace atoms::site {

struct StationTagInfo {
  std::string_view tag;      // "alcohol_service"
  std::string_view meaning;  // when a station carries it, in one sentence
};

// Every known tag, in documentation order.
const std::vector<StationTagInfo>& stationTags();

// lower_snake form: 1-64 characters, words of a-z and 0-9 joined by single '_', starting with a
// letter ("alcohol_service"; not "Alcohol", "_bar", "a__b", "bar_").
bool isStationTagForm(std::string_view tag);

// True for a tag of stationTags().
bool isKnownStationTag(std::string_view tag);

// "alcohol_service, bartending, ..." for error messages.
std::string_view knownStationTagList();

}  // namespace atoms::site
