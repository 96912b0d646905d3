// CSV exports of POS systems that only write files (docs/pos.md "CSV drop folder"): the column
// mapping from the configuration and the reading of one file into PosOrders. Pure functions, no
// I/O, so the fuzz target drives exactly the code the folder runs.
//
// A file is RFC 4180 CSV (the delimiter configurable; fields may be quoted, "" inside quotes is a
// quote; CRLF or LF; a UTF-8 byte order mark is skipped) whose first line names the columns. The
// mapping says which column holds what; id, closed_at and net are required, the others optional:
//   id             the order id
//   closed_at      RFC 3339 ("2026-11-30T19:05:00Z", "...-08:00"), or a site-local time
//                  "YYYY-MM-DD HH:MM[:SS]" (or with 'T') read through `localTime`
//   net            net sales: decimal ("12.50") or, with amountsInCents, whole cents ("1250")
//   covers         integer
//   revenue_center text (empty: "main")
//   state          completed / canceled / open; also "void", "voided", "cancelled" for canceled
//   return_of      the id of the sale this row returns from
//   returned       the refunded amount (as net)
//   version        integer (default 1)
// A row that cannot be read refuses the whole file with an error naming the file, the line and the
// column: "sales-1130.csv line 7: column 'net_sales': '12,50' is not an amount".
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"
#include "drivers/pos/pos_order.h"

namespace atoms::drivers::pos {

inline constexpr std::size_t kMaxCsvBytes = 32 * 1024 * 1024;
inline constexpr std::size_t kMaxCsvRows = 200'000;

struct CsvMapping {
  std::string id = "order_id";
  std::string closedAt = "closed_at";
  std::string net = "net_sales";
  std::string covers, revenueCenter, state, returnOf, returned, version;  // empty: no column
  char delimiter = ',';
  bool amountsInCents = false;
  // A local wall-clock time ("2026-11-30 11:05:00") to UTC in the site's zone; nullopt when it does
  // not exist or is ambiguous there. Empty: only RFC 3339 times are accepted.
  std::function<std::optional<PosTime>(std::string_view)> localTime;
};

// Splits CSV text into records of fields (see above); an error names the line of an unterminated
// quote. Each record carries the line it starts on (1-based).
struct CsvRecord {
  std::size_t line = 0;
  std::vector<std::string> fields;
};
Result<std::vector<CsvRecord>> splitCsv(std::string_view text, char delimiter);

// Reads a whole file (see above). `file` is the name used in errors.
Result<std::vector<PosOrder>> parseCsvOrders(std::string_view text, const CsvMapping& mapping,
                                             const std::string& file);

}  // namespace atoms::drivers::pos
