// The site's people and the site itself as the JSON API names them (docs/api.md): a person as
// {"id","name"}, the site as {"id","name","timeZone","stations":[{"id","name"}]}. Shared by the
// resources and the panel's sign-in answer.
#pragma once

#include <map>
#include <string>

#include "base/canonical_json.h"
#include "base/result.h"
#include "store/database.h"

namespace atoms::api {

// Person id -> name, for everyone of the site.
using PeopleNames = std::map<std::string, std::string>;
Result<PeopleNames> peopleNames(Database& db);

// {"id": id, "name": name}; null for an empty id. A person no longer on the site keeps the id
// with an empty name.
json::Value personRef(const PeopleNames& names, const std::string& id);

// {"id","name","timeZone","stations":[{"id","name"}, in the site file's order]} of the site; null
// before a site is imported.
Result<json::Value> siteJson(Database& db);

}  // namespace atoms::api
