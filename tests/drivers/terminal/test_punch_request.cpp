#include <boost/test/unit_test.hpp>
// The punch request parser (drivers/terminal/punch_request.h): what a terminal may send, and the
// one-line error for everything else.
#include <string>
#include <utility>
#include <vector>

#include "drivers/terminal/punch_request.h"

namespace atoms::drivers::terminal {
namespace {

using namespace std::chrono;

std::string request(const std::string& punches, const std::string& terminal = "\"front-1\"") {
  return "{\"terminal\":" + terminal + ",\"punches\":[" + punches + "]}";
}

std::string punch(const std::string& fields) {
  return "{\"id\":\"evt-1\",\"person\":\"p-12\",\"kind\":\"clock_in\",\"at\":\"2026-11-30T16:58:"
         "03Z\"" +
         fields + "}";
}

PunchTime at(int y, unsigned mo, unsigned d, int h, int mi, int s, int ms = 0) {
  return PunchTime{sys_days{year{y} / mo / d}} + hours{h} + minutes{mi} + seconds{s} +
         milliseconds{ms};
}

}  // namespace

BOOST_AUTO_TEST_SUITE(punch_request)

BOOST_AUTO_TEST_CASE(parsesTheDocumentedExample) {
  auto batch = parsePunchRequest(
      R"({"terminal":"front-1","punches":[{"id":"evt-000123","person":"p-12","kind":"clock_in",)"
      R"("at":"2026-11-30T16:58:03Z"},{"id":"evt-000124","person":"p-7","kind":"break_end",)"
      R"("at":"2026-11-30T17:00:00.250Z"}]})");
  BOOST_REQUIRE_MESSAGE(batch, batch.message());
  BOOST_TEST(batch->terminal == "front-1");
  BOOST_REQUIRE(batch->punches.size() == 2u);
  BOOST_TEST((batch->punches[0] ==
              Punch{"evt-000123", "p-12", PunchKind::kClockIn, at(2026, 11, 30, 16, 58, 3)}));
  BOOST_TEST((batch->punches[1] ==
              Punch{"evt-000124", "p-7", PunchKind::kBreakEnd, at(2026, 11, 30, 17, 0, 0, 250)}));
}

BOOST_AUTO_TEST_CASE(encodedRequestsParseBackToTheSameBatch) {
  PunchBatch batch{"till.2", {}};
  const PunchKind kinds[] = {PunchKind::kClockIn, PunchKind::kBreakStart, PunchKind::kBreakEnd,
                             PunchKind::kClockOut};
  for (int i = 0; i < 4; ++i) {
    batch.punches.push_back(Punch{"id with spaces ~" + std::to_string(i), "p_" + std::to_string(i),
                                  kinds[i], at(2028, 2, 29, 23, 59, 59, 999)});
  }
  auto back = parsePunchRequest(encodePunchRequest(batch));
  BOOST_REQUIRE_MESSAGE(back, back.message());
  BOOST_TEST((*back == batch));
}

BOOST_AUTO_TEST_CASE(timesAreUtcWithOptionalMilliseconds) {
  BOOST_TEST((parsePunchTime("1970-01-01T00:00:00Z") == PunchTime{}));
  BOOST_TEST((parsePunchTime("2024-02-29T12:00:00.001Z") == at(2024, 2, 29, 12, 0, 0, 1)));
  BOOST_TEST(formatPunchTime(at(2026, 11, 30, 16, 58, 3, 7)) == "2026-11-30T16:58:03.007Z");
  // Past 2262, where a nanosecond clock time ends (found by the fuzz target).
  BOOST_TEST(formatPunchTime(at(2300, 2, 28, 23, 59, 59, 999)) == "2300-02-28T23:59:59.999Z");
  for (const char* bad :
       {"2026-11-30T16:58:03", "2026-11-30T16:58:03+01:00", "2026-11-30 16:58:03Z",
        "2026-02-29T00:00:00Z", "2026-13-01T00:00:00Z", "2026-11-31T00:00:00Z",
        "2026-11-30T24:00:00Z", "2026-11-30T16:60:03Z", "2026-11-30T16:58:60Z",
        "2026-11-30T16:58:03.5Z", "2026-11-30T16:58:03.12345Z", "1969-12-31T23:59:59Z",
        "2026-1-30T16:58:03Z", "+026-11-30T16:58:03Z", ""}) {
    BOOST_TEST(!parsePunchTime(bad).has_value(), bad);
  }
}

// Each bad body and the exact line the terminal (and the audit) gets back.
BOOST_AUTO_TEST_CASE(refusalsNameTheFieldAndIndex) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"", "body: invalid JSON at byte 0: unexpected end of input, expected a value"},
      {"[]", "body: an array is not an object"},
      {"{\"punches\":[]}", "terminal: missing"},
      {request(punch("")).substr(0, 20) + "}",
       "body: invalid JSON at byte 12: unterminated string"},
      {request(punch(""), "7"), "terminal: 7 is not a string"},
      {request(punch(""), "\"front 1\""),
       "terminal: 'front 1' is not 1-64 characters of letters, digits, '-', '_', '.'"},
      {"{\"terminal\":\"front-1\"}", "punches: missing"},
      {"{\"terminal\":\"front-1\",\"punches\":{}}", "punches: an object is not an array"},
      {request(""), "punches: empty"},
      {request(punch(""), "\"front-1\",\"site\":\"x\""), "unknown field 'site'"},
      {request(punch("") + ",3"), "punches[1]: 3 is not an object"},
      {request(punch(",\"note\":\"late\"")), "punches[0]: unknown field 'note'"},
      {request(punch("") + "," + punch("") + "," + punch("") + ",{}"), "punches[3].id: missing"},
      {request(
           "{\"id\":\"\",\"person\":\"p\",\"kind\":\"clock_in\",\"at\":\"2026-11-30T16:58:03Z\"}"),
       "punches[0].id: '' is not 1-128 characters of printable ASCII"},
      {request("{\"id\":\"a\\tb\",\"person\":\"p\",\"kind\":\"clock_in\",\"at\":\"2026-11-30T16:58:"
               "03Z\"}"),
       "punches[0].id: 'a?b' is not 1-128 characters of printable ASCII"},
      {request("{\"id\":\"" + std::string(129, 'x') +
               "\",\"person\":\"p\",\"kind\":\"clock_in\",\"at\":\"2026-11-30T16:58:03Z\"}"),
       "punches[0].id: '" + std::string(40, 'x') +
           "...' is not 1-128 characters of printable ASCII"},
      {request(
           "{\"id\":\"e\",\"person\":null,\"kind\":\"clock_in\",\"at\":\"2026-11-30T16:58:03Z\"}"),
       "punches[0].person: null is not a string"},
      {request("{\"id\":\"e\",\"person\":\"J\\u00f6rg\",\"kind\":\"clock_in\",\"at\":\"2026-11-"
               "30T16:58:03Z\"}"),
       "punches[0].person: 'J??rg' is not 1-64 characters of letters, digits, '-', '_', '.'"},
      {request(
           punch("") + "," + punch("") + "," + punch("") +
           ",{\"id\":\"e\",\"person\":\"p\",\"kind\":\"clockin\",\"at\":\"2026-11-30T16:58:03Z\"}"),
       "punches[3].kind: 'clockin' is not one of clock_in, clock_out, break_start, break_end"},
      {request("{\"id\":\"e\",\"person\":\"p\",\"kind\":\"clock_in\",\"at\":\"2026-11-30T17:58:03+"
               "01:00\"}"),
       "punches[0].at: '2026-11-30T17:58:03+01:00' is not a UTC time YYYY-MM-DDTHH:MM:SSZ "
       "(optionally with .mmm)"},
      {request("{\"id\":\"e\",\"person\":\"p\",\"kind\":\"clock_in\",\"at\":1700000000}"),
       "punches[0].at: 1700000000 is not a string"},
      {request(punch("") + "," + punch("")).replace(1, 10, "\"terminal\":\"a\",\"terminal\""),
       "body: invalid JSON at byte 16: duplicate key \"terminal\""},
  };
  for (const auto& [body, expected] : cases) {
    auto parsed = parsePunchRequest(body);
    BOOST_TEST_CONTEXT(body) {
      BOOST_REQUIRE(!parsed);
      BOOST_TEST(parsed.message() == expected);
    }
  }
}

