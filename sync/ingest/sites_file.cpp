#include "sync/ingest/sites_file.h"

#include <algorithm>
#include <fstream>
#include <set>
#include <sstream>

#include "base/canonical_json.h"
#include "store/checkpoint.h"
#include "store/state_dir.h"

namespace atoms::sync::ingest {
namespace {

// A sites file is a list of keys, not a data set: anything bigger is a mistake.
constexpr std::size_t kMaxSitesFileBytes = 16 * 1024 * 1024;

Result<std::array<std::uint8_t, 32>> parsePublicKey(std::string_view site, std::string_view text) {
  std::array<std::uint8_t, 32> pk{};
  if (text.size() == 64) {
    auto raw = fromHex(text);
    if (raw && raw->size() == pk.size()) {
      std::copy(raw->begin(), raw->end(), pk.begin());
      return pk;
    }
  }
  auto vkey = VerifierKey::parse(text);
  if (!vkey) {
    return makeError("must be 64 hex digits or a verifier key (" + vkey.message() + ")");
  }
  if (vkey->name() != originForSite(site)) {
    return makeError("is a verifier key named \"" + vkey->name() + "\", expected \"" +
                     originForSite(site) + "\"");
  }
  return vkey->publicKey();
}

}  // namespace

VerifierKey SiteKey::verifier() const {
  return VerifierKey::fromPublicKey(originForSite(site), publicKey);
}

Result<std::vector<SiteKey>> parseSitesFile(std::string_view text) {
  auto parsed = json::parse(text);
  if (!parsed) return makeError("sites file: " + parsed.message());
  if (!parsed->isArray()) return makeError("sites file: not a JSON array of {site, publicKey}");
  std::vector<SiteKey> out;
  std::set<std::string> seen;
  std::size_t n = 0;
  for (const json::Value& record : parsed->asArray()) {
    ++n;
    std::string where = "sites file: record " + std::to_string(n);
    if (!record.isObject()) return makeError(where + ": not an object");
    const json::Object& o = record.asObject();
    for (const auto& [key, value] : o) {
      if (key != "site" && key != "publicKey") {
        return makeError(where + ": unexpected field \"" + key + "\"");
      }
    }
    const json::Value* site = record.find("site");
    if (site == nullptr || !site->isString()) {
      return makeError(where + ": field \"site\" must be a string");
    }
    where += " (\"" + site->asString() + "\")";
    if (Status s = validateSiteId(site->asString()); !s) {
      return makeError(where + ": field \"site\": " + s.message());
    }
    if (!seen.insert(site->asString()).second) return makeError(where + ": site listed twice");
    const json::Value* key = record.find("publicKey");
    if (key == nullptr || !key->isString()) {
      return makeError(where + ": field \"publicKey\" must be a string");
    }
    auto pk = parsePublicKey(site->asString(), key->asString());
    if (!pk) return makeError(where + ": field \"publicKey\" " + pk.message());
    out.push_back(SiteKey{site->asString(), *pk});
  }
  return out;
}

Result<std::vector<SiteKey>> readSitesFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return makeError("cannot read the sites file " + path);
  std::ostringstream s;
  s << in.rdbuf();
  if (s.str().size() > kMaxSitesFileBytes) {
    return makeError("the sites file " + path + " is larger than 16 MiB");
  }
  auto sites = parseSitesFile(s.str());
  if (!sites) return makeError(path + ": " + sites.message());
  return sites;
}

}  // namespace atoms::sync::ingest
