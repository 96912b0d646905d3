#include "drivers/pos/csv_orders.h"

#include <charconv>

#include "drivers/http/printable.h"

namespace atoms::drivers::pos {
namespace {

std::optional<std::int64_t> csvInteger(std::string_view s) {
  std::int64_t v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size() || s.empty()) return std::nullopt;
  return v;
}

std::string_view csvTrim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

}  // namespace

Result<std::vector<CsvRecord>> splitCsv(std::string_view text, char delimiter) {
  if (text.starts_with("\xEF\xBB\xBF")) text.remove_prefix(3);
  std::vector<CsvRecord> records;
  CsvRecord record{1, {}};
  std::string field;
  std::size_t line = 1;
  bool quoted = false, wasQuoted = false, any = false;
  std::size_t quoteLine = 0;
  auto endField = [&] {
    record.fields.push_back(std::move(field));
    field.clear();
    wasQuoted = false;
  };
  auto endRecord = [&] {
    endField();
    // A blank line is no record.
    if (!(record.fields.size() == 1 && record.fields[0].empty()))
      records.push_back(std::move(record));
    record = CsvRecord{line, {}};
  };
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    any = true;
    if (quoted) {
      if (c == '"') {
        if (i + 1 < text.size() && text[i + 1] == '"') {
          field += '"';
          ++i;
        } else {
          quoted = false;
        }
      } else {
        if (c == '\n') ++line;
        field += c;
      }
      continue;
    }
    if (c == '"' && field.empty() && !wasQuoted) {
      quoted = wasQuoted = true;
      quoteLine = line;
    } else if (c == delimiter) {
      endField();
    } else if (c == '\r' && i + 1 < text.size() && text[i + 1] == '\n') {
      continue;
    } else if (c == '\n') {
      ++line;
      endRecord();
    } else {
      field += c;
    }
    if (records.size() > kMaxCsvRows) {
      return makeError("more than " + std::to_string(kMaxCsvRows) + " rows", ErrorKind::kInvalid);
    }
  }
  if (quoted) {
    return makeError("line " + std::to_string(quoteLine) + ": a quoted field is never closed",
                     ErrorKind::kInvalid);
  }
  if (any && !(field.empty() && record.fields.empty())) endRecord();
  return records;
}

Result<std::vector<PosOrder>> parseCsvOrders(std::string_view text, const CsvMapping& m,
                                             const std::string& file) {
  const std::string name = printable(file, 80);
  if (text.size() > kMaxCsvBytes) return makeError(name + ": over 32 MiB", ErrorKind::kInvalid);
  auto records = splitCsv(text, m.delimiter);
  if (!records) return makeError(name + " " + records.message(), ErrorKind::kInvalid);
  if (records->empty()) return makeError(name + ": empty, no header line", ErrorKind::kInvalid);
  const std::vector<std::string>& header = records->front().fields;
  // The index of each mapped column; -1 when unmapped.
  auto column = [&](const std::string& wanted) -> Result<int> {
    if (wanted.empty()) return -1;
    for (std::size_t i = 0; i < header.size(); ++i) {
      if (csvTrim(header[i]) == wanted) return static_cast<int>(i);
    }
    return makeError(name + " line 1: no column '" + printable(wanted) + "' (the mapping needs it)",
                     ErrorKind::kInvalid);
  };
  struct Columns {
    int id, closedAt, net, covers, center, state, returnOf, returned, version;
  } c{};
  for (auto [slot, wanted, required] : {std::tuple{&c.id, &m.id, true},
                                        {&c.closedAt, &m.closedAt, true},
                                        {&c.net, &m.net, true},
                                        {&c.covers, &m.covers, false},
                                        {&c.center, &m.revenueCenter, false},
                                        {&c.state, &m.state, false},
                                        {&c.returnOf, &m.returnOf, false},
                                        {&c.returned, &m.returned, false},
                                        {&c.version, &m.version, false}}) {
    if (required && wanted->empty()) {
      return makeError(name + ": the column mapping lacks a required column", ErrorKind::kInvalid);
    }
    auto found = column(*wanted);
    if (!found) return found.error();
    *slot = *found;
  }
  std::vector<PosOrder> orders;
  for (std::size_t r = 1; r < records->size(); ++r) {
    const CsvRecord& row = (*records)[r];
    const std::string where = name + " line " + std::to_string(row.line);
    auto cell = [&](int index) -> std::string_view {
      return index >= 0 && static_cast<std::size_t>(index) < row.fields.size()
                 ? csvTrim(row.fields[static_cast<std::size_t>(index)])
                 : std::string_view();
    };
    auto bad = [&](int index, const std::string& what) {
      return makeError(where + ": column '" + printable(header[static_cast<std::size_t>(index)]) +
                           "': '" + printable(cell(index)) + "' " + what,
                       ErrorKind::kInvalid);
    };
    auto amount = [&](int index) -> std::optional<std::int64_t> {
      const std::string_view v = cell(index);
      if (m.amountsInCents) {
        const auto n = csvInteger(v);
        if (!n || *n < -kMaxOrderCents || *n > kMaxOrderCents) return std::nullopt;
        return n;
      }
      return parseCents(v);
    };
    PosOrder o;
    o.id = std::string(cell(c.id));
    const std::string_view when = cell(c.closedAt);
    std::optional<PosTime> at = parsePosTime(when);
    if (!at && m.localTime) at = m.localTime(when);
    if (!at) return bad(c.closedAt, "is not a time");
    o.at = o.updatedAt = *at;
    const auto net = amount(c.net);
    if (!net) return bad(c.net, "is not an amount");
    o.netCents = *net;
    if (c.covers >= 0 && !cell(c.covers).empty()) {
      const auto n = csvInteger(cell(c.covers));
      if (!n) return bad(c.covers, "is not a whole number");
      o.covers = *n;
    }
    if (c.center >= 0 && !cell(c.center).empty()) o.revenueCenter = std::string(cell(c.center));
    if (c.state >= 0 && !cell(c.state).empty()) {
      std::string s(cell(c.state));
      for (char& ch : s) ch = static_cast<char>(ch >= 'A' && ch <= 'Z' ? ch - 'A' + 'a' : ch);
      if (s == "void" || s == "voided" || s == "cancelled") s = "canceled";
      const auto state = parseOrderState(s);
      if (!state) return bad(c.state, "is not completed, canceled, void or open");
      o.state = *state;
    }
    if (c.returnOf >= 0) o.returnOf = std::string(cell(c.returnOf));
    if (c.returned >= 0 && !cell(c.returned).empty()) {
      const auto n = amount(c.returned);
      if (!n) return bad(c.returned, "is not an amount");
      o.returnedCents = *n < 0 ? -*n : *n;
    }
    if (c.version >= 0 && !cell(c.version).empty()) {
      const auto n = csvInteger(cell(c.version));
      if (!n) return bad(c.version, "is not a whole number");
      o.version = *n;
    }
    if (Status valid = validateOrder(o, where); !valid) return valid.error();
    orders.push_back(std::move(o));
  }
  return orders;
}

}  // namespace atoms::drivers::pos
