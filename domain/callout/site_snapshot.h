// SiteSnapshot: the site as the call-out flow reads it: the model (people, shifts, punches), the
// labor rules that cover it, and the labor engine's contexts built over both (domain/labor/). A
// call-out changes the model by the assignee of a shift; assign() does that in memory and in the
// store's site_shift row, and rebuilds the contexts. A manager's same-day change (replace()) adds
// or shortens a shift.
//
// Contract: built once when the service starts (and again after a site import). Not movable
// (the contexts point into the model and the rules). Not synchronised: the engine thread owns it.
// Errors: one line (unknown time zone, a shift or person that does not exist, a store error).
#pragma once

#include <memory>
#include <optional>
#include <string_view>

#include "base/result.h"
#include "domain/labor/labor_engine.h"
#include "domain/labor/rule_table.h"
#include "domain/labor/schedule_change.h"
#include "domain/site/site_model.h"
#include "store/database.h"

namespace atoms::callout {

class SiteSnapshot {
 public:
  static Result<std::unique_ptr<SiteSnapshot>> build(site::SiteModel model, labor::RuleBook rules,
                                                     labor::LaborOptions options = {});
  SiteSnapshot(const SiteSnapshot&) = delete;
  SiteSnapshot& operator=(const SiteSnapshot&) = delete;

  const site::SiteModel& model() const { return model_; }
  const site::SiteIndex& index() const { return labor_->index(); }
  const labor::LaborContext& labor() const { return *labor_; }
  const labor::ChangeEvaluator& changes() const { return *changes_; }
  const site::TimeZone& zone() const { return labor_->zone(); }

  // `personId` works `shiftId` from now on: site_shift.assignee_id in the caller's transaction on
  // `db`, then the model and the contexts. On a store error nothing changes in memory.
  Status assign(Database& db, std::string_view shiftId, std::string_view personId);
  // The same in memory only (the demo's and the tests' site before anything is stored).
  Status assignInMemory(std::string_view shiftId, std::string_view personId);

  // The site's shifts changed on the floor (an extra shift, an early finish: extra_shift.h,
  // early_finish.h): `next` replaces the stored site rows in the caller's transaction on `db`,
  // then the model and the contexts. On an error the snapshot is marked stale (refresh()).
  Status replace(Database& db, site::SiteModel next);

  // After a transaction that assigned a shift was rolled back, memory is ahead of the store:
  // invalidate() marks it so, and refresh() (at the start of the next transaction) reads the
  // model back from `db`. refresh() does nothing while the snapshot is valid.
  void invalidate() { stale_ = true; }
  Status refresh(Database& db);

 private:
  SiteSnapshot(site::SiteModel model, labor::RuleBook rules, labor::LaborOptions options)
      : model_(std::move(model)), rules_(std::move(rules)), options_(options) {}
  Status rebuild();

  site::SiteModel model_;
  labor::RuleBook rules_;
  labor::LaborOptions options_;
  std::optional<labor::LaborContext> labor_;
  std::optional<labor::ChangeEvaluator> changes_;
  bool stale_ = false;
};

}  // namespace atoms::callout
