#include "domain/pos/sales_book.h"

#include "base/canonical_json.h"
#include "base/timestamp.h"
#include "base/unix_time.h"

namespace atoms::pos {
namespace {

using drivers::pos::OrderOutcome;
using drivers::pos::OrderState;

// What an order counts: the sale part and the refund part, both only when completed.
std::int64_t counted(const PosOrder& o) {
  return o.state == OrderState::kCompleted ? o.netCents - o.returnedCents : 0;
}

struct SalesStatements {
  Statement stored, sale, write, returns, source;

  static Result<SalesStatements> prepare(Database& db) {
    auto stored = db.cached(
        "SELECT version, CASE WHEN state = 'completed' THEN net_cents - returned_cents ELSE 0"
        " END FROM pos_order WHERE source = ? AND order_id = ?");
    if (!stored) return stored.error();
    auto sale = db.cached(
        "SELECT interval_start, revenue_center FROM pos_order WHERE source = ? AND order_id = ?");
    if (!sale) return sale.error();
    auto write = db.cached(
        "INSERT OR REPLACE INTO pos_order(source, order_id, version, state, revenue_center,"
        " closed_at, updated_at, interval_start, net_cents, transactions, covers, return_of,"
        " returned_cents, return_center, return_interval, received_at)"
        " VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)");
    if (!write) return write.error();
    auto returns = db.cached(
        "UPDATE pos_order SET return_interval = ?, return_center = ? WHERE source = ? AND"
        " return_of = ?");
    if (!returns) return returns.error();
    auto source = db.cached(
        "INSERT OR REPLACE INTO pos_source(source, cursor, last_contact_at) VALUES(?,"
        " COALESCE(?, (SELECT cursor FROM pos_source WHERE source = ?)), ?)");
    if (!source) return source.error();
    return SalesStatements{std::move(*stored), std::move(*sale), std::move(*write),
                           std::move(*returns), std::move(*source)};
  }
};

struct StoredOrder {
  std::int64_t version = 0;
  std::int64_t counted = 0;
};

Result<std::optional<StoredOrder>> storedOrder(Statement& s, const std::string& source,
                                               const std::string& id) {
  if (Status r = s.reset(); !r) return r.error();
  s.bind(1, source).bind(2, id);
  auto row = s.step();
  if (!row) return row.error();
  if (!*row) return std::optional<StoredOrder>();
  return std::optional<StoredOrder>(StoredOrder{s.columnInt64(0), s.columnInt64(1)});
}

struct SaleSlot {
  std::int64_t interval = 0;
  std::string revenueCenter;
};

Result<std::optional<SaleSlot>> saleSlot(Statement& s, const std::string& source,
                                         const std::string& id) {
  if (Status r = s.reset(); !r) return r.error();
  s.bind(1, source).bind(2, id);
  auto row = s.step();
  if (!row) return row.error();
  if (!*row) return std::optional<SaleSlot>();
  return std::optional<SaleSlot>(SaleSlot{s.columnInt64(0), s.columnText(1)});
}

Status writeOrder(SalesStatements& st, const std::string& source, const PosOrder& o,
                  const site::TimeZone& zone, TimePoint now) {
  const std::int64_t interval = intervalStart(o.at, zone).time_since_epoch().count();
  std::optional<SaleSlot> slot;
  if (!o.returnOf.empty()) {
    auto found = saleSlot(st.sale, source, o.returnOf);
    if (!found) return found.error();
    slot = std::move(*found);
  }
  const bool completed = o.state == OrderState::kCompleted;
  const bool sale = completed && (o.returnOf.empty() || o.netCents > 0);
  Statement& w = st.write;
  if (Status r = w.reset(); !r) return r;
  w.bind(1, source)
      .bind(2, o.id)
      .bind(3, o.version)
      .bind(4, drivers::pos::orderStateName(o.state))
      .bind(5, o.revenueCenter)
      .bind(6, o.at.time_since_epoch().count())
      .bind(7, o.updatedAt.time_since_epoch().count())
      .bind(8, interval)
      .bind(9, o.netCents)
      .bind(10, std::int64_t{sale ? 1 : 0})
      .bind(11, completed ? o.covers : std::int64_t{0})
      .bind(12, o.returnOf)
      .bind(13, o.returnedCents)
      .bind(14, slot ? slot->revenueCenter : o.revenueCenter)
      .bind(15, slot ? slot->interval : interval)
      .bindTime(16, now);
  if (Status done = w.run(); !done) return done;
  // Returns stored before this sale move to its interval now.
  Statement& r = st.returns;
  if (Status reset = r.reset(); !reset) return reset;
  r.bind(1, interval).bind(2, o.revenueCenter).bind(3, source).bind(4, o.id);
  return r.run();
}

}  // namespace

std::chrono::sys_seconds intervalStart(PosTime t, const site::TimeZone& zone) {
  const site::Instant utc = std::chrono::floor<std::chrono::seconds>(t);
  const site::LocalTime local = zone.toLocal(utc);
  const auto localStart = std::chrono::floor<std::chrono::minutes>(local);
  const auto minutes = localStart.time_since_epoch().count();
  const auto aligned = site::LocalTime(std::chrono::minutes(minutes - ((minutes % 15) + 15) % 15));
  return utc - (local - aligned);
}

bool isValidSourceId(std::string_view source) {
  if (source.empty() || source.size() > 64) return false;
  for (char c : source) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                    c == '-' || c == '_' || c == '.' || c == ':';
    if (!ok) return false;
  }
  return true;
}

