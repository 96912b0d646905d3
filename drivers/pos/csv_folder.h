// CsvFolder: the drop folder of a POS that only exports files (docs/pos.md "CSV drop folder").
//
// scanOnce() imports every `*.csv` directly in the folder, oldest name first (a POS writes a file
// under another name and renames it to .csv when complete; files starting with '.' are skipped):
// - read and parsed with the mapping (csv_orders.h), then handed to the sink as one batch under
//   the folder's source ("csv:<name>"), described by the file's name;
// - imported: moved to done/<file> with done/<file>.result beside it ("imported 120 orders: 118
//   stored, 0 updated, 2 duplicates");
// - unreadable (a bad row, a missing column): nothing is stored; moved to failed/<file> with
//   failed/<file>.result naming the line and column; reported as kFailing;
// - the sink failing (the store): left in place, tried again at the next scan.
// A name already taken in done/ or failed/ gets ".2", ".3", ... so no result is overwritten. So
// each file is imported once; a file dropped again (a copy) is imported again, and its orders are
// duplicates by id.
//
// Threading: one thread calls scanOnce (the POS subsystem's). Errors: the folder itself unusable.
#pragma once

#include <chrono>
#include <string>

#include "base/result.h"
#include "drivers/pos/csv_orders.h"
#include "drivers/pos/order_sink.h"
#include "drivers/pos/source_status.h"

namespace atoms::drivers::pos {

struct CsvScan {
  int imported = 0;
  int failed = 0;
  int retried = 0;  // left in place after a sink failure
};

class CsvFolder {
 public:
  // The sink must outlive the folder. Creates done/ and failed/ when missing (at the first scan).
  CsvFolder(std::string directory, std::string source, CsvMapping mapping, OrderSink& sink,
            SourceStatusListener listener = {});

  Result<CsvScan> scanOnce();
  const std::string& source() const { return source_; }

 private:
  std::string directory_;
  std::string source_;
  CsvMapping mapping_;
  OrderSink& sink_;
  SourceStatusListener listener_;
};

}  // namespace atoms::drivers::pos
