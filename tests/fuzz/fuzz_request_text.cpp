// Fuzz target: the request parser (sms/text/request_intent.h) on any text a worker could send, on
// a few site dates (a leap day, the year's end, a Sunday) and workweeks, and the words the desk
// writes back for what it read (domain/requests/request_texts.h).
//
// Properties: none carries nothing; a clear time off has from <= to, starts on or after the site's
// today, lasts at most kMaxTimeOffDays days and is never only today; a clear availability change
// has sorted, distinct weekdays 0..6 and no dates; a question is one of the documented codes; the
// matched words are words of the text (folded tokens: never anything the text did not say); the
// words of a request are not empty.
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "domain/requests/request_effect.h"
#include "domain/requests/request_texts.h"
#include "sms/text/request_intent.h"
#include "sms/text/tokens.h"
#include "tests/fuzz/fuzz_support.h"

namespace {

using atoms::fuzz::require;
namespace sms = atoms::sms;
using std::chrono::local_days;

void checkOne(std::string_view text, const sms::RequestCalendar& cal) {
  const sms::RequestIntent r = sms::parseRequestIntent(text, cal);
  if (r.kind == sms::RequestKind::kNone) {
    require(r.matched.empty() && r.question.empty() && !r.from && !r.to, "none carries nothing");
    return;
  }
  static const std::set<std::string> kQuestions = {"",         "which_day",   "one_range",
                                                   "too_long", "which_times", "can_or_cannot"};
  require(kQuestions.count(r.question) == 1, "a question is one of the documented codes");
  std::set<std::string> words;
  for (const sms::Token& t : sms::tokenize(text)) words.insert(t.folded);
  for (const std::string& m : r.matched) {
    require(!m.empty() && words.count(m) == 1, "a matched word is a word of the text");
  }
  atoms::requests::RequestRow row;
  row.id = 1;
  row.kind = r.kind;
  row.part = r.part;
  row.weekdays = r.weekdays;
  row.change = r.change;
  if (r.kind == sms::RequestKind::kTimeOff) {
    if (r.question.empty() || r.question == "too_long") {
      require(r.from.has_value() && r.to.has_value(), "a read time off has its dates");
      require(*r.from <= *r.to, "from <= to");
      require(*r.from >= cal.today, "time off starts today or later");
      if (r.question.empty()) {
        require((*r.to - *r.from).count() < sms::kMaxTimeOffDays, "at most kMaxTimeOffDays");
        require(!(*r.from == cal.today && *r.to == cal.today), "only today is a call-out");
      }
      row.fromDate = atoms::requests::formatRequestDate(*r.from);
      row.toDate = atoms::requests::formatRequestDate(*r.to);
      require(atoms::requests::parseRequestDate(row.fromDate, 1).ok(), "dates round-trip");
    }
    require(r.weekdays.empty(), "time off names no weekdays");
  } else {
    require(!r.from && !r.to, "an availability change has no dates");
    for (std::size_t i = 0; i < r.weekdays.size(); ++i) {
      require(r.weekdays[i] <= 6, "a weekday is 0..6");
      require(i == 0 || r.weekdays[i - 1] < r.weekdays[i], "weekdays are sorted and distinct");
    }
  }
  if (r.clear()) {
    require(!atoms::requests::requestWords(row, false).empty(), "a request has English words");
    require(!atoms::requests::requestWords(row, true).empty(), "a request has Spanish words");
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text = atoms::fuzz::asText(data, size);
  using namespace std::chrono;
  for (const sms::RequestCalendar& cal :
       {sms::RequestCalendar{local_days{year{2026} / 3 / 4}, 0},
        sms::RequestCalendar{local_days{year{2028} / 2 / 29}, 1},
        sms::RequestCalendar{local_days{year{2026} / 12 / 31}, 6},
        sms::RequestCalendar{local_days{year{2026} / 3 / 8}, 0}}) {
    checkOne(text, cal);
  }
  return 0;
}
