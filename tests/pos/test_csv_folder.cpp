// The CSV drop folder into a real sales book: a file imported once and moved to done/ with its
// result, the column mapping (local times, voids, returns), a bad row naming the file and line
// (nothing stored, moved to failed/), and the CSV reader's quoting.
#include <boost/test/unit_test.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "domain/pos/site_local_time.h"
#include "drivers/pos/csv_folder.h"
#include "tests/pos/sales_site.h"

namespace atoms::pos::test {
namespace {

using namespace std::chrono;
using drivers::pos::CsvFolder;
using drivers::pos::CsvMapping;

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

struct CsvSite : SalesSite {
  CsvSite() : drop(tmp.sub("drop")) {
    std::filesystem::create_directories(drop);
    mapping.id = "Ticket";
    mapping.closedAt = "Closed";
    mapping.net = "Net Sales";
    mapping.covers = "Guests";
    mapping.state = "Status";
    mapping.returnOf = "Refund Of";
    mapping.returned = "Refunded";
    mapping.localTime = [this](std::string_view text) { return parseSiteLocalTime(text, zone); };
  }
  void drop_file(const std::string& name, const std::string& text) {
    std::ofstream(drop + "/" + name, std::ios::binary) << text;
  }
  std::string drop;
  CsvMapping mapping;
};

const std::string kExport =
    "Ticket,Closed,Net Sales,Guests,Status,Refund Of,Refunded\r\n"
    "1001,2026-11-30 11:05,25.00,2,closed,,\r\n"
    "1002,2026-11-30 11:10,\"1,000\",1,void,,\r\n"
    "1003,2026-11-30 13:40,0,0,completed,1001,5.5\r\n";

BOOST_AUTO_TEST_SUITE(csv_folder)

BOOST_AUTO_TEST_CASE(aBadRowIsNamedByFileAndLineAndNothingIsStored) {
  CsvSite site;
  site.drop_file("sales-1130.csv", kExport);
  CsvFolder folder(site.drop, "csv:back-office", site.mapping, *site.book);
  auto scan = folder.scanOnce();
  BOOST_TEST_REQUIRE(scan.ok(), scan.message());
  BOOST_TEST(scan->failed == 1);
  const std::string result = slurp(site.drop + "/failed/sales-1130.csv.result");
  BOOST_TEST(result ==
             "refused, nothing imported: sales-1130.csv line 2: column 'Status': 'closed' is not "
             "completed, canceled, void or open\n");
  BOOST_TEST(std::filesystem::exists(site.drop + "/failed/sales-1130.csv"));
  BOOST_TEST(!std::filesystem::exists(site.drop + "/sales-1130.csv"));
  const sys_seconds day{sys_days(2026y / 11 / 30)};
  BOOST_TEST(site.intervals(day, day + days(1)).empty());
}

BOOST_AUTO_TEST_CASE(importsAFileOnceAndMovesItAsideWithItsResult) {
  CsvSite site;
  std::string fixed = kExport;
  fixed.replace(fixed.find("closed"), 6, "completed");
  fixed.replace(fixed.find("\"1,000\""), 7, "10.00");
  site.drop_file("sales-1130.csv", fixed);
  site.drop_file(".partial.csv", "not yet");
  CsvFolder folder(site.drop, "csv:back-office", site.mapping, *site.book);
  auto scan = folder.scanOnce();
  BOOST_TEST_REQUIRE(scan.ok(), scan.message());
  BOOST_TEST(scan->imported == 1);
  BOOST_TEST(slurp(site.drop + "/done/sales-1130.csv.result") ==
             "imported 3 orders: 3 stored, 0 updated, 0 duplicates\n");
  // 11:05 local is 19:05 UTC; the refund of 5.50 lands with its sale; the void counts nothing.
  const sys_seconds day{sys_days(2026y / 11 / 30)};
  const auto rows = site.intervals(day, day + days(1));
  BOOST_TEST_REQUIRE(rows.size() == 1u);
  BOOST_TEST((rows[0].start == day + hours(19)));
  BOOST_TEST(rows[0].netCents == 2500 - 550);
  BOOST_TEST(rows[0].covers == 2);
  // The same file dropped again is imported again, all duplicates, under a new result name.
  site.drop_file("sales-1130.csv", fixed);
  BOOST_TEST(folder.scanOnce().value().imported == 1);
  BOOST_TEST(slurp(site.drop + "/done/sales-1130.csv.2.result") ==
             "imported 3 orders: 0 stored, 0 updated, 3 duplicates\n");
  BOOST_TEST(folder.scanOnce().value().imported == 0);
  BOOST_TEST(site.imports() == 1u);
}

BOOST_AUTO_TEST_CASE(aMissingColumnAndAnOpenQuoteAreNamed) {
  CsvMapping mapping;
  auto missing = drivers::pos::parseCsvOrders("order_id,closed_at\n1,2026-11-30T19:05:00Z\n",
                                              mapping, "x.csv");
  BOOST_TEST(missing.message() == "x.csv line 1: no column 'net_sales' (the mapping needs it)");
  auto open = drivers::pos::parseCsvOrders(
      "order_id,closed_at,net_sales\n1,2026-11-30T19:05:00Z,\"3\n", mapping, "y.csv");
  BOOST_TEST(open.message() == "y.csv line 2: a quoted field is never closed");
  auto quoted = drivers::pos::splitCsv("a,\"b \"\"q\"\"\nc\",d\n\ne,f", ',');
  BOOST_TEST_REQUIRE(quoted.ok());
  BOOST_TEST_REQUIRE(quoted->size() == 2u);
  BOOST_TEST((*quoted)[0].fields[1] == "b \"q\"\nc");
  BOOST_TEST((*quoted)[1].line == 4u);
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace
}  // namespace atoms::pos::test
