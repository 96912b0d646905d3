#include "domain/callout/approval_book.h"

#include <utility>

#include "store/audit_entry.h"

namespace atoms::callout {

namespace {

std::string personName(const site::SiteIndex& index, std::string_view id) {
  const site::Person* p = index.person(id);
  return p == nullptr ? std::string() : p->name;
}

// The body of the receipt `approval-<id>-request` at `seq`; null when the entry is something else
// (it never is, unless the row was edited by hand).
Result<json::Value> requestReceipt(SiteStore& store, const ApprovalRow& a) {
  if (!a.receiptSeq) return json::Value();
  auto text = store.log().entryText(*a.receiptSeq);
  if (!text) return text.error();
  auto entry = parseEntry(*text);
  if (!entry) return entry.error();
  if (entry->kind != "receipt" || !entry->body.isObject()) return json::Value();
  const json::Object& body = entry->body.asObject();
  auto id = body.find("id");
  if (id == body.end() || !id->second.isString() ||
      id->second.asString() != "approval-" + std::to_string(a.id) + "-request") {
    return json::Value();
  }
  return std::move(entry->body);
}

}  // namespace

CalloutApprovals::CalloutApprovals(CalloutDesk& desk, SiteSnapshot& site, atoms::StoreRunner& store,
                                   std::function<void()> onDecided)
    : desk_(desk), site_(site), store_(store), onDecided_(std::move(onDecided)) {}

Result<ApprovalView> CalloutApprovals::view(SiteStore& store, CalloutStore& rows,
                                            ApprovalRow row) const {
  ApprovalView v;
  const site::SiteIndex& index = site_.index();
  v.subjectName = personName(index, row.subjectId);
  v.approverName = personName(index, row.approverId);
  v.timeZone = site_.zone().name();
  auto callout = rows.callout(row.calloutId);
  if (!callout) return callout.error();
  if (*callout) {
    const CalloutRow& c = **callout;
    v.shiftId = c.shiftId;
    v.stationId = c.stationId;
    const site::Station* station = index.station(c.stationId);
    v.stationName = station != nullptr ? station->name : c.stationId;
    v.shiftStart = c.shiftStart;
    v.shiftEnd = c.shiftEnd;
    v.shiftStartLocal = site_.zone().toLocal(site::toInstant(c.shiftStart));
    v.shiftEndLocal = site_.zone().toLocal(site::toInstant(c.shiftEnd));
  }
  auto receipt = requestReceipt(store, row);
  if (!receipt) return receipt.error();
  v.receipt = std::move(*receipt);
  v.row = std::move(row);
  return v;
}

Result<bool> CalloutApprovals::knowsPerson(std::string_view personId) {
  bool known = false;
  Status s = store_.run([&](SiteStore& store) -> Status {
    if (Status r = site_.refresh(store.db()); !r) return r;
    known = site_.index().person(personId) != nullptr;
    return Status::success();
  });
  if (!s) return s.error();
  return known;
}

Result<std::vector<ApprovalView>> CalloutApprovals::list(ApprovalFilter filter) {
  std::vector<ApprovalView> out;
  Status s = store_.run([&](SiteStore& store) -> Status {
    if (Status r = site_.refresh(store.db()); !r) return r;
    CalloutStore rows(store.db());
    auto found = filter == ApprovalFilter::kPending
                     ? rows.pendingApprovals()
                     : rows.recentApprovals(desk_.now() - kRecentApprovals, kMaxListedApprovals);
    if (!found) return found.error();
    for (ApprovalRow& row : *found) {
      if (out.size() >= kMaxListedApprovals) break;
      auto v = view(store, rows, std::move(row));
      if (!v) return v.error();
      out.push_back(std::move(*v));
    }
    return Status::success();
  });
  if (!s) return s.error();
  return out;
}

Result<std::optional<ApprovalView>> CalloutApprovals::get(std::int64_t id) {
  std::optional<ApprovalView> out;
  Status s = store_.run([&](SiteStore& store) -> Status {
    if (Status r = site_.refresh(store.db()); !r) return r;
    CalloutStore rows(store.db());
    auto found = rows.approval(id);
    if (!found) return found.error();
    if (!*found) return Status::success();
    auto v = view(store, rows, std::move(**found));
    if (!v) return v.error();
    out = std::move(*v);
    return Status::success();
  });
  if (!s) return s.error();
  return out;
}

Result<ApprovalDecision> CalloutApprovals::decide(std::string_view personId, std::int64_t id,
                                                  const ApprovalAnswer& answer) {
  ApprovalDecision out;
  Status s = store_.run([&](SiteStore& store) -> Status {
    if (Status r = site_.refresh(store.db()); !r) return r;
    auto batch = store.log().begin();
    if (!batch) return batch.error();
    DeskTurn turn{store, *batch, desk_.now(), std::nullopt};
    auto decided = desk_.decideAs(turn, Decider{std::string(personId), "", "api"}, id, answer);
    if (!decided) return decided.error();
    if (auto committed = batch->commit(); !committed) return committed.error();
    out.outcome = decided->outcome;
    out.message = std::move(decided->answer.text);
    // Decided and committed: a failed read from here on only leaves the view out.
    CalloutStore rows(store.db());
    auto found = rows.approval(id);
    if (found && *found) {
      auto v = view(store, rows, std::move(**found));
      if (v) out.approval = std::move(*v);
    }
    return Status::success();
  });
  if (!s) {
    site_.invalidate();  // a rolled-back decision may have given a shift away in memory
    return s.error();
  }
  if (onDecided_) onDecided_();
  return out;
}

}  // namespace atoms::callout
