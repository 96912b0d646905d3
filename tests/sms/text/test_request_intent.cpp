#include <boost/test/unit_test.hpp>

// The request parser (sms/text/request_intent.h) on what staff text for time off and availability:
// English and Spanish, typos, relative dates against the site's local date (Wednesday 2026-03-04,
// workweek from Sunday), ranges, and the texts that must ask one question back or stay none.
#include <algorithm>
#include <chrono>
#include <string>
#include <vector>

#include "sms/text/request_intent.h"

namespace atoms::sms {
namespace {

using std::chrono::local_days;
using namespace std::chrono_literals;

BOOST_AUTO_TEST_SUITE(request_intent)

constexpr local_days kToday{2026y / 3 / 4};  // a Wednesday
const RequestCalendar kCalendar{kToday, 0};

local_days d(int y, unsigned m, unsigned day) {
  return local_days{std::chrono::year{y} / std::chrono::month{m} / std::chrono::day{day}};
}

struct TimeOffCase {
  std::string text;
  local_days from;
  local_days to;
  DayPart part = DayPart::kAllDay;
};

BOOST_AUTO_TEST_CASE(readsTimeOffDatesInEnglishAndSpanish) {
  const std::vector<TimeOffCase> corpus = {
      {"I need Saturday off", d(2026, 3, 7), d(2026, 3, 7)},
      {"can I have the 14th off", d(2026, 3, 14), d(2026, 3, 14)},
      {"necesito el sábado libre", d(2026, 3, 7), d(2026, 3, 7)},
      {"Necesito el SABADO libre por favor", d(2026, 3, 7), d(2026, 3, 7)},
      {"I need Wednesday off", d(2026, 3, 11), d(2026, 3, 11)},  // the next one, not today
      {"tomorrow off please", d(2026, 3, 5), d(2026, 3, 5)},
      {"can i get tmrw off", d(2026, 3, 5), d(2026, 3, 5)},
      {"necesito mañana libre", d(2026, 3, 5), d(2026, 3, 5)},
      {"pasado mañana libre?", d(2026, 3, 6), d(2026, 3, 6)},
      {"can I get Dec 14 off", d(2026, 12, 14), d(2026, 12, 14)},
      {"December 14th off pls", d(2026, 12, 14), d(2026, 12, 14)},
      {"el 14 de diciembre libre", d(2026, 12, 14), d(2026, 12, 14)},
      {"12/14 off", d(2026, 12, 14), d(2026, 12, 14)},
      {"14/12 libre", d(2026, 12, 14), d(2026, 12, 14)},  // the first number is over 12
      {"3/2 off", d(2027, 3, 2), d(2027, 3, 2)},          // passed this year: next year's
      {"12/14/2026 off", d(2026, 12, 14), d(2026, 12, 14)},
      {"Fri-Sun off", d(2026, 3, 6), d(2026, 3, 8)},
      {"can I take friday to sunday off", d(2026, 3, 6), d(2026, 3, 8)},
      {"de viernes a domingo libre", d(2026, 3, 6), d(2026, 3, 8)},
      {"need the 14th and 15th off", d(2026, 3, 14), d(2026, 3, 15)},
      {"Saturday and Sunday off", d(2026, 3, 7), d(2026, 3, 8)},
      {"del 14 al 16 libre", d(2026, 3, 14), d(2026, 3, 16)},
      {"Dec 14-16 off", d(2026, 12, 14), d(2026, 12, 16)},
      {"12/30 - 1/2 off", d(2026, 12, 30), d(2027, 1, 2)},
      {"the 2nd off", d(2026, 4, 2), d(2026, 4, 2)},  // the 2nd has passed this month
      {"next week off", d(2026, 3, 8), d(2026, 3, 14)},
      {"la próxima semana libre", d(2026, 3, 8), d(2026, 3, 14)},
      {"this weekend off?", d(2026, 3, 7), d(2026, 3, 8)},
      {"next weekend off", d(2026, 3, 14), d(2026, 3, 15)},
      {"este fin de semana libre", d(2026, 3, 7), d(2026, 3, 8)},
      {"Saturday night off", d(2026, 3, 7), d(2026, 3, 7), DayPart::kNight},
      {"sábado por la tarde libre", d(2026, 3, 7), d(2026, 3, 7), DayPart::kAfternoon},
      {"friday morning off", d(2026, 3, 6), d(2026, 3, 6), DayPart::kMorning},
      {"I can't work saturdy", d(2026, 3, 7), d(2026, 3, 7)},  // a typo
      {"i cant work wensday", d(2026, 3, 11), d(2026, 3, 11)},
      {"I won't be able to work Friday", d(2026, 3, 6), d(2026, 3, 6)},
      {"no puedo trabajar el viernes", d(2026, 3, 6), d(2026, 3, 6)},
      {"I'm not available Saturday", d(2026, 3, 7), d(2026, 3, 7)},
      {"Can I request off on the 20th", d(2026, 3, 20), d(2026, 3, 20)},
      {"vacation march 20-22", d(2026, 3, 20), d(2026, 3, 22)},
  };
  for (const TimeOffCase& c : corpus) {
    BOOST_TEST_CONTEXT(c.text) {
      const RequestIntent r = parseRequestIntent(c.text, kCalendar);
      BOOST_TEST(requestKindName(r.kind) == "time_off");
      BOOST_TEST(r.question == "");
      BOOST_TEST((r.from && *r.from == c.from));
      BOOST_TEST((r.to && *r.to == c.to));
      BOOST_TEST(dayPartName(r.part) == dayPartName(c.part));
    }
  }
}

struct AvailabilityCase {
  std::string text;
  AvailabilityChange change;
  std::vector<unsigned> weekdays;
  DayPart part;
};

BOOST_AUTO_TEST_CASE(readsAvailabilityChanges) {
  const std::vector<AvailabilityCase> corpus = {
      {"I can't do mornings anymore", AvailabilityChange::kCannot, {}, DayPart::kMorning},
      {"cant do mornigs no more", AvailabilityChange::kCannot, {}, DayPart::kMorning},
      {"I can only work weekends", AvailabilityChange::kOnly, {0, 6}, DayPart::kAllDay},
      {"ya no puedo en las mañanas", AvailabilityChange::kCannot, {}, DayPart::kMorning},
      {"no puedo los domingos", AvailabilityChange::kCannot, {0}, DayPart::kAllDay},
      {"solo puedo fines de semana", AvailabilityChange::kOnly, {0, 6}, DayPart::kAllDay},
      {"I can't do Saturday mornings", AvailabilityChange::kCannot, {6}, DayPart::kMorning},
      {"only evenings from now on", AvailabilityChange::kOnly, {}, DayPart::kEvening},
      {"I'm only available weekdays", AvailabilityChange::kOnly, {1, 2, 3, 4, 5}, DayPart::kAllDay},
      {"I don't do night shifts anymore", AvailabilityChange::kCannot, {}, DayPart::kNight},
      {"I can't work Sundays", AvailabilityChange::kCannot, {0}, DayPart::kAllDay},
      {"ya no puedo trabajar las noches", AvailabilityChange::kCannot, {}, DayPart::kNight},
      {"I can only work Saturday and Sunday", AvailabilityChange::kOnly, {0, 6}, DayPart::kAllDay},
  };
  for (const AvailabilityCase& c : corpus) {
    BOOST_TEST_CONTEXT(c.text) {
      const RequestIntent r = parseRequestIntent(c.text, kCalendar);
      BOOST_TEST(requestKindName(r.kind) == "availability");
      BOOST_TEST(r.question == "");
      BOOST_TEST(availabilityChangeName(r.change) == availabilityChangeName(c.change));
      BOOST_TEST(r.weekdays == c.weekdays, boost::test_tools::per_element());
      BOOST_TEST(dayPartName(r.part) == dayPartName(c.part));
    }
  }
}

BOOST_AUTO_TEST_CASE(asksOneQuestionWhenUnclear) {
  const std::vector<std::pair<std::string, std::string>> corpus = {
      {"I need a day off", "which_day"},
      {"can I get some time off", "which_day"},
      {"quiero vacaciones", "which_day"},
      {"Feb 30 off", "which_day"},
      {"2/30/2026 off", "which_day"},
      {"1/5/2026 off", "which_day"},  // a date that has passed
      {"can I have Monday and Thursday off", "one_range"},
      {"I need March 10 to May 1 off", "too_long"},
      {"my availability changed", "which_times"},
      {"my availability: mornings", "can_or_cannot"},
  };
  for (const auto& [text, question] : corpus) {
    BOOST_TEST_CONTEXT(text) {
      const RequestIntent r = parseRequestIntent(text, kCalendar);
      BOOST_TEST(requestKindName(r.kind) != "none");
      BOOST_TEST(r.question == question);
      BOOST_TEST(!r.clear());
    }
  }
}

BOOST_AUTO_TEST_CASE(leavesCallOutsAndSmallTalkAlone) {
  const std::vector<std::string> corpus = {
      "Jamal didn't show",
      "I can't come in today",
      "I cant go in tomorrow",  // a call-out: the desk looks for cover now
      "Can't come in early tomorrow",
      "cant come in thrusday",  // tomorrow, with a typo: a call-out too
      "I get off at 5 on Saturday",
      "I'm off Saturday",
      "what time do I start tomorrow?",
      "ok 2708",
      "APPROVE 12",
      "I need today off",
      "is Saturday busy?",
      "may I ask something",
      "",
      "the 14th",
  };
  for (const std::string& text : corpus) {
    BOOST_TEST_CONTEXT(text) {
      const RequestIntent r = parseRequestIntent(text, kCalendar);
      BOOST_TEST(requestKindName(r.kind) == "none");
      BOOST_TEST(r.matched.empty());
    }
  }
}

BOOST_AUTO_TEST_CASE(neverKeepsTheReasonInMatchedWords) {
  const RequestIntent r =
      parseRequestIntent("I need Saturday off for my surgery, doctor says rest", kCalendar);
  BOOST_TEST(r.clear());
  for (const std::string& w : r.matched) {
    BOOST_TEST_CONTEXT(w) {
      BOOST_TEST(w != "surgery");
      BOOST_TEST(w != "doctor");
      BOOST_TEST(w != "rest");
    }
  }
  BOOST_TEST((std::find(r.matched.begin(), r.matched.end(), "saturday") != r.matched.end()));
}

BOOST_AUTO_TEST_CASE(weekdayNamesMeanTheNextSuchDayWhateverToday) {
  for (int offset = 0; offset < 7; ++offset) {
    const RequestCalendar cal{kToday + std::chrono::days{offset}, 0};
    const RequestIntent r = parseRequestIntent("Saturday off", cal);
    BOOST_TEST_CONTEXT(offset) {
      BOOST_REQUIRE(r.from.has_value());
      BOOST_TEST(std::chrono::weekday{*r.from}.c_encoding() == 6u);
      BOOST_TEST((*r.from > cal.today && *r.from <= cal.today + std::chrono::days{7}));
    }
  }
}

BOOST_AUTO_TEST_CASE(tellsTheLanguageTheRequestIsWrittenIn) {
  BOOST_TEST(parseRequestIntent("I need Saturday off", kCalendar).language == "en");
  BOOST_TEST(parseRequestIntent("necesito el sábado libre", kCalendar).language == "es");
  BOOST_TEST(parseRequestIntent("ya no puedo en las mañanas", kCalendar).language == "es");
  BOOST_TEST(parseRequestIntent("12/14 off", kCalendar).language == "en");
  BOOST_TEST(parseRequestIntent("Jamal didn't show", kCalendar).language == "");
}

BOOST_AUTO_TEST_CASE(nextWeekFollowsTheSitesWorkweek) {
  const RequestIntent r = parseRequestIntent("next week off", RequestCalendar{kToday, 1});
  BOOST_TEST((r.from == d(2026, 3, 9)));
  BOOST_TEST((r.to == d(2026, 3, 15)));
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace
}  // namespace atoms::sms
