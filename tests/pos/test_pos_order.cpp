// The order model's pure parts: times, cents, validation.
#include <boost/test/unit_test.hpp>

#include "drivers/pos/pos_order.h"

namespace atoms::drivers::pos {
namespace {

using namespace std::chrono;

BOOST_AUTO_TEST_SUITE(pos_order)

BOOST_AUTO_TEST_CASE(parsesRfc3339TimesWithZoneAndFraction) {
  const auto z = parsePosTime("2026-11-30T16:58:03.123456Z");
  BOOST_TEST_REQUIRE(z.has_value());
  BOOST_TEST(formatPosTime(*z) == "2026-11-30T16:58:03.123Z");
  const auto offset = parsePosTime("2026-11-30T08:58:03-08:00");
  BOOST_TEST_REQUIRE(offset.has_value());
  BOOST_TEST(formatPosTime(*offset) == "2026-11-30T16:58:03.000Z");
  BOOST_TEST(!parsePosTime("2026-02-30T00:00:00Z").has_value());
  BOOST_TEST(!parsePosTime("2026-11-30T16:58:03").has_value());
  BOOST_TEST(!parsePosTime("2026-11-30T16:58:03.Z").has_value());
  BOOST_TEST(!parsePosTime("2026-11-30 16:58:03Z").has_value());
}

BOOST_AUTO_TEST_CASE(parsesDecimalMoneyIntoWholeCents) {
  BOOST_TEST(parseCents("12").value() == 1200);
  BOOST_TEST(parseCents("12.5").value() == 1250);
  BOOST_TEST(parseCents("-3.99").value() == -399);
  BOOST_TEST(!parseCents("1.999").has_value());
  BOOST_TEST(!parseCents("$1").has_value());
  BOOST_TEST(!parseCents("1,234.00").has_value());
  BOOST_TEST(!parseCents("").has_value());
  BOOST_TEST(!parseCents("99999999999").has_value());
}

BOOST_AUTO_TEST_CASE(validationNamesTheOrderAndTheField) {
  PosOrder o;
  o.id = "A-1";
  BOOST_TEST(validateOrder(o, "x").ok());
  o.revenueCenter = "bar\n";
  const Status s = validateOrder(o, "file.csv line 3");
  BOOST_TEST(!s.ok());
  BOOST_TEST(s.message().find("file.csv line 3: revenue center") == 0);
  o.revenueCenter = "bar";
  o.returnedCents = 100;
  BOOST_TEST(!validateOrder(o, "x").ok());
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace
}  // namespace atoms::drivers::pos
