#include "drivers/pos/order_sink.h"

#include "base/name_table.h"

namespace atoms::drivers::pos {
namespace {
constexpr NameTable<OrderOutcome, 3> kOutcomeNames{{{OrderOutcome::kStored, "stored"},
                                                    {OrderOutcome::kUpdated, "updated"},
                                                    {OrderOutcome::kDuplicate, "duplicate"}}};
}  // namespace

std::string_view orderOutcomeName(OrderOutcome outcome) { return nameOf(kOutcomeNames, outcome); }

}  // namespace atoms::drivers::pos
