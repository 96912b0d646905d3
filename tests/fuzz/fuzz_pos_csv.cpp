// Fuzz target: a CSV export in the POS drop folder (drivers/pos/csv_orders.h), a file anything
// with write access to the folder can drop.
//
// Input: the file, read with a mapping that uses every column. Properties, beyond "no crash, no
// sanitizer report":
//   - an error is one short line of printable ASCII naming the file (it goes into the .result);
//   - every order read passes validateOrder.
#include <cstddef>
#include <cstdint>
#include <string>

#include "drivers/pos/csv_orders.h"
#include "tests/fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace atoms::drivers::pos;
  CsvMapping mapping;
  mapping.covers = "covers";
  mapping.revenueCenter = "center";
  mapping.state = "state";
  mapping.returnOf = "return_of";
  mapping.returned = "returned";
  mapping.version = "version";
  const auto orders = parseCsvOrders(atoms::fuzz::asText(data, size), mapping, "drop.csv");
  if (!orders) {
    atoms::fuzz::require(atoms::fuzz::isOneLine(orders.message()), "an error is one line");
    atoms::fuzz::require(orders.message().starts_with("drop.csv"), "an error names the file");
    atoms::fuzz::require(orders.message().size() < 600, "an error is short");
    return 0;
  }
  for (const PosOrder& o : *orders) {
    atoms::fuzz::require(validateOrder(o, "order").ok(), "an order read is valid");
  }
  return 0;
}
