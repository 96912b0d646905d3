#include "store/state_dir.h"

#include <sodium.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "base/bytes.h"
#include "base/file_io.h"
#include "store/key_file.h"
#include "store/migrations.h"

namespace atoms {
namespace {

constexpr std::size_t kMaxSiteIdLength = 64;
constexpr const char* kMetaSiteId = "site.id";
constexpr const char* kMetaPublicKey = "site.public_key";

// Remembers what initStateDir created so that a failure can undo exactly that.
class Undo {
 public:
  explicit Undo(FileSystem& fs) : fs_(fs) {}
  Undo(const Undo&) = delete;
  Undo& operator=(const Undo&) = delete;
  ~Undo() {
    if (done_) return;
    for (auto it = files_.rbegin(); it != files_.rend(); ++it) (void)fs_.remove(*it);
    for (auto it = dirs_.rbegin(); it != dirs_.rend(); ++it) (void)fs_.removeDirectory(*it);
  }
  void file(std::string path) { files_.push_back(std::move(path)); }
  void dir(std::string path) { dirs_.push_back(std::move(path)); }
  void dismiss() { done_ = true; }

 private:
  FileSystem& fs_;
  std::vector<std::string> files_, dirs_;
  bool done_ = false;
};

// mkdir -p with mode 0700 for every directory it creates.
Status makeDirectories(const std::string& dir, Undo& undo, FileSystem& fs) {
  std::string trimmed = dir;
  while (trimmed.size() > 1 && trimmed.back() == '/') trimmed.pop_back();
  std::vector<std::string> missing;
  for (std::string p = trimmed; !p.empty() && p != "/" && p != "."; p = directoryOf(p)) {
    auto st = fs.stat(p);
    if (st) {
      if (st->type != FileType::kDirectory) return makeError(p + " exists and is not a directory");
      break;
    }
    if (st.kind() != ErrorKind::kNotFound) {
      return makeError("cannot access " + p + ": " + st.message());
    }
    missing.push_back(p);
  }
  for (auto it = missing.rbegin(); it != missing.rend(); ++it) {
    if (Status s = fs.makeDirectory(*it, 0700); !s) {
      return makeError("cannot create directory " + *it + ": " + s.message());
    }
    undo.dir(*it);
  }
  // Make the new directory entries durable: each one's name lives in its parent, so every parent
  // of a new directory is synced, from the top (the new directory itself is synced by the key
  // files written into it).
  for (auto it = missing.rbegin(); it != missing.rend(); ++it) {
    if (auto s = fsyncDirectory(directoryOf(*it), fs); !s) return s;
  }
  return Status::success();
}

Result<std::string> readMeta(Database& db, const char* key) {
  auto stmt = db.prepare("SELECT value FROM meta WHERE key = ?");
  if (!stmt) return stmt.error();
  stmt->bind(1, std::string_view(key));
  auto row = stmt->step();
  if (!row) return row.error();
  if (!*row) {
    return makeError("database " + db.path() + " has no site identity (meta " + key +
                     " is missing)");
  }
  return stmt->columnText(0);
}

std::array<std::uint8_t, 32> publicHalf(const SecretBytes& sk) {
  std::array<std::uint8_t, 32> pk{};
  std::memcpy(pk.data(), sk.data() + crypto_sign_SEEDBYTES, pk.size());
  return pk;
}

}  // namespace

StateDirPaths StateDirPaths::under(const std::string& dir) {
  std::string base = dir;
  while (base.size() > 1 && base.back() == '/') base.pop_back();
  return StateDirPaths{dir, base + "/db.key", base + "/site.key", base + "/atoms.db"};
}

StateDirPaths resolveStatePaths(const std::string& dir,
                                const std::optional<std::string>& credentialsDir) {
  StateDirPaths paths = StateDirPaths::under(dir);
  if (!credentialsDir || credentialsDir->empty()) return paths;
  std::string base = *credentialsDir;
  while (base.size() > 1 && base.back() == '/') base.pop_back();
  for (auto [name, slot] :
       {std::pair{"db.key", &paths.dbKey}, std::pair{"site.key", &paths.siteKey}}) {
    const std::string candidate = base + "/" + name;
    if (posixFileSystem().exists(candidate)) *slot = candidate;
  }
  return paths;
}

StateDirPaths resolveStatePaths(const std::string& dir) {
  const char* fromEnv = std::getenv(kCredentialsDirectoryEnv);
  return resolveStatePaths(dir, fromEnv ? std::optional<std::string>(fromEnv) : std::nullopt);
}

Status validateSiteId(std::string_view siteId) {
  const std::string shown(siteId.substr(0, 80));
  if (siteId.empty()) return makeError("site id is empty");
  if (siteId.size() > kMaxSiteIdLength) {
    return makeError("site id '" + shown + "' is longer than " + std::to_string(kMaxSiteIdLength) +
                     " characters");
  }
  if (siteId.front() == '-') return makeError("site id '" + shown + "' starts with '-'");
  for (char c : siteId) {
    bool ok = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-';
    if (!ok) {
      return makeError("site id '" + shown +
                       "' may only contain lowercase letters a-z, digits and '-'");
    }
  }
  return Status::success();
}

Status initStateDir(const std::string& dir, const InitOptions& options, FileSystem& fs) {
  if (auto s = validateSiteId(options.siteId); !s) return s;
  if (dir.empty()) return makeError("state directory path is empty");
  if (!initSodium()) return makeError("cannot initialise libsodium");
  const StateDirPaths paths = StateDirPaths::under(dir);

  for (const std::string& p : {paths.dbKey, paths.siteKey, paths.database, paths.database + "-wal",
                               paths.database + "-shm"}) {
    if (fs.exists(p)) {
      return makeError(dir + " already holds a database; refusing to overwrite (" + p + " exists)");
    }
  }

  Undo undo(fs);
  if (auto s = makeDirectories(dir, undo, fs); !s) return s;

  SecretBytes dbKey(keyKindSize(KeyKind::Database));
  randombytes_buf(dbKey.data(), dbKey.size());
  SecretBytes siteKey(keyKindSize(KeyKind::SiteSigning));
  std::array<std::uint8_t, crypto_sign_PUBLICKEYBYTES> pk{};
  if (crypto_sign_keypair(pk.data(), siteKey.data()) != 0) {
    return makeError("cannot generate the site signing key");
  }

  // Each file is registered for undo only after this call created it (O_EXCL), so a file that
  // appeared meanwhile from elsewhere is never removed.
  if (auto s = writeKeyFile(paths.dbKey, KeyKind::Database, dbKey, fs); !s) return s;
  undo.file(paths.dbKey);
  if (auto s = writeKeyFile(paths.siteKey, KeyKind::SiteSigning, siteKey, fs); !s) return s;
  undo.file(paths.siteKey);

  {
    auto db = Database::open(paths.database, dbKey, OpenMode::Create);
    if (!db) return db.error();
    undo.file(paths.database);
    undo.file(paths.database + "-wal");
    undo.file(paths.database + "-shm");
    if (auto s = migrate(*db, storeMigrations()); !s) return s;
    auto tx = Transaction::begin(*db);
    if (!tx) return tx.error();
    auto insert = db->prepare("INSERT INTO meta(key, value) VALUES(?, ?), (?, ?)");
    if (!insert) return insert.error();
    insert->bind(1, std::string_view(kMetaSiteId))
        .bind(2, options.siteId)
        .bind(3, std::string_view(kMetaPublicKey))
        .bind(4, toHex(pk));
    if (auto r = insert->step(); !r) return r.error();
    if (auto s = tx->commit(); !s) return s;
  }  // closing the last connection checkpoints the WAL into atoms.db and removes -wal/-shm

  if (auto s = fsyncDirectory(dir, fs); !s) return s;
  undo.dismiss();
  return Status::success();
}

Result<OpenState> openStateDir(const std::string& dir, OpenMode mode, FileSystem& fs) {
  return openStateDir(StateDirPaths::under(dir), mode, fs);
}

Result<OpenState> openStateDir(const StateDirPaths& paths, OpenMode mode, FileSystem& fs) {
  if (mode == OpenMode::Create) {
    return makeError("openStateDir opens an existing state directory; use initStateDir to create");
  }
  const std::string& dir = paths.dir;
  auto st = fs.stat(dir);
  if (!st) {
    if (st.kind() == ErrorKind::kNotFound) {
      return makeError("state directory " + dir +
                       " does not exist; run `atoms-edge init --state-dir " + dir + "` first");
    }
    return makeError("cannot access state directory " + dir + ": " + st.message());
  }
  if (st->type != FileType::kDirectory) return makeError(dir + " is not a directory");
  if (!fs.exists(paths.database) && !fs.exists(paths.dbKey) && !fs.exists(paths.siteKey)) {
    // e.g. the empty directory systemd's StateDirectory= creates
    return makeError("state directory " + dir + " is not initialised; run `atoms-edge init " +
                     "--state-dir " + dir + "` first");
  }

  auto dbKey = readKeyFile(paths.dbKey, KeyKind::Database, fs);
  if (!dbKey) return dbKey.error();
  auto siteKey = readKeyFile(paths.siteKey, KeyKind::SiteSigning, fs);
  if (!siteKey) return siteKey.error();

  auto db = Database::open(paths.database, *dbKey, mode);
  if (!db) return db.error();

  if (mode == OpenMode::ReadWrite) {
    if (auto s = migrate(*db, storeMigrations()); !s) return s.error();
  } else {
    auto pending = pendingMigrations(*db, storeMigrations());
    if (!pending) return pending.error();
    if (!pending->empty()) {
      return makeError("database " + paths.database + " needs schema migration " +
                       std::to_string(pending->front()) +
                       "; start atoms-edge read-write once (`atoms-edge serve`) to apply it");
    }
  }

  auto siteId = readMeta(*db, kMetaSiteId);
  if (!siteId) return siteId.error();
  if (auto s = validateSiteId(*siteId); !s) {
    return makeError("database " + paths.database + " holds an invalid " + s.message());
  }
  auto storedPk = readMeta(*db, kMetaPublicKey);
  if (!storedPk) return storedPk.error();
  const auto pk = publicHalf(*siteKey);
  if (*storedPk != toHex(pk)) {
    return makeError("site.key (" + paths.siteKey + ") does not belong to this database (" +
                     paths.database + ")");
  }

  OpenState state{std::move(*db), SiteIdentity{std::move(*siteId), std::move(*siteKey), pk}};
  return state;
}

}  // namespace atoms