BOOST_AUTO_TEST_CASE(atMost500PunchesAnd256KiB) {
  std::string five00;
  for (int i = 0; i < 500; ++i) five00 += (i > 0 ? "," : "") + punch("");
  BOOST_TEST(parsePunchRequest(request(five00)).ok());
  auto over = parsePunchRequest(request(five00 + "," + punch("")));
  BOOST_REQUIRE(!over);
  BOOST_TEST(over.message() == "punches: 501 punches, at most 500 per request");
  auto huge = parsePunchRequest(std::string(kMaxRequestBytes + 1, ' '));
  BOOST_REQUIRE(!huge);
  BOOST_TEST(huge.message() == "body is over the limit of 262144 bytes");
}

BOOST_AUTO_TEST_CASE(responsesRoundTrip) {
  const std::vector<PunchOutcome> outcomes = {
      {"evt-1", PunchOutcomeKind::kAccepted, ""},
      {"evt-2", PunchOutcomeKind::kDuplicate, ""},
      {"evt-3", PunchOutcomeKind::kRefused, "unknown person"}};
  const std::string text = encodePunchResponse("front-1", outcomes);
  BOOST_TEST(text ==
             R"({"results":[{"id":"evt-1","outcome":"accepted"},{"id":"evt-2","outcome":)"
             R"("duplicate"},{"id":"evt-3","outcome":"refused","reason":"unknown person"}],)"
             R"("terminal":"front-1"})");
  auto back = parsePunchResponse(text);
  BOOST_REQUIRE_MESSAGE(back, back.message());
  BOOST_TEST((*back == outcomes));
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace atoms::drivers::terminal
