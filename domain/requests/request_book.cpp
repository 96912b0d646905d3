#include "domain/requests/request_book.h"

#include <utility>

namespace atoms::requests {

StoreRequests::StoreRequests(RequestDesk& desk, atoms::StoreRunner& store)
    : desk_(desk), store_(store) {}

Result<bool> StoreRequests::knowsPerson(std::string_view personId) {
  bool known = false;
  Status s = store_.run([&](SiteStore& store) -> Status {
    if (Status r = desk_.site().refresh(store.db()); !r) return r;
    known = desk_.knowsPerson(personId);
    return Status::success();
  });
  if (!s) return s.error();
  return known;
}

Result<std::vector<RequestView>> StoreRequests::list(RequestFilter filter) {
  std::vector<RequestView> out;
  Status s = store_.run([&](SiteStore& store) -> Status {
    if (Status r = desk_.site().refresh(store.db()); !r) return r;
    auto rows = RequestStore(store.db()).list(filter, desk_.now());
    if (!rows) return rows.error();
    for (const RequestRow& row : *rows) {
      auto v = desk_.view(row, desk_.now());
      if (!v) return v.error();
      out.push_back(std::move(*v));
    }
    return Status::success();
  });
  if (!s) return s.error();
  return out;
}

Result<std::optional<RequestView>> StoreRequests::get(std::int64_t id) {
  std::optional<RequestView> out;
  Status s = store_.run([&](SiteStore& store) -> Status {
    if (Status r = desk_.site().refresh(store.db()); !r) return r;
    auto row = RequestStore(store.db()).get(id);
    if (!row) return row.error();
    if (!*row) return Status::success();
    auto v = desk_.view(**row, desk_.now());
    if (!v) return v.error();
    out = std::move(*v);
    return Status::success();
  });
  if (!s) return s.error();
  return out;
}

Result<BookDecision> StoreRequests::decide(std::string_view personId, std::int64_t id, bool approve,
                                           std::string reason) {
  BookDecision out;
  Status s = store_.run([&](SiteStore& store) -> Status {
    if (Status r = desk_.site().refresh(store.db()); !r) return r;
    auto batch = store.log().begin();
    if (!batch) return batch.error();
    RequestStep step{store, *batch, desk_.now(), std::nullopt};
    auto decided = desk_.decide(step, callout::Decider{std::string(personId), "", "api"}, id,
                                approve, std::move(reason));
    if (!decided) return decided.error();
    if (auto committed = batch->commit(); !committed) return committed.error();
    out.outcome = decided->outcome;
    out.message = std::move(decided->answer.text);
    // Decided and committed: a failed read from here on only leaves the view out.
    if (Status r = desk_.site().refresh(store.db()); !r) return Status::success();
    auto row = RequestStore(store.db()).get(id);
    if (row && *row) {
      auto v = desk_.view(**row, desk_.now());
      if (v) out.request = std::move(*v);
    }
    return Status::success();
  });
  if (!s) {
    desk_.site().invalidate();
    return s.error();
  }
  return out;
}

}  // namespace atoms::requests
