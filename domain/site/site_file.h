// The site file: a JSON document describing one site (docs/site-file.md, field by field). It seeds
// the store (`atoms-edge site import`) and is what `atoms-edge site export` writes.
//
// Contract: pure functions, thread-safe, no I/O. parseSiteFile() never throws; it validates the
// whole document and returns the FIRST problem as one line naming the record, e.g.
// "people[3] (id p-ana): phone '555-1234' is not E.164". A model it returns is consistent: ids are
// unique per kind, every reference resolves, shifts end after they start and last at most 24 h,
// local times exist and are unambiguous in the site's zone (or carry an explicit offset that the
// zone uses at that wall time). Expired certifications and labor-rule problems are not errors here
// (the labor engine reports them). Jurisdiction codes are kept as strings; the labor rule loader
// validates them.
#pragma once

#include <string>
#include <string_view>

#include "base/result.h"
#include "domain/site/site_model.h"

namespace atoms::site {

// The only "version" this build reads and writes.
inline constexpr int kSiteFileVersion = 1;

// Longest shift accepted (a longer one is almost always a typo in a date).
inline constexpr Seconds kMaxShiftLength{24 * 3600};

Result<SiteModel> parseSiteFile(std::string_view text);

// An id of the site file (people, stations, shifts...): 1..64 of [A-Za-z0-9._-].
bool isValidId(std::string_view s);

// The site file of a model (indented JSON, keys sorted, one trailing newline). Shift and time-off
// bounds are written as their local time with an explicit offset, other instants in UTC ("Z"), so
// parseSiteFile(writeSiteFile(m)) == m for any model parseSiteFile() returned.
std::string writeSiteFile(const SiteModel& model);

// A shift or time-off bound as the site file writes it: the wall-clock time with the offset it
// had, "2026-03-09T10:00:00-07:00".
std::string formatStamp(const Stamp& stamp);
// An instant as the site file reads one (publishedAt, punch `at`): with "Z" or an offset, or a
// wall-clock time in `zone`. Errors: not of the form YYYY-MM-DDTHH:MM[:SS][Z|+HH:MM]; a
// wall-clock time that does not exist or is ambiguous there (TimeZone::toUtc's message).
Result<Instant> parseInstant(std::string_view text, const TimeZone& zone);
// Any other instant as the site file writes it: UTC, "2026-02-24T01:00:00Z".
std::string formatInstant(Instant instant);

// Validates a model built elsewhere (e.g. read from the store) by the same rules, through
// writeSiteFile/parseSiteFile.
Status validateSiteModel(const SiteModel& model);

}  // namespace atoms::site
