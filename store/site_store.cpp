#include "store/site_store.h"

#include "store/checkpoint.h"

namespace atoms {

std::string highWaterPath(const std::string& dir) { return dir + "/audit.highwater"; }

Result<SigningKey> siteSigningKey(const SiteIdentity& identity) {
  return SigningKey::fromSecret(originForSite(identity.siteId), identity.signingSecret.clone());
}

Result<std::unique_ptr<SiteStore>> SiteStore::open(const std::string& dir, FileSystem& fs) {
  return open(StateDirPaths::under(dir), fs);
}

Result<std::unique_ptr<SiteStore>> SiteStore::open(const StateDirPaths& paths, FileSystem& fs) {
  auto state = openStateDir(paths, OpenMode::ReadWrite, fs);
  if (!state) return state.error();
  std::unique_ptr<SiteStore> store(new SiteStore(std::move(*state)));
  auto key = siteSigningKey(store->identity());
  if (!key) return key.error();
  auto log = AuditLog::open(store->db(), std::move(*key), store->identity().siteId,
                            highWaterPath(paths.dir), fs);
  if (!log) return log.error();
  store->log_.emplace(std::move(*log));
  return store;
}

}  // namespace atoms
