#include "domain/site/industry.h"

#include <algorithm>
#include <string>

namespace atoms::site {

const std::vector<IndustryInfo>& industries() {
  static const std::vector<IndustryInfo> all{
      {"retail", "stores selling goods to the public (NAICS 44-45)"},
      {"fast_food",
       "limited-service restaurants, where customers order and pay before they eat (NAICS "
       "722513)"},
      {"full_service_restaurant",
       "restaurants with table service, where customers pay after they eat (NAICS 722511)"},
      {"food_service",
       "other food and drink places: cafeterias, buffets, snack and coffee bars, caterers, "
       "food-service contractors, bars (NAICS 722514, 722515, 7223, 7224)"},
      {"hospitality", "hotels, motels and casino hotels (NAICS 721110, 721120)"},
      {"building_services", "janitorial, building maintenance and security services"},
      {"healthcare", "hospitals, clinics, nursing and residential care (NAICS 62)"},
      {"manufacturing", "factories and plants making goods (NAICS 31-33)"},
      {"warehouse_services", "warehousing, storage and distribution centers (NAICS 4931)"},
      {"other", "none of the above: no industry-specific ordinance (Fair Workweek) applies"},
  };
  return all;
}

bool isKnownIndustry(std::string_view name) {
  const auto& all = industries();
  return std::any_of(all.begin(), all.end(),
                     [&](const IndustryInfo& info) { return info.name == name; });
}

std::string_view knownIndustryList() {
  static const std::string list = [] {
    std::string s;
    for (const IndustryInfo& info : industries()) {
      s += (s.empty() ? "" : ", ") + std::string(info.name);
    }
    return s;
  }();
  return list;
}

}  // namespace atoms::site
