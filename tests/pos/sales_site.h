// SalesSite: a fresh state directory with its store and a SalesBook over a LockedStoreRunner, for
// the POS tests; the clock is `now`, set by the test.
#pragma once

#include <boost/test/unit_test.hpp>
#include <memory>

#include "domain/pos/sales_book.h"
#include "store/state_dir.h"
#include "store/store_runner.h"
#include "tests/support/audit_entries.h"
#include "tests/support/temp_dir.h"

namespace atoms::pos::test {

struct SalesSite {
  SalesSite() : zone(site::TimeZone::locate("America/Los_Angeles").value()) {
    BOOST_TEST_REQUIRE(initStateDir(tmp.sub("state"), {"pos-site"}).ok());
    auto opened = SiteStore::open(tmp.sub("state"));
    BOOST_TEST_REQUIRE(opened.ok(), opened.message());
    store = std::move(*opened);
    runner = std::make_unique<LockedStoreRunner>(*store);
    book = std::make_unique<SalesBook>(*runner, zone, [this] { return now; });
  }
  std::vector<SalesInterval> intervals(std::chrono::sys_seconds from, std::chrono::sys_seconds to) {
    auto r = salesIntervals(store->db(), from, to);
    BOOST_TEST_REQUIRE(r.ok(), r.message());
    return *r;
  }
  std::int64_t netCents(std::chrono::sys_seconds from, std::chrono::sys_seconds to) {
    std::int64_t sum = 0;
    for (const SalesInterval& i : intervals(from, to)) sum += i.netCents;
    return sum;
  }
  std::size_t imports() {
    auto found = atoms::testing::entriesOfKind(store->log(), "pos.import");
    BOOST_TEST_REQUIRE(found.ok(), found.message());
    return found->size();
  }

  atoms::testing::TempDir tmp;
  site::TimeZone zone;
  std::unique_ptr<SiteStore> store;
  std::unique_ptr<LockedStoreRunner> runner;
  std::unique_ptr<SalesBook> book;
  TimePoint now = std::chrono::sys_days(std::chrono::year(2026) / 12 / 1) + std::chrono::hours(12);
};

}  // namespace atoms::pos::test