Result<BatchOutcome> recordOrders(SiteStore& store, const OrderBatch& batch,
                                  const site::TimeZone& zone, TimePoint now) {
  if (!isValidSourceId(batch.source)) {
    return makeError("POS source '" + batch.source + "' is not a valid source id",
                     ErrorKind::kInvalid);
  }
  for (std::size_t i = 0; i < batch.orders.size(); ++i) {
    const std::string where = "POS " + batch.source + " order " + std::to_string(i);
    if (Status valid = drivers::pos::validateOrder(batch.orders[i], where); !valid) {
      return valid.error();
    }
  }
  auto audit = store.log().begin();
  if (!audit) return audit.error();
  auto st = SalesStatements::prepare(store.db());
  if (!st) return st.error();

  BatchOutcome out;
  std::int64_t netChange = 0;
  for (const PosOrder& o : batch.orders) {
    auto stored = storedOrder(st->stored, batch.source, o.id);
    if (!stored) return stored.error();
    if (*stored && (*stored)->version >= o.version) {
      ++out.duplicates;
      out.outcomes.push_back(OrderOutcome::kDuplicate);
      continue;
    }
    if (Status w = writeOrder(*st, batch.source, o, zone, now); !w) return w.error();
    netChange += counted(o) - (*stored ? (*stored)->counted : 0);
    if (*stored) {
      ++out.updated;
      out.outcomes.push_back(OrderOutcome::kUpdated);
    } else {
      ++out.stored;
      out.outcomes.push_back(OrderOutcome::kStored);
    }
  }
  Statement& s = st->source;
  if (Status r = s.reset(); !r) return r.error();
  s.bind(1, batch.source).bindOptional(2, batch.cursor).bind(3, batch.source).bindTime(4, now);
  if (Status done = s.run(); !done) return done.error();

  if (out.stored + out.updated > 0) {
    json::Object body{{"source", batch.source},
                      {"what", batch.what},
                      {"orders", static_cast<std::int64_t>(batch.orders.size())},
                      {"stored", out.stored},
                      {"updated", out.updated},
                      {"duplicates", out.duplicates},
                      {"net_change_cents", netChange}};
    if (batch.cursor) body["cursor"] = *batch.cursor;
    if (Status added = audit->record(now, "pos.import", "pos:" + batch.source, std::move(body));
        !added) {
      return added.error();
    }
  }
  if (auto committed = audit->commit(); !committed) return committed.error();
  return out;
}

