// ForecastSite: a fresh store with a sales history written through the sales book (one order per
// transaction, as a POS would send them), for the tests of the forecast fed from the sales and the
// intraday proposals. Header-only.
#pragma once

#include <boost/test/unit_test.hpp>
#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "domain/forecast/demand_history.h"
#include "domain/pos/sales_book.h"
#include "store/site_store.h"
#include "store/state_dir.h"
#include "tests/support/audit_entries.h"
#include "tests/support/temp_dir.h"

namespace atoms::forecast::test {

struct ForecastSite {
  explicit ForecastSite(const std::string& zoneName)
      : zone(site::TimeZone::locate(zoneName).value()) {
    BOOST_TEST_REQUIRE(initStateDir(tmp.sub("state"), {"forecast-site"}).ok());
    auto opened = SiteStore::open(tmp.sub("state"));
    BOOST_TEST_REQUIRE(opened.ok(), opened.message());
    store = std::move(*opened);
  }

  // The interval's transactions as orders: the net sales and covers spread over them (the first
  // takes the remainders), so the sales book sums back to the interval exactly.
  void addInterval(const std::string& center, const DemandInterval& interval) {
    if (interval.transactions <= 0) return;
    const auto utc = zone.toUtc(interval.start);
    BOOST_TEST_REQUIRE(utc.ok(), utc.message());
    const std::int64_t n = interval.transactions;
    for (std::int64_t k = 0; k < n; ++k) {
      drivers::pos::PosOrder o;
      o.id =
          center + "-" + std::to_string(utc->time_since_epoch().count()) + "-" + std::to_string(k);
      o.revenueCenter = center;
      o.at = std::chrono::time_point_cast<std::chrono::milliseconds>(*utc) +
             std::chrono::seconds(30 + k);
      o.updatedAt = o.at;
      o.netCents = interval.netSalesCents / n + (k == 0 ? interval.netSalesCents % n : 0);
      o.covers = interval.covers / n + (k == 0 ? interval.covers % n : 0);
      pending.push_back(std::move(o));
    }
    if (pending.size() >= 400) flush();
  }
  void flush() {
    if (pending.empty()) return;
    drivers::pos::OrderBatch batch{"push:till", std::move(pending), std::nullopt, "test"};
    pending.clear();
    auto r = pos::recordOrders(*store, batch, zone, now);
    BOOST_TEST_REQUIRE(r.ok(), r.message());
  }
  std::size_t entries(std::string_view kind) {
    auto found = atoms::testing::entriesOfKind(store->log(), kind);
    BOOST_TEST_REQUIRE(found.ok(), found.message());
    return found->size();
  }

  atoms::testing::TempDir tmp;
  site::TimeZone zone;
  std::unique_ptr<SiteStore> store;
  std::vector<drivers::pos::PosOrder> pending;
  TimePoint now{};
};

}  // namespace atoms::forecast::test
