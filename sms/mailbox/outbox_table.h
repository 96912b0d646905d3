// OutboxTable: the SQL of tables sms_outbox and sms_delivery_report (migration 4 "sms") over one
// Database. No policy here: Outbox decides what a row becomes, this only reads and writes rows.
//
// Threading: like the Database it wraps (one thread at a time; the mailbox uses it only inside
// StoreRunner::run). Errors: SQL errors as the Database reports them, with the SQL text.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"
#include "drivers/sms/sms_gateway.h"
#include "sms/mailbox/outbox_row.h"
#include "store/database.h"

namespace atoms::sms::mailbox {

struct StoredReport {
  std::string gateway;
  drivers::DeliveryReport report;
};

struct OutboxQuery {
  std::optional<OutboxState> state;  // any when absent
  bool uncertainOnly = false;        // only rows flagged by the uncertain-outcome policy
  std::size_t limit = 100;
};

class OutboxTable {
 public:
  explicit OutboxTable(Database& db) : db_(db) {}

  Result<std::optional<OutboxRow>> find(std::string_view id);
  Result<std::optional<OutboxRow>> findByProvider(std::string_view gateway,
                                                  std::string_view providerId);
  // Inserts `row` (its seq is assigned and returned).
  Result<std::int64_t> insert(const OutboxRow& row);
  // Writes every mutable column of the row with row.seq; an error when there is none.
  Status update(const OutboxRow& row);
  // The row in `state` whose next_attempt_at <= now that goes first: safety messages before the
  // rest, then by next_attempt_at, then enqueue order.
  Result<std::optional<OutboxRow>> firstDue(OutboxState state, TimePoint now);
  // The earliest next_attempt_at of a queued or sending row.
  Result<std::optional<TimePoint>> earliestDue();
  // Newest first.
  Result<std::vector<OutboxRow>> list(const OutboxQuery& query);
  // Rows in state `from` (and of class `only`, when given), oldest first.
  Result<std::vector<OutboxRow>> inState(OutboxState from, std::optional<MessageClass> only);

  // Stores a delivery report unless one for the same (gateway, provider id, state) is stored
  // already; true when it was new.
  Result<bool> insertReport(std::string_view gateway, const drivers::DeliveryReport& report,
                            TimePoint receivedAt);
  // Stored reports for the message not yet applied to an outbox row.
  Result<std::vector<StoredReport>> unappliedReports(std::string_view gateway,
                                                     std::string_view providerId);
  Status markReportApplied(std::string_view gateway, const drivers::DeliveryReport& report);

 private:
  Database& db_;
};

}  // namespace atoms::sms::mailbox
