// AuditBudget: at most N refusal entries a window, and the count of those left out.
#include <boost/test/unit_test.hpp>

#include "store/audit_budget.h"

using namespace atoms;
using namespace std::chrono_literals;

BOOST_AUTO_TEST_CASE(admitsTheBudgetThenCountsWhatItLeavesOutUntilAnEntryIsWritten) {
  AuditBudget budget(2);
  const AuditBudget::TimePoint t0{1'000'000s};
  BOOST_TEST(budget.admit(t0));
  BOOST_TEST(budget.admit(t0 + 1s));
  BOOST_TEST(!budget.admit(t0 + 2s));
  BOOST_TEST(!budget.admit(t0 + 59s));
  BOOST_TEST(budget.leftOut() == 2u);
  // A new window: the next entry is written and carries the two left out.
  BOOST_TEST(budget.admit(t0 + 60s));
  BOOST_TEST(budget.leftOut() == 2u);
  budget.written();
  BOOST_TEST(budget.leftOut() == 0u);
}

BOOST_AUTO_TEST_CASE(aClockThatWentBackStartsANewWindow) {
  AuditBudget budget(1);
  const AuditBudget::TimePoint t0{1'000'000s};
  BOOST_TEST(budget.admit(t0));
  BOOST_TEST(!budget.admit(t0 + 1s));
  BOOST_TEST(budget.admit(t0 - 10s));
}
