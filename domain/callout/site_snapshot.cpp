#include "domain/callout/site_snapshot.h"

#include <utility>

#include "domain/site/site_repository.h"

namespace atoms::callout {

Result<std::unique_ptr<SiteSnapshot>> SiteSnapshot::build(site::SiteModel model,
                                                          labor::RuleBook rules,
                                                          labor::LaborOptions options) {
  std::unique_ptr<SiteSnapshot> snapshot(
      new SiteSnapshot(std::move(model), std::move(rules), options));
  if (Status built = snapshot->rebuild(); !built) return built.error();
  return snapshot;
}

Status SiteSnapshot::rebuild() {
  changes_.reset();
  labor_.reset();
  auto ctx = labor::LaborContext::build(model_, rules_, options_);
  if (!ctx) return ctx.error();
  labor_.emplace(std::move(*ctx));
  auto changes = labor::ChangeEvaluator::build(*labor_);
  if (!changes) return changes.error();
  changes_.emplace(std::move(*changes));
  return Status::success();
}

Status SiteSnapshot::assign(Database& db, std::string_view shiftId, std::string_view personId) {
  if (labor_->index().shift(shiftId) == nullptr) {
    return makeError("unknown shift '" + std::string(shiftId) + "'");
  }
  auto update = db.cached("UPDATE site_shift SET assignee_id = ? WHERE id = ?");
  if (!update) return update.error();
  update->bind(1, personId).bind(2, shiftId);
  if (Status done = update->run(); !done) return done;
  return assignInMemory(shiftId, personId);
}

Status SiteSnapshot::assignInMemory(std::string_view shiftId, std::string_view personId) {
  if (labor_->index().person(personId) == nullptr) {
    return makeError("unknown person '" + std::string(personId) + "'");
  }
  for (site::Shift& shift : model_.shifts) {
    if (shift.id == shiftId) {
      shift.assignee = std::string(personId);
      return rebuild();
    }
  }
  return makeError("unknown shift '" + std::string(shiftId) + "'");
}

Status SiteSnapshot::replace(Database& db, site::SiteModel next) {
  if (Status written = site::writeSiteRows(db, next); !written) return written;
  model_ = std::move(next);
  if (Status built = rebuild(); !built) {
    stale_ = true;
    return built;
  }
  return Status::success();
}

Status SiteSnapshot::refresh(Database& db) {
  if (!stale_) return Status::success();
  auto model = site::loadSite(db);
  if (!model) return model.error();
  model_ = std::move(*model);
  if (Status s = rebuild(); !s) return s;
  stale_ = false;
  return Status::success();
}

}  // namespace atoms::callout