Result<std::vector<SalesInterval>> salesIntervals(Database& db, std::chrono::sys_seconds from,
                                                  std::chrono::sys_seconds to) {
  auto s = db.cached(
      "SELECT iv, rc, SUM(n), SUM(t), SUM(c) FROM ("
      " SELECT interval_start AS iv, revenue_center AS rc, net_cents AS n, transactions AS t,"
      " covers AS c FROM pos_order WHERE state = 'completed' AND interval_start >= ?1 AND"
      " interval_start < ?2 AND (return_of = '' OR net_cents <> 0)"
      " UNION ALL"
      " SELECT return_interval, return_center, -returned_cents, 0, 0 FROM pos_order WHERE"
      " state = 'completed' AND returned_cents <> 0 AND return_interval >= ?1 AND"
      " return_interval < ?2)"
      " GROUP BY iv, rc ORDER BY iv, rc");
  if (!s) return s.error();
  s->bind(1, from.time_since_epoch().count()).bind(2, to.time_since_epoch().count());
  std::vector<SalesInterval> out;
  for (;;) {
    auto row = s->step();
    if (!row) return row.error();
    if (!*row) break;
    out.push_back(SalesInterval{std::chrono::sys_seconds(std::chrono::seconds(s->columnInt64(0))),
                                s->columnText(1), s->columnInt64(2), s->columnInt64(3),
                                s->columnInt64(4)});
  }
  return out;
}

Result<std::optional<std::string>> sourceCursor(Database& db, const std::string& source) {
  auto s = db.cached("SELECT cursor FROM pos_source WHERE source = ?");
  if (!s) return s.error();
  s->bind(1, source);
  auto row = s->step();
  if (!row) return row.error();
  if (!*row || s->columnIsNull(0)) return std::optional<std::string>();
  return std::optional<std::string>(s->columnText(0));
}

Result<std::optional<TimePoint>> sourceLastContact(Database& db, const std::string& source) {
  auto s = db.cached("SELECT last_contact_at FROM pos_source WHERE source = ?");
  if (!s) return s.error();
  s->bind(1, source);
  auto row = s->step();
  if (!row) return row.error();
  if (!*row || s->columnIsNull(0)) return std::optional<TimePoint>();
  return std::optional<TimePoint>(fromUnixMillis(s->columnInt64(0)));
}

SalesBook::SalesBook(atoms::StoreRunner& runner, site::TimeZone zone,
                     std::function<TimePoint()> now,
                     std::function<void(const OrderBatch&, const BatchOutcome&)> listener)
    : runner_(runner),
      zone_(std::move(zone)),
      now_(std::move(now)),
      listener_(std::move(listener)) {}

Result<BatchOutcome> SalesBook::accept(const OrderBatch& batch) {
  std::optional<BatchOutcome> outcome;
  Status status = runner_.run([&](SiteStore& store) -> Status {
    auto r = recordOrders(store, batch, zone_, now_());
    if (!r) return r.error();
    outcome = std::move(*r);
    if (listener_ && outcome->stored + outcome->updated > 0) {
      try {
        listener_(batch, *outcome);
      } catch (...) {
        // Stored is stored: a failing listener must not make the driver send the batch again.
      }
    }
    return Status::success();
  });
  if (!status) {
    return makeError("orders from POS " + batch.source + " were not stored: " + status.message(),
                     status.kind());
  }
  return std::move(*outcome);
}

Result<std::optional<std::string>> SalesBook::cursor(const std::string& source) {
  std::optional<std::string> out;
  Status status = runner_.run([&](SiteStore& store) -> Status {
    auto r = sourceCursor(store.db(), source);
    if (!r) return r.error();
    out = std::move(*r);
    return Status::success();
  });
  if (!status) return status.error();
  return out;
}

}  // namespace atoms::pos
