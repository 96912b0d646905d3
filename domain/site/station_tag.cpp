#include "domain/site/station_tag.h"

#include <algorithm>
#include <string>

namespace atoms::site {

const std::vector<StationTagInfo>& stationTags() {
  static const std::vector<StationTagInfo> tags{
      {"alcohol_service",
       "the work includes selling or serving alcoholic beverages: taking the order, delivering, "
       "presenting, opening or pouring them"},
      {"bartending",
       "bartending, or any work in a bar or lounge: an area primarily designed and used for the "
       "sale and service of alcoholic beverages for consumption on the premises"},
      {"food_handling",
       "the work involves the preparation, storage or service of food (cooks, prep, servers)"},
      {"power_driven_meat_machine",
       "the work includes operating, feeding, setting up, adjusting, repairing or cleaning "
       "power-driven meat-processing machines: meat slicers, grinders, saws, patty formers, food "
       "processors used on meat"},
      {"shift_lead",
       "the person working it leads the shift on the floor: the one the box asks first when a "
       "shift starts without a clock-in"},
      {"motor_vehicle_driving",
       "the work is driving a motor vehicle on public roads (deliveries, errands, transporting "
       "people), or riding outside a vehicle as a helper"},
  };
  return tags;
}

bool isStationTagForm(std::string_view tag) {
  if (tag.empty() || tag.size() > 64 || tag.front() < 'a' || tag.front() > 'z' ||
      tag.back() == '_') {
    return false;
  }
  char previous = '\0';
  for (char c : tag) {
    const bool word = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
    if (!word && c != '_') return false;
    if (c == '_' && previous == '_') return false;
    previous = c;
  }
  return true;
}

bool isKnownStationTag(std::string_view tag) {
  const auto& tags = stationTags();
  return std::any_of(tags.begin(), tags.end(),
                     [&](const StationTagInfo& info) { return info.tag == tag; });
}

std::string_view knownStationTagList() {
  static const std::string list = [] {
    std::string s;
    for (const StationTagInfo& info : stationTags()) {
      s += (s.empty() ? "" : ", ") + std::string(info.tag);
    }
    return s;
  }();
  return list;
}

}  // namespace atoms::site
