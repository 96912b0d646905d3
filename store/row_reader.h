// RowReader: reads the current row of a Statement column by column, in the order of the SELECT's
// column list, so that a repository's row mapper reads like that list:
//
//   RowReader r(stmt);
//   row.id = r.int64();
//   row.name = r.text();
//   row.state = r.named(kStateNames);  // through the enum's NameTable
//   row.closedAt = r.optionalTime();
//
// and readRows / readFirst, which step a statement and map its rows, so the stepping loop is not
// written again in every repository.
//
// Contract:
// - Each read takes the next column (0, 1, 2...); skip() passes one over. Reading past the last
//   column reads NULL (SQLite's own behaviour), so a mapper that reads more columns than the SELECT
//   names is a bug that tests show as empty values.
// - NULL reads as 0 / "" / empty, as Statement's accessors do; the optional forms read it as
//   nullopt. Instants are Unix milliseconds, the store's form (base/unix_time.h).
// - A RowReader is valid while its statement stays on the row it was made on. Not thread-safe.
// - readRows / readFirst return the first error, of a step or of the mapper (which returns T or
//   Result<T>); no exceptions.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "base/bytes.h"
#include "base/name_table.h"
#include "base/result.h"
#include "base/time_point.h"
#include "store/database.h"

namespace atoms {

class RowReader {
 public:
  explicit RowReader(const Statement& stmt) : stmt_(&stmt) {}

  std::int64_t int64() { return stmt_->columnInt64(column_++); }
  // A column written from an int (counts, ranks, minutes).
  int int32() { return static_cast<int>(int64()); }
  // A 0/1 column; any non-zero value reads as true.
  bool flag() { return int64() != 0; }
  std::string text() { return stmt_->columnText(column_++); }
  Bytes blob() { return stmt_->columnBlob(column_++); }
  TimePoint time();

  std::optional<std::int64_t> optionalInt64();
  std::optional<std::string> optionalText();
  std::optional<TimePoint> optionalTime();

  // The value of E the column's text names; nullopt when no value has that name (the caller says
  // which row is damaged).
  template <class E, std::size_t N>
  std::optional<E> named(const NameTable<E, N>& names) {
    return fromName(names, text());
  }

  bool nextIsNull() const { return stmt_->columnIsNull(column_); }
  void skip(int columns = 1) { column_ += columns; }

 private:
  const Statement* stmt_;
  int column_ = 0;
};

namespace row_detail {

template <class T>
struct Unwrap {
  using type = T;
  static constexpr bool kIsResult = false;
};
template <class T>
struct Unwrap<Result<T>> {
  using type = T;
  static constexpr bool kIsResult = true;
};
template <class Read>
using Returned = std::decay_t<std::invoke_result_t<Read&, RowReader&>>;
template <class Read>
using RowOf = typename Unwrap<Returned<Read>>::type;

// Steps once and maps the row, if there is one, into *out.
template <class Read>
Result<bool> next(Statement& stmt, Read& read, std::optional<RowOf<Read>>& out) {
  auto more = stmt.step();
  if (!more) return more.error();
  if (!*more) return false;
  RowReader reader(stmt);
  if constexpr (Unwrap<Returned<Read>>::kIsResult) {
    auto row = read(reader);
    if (!row) return row.error();
    out.emplace(std::move(*row));
  } else {
    out.emplace(read(reader));
  }
  return true;
}

}  // namespace row_detail

// Every row of stmt (run from its current position to the end), each mapped by read(RowReader&).
template <class Read>
Result<std::vector<row_detail::RowOf<Read>>> readRows(Statement& stmt, Read&& read) {
  std::vector<row_detail::RowOf<Read>> rows;
  for (;;) {
    std::optional<row_detail::RowOf<Read>> row;
    auto more = row_detail::next(stmt, read, row);
    if (!more) return more.error();
    if (!*more) return rows;
    rows.push_back(std::move(*row));
  }
}

// The first row of stmt mapped by read(RowReader&); nullopt when there is none. The rest of the
// rows are not read.
template <class Read>
Result<std::optional<row_detail::RowOf<Read>>> readFirst(Statement& stmt, Read&& read) {
  std::optional<row_detail::RowOf<Read>> row;
  auto found = row_detail::next(stmt, read, row);
  if (!found) return found.error();
  return row;
}

}  // namespace atoms
