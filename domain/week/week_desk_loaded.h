// What one desk operation reads first (week_desk.h): the site as stored, its rule tables and
// zone, and the week's draft. Private to week_desk.cpp and week_publish.cpp.
#pragma once

#include <optional>

#include "domain/labor/rule_table.h"
#include "domain/site/site_model.h"
#include "domain/site/time_zone.h"
#include "domain/week/week_desk.h"

namespace atoms::week {

struct WeekDesk::Loaded {
  Week week{};
  site::SiteModel live;
  std::optional<labor::RuleBook> rules;
  std::optional<site::TimeZone> zone;
  std::optional<WeekDraft> draft;

  // The published shifts of the week, in start order.
  std::vector<site::Shift> liveWeek() const;
};

// An override reason, when given: one line of UTF-8, 1..500 bytes; kInvalid otherwise.
Status checkOverrideReason(const std::optional<std::string>& reason);

// The words of a stale refusal: who made the draft's version and when, then `outcome`.
std::string staleMessage(const NewerVersion& newer, const std::string& outcome);

// The findings of `check` about any of `shiftIds` or any of `people`.
std::vector<WeekFinding> findingsAbout(const WeekCheck& check,
                                       const std::vector<std::string>& shiftIds,
                                       const std::vector<std::string>& people);

}  // namespace atoms::week
