// The site model in the encrypted store (tables of migration 3 "site", of migration 5
// "site_station_tags": station tags and hire dates, and of migration 21 "site_school_hours": the
// school calendar's hours; store/migrations.cpp).
//
// Contract:
// - The store holds at most one site model. importSite() replaces all of it: the old rows go and
//   the new ones come in one transaction, so a reader sees the old model or the new one, never a
//   mix, and a failure (bad model, SQL error, crash) leaves the previous model intact.
// - The model is validated (site_file.h rules) before anything is written.
// - Threading: uses the caller's Database (single writer, see store/database.h).
// - Errors are values, one line each.
#pragma once

#include <string>
#include <string_view>

#include "base/result.h"
#include "domain/site/site_model.h"
#include "store/database.h"

namespace atoms {
class RowReader;
}

namespace atoms::site {

// Validates the model, then replaces the stored site in ONE transaction of its own. Fails if the
// caller already has a transaction open on db (SQLite transactions do not nest); use
// writeSiteRows() inside an AuditLog batch instead.
Status importSite(Database& db, const SiteModel& model);

// Validates the model and replaces the stored site rows WITHOUT opening a transaction: the caller
// holds one (a Transaction or an AuditLog::Batch) and commits or drops it. On error the caller
// must not commit.
Status writeSiteRows(Database& db, const SiteModel& model);

// Reads the stored site back (equal to what was imported). Error "no site has been imported
// (atoms-edge site import FILE)" when the store holds none.
Result<SiteModel> loadSite(Database& db);

// Where one person stands on the stored site, without loading the model (two point queries):
// whether `id` is a person of the site, whether anyone has them as manager of record, and (on the
// site) their phone and their own manager of record.
struct PersonStanding {
  bool onSite = false;
  bool managerOfRecord = false;
  std::string phone;
  std::string managerId;  // empty: none
};
Result<PersonStanding> personStanding(Database& db, std::string_view id);

// The columns of a stored shift, as readShift reads them: for queries of site_shift elsewhere.
inline constexpr std::string_view kShiftColumns =
    "id, station_id, start_utc, start_local, end_utc, end_local, certification_id, assignee_id";
// One row of site_shift selected with kShiftColumns (store/row_reader.h).
Shift readShift(RowReader& r);

}  // namespace atoms::site
